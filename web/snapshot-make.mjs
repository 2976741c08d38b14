// Build step (not part of the site): the snapshot the site ships (worker-snapshot.js), made
// under Node from the site's own files: Pyodide boots on the site's standard library, the
// wheel is unpacked and chunker.bridge imported as a first visit's worker does
// (worker-python.js), then Pyodide's memory and site-packages are written out, under KEY.
//
//   node snapshot-make.mjs PYODIDE_DIR STDLIB_ZIP LOCK_FILE WHEEL KEY OUT
//
// Pyodide restores a snapshot only into the very runtime that made it (its build id, checked
// as it loads): PYODIDE_DIR must hold the files the site serves. The standard library zip
// must be the served one too: the memory holds its index (Python imports from it by
// offset). The lock file is the site's: Pyodide reads it into JavaScript and hands Python
// its packages' names, again after every restore.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importBridge, installWheel } from './worker-python.js';
import { encodeSnapshot, readSnapshot, restoreState, takeSnapshot } from './worker-snapshot.js';

const [pyodideDir, stdlib, lockFile, wheel, key, out] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, 'pyodide.mjs')).href);
const quiet = () => {};
const options = {
  indexURL: `${pyodideDir}/`,
  stdLibURL: stdlib,
  lockFileContents: readFileSync(lockFile, 'utf8'),
  stdout: quiet,
  stderr: quiet,
};
const pyodide = await loadPyodide({
  ...options,
  // As a browser's worker would have them, not this script's path and this machine's
  // language. The hash seed is fixed: a snapshot holds its seed whatever it is, one for every
  // visitor, and fixed, the same files make nearly the same bytes.
  _sysExecutable: './this.program',
  env: { LANG: 'C.UTF-8', PYTHONHASHSEED: '0' },
  _makeSnapshot: true,
});
const sitePackages = installWheel(pyodide, new Uint8Array(readFileSync(wheel)));
importBridge(pyodide);
const blob = await encodeSnapshot(takeSnapshot(pyodide, sitePackages), key);
const bytes = new Uint8Array(await blob.arrayBuffer());

// Restored here first, as a worker restores it, and made to chunk: a snapshot that cannot
// restore (Pyodide's memory grown past the size it restores into, for one) would have every
// visit fall back to a boot, unseen.
const snapshot = await readSnapshot(new Blob([bytes]).stream(), key);
await snapshot.whole;
const restored = await loadPyodide({ ...options, _loadSnapshot: snapshot.memory });
restoreState(restored, snapshot);
const chunks = restored.runPython(`
import importlib
importlib.invalidate_caches()
from chunker import ChunkingEngine, SemanticChunker
text = "# A\\n\\nOne. Two.\\n\\n# B\\n\\nThree."
cut = SemanticChunker(target_size=20).chunk(text)
len(cut) + len(ChunkingEngine().chunk(text, strategy="fixed"))
`);
if (!(chunks > 0)) throw new Error('snapshot-make: the restored snapshot made no chunk');

// Written whole or not at all: build.py takes any file it finds as done.
writeFileSync(`${out}.part`, bytes);
renameSync(`${out}.part`, out);
