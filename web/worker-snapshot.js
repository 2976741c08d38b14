// The worker's start, kept: Pyodide's memory once chunker.bridge is imported (its
// experimental `makeMemorySnapshot`), with the files of site-packages (the file system lives
// outside that memory). Two come to a worker, in one format:
//
// - shipped: made at build time under Node, from the very files the site serves
//   (snapshot-make.mjs), and fetched by a first visit beside the WebAssembly (bundle.js names
//   it, with its size), so that no visit boots Python or imports chunker;
// - kept: in the browser's Cache Storage, for the visits after the first: the shipped one
//   once restored, or one a first visit took of its own start when none was shipped (a
//   site served without it).
//
// Either is under a key the build made from every file that shapes that memory (bundle.js's
// `snapshotKey`): one made for another runtime, standard library, wheel or worker is stale.
//
// The format: 4 bytes, the length of a JSON header (little-endian); the header, `{key,
// sha256, memory, zeros: [[at, length], ...], files: [[path, length], ...], table}` (`table`:
// see restoreState); the memory
// (`memory` bytes, Pyodide's snapshot) but for its runs of zero pages (`zeros`: most of a
// fresh Python's memory is never written, and a file without them fits the hosts that take
// no file above 25 MiB); the files' bytes, in the header's order. `sha256` is the digest of
// all that follows the header: bytes lost or changed on the way or in storage are found out
// before Python runs on them.

const CACHE_NAME = 'chunker-snapshot';

/** The snapshot's name in the cache: a URL, as Cache Storage wants, never fetched. */
const entryUrl = (key, base) => new URL(`chunker-snapshot-${key}`, base).href;

/** Whether this worker can check a snapshot's digest: digests exist only in a secure
 * context (https, or localhost). */
export const canCheck = () => Boolean(self.crypto?.subtle);

/** Whether this worker can keep a snapshot: Cache Storage, too, exists only there. */
export const canKeep = (key) => Boolean(key && self.caches && canCheck());

/**
 * The kept snapshot for `key`, unread (a Response), or undefined when there is none or the
 * storage is unavailable.
 */
export async function findSnapshot(key, base) {
  if (!canKeep(key)) return undefined;
  try {
    // Not caches.open, which would make the cache of a site that never keeps one.
    return await caches.match(entryUrl(key, base), { cacheName: CACHE_NAME });
  } catch {
    return undefined; // storage refused (a private window may): start as a first visit
  }
}

/**
 * The snapshot in `response` (findSnapshot's), as readSnapshot answers it. Rejects, as
 * `whole` does, when its bytes are not what was kept, and then forgets it, so that the next
 * visit keeps a new one.
 */
export async function readKept(response, key, base) {
  const damaged = (error) => {
    forget(key, base);
    return new Error(`the kept snapshot is damaged: ${error.message}`);
  };
  let snapshot;
  try {
    // Read whole, not as it streams: Cache Storage answers at once, and reading it in pieces
    // takes the worker's thread from Pyodide's script, which a repeat visit waits for.
    snapshot = await readSnapshot(new Uint8Array(await response.arrayBuffer()), key);
  } catch (error) {
    throw damaged(error);
  }
  const whole = snapshot.whole.catch((error) => {
    throw damaged(error);
  });
  whole.catch(() => {});
  return { ...snapshot, whole };
}

/**
 * The shipped snapshot's bytes, from `url`, a file of `size` bytes, as a stream: fetched with
 * `fetch`, each response handed to `watch` (the progress counts its bytes). Rejects on an
 * HTTP error (a site served without it: 404); a failed download errors the stream.
 *
 * A server that sends it compressed sends a small part of its bytes (brotli or gzip, from the
 * copies the build made; docs/browser.md). One that sends files as they are would send all of them:
 * when the answer's length says so, its body is dropped at once and the gzip copy beside it
 * is fetched instead, and unzipped here.
 */
export async function fetchShipped(url, size, fetch, watch) {
  const response = await fetch(url);
  if (!response.ok) {
    response.body?.cancel().catch(() => {});
    throw new Error(`${url} answered HTTP ${response.status}`);
  }
  if (Number(response.headers.get('Content-Length')) !== size) {
    watch(response);
    return response.body;
  }
  response.body.cancel().catch(() => {});
  const copy = await fetch(`${url}.gz`);
  if (!copy.ok) throw new Error(`${url}.gz answered HTTP ${copy.status}`);
  watch(copy);
  const bytes = new Uint8Array(await copy.arrayBuffer());
  // A server may itself mark a .gz file as gzip-encoded: then the browser unzipped it.
  const stream = new Blob([bytes]).stream();
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return stream;
  return stream.pipeThrough(new DecompressionStream('gzip'));
}

