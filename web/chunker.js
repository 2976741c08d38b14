// chunker in the browser: the original's API, with Python doing the work in a Web Worker.
//
//   import { loadChunker } from './chunker.js';
//   const api = await loadChunker({ onProgress: ({ stage, fraction, message }) => ... });
//   const chunks = await new api.SemanticChunker({ targetSize: 500 }).chunk(text);
//   text.slice(chunks[0].startOffset, chunks[0].endOffset);
//
// Every call answers a Promise of plain objects in the original's JSON shape. Offsets are
// JavaScript string indices (UTF-16), converted from Python's by chunkspan/bridge/utf16.py, or
// for the packed chunks here (`toUtf16`).
// Bad input rejects with a RangeError or TypeError carrying Python's message, and as
// `.field` the Python name of the argument it concerns ("chunk_overlap"); the worker
// lives on. Sizes count characters as Python does (code points): an emoji is one.

// Python's error names for bad input, already mapped to these by the bridge.
const INPUT_ERRORS = { RangeError, TypeError };

const decoder = new TextDecoder();

/** The error to throw for the bridge's `{name, message, field?}`; `.field` only when given. */
function inputError({ name, message, field }) {
  const error = new INPUT_ERRORS[name](message);
  if (typeof field === 'string') error.field = field;
  return error;
}

// The key under which LexicalIndex.fromJSON hands its constructor the index it restored.
const RESTORED = Symbol('restored');

/** A text that can join others: a string not ending in half a surrogate pair, which the
 * next text's first unit could complete. */
function joinable(text) {
  if (typeof text !== 'string') return false;
  const last = text.charCodeAt(text.length - 1);
  return !(last >= 0xd800 && last <= 0xdbff);
}

/**
 * Start Pyodide in a module worker, install chunker, and answer the API once it is ready.
 *
 * @param {object} [options]
 * @param {string|URL} [options.baseUrl] where the site's files are (default: beside this file)
 * @param {(progress: {stage: string, fraction?: number, message: string}) => void}
 *   [options.onProgress] called at each stage: 'runtime', 'python', 'packages', 'ready'
 * @param {number} [options.timeoutMs=60000] reject if not ready by then
 */
