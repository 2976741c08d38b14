// For tests/browser/test_snapshot_format.py: a snapshot encoded by web/worker-snapshot.js and
// read back by its readSnapshot from streams cut into pieces of every kind (the header split
// byte by byte, random sizes, one piece, or bytes all at once), and spoiled in each way a download or storage can
// spoil it. Prints one JSON object: what each case came to.
import { encodeSnapshot, readSnapshot } from '../../web/worker-snapshot.js';

const PAGE = 65536;
const KEY = 'the-key';

// A random generator with a seed: the same cases each run.
let seed = 12345;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};

/** 40 pages, some wholly zero (runs of one and of several, at the start and the end). */
function makeMemory() {
  const memory = new Uint8Array(40 * PAGE);
  const zeroPages = new Set([0, 5, 6, 7, 20, 38, 39]);
  for (let page = 0; page < 40; page++) {
    if (zeroPages.has(page)) continue;
    for (let i = page * PAGE; i < (page + 1) * PAGE; i += 97) memory[i] = 1 + Math.floor(random() * 255);
  }
  return memory;
}

/** A stream that gives `bytes` in pieces of the sizes `sizes` answers, one after another. */
function streamOf(bytes, sizes) {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const size = Math.max(1, sizes(at));
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

const equal = (a, b) => a.length === b.length && a.every((byte, i) => byte === b[i]);

async function outcome(bytes, sizes, key = KEY) {
  try {
    // No sizes: the bytes all at once, as a kept snapshot is read.
    const source = sizes ? streamOf(bytes, sizes) : bytes;
    const snapshot = await readSnapshot(source, key);
    await snapshot.whole;
    return { snapshot };
  } catch (error) {
    return { error: error.message };
  }
}

const memory = makeMemory();
const files = [
  ['/lib/site/a.py', new TextEncoder().encode('print("a")\n')],
  ['/lib/site/empty', new Uint8Array(0)],
  ['/lib/site/b.pyc', Uint8Array.from({ length: 3000 }, () => Math.floor(random() * 256))],
];
const file = new Uint8Array(await (await encodeSnapshot({ memory, files, table: 7 }, KEY)).arrayBuffer());

const cuts = {
  'one piece': () => file.length,
  'a byte at a time through the header, then 4096': (at) => (at < 2000 ? 1 : 4096),
  'random pieces': () => 1 + Math.floor(random() * 100000),
  'pieces of a page and one byte': () => PAGE + 1,
  'all at once, as bytes': null,
};
const read = {};
for (const [name, sizes] of Object.entries(cuts)) {
  const { snapshot, error } = await outcome(file, sizes);
  read[name] = error ?? {
    memory: equal(snapshot.memory, memory),
    files: snapshot.files.every(([path, data], i) => path === files[i][0] && equal(data, files[i][1])),
    table: snapshot.table,
    file: equal(new Uint8Array(await new Blob(snapshot.parts).arrayBuffer()), file),
  };
}

const changed = file.slice();
changed[file.length - 5000] ^= 1; // in the memory's last kept page
const spoiled = {
  'a byte changed': (await outcome(changed, () => 8192)).error,
  'cut short': (await outcome(file.subarray(0, file.length - 1), () => 8192)).error,
  'a byte too many': (await outcome(Uint8Array.from([...file, 0]), () => 8192)).error,
  'cut within the header': (await outcome(file.subarray(0, 10), () => 3)).error,
  'made for another key': (await outcome(file, () => 8192, 'another-key')).error,
};
console.log(JSON.stringify({ kept: file.length, whole: 40 * PAGE, read, spoiled }));