/**
 * The snapshot in `source` (its bytes, in the format above, as a stream or all at once),
 * made for `key`, read as its bytes arrive: `{memory, files, table, whole, parts}`. Each
 * part of the memory is put in place as it comes, so that the memory is whole when the last
 * bytes are: a first visit waits for them, and copying the memory after them, as checking
 * the digest before Pyodide had it, lengthened its path (tests/bench/browser.py). Rejects
 * when they were made for another key (stale) or their length differs. `whole` settles once
 * their digest is checked, rejecting when it differs: Python must not run on the memory
 * before then (worker.js's `restore`). `parts`: the file's bytes, for keeping it.
 */
export async function readSnapshot(source, key) {
  const reader = source instanceof Uint8Array ? readerOf(source) : source.getReader();
  try {
    const { head, header, rest } = await readHeader(reader);
    if (header.key !== key) throw new Error('it was made for another runtime (stale)');
    const placing = placer(header);
    placing.put(rest);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      placing.put(value);
    }
    const { payload, ...snapshot } = placing.finish();
    return { ...snapshot, parts: [head, payload] };
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  }
}

/** A stream's reader, for `bytes` given all at once. */
function readerOf(bytes) {
  let given = false;
  return {
    read: async () => (given ? { done: true } : ((given = true), { done: false, value: bytes })),
    cancel: async () => {},
  };
}

/** The header at the start of a snapshot's stream: `{head}`, its bytes (the length too),
 * `{header}`, parsed, and `{rest}`, the bytes read after it. */
async function readHeader(reader) {
  let bytes = new Uint8Array(0);
  for (;;) {
    if (bytes.length >= 4) {
      const end = 4 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
      if (bytes.length >= end) {
        const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, end)));
        return { head: bytes.slice(0, end), header, rest: bytes.subarray(end) };
      }
    }
    const { done, value } = await reader.read();
    if (done) throw new Error('its length differs');
    if (bytes.length === 0) {
      bytes = value; // the first piece as it is: given all at once, it is the whole snapshot
      continue;
    }
    const joined = new Uint8Array(bytes.length + value.length);
    joined.set(bytes);
    joined.set(value, bytes.length);
    bytes = joined;
  }
}

/**
 * Where a snapshot's payload goes, as `header` lays it out: `put` each next piece of it, in
 * order, then `finish`. The payload is kept whole too, for its digest and the files: in a
 * buffer of its own, unless it comes whole in one piece.
 */
function placer(header) {
  // Pyodide reads the memory as 32-bit words: a buffer of its own, zeros where none is kept.
  const memory = new Uint8Array(header.memory);
  // The runs of the memory the payload holds: [in the payload, in the memory, length].
  const runs = [];
  let size = 0;
  let end = 0; // in the memory: where the last run of zeros ended
  for (const [start, length] of [...header.zeros, [header.memory, 0]]) {
    runs.push([size, end, start - end]);
    size += start - end;
    end = start + length;
  }
  const filesAt = size;
  for (const [, length] of header.files) size += length;
  let payload;
  let at = 0; // the payload's bytes put so far
  let run = 0; // the first run not yet filled
  const put = (bytes) => {
    if (at + bytes.length > size) throw new Error('its length differs');
    if (at === 0 && bytes.length === size) payload = bytes;
    else (payload ??= new Uint8Array(size)).set(bytes, at);
    at += bytes.length;
    for (; run < runs.length; run++) {
      const [from, to, length] = runs[run];
      // The part of this run among the bytes just put (all that came before is in place).
      const start = Math.max(from, at - bytes.length);
      const stop = Math.min(from + length, at);
      if (start < stop) memory.set(payload.subarray(start, stop), to + start - from);
      if (from + length > at) break; // the rest of it is still to come
    }
  };
  const finish = () => {
    if (at !== size) throw new Error('its length differs');
    payload ??= new Uint8Array(0); // a snapshot of nothing
    const whole = sha256(payload).then((digest) => {
      if (digest !== header.sha256) throw new Error('its digest differs');
    });
    whole.catch(() => {}); // the caller's to await
    let next = filesAt;
    const files = header.files.map(([path, length]) => {
      return [path, payload.subarray(next, (next += length))];
    });
    return { memory, files, table: header.table, whole, payload };
  };
  return { put, finish };
}

// The unit of the runs of zeros left out: WebAssembly's page.
const PAGE = 65536;

/** The runs of whole zero pages in `memory`, as [at, length]. */
function zeroRuns(memory) {
  const runs = [];
  const words = new Uint32Array(memory.buffer, memory.byteOffset, memory.byteLength >> 2);
  const page = PAGE >> 2;
  for (let at = 0; at + page <= words.length; at += page) {
    let zero = true;
    for (let i = at; i < at + page && zero; i++) zero = words[i] === 0;
    if (!zero) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === at << 2) last[1] += PAGE;
    else runs.push([at << 2, PAGE]);
  }
  return runs;
}

/**
 * Pyodide's memory now, the files under `folder` (site-packages), and the table slot of the
 * runtime's trampoline (restoreState): to be called on a Pyodide loaded with `_makeSnapshot:
 * true`, before any call has run. Synchronous, so that nothing runs in Python between them.
 */