export async function loadChunker({ baseUrl, onProgress, timeoutMs = 60_000 } = {}) {
  const base = new URL(baseUrl ?? './', baseUrl === undefined ? import.meta.url : location.href);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const workerUrl = new URL('worker.js', base);
  const worker = new Worker(workerUrl, { type: 'module', name: 'chunker' });
  const calls = new Map(); // id -> {resolve, reject, embedFn, embedError, finish}
  let nextId = 1;
  let broken = null; // the error that ended the worker, once it has ended
  // The text the last call with a text sent. A call on the same text again (the playground
  // re-chunks its document at each change of a setting) sends none: the worker keeps the
  // last one it received, and messages arrive in the order they were sent. Sending 1 MB and
  // decoding it in Python costs some 6 ms; comparing it with the last one, nothing when it
  // is the same string and about 0.1 ms when it is an equal copy.
  let lastText;

  const report = (progress) => {
    if (!onProgress) return;
    try {
      onProgress(progress);
    } catch (error) {
      // The page's callback must not break loading; its error still reaches the console.
      queueMicrotask(() => {
        throw error;
      });
    }
  };

  const fail = (error) => {
    broken = error;
    worker.terminate();
    for (const call of calls.values()) call.reject(error);
    calls.clear();
  };

  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const error = new Error(
        `chunker: not ready after ${timeoutMs} ms (loading ${workerUrl}); check that the ` +
          `server sends .wasm as application/wasm, .js/.mjs as text/javascript, and a CSP ` +
          `allowing 'wasm-unsafe-eval'`,
      );
      fail(error);
      reject(error);
    }, timeoutMs);
    worker.onerror = async (event) => {
      // The timer still runs: a server that never answers is then a timeout, as before.
      const reason = event.message || (await whyNotLoaded(workerUrl));
      if (broken) return; // the timer fired meanwhile
      const error = new Error(`chunker: the worker ${workerUrl} failed: ${reason}`);
      clearTimeout(timer);
      fail(error);
      reject(error);
    };
    worker.onmessage = ({ data }) => {
      if (data.type === 'progress') {
        report({ stage: data.stage, fraction: data.fraction, message: data.message });
      } else if (data.type === 'ready') {
        clearTimeout(timer);
        report({ stage: 'ready', fraction: 1, message: `Ready in ${data.bootMs} ms` });
        resolve(data);
      } else if (data.type === 'failed') {
        clearTimeout(timer);
        const error = new Error(`chunker: Python failed to start: ${data.message}`);
        fail(error);
        reject(error);
      } else if (data.type === 'reply') {
        settle(data);
      } else if (data.type === 'embed') {
        embed(data);
      }
    };
  });

  function settle({ id, reply, error }) {
    const call = calls.get(id);
    calls.delete(id);
    if (error) {
      // The worker may not hold the text this call sent (it failed on its way into
      // Python): the next call sends its text again rather than trust the worker's copy.
      lastText = undefined;
      // An embedFn that threw is the call's own error; otherwise a bug, named as found.
      call.reject(call.embedError ?? Object.assign(new Error(error.message), { name: error.name }));
      return;
    }
    try {
      const { ints, ascii, json } = readReply(reply);
      const { result, error: bad } = json;
      if (bad) call.reject(inputError(bad));
      else call.resolve(call.finish ? call.finish(result, ints, ascii) : result);
    } catch (failure) {
      call.reject(failure); // a reply this page cannot read must not leave the call pending
    }
  }

  async function embed({ id, call: callId, sentences }) {
    const call = calls.get(callId);
    try {
      const answer = await call.embedFn(JSON.parse(sentences));
      // undefined is no JSON; as null it reaches Python, which says what it wanted.
      const vectors = toJson(answer === undefined ? null : answer);
      worker.postMessage({ type: 'embedded', id, vectors });
    } catch (error) {
      call.embedError = error;
      worker.postMessage({ type: 'embedded', id, error: String(error?.message ?? error) });
    }
  }

  // One call of the bridge: `args` holds the arguments under the original's names. The
  // argument `textKey`, when a string, travels apart, for the worker to write into Python as
  // UTF-16 code units: JSON would escape it, and Pyodide converts bytes far faster than
  // strings. `finish`, when given, makes the answer from the result and the reply's ints
  // and ASCII text.
  function call(operation, args, { textKey, embedFn, finish } = {}) {
    if (broken) return Promise.reject(broken);
    let request;
    let text;
    try {
      if (textKey && typeof args[textKey] === 'string') {
        text = args[textKey];
        request = toJson({ ...args, [textKey]: undefined });
      } else {
        textKey = undefined;
        request = toJson(args);
      }
    } catch (error) {
      return Promise.reject(error); // a BigInt or a cycle: JSON's own TypeError
    }
    const id = nextId++;
    const message = { type: 'call', id, operation, request, textKey, embed: !!embedFn };
    if (text !== undefined && text === lastText) message.sameText = true;
    else if (text !== undefined) message.text = lastText = text;
    return new Promise((resolve, reject) => {
      calls.set(id, { resolve, reject, embedFn, finish });
      worker.postMessage(message);
    });
  }

  const { versions, bootMs } = await ready;
  worker.onerror = (event) => fail(new Error(`chunker: the worker stopped: ${event.message}`));

  class SemanticChunker {
    #config;

    /**
     * @param {object} [config] targetSize, maxSize, minSize, overlap, preserveCodeBlocks,
     *   respectHeadings
     */
    constructor(config) {
      // Read once, as the original does; a non-object goes on to be refused by name.
      this.#config = config !== null && typeof config === 'object' ? { ...config } : config;
    }

    /**
     * Cut `text`; answers `[{text, index, startOffset, endOffset, boundaryType, metadata?}]`,
     * and with the option `spans: true` also `span: {start, end}` and `overlapSpan`.
     */
    chunk(text, metadata) {
      // Python checks that metadata is a mapping; the chunks get the caller's own object (here,
      // in unpackChunks), so an object goes across as {}: its contents may be anything the
      // original takes (a cycle, a BigInt), which JSON could not carry.
      const isObject = typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata);
      const args = { config: this.#config, text, metadata: isObject ? {} : metadata };
      const spans = this.#config?.spans === true; // Python refuses any other value but false
      const finish = (packed, ints, ascii) =>
        unpackChunks(text, packed, ints, ascii, metadata, spans);
      return call('SemanticChunker.chunk', args, { textKey: 'text', finish });
    }
  }

  class ChunkingEngine {
    /**
     * Cut `content`; options: strategy, chunkSize, chunkOverlap, embedFn (may be async), and
     * spans (true adds `span: {start, end}` to each chunk).
     */
    chunk(content, options) {
      const spans = options?.spans === true;
      const finish = (packed, ints, ascii) =>
        unpackDocumentChunks(content, packed, ints, ascii, spans);
      if (typeof options?.embedFn === 'function') {
        const { embedFn, ...rest } = options;
        const args = { content, options: rest };
        return call('ChunkingEngine.chunk', args, { textKey: 'content', embedFn, finish });
      }
      return call('ChunkingEngine.chunk', { content, options }, { textKey: 'content', finish });
    }
  }

  // An index lives in the worker, in Python, under an id this object holds: its documents
  // never cross back. Many may live at once; dispose() frees one. The page names each index
  // (ids count up), so that a call need not wait for the index to be made: the worker takes
  // messages in order, and makes it first. Bad options reject every call (a constructor
  // cannot wait), with the reason the index was not made.
  let lastIndex = 0;

  class LexicalIndex {
    #index = ++lastIndex;
    #made;
    #disposed = null; // dispose()'s promise, once called

    /** @param {{k1?: number, b?: number}} [options] BM25's k1 (1.2) and b (0.75) */
    constructor(options, restored) {
      const index = this.#index;
      this.#made = restored
        ? call('LexicalIndex.fromJSON', { index, data: restored[RESTORED] })
        : call('LexicalIndex.create', { index, options });
      this.#made.catch(() => {}); // reported by each call instead, not as unhandled
    }

    /** An index answering as the one whose toJSON() gave `json`. */
    static fromJSON(json) {
      const index = new LexicalIndex(undefined, { [RESTORED]: json });
      return index.#made.then(() => index);
    }

    /** Index `docs`, each `{id, text, metadata?}`; a document added again is replaced. */
    addDocuments(docs) {
      const texts = Array.isArray(docs) ? docs.map((doc) => doc?.text) : [];
      if (!texts.length || !texts.every(joinable)) return this.#call('addDocuments', { docs });
      // The texts cross joined, as one text's UTF-16 units, with their lengths: far
      // cheaper than as strings inside JSON.
      const args = {
        docs: docs.map(({ id, metadata }) => ({ id, metadata })),
        lengths: texts.map((text) => text.length),
        text: texts.join(''),
      };
      return this.#call('addDocuments', args, 'text');
    }

    addDocument(id, text, metadata) {
      return this.#call('addDocument', { id, text, metadata }, 'text');
    }

    /** Answers whether there was a document `id`. */
    removeDocument(id) {
      return this.#call('removeDocument', { id });
    }

    /**
     * The best `topK` (10) documents for the words of `query`: `[{id, score, metadata?}]`;
     * with `snippet` (true, or snippetAround's `{before, after}`) each hit also has
     * `snippet: {at, text, spans}`, its snippet and the matchSpans of the query's words in it.
     * @param {{match?: 'any'|'all', prefix?: boolean,
     *   snippet?: boolean|{before?: number, after?: number}}} [options]
     */
    search(query, topK, options) {
      return this.#call('search', { query, topK, options });
    }

    /** `{documentCount, termCount, avgDocLength}`. */
    stats() {
      return this.#call('stats', {});
    }

    /** The index as plain JSON data (a Promise of it), for LexicalIndex.fromJSON. */
    toJSON() {
      return this.#call('toJSON', {});
    }

    /** Free the index in the worker; later calls on it reject. */
    dispose() {
      // An index never made is not there to free: the worker answers false.
      this.#disposed ??= call('LexicalIndex.dispose', { index: this.#index });
      return this.#disposed;
    }

    async #call(method, args, textKey) {
      if (this.#disposed) throw new Error(`LexicalIndex.${method}: this index was disposed`);
      const answer = call(`LexicalIndex.${method}`, { index: this.#index, ...args }, { textKey });
      // Not made: the reason, rather than the worker's "no such index".
      await this.#made.catch((error) => {
        answer.catch(() => {});
        throw error;
      });
      return answer;
    }
  }

  return Object.freeze({
    SemanticChunker,
    ChunkingEngine,
    LexicalIndex,
    /**
     * Passages: `[{text, index, firstSeq, lastSeq, itemIds, startMs, endMs, turns}]`; options:
     * maxChars, overlapTurns, and spans (true adds `repeatedTurns` to each passage).
     */
    chunkTurns: (turns, options) => call('chunkTurns', { turns, options }),
    /** The words of `text`, NFC and lower case. */
    lexicalTokens: (text) => call('lexicalTokens', { text }, { textKey: 'text' }),
    /** `{at, text}`: where the first word starting with one of `words` is, and its context. */
    snippetAround: (text, words, options) =>
      call('snippetAround', { text, words, options }, { textKey: 'text' }),
    /** `[{start, end}]`: where each word of `text` beginning with one of `words` lies. */
    matchSpans: (text, words) => call('matchSpans', { text, words }, { textKey: 'text' }),
    /**
     * `[{start, end} | null]`: where each chunk content sits in `text`, in order, found by
     * search: for chunks from elsewhere (this API's chunks carry their spans: `spans: true`).
     */
    locateChunks: (text, contents) =>
      call('locateChunks', { text, contents }, { textKey: 'text' }),
    /** `{chunker, pyodide, python}` version strings. */
    versions,
    /** Milliseconds the worker took from its start to ready. */
    bootMs,
    /** Stop the worker; later calls reject. */
    close: () => fail(new Error('chunker: closed')),
  });
}

