// The worker's start, kept: once a first visit has imported chunker.bridge, Pyodide's memory
// is saved (its experimental `makeMemorySnapshot`) with the files of site-packages (the file
// system lives outside that memory), into the browser's Cache Storage, under a key the build
// made from every file that shapes that memory (bundle.js's `snapshotKey`). Later visits
// start from it: Python is then already running, chunker already imported.
//
// A kept snapshot is: 4 bytes, the length of a JSON header (little-endian); the header,
// `{sha256, memory, files: [[path, length], ...]}`, padded so the memory that follows it
// starts on an 8-byte boundary (Pyodide reads it as 32-bit words); the memory; the files'
// bytes, in the header's order. `sha256` is the digest of all that follows the header:
// storage that lost or changed a byte is found out before Python runs on it.

const CACHE_NAME = 'chunker-snapshot';

/** The snapshot's name in the cache: a URL, as Cache Storage wants, never fetched. */
const entryUrl = (key, base) => new URL(`chunker-snapshot-${key}`, base).href;

/** Whether this worker can keep a snapshot: Cache Storage and digests exist only in a
 * secure context (https, or localhost). */
export const canKeep = (key) => Boolean(key && self.caches && self.crypto?.subtle);

/**
 * The kept snapshot for `key`, unread (a Response), or undefined when there is none or the
 * storage is unavailable.
 */
export async function findSnapshot(key, base) {
  if (!canKeep(key)) return undefined;
  try {
    const cache = await caches.open(CACHE_NAME);
    return await cache.match(entryUrl(key, base));
  } catch {
    return undefined; // storage refused (a private window may): start as a first visit
  }
}

/**
 * `{memory, files}` read from `response` (findSnapshot's). Rejects when its bytes are not
 * what was kept, and then forgets it, so that the next visit keeps a new one.
 */
export async function readSnapshot(response, key, base) {
  try {
    const bytes = new Uint8Array(await response.arrayBuffer());
    const length = new DataView(bytes.buffer).getUint32(0, true);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length)));
    const payload = bytes.subarray(4 + length);
    if ((await sha256(payload)) !== header.sha256) throw new Error('its digest differs');
    let at = header.memory;
    const memory = payload.subarray(0, at);
    const files = header.files.map(([path, size]) => [path, payload.subarray(at, (at += size))]);
    if (at !== payload.length) throw new Error('its length differs');
    return { memory, files };
  } catch (error) {
    forget(key, base);
    throw new Error(`the kept snapshot is damaged: ${error.message}`);
  }
}

/**
 * Pyodide's memory now, and the files under `folder` (site-packages): to be called on a
 * Pyodide loaded with `_makeSnapshot: true`, before any call has run. Synchronous, so that
 * nothing runs in Python between the two.
 */
export function takeSnapshot(pyodide, folder) {
  const memory = pyodide.makeMemorySnapshot();
  const { FS } = pyodide;
  const files = [];
  const walk = (dir) => {
    for (const name of FS.readdir(dir)) {
      if (name === '.' || name === '..') continue;
      const path = `${dir}/${name}`;
      if (FS.isDir(FS.stat(path).mode)) walk(path);
      else files.push([path, FS.readFile(path)]);
    }
  };
  walk(folder);
  return { memory, files };
}

/** Write the files a snapshot kept back where they were. */
export function restoreFiles(pyodide, files) {
  const { FS } = pyodide;
  for (const [path, data] of files) {
    FS.mkdirTree(path.slice(0, path.lastIndexOf('/')));
    FS.writeFile(path, data);
  }
}

/**
 * Keep `snapshot` (takeSnapshot's) under `key`, dropping every other key's: one runtime's
 * snapshot is all a site needs. Never rejects: a snapshot not kept only means the next visit
 * starts as this one did.
 */
export async function keepSnapshot({ memory, files }, key, base) {
  try {
    const parts = [memory, ...files.map(([, data]) => data)];
    const payload = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
    let at = 0;
    for (const part of parts) {
      payload.set(part, at);
      at += part.byteLength;
    }
    const header = {
      sha256: await sha256(payload),
      memory: memory.byteLength,
      files: files.map(([path, data]) => [path, data.byteLength]),
    };
    const json = JSON.stringify(header);
    const pad = (8 - ((4 + new TextEncoder().encode(json).length) % 8)) % 8;
    const encoded = new TextEncoder().encode(json + ' '.repeat(pad));
    const length = new Uint8Array(4);
    new DataView(length.buffer).setUint32(0, encoded.length, true);
    const body = new Blob([length, encoded, payload]);
    const cache = await caches.open(CACHE_NAME);
    await cache.put(entryUrl(key, base), new Response(body));
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