export function takeSnapshot(pyodide, folder) {
  const memory = pyodide.makeMemorySnapshot();
  const { FS } = pyodide;
  const files = [];
  const walk = (dir) => {
    // Sorted: a snapshot of the same state is the same bytes.
    for (const name of FS.readdir(dir).sort()) {
      if (name === '.' || name === '..') continue;
      const path = `${dir}/${name}`;
      if (FS.isDir(FS.stat(path).mode)) walk(path);
      else files.push([path, FS.readFile(path)]);
    }
  };
  walk(folder);
  const module = pyodide._module;
  // This runtime's slot, or where one would have gone: Node makes none (it has no wasm-gc).
  const table = module.HEAP32[trampolineAt(module)] || module.wasmTable.length;
  return { memory, files, table };
}

/**
 * Put back what a snapshot (readSnapshot's) holds outside Python's memory, on a Pyodide
 * just restored from it: the files it kept, and the pointer to this runtime's trampoline.
 *
 * CPython calls the C functions of some signatures (a builtin taking one argument or none,
 * an attribute's getter) through a trampoline (its Python/emscripten_trampoline.c), which
 * the runtime's start-up makes each time: in WebAssembly where the engine has wasm-gc, put
 * in a slot of the function table, and `_PyRuntime.emscripten_trampoline` pointed at it;
 * else that pointer is 0 and every such call goes through JavaScript, far slower. Pyodide
 * writes a snapshot's memory over the runtime's after that start-up, pointer included: the
 * maker's, 0 for one made under Node, a slot this runtime may have left empty (an iPhone's
 * Safari makes none). So the pointer is set again: to the slot the maker's start-up filled or
 * would have (`table`; a start-up puts nothing else in the table), when this runtime's start-up
 * filled it, else 0.
 */
export function restoreState(pyodide, { files, table }) {
  const { FS } = pyodide;
  // Each folder made once, not once per file: mkdirTree walks its whole path every time.
  const folders = new Set(files.map(([path]) => path.slice(0, path.lastIndexOf('/'))));
  for (const folder of folders) FS.mkdirTree(folder);
  for (const [path, data] of files) FS.writeFile(path, data);
  const module = pyodide._module;
  const filled = table < module.wasmTable.length && module.wasmTable.get(table) !== null;
  module.HEAP32[trampolineAt(module)] = filled ? table : 0;
}

/** The index in HEAP32 of `_PyRuntime.emscripten_trampoline` (its offset in the struct is
 * a constant that CPython exports for JavaScript). */
function trampolineAt(module) {
  return (module.__PyRuntime + module.HEAP32[module.__PyEM_EMSCRIPTEN_TRAMPOLINE_OFFSET >> 2]) >> 2;
}

/** `snapshot` (takeSnapshot's), made for `key`, in the format above: a Blob. */
export async function encodeSnapshot({ memory, files, table }, key) {
  const zeros = zeroRuns(memory);
  const kept = [];
  let end = 0;
  for (const [start, length] of [...zeros, [memory.byteLength, 0]]) {
    kept.push(memory.subarray(end, start));
    end = start + length;
  }
  const parts = [...kept, ...files.map(([, data]) => data)];
  const payload = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    payload.set(part, at);
    at += part.byteLength;
  }
  const header = {
    key,
    sha256: await sha256(payload),
    memory: memory.byteLength,
    zeros,
    files: files.map(([path, data]) => [path, data.byteLength]),
    table,
  };
  const encoded = new TextEncoder().encode(JSON.stringify(header));
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, encoded.length, true);
  return new Blob([length, encoded, payload]);
}

/**
 * Keep `snapshot` (takeSnapshot's) under `key`, as keepBytes does. Never rejects.
 */
export async function keepSnapshot(snapshot, key, base) {
  try {
    await keepBytes(await encodeSnapshot(snapshot, key), key, base);
  } catch {
    // Pyodide's memory could not be read: nothing kept.
  }
}

/**
 * Keep a snapshot's `bytes` (a Blob or bytes in the format above) under `key`, dropping
 * every other key's: one runtime's snapshot is all a site needs. Never rejects: a snapshot
 * not kept only means the next visit starts as this one did.
 */
export async function keepBytes(bytes, key, base) {
  if (!canKeep(key)) return;
  try {
    const cache = await caches.open(CACHE_NAME);
    await cache.put(entryUrl(key, base), new Response(bytes));
    for (const request of await cache.keys()) {
      if (request.url !== entryUrl(key, base)) await cache.delete(request);
    }
  } catch {
    // Storage full or refused: nothing to clean up that the next keep will not.
  }
}

function forget(key, base) {
  caches
    .open(CACHE_NAME)
    .then((cache) => cache.delete(entryUrl(key, base)))
    .catch(() => {});
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