// A JavaScript MIME type, which a browser requires of a module script: "text/javascript".
const JAVASCRIPT_TYPE_RE = /^(?:text|application)\/(?:x-)?(?:javascript|ecmascript)$/;
// A static import of the worker's, as worker.js writes them or a dev server rewrites them:
// `import { loadPyodide } from './pyodide/pyodide.mjs';` gives `./pyodide/pyodide.mjs`.
const STATIC_IMPORT_RE = /^import\s[^'"]*['"]([./][^'"]*)['"]/gm;

/**
 * Why the module worker at `url` did not load, as its server tells it: the status and type
 * answered for the worker's script ("HTTP 404 (text/html)"), or for the first of its
 * imports that a browser would not run as a module ("…/pyodide.mjs answered HTTP 500
 * (text/html)"). The worker's error event says nothing (the browser tells the console
 * alone), so the scripts are asked for again.
 *
 * @param {URL} url the worker's script
 * @returns {Promise<string>}
 */
async function whyNotLoaded(url) {
  try {
    const response = await fetch(url);
    const answer = scriptAnswer(response);
    if (answer) {
      response.body?.cancel();
      return answer;
    }
    for (const [, specifier] of (await response.text()).matchAll(STATIC_IMPORT_RE)) {
      const imported = new URL(specifier, url);
      const importResponse = await fetch(imported);
      importResponse.body?.cancel(); // only its status and type are wanted
      const importAnswer = scriptAnswer(importResponse);
      if (importAnswer) return `${imported} answered ${importAnswer}`;
    }
    return 'its scripts load as modules; the browser console says why';
  } catch (error) {
    return `fetching it again to see why failed too (${error.message})`;
  }
}

/** '' for a response a browser runs as a module script, else its status and type. */
function scriptAnswer(response) {
  const type = response.headers.get('content-type')?.split(';')[0].trim().toLowerCase();
  if (response.ok && JAVASCRIPT_TYPE_RE.test(type)) return '';
  return `HTTP ${response.status} (${type || 'no content type'})`;
}

/**
 * What `chunkspan.bridge.handle` answers, laid out as the table in chunkspan/bridge/protocol.py
 * says: counts n and m, n ints, m characters of text, then JSON. The ints are read where they
 * lie, not copied; the text and the JSON are decoded in one call, and the text is the decoded
 * string (its first m characters), sliced later at no cost.
 *
 * @param {Uint8Array} reply from the worker (a copy of Python's bytes: its ints align)
 * @returns {{ints: Int32Array, ascii: string, json: any}}
 */
function readReply(reply) {
  const counts = new DataView(reply.buffer, reply.byteOffset);
  const count = counts.getInt32(0, true), length = counts.getInt32(4, true);
  const ints = new Int32Array(reply.buffer, reply.byteOffset + 8, count);
  const rest = decoder.decode(reply.subarray(8 + 4 * count)); // the text, then the JSON
  // The text stays a slice of `rest`, which costs V8 no copy.
  return { ints, ascii: rest.slice(0, length), json: JSON.parse(rest.slice(length)) };
}

/**
 * The chunks that `chunkspan.bridge.pack_chunks` describes, cut out here: most as slices of
 * `text` where the chunker placed them (a slice costs V8 no copy), the others from the ASCII
 * text that joins those that are ASCII, and the few left whole.
 *
 * @param {string} text the text as given to `chunk`
 * @param {{count: number, boundaryTypes: string[], texts: string[],
 *   sections: [string, number][]}} packed
 * @param {Int32Array} ints the sections that chunkspan/bridge/packing.py's `SECTIONS` defines
 * @param {string} ascii begins with the chunk texts that cross as ASCII, joined
 * @param {object|undefined} metadata put on every chunk, the very object, as the original does
 * @param {boolean} withSpans add `span` and `overlapSpan`
 */
function unpackChunks(text, packed, ints, ascii, metadata, withSpans) {
  const { count, boundaryTypes, texts, sections } = packed;
  const { offsets, spans, overlapSpans, boundaryIndex, places, asciiLength, astral } =
    readSections(ints, sections);
  // As JavaScript indices.
  const [jsOffsets, jsSpans, jsOverlapSpans, jsPlaces] = [offsets, spans, overlapSpans, places]
    .map((section) => toUtf16(section, astral));
  const chunks = new Array(count);
  let asciiAt = 0;
  let crossing = 0; // the next of asciiLength
  let literal = 0;
  for (let index = 0; index < count; index++) {
    const pair = 2 * index; // where the chunk's two ints are, in a section of pairs
    const startOffset = jsOffsets[pair], endOffset = jsOffsets[pair + 1];
    const at = 4 * index;
    const leadFrom = jsPlaces[at], leadTo = jsPlaces[at + 1];
    let chunkText;
    if (leadFrom >= 0) {
      const ownFrom = jsPlaces[at + 2], ownTo = jsPlaces[at + 3];
      if (leadTo === ownFrom) chunkText = text.slice(leadFrom, ownTo);
      else chunkText = text.slice(leadFrom, leadTo) + text.slice(ownFrom, ownTo);
    } else {
      const length = asciiLength[crossing++];
      chunkText = length >= 0 ? ascii.slice(asciiAt, (asciiAt += length)) : texts[literal++];
    }
    const boundaryType = boundaryTypes[boundaryIndex[index]];
    const chunk = { text: chunkText, index, startOffset, endOffset, boundaryType };
    // Without metadata the key is absent, as JSON.stringify leaves it in the original.
    if (metadata !== undefined) chunk.metadata = metadata;
    if (withSpans) {
      chunk.span = { start: jsSpans[pair], end: jsSpans[pair + 1] };
      const overlapStart = jsOverlapSpans[pair];
      chunk.overlapSpan =
        overlapStart < 0 ? null : { start: overlapStart, end: jsOverlapSpans[pair + 1] };
    }
    chunks[index] = chunk;
  }
  return chunks;
}

/**
 * The chunks that `chunkspan.bridge.pack_document_chunks` describes: each `content` a slice of
 * `text` at its span, the next ASCII text, or the next of `texts`; heading and metadata from
 * `extras`, in the original's key order.
 *
 * @param {string} text the content as given to `chunk`
 * @param {{count: number, texts: string[], extras: [number, string|null, object|null][],
 *   sections: [string, number][]}} packed
 * @param {Int32Array} ints the sections of chunkspan/bridge/packing.py's `DOCUMENT_SECTIONS`
 * @param {string} ascii begins with the contents that are ASCII and not slices, joined
 * @param {boolean} withSpans add `span`
 */
function unpackDocumentChunks(text, { count, texts, extras, sections }, ints, ascii, withSpans) {
  const { spans, content, astral } = readSections(ints, sections);
  const jsSpans = toUtf16(spans, astral); // as JavaScript indices
  const chunks = new Array(count);
  let asciiAt = 0;
  let literal = 0;
  let extra = 0;
  for (let index = 0; index < count; index++) {
    const start = jsSpans[2 * index], end = jsSpans[2 * index + 1];
    const where = content[index];
    let chunkContent;
    if (where >= 0) chunkContent = ascii.slice(asciiAt, (asciiAt += where));
    else if (where === -1) chunkContent = text.slice(start, end);
    else chunkContent = texts[literal++];
    const chunk = { content: chunkContent, index };
    if (extras[extra]?.[0] === index) {
      const [, heading, metadata] = extras[extra++];
      if (heading !== null) chunk.heading = heading;
      if (metadata !== null) chunk.metadata = metadata;
    }
    if (withSpans) chunk.span = { start, end };
    chunks[index] = chunk;
  }
  return chunks;
}

/**
 * A packed reply's ints by section name: `sections` lists each section's name and length in
 * their order. Views of `ints`, not copies.
 *
 * @param {Int32Array} ints
 * @param {[string, number][]} sections
 * @returns {Object<string, Int32Array>}
 */
function readSections(ints, sections) {
  const named = {};
  let at = 0;
  for (const [name, length] of sections) named[name] = ints.subarray(at, (at += length));
  return named;
}

/**
 * The JavaScript (UTF-16) indices of the code-point `offsets`: chunkspan/bridge/utf16.py's
 * `utf16_offsets` here, for the packed chunks (packing.py says why). Each character outside
 * the BMP before an offset adds one unit; a negative offset, which means "none", stays.
 *
 * @param {Int32Array} offsets
 * @param {Int32Array} astral where the characters outside the BMP are, in code points, in order
 * @returns {Int32Array} `offsets` itself when the text has none (most texts)
 */
function toUtf16(offsets, astral) {
  if (!astral.length) return offsets;
  const indices = new Int32Array(offsets.length);
  for (let at = 0; at < offsets.length; at++) {
    const offset = offsets[at];
    let before = 0; // how many of `astral` lie before `offset`: a bisection
    for (let high = astral.length; before < high; ) {
      const middle = (before + high) >> 1;
      if (astral[middle] < offset) before = middle + 1;
      else high = middle;
    }
    indices[at] = offset < 0 ? offset : offset + before;
  }
  return indices;
}

// JSON for the bridge. JSON would turn NaN and Infinity into null, which reads as "use the
// default"; as strings they reach Python, which names them in its TypeError. Typed arrays
// (Float32Array vectors from an embedding model) go as the arrays of numbers they are.
function toJson(value) {
  return JSON.stringify(value, (key, item) => {
    if (typeof item === 'number' && !Number.isFinite(item)) return String(item);
    if (ArrayBuffer.isView(item) && !(item instanceof DataView)) return Array.from(item);
    return item;
  });
}
