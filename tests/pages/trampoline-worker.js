// For tests/browser/test_start.py: the pointer to CPython's call trampoline
// (`_PyRuntime.emscripten_trampoline`, see restoreState in web/worker-snapshot.js) in a
// Pyodide booted, and in one restored from the snapshot the site ships as the facade's worker
// restores it. Posts {booted, restored, emptySlot, chunks}: the booted one's pointer, the
// restored one's, the restored one's once restoreState is told of a slot this runtime left
// empty (a snapshot made where the start-up filled a slot that this one did not), and the
// chunks the restored one then cuts.
import { loadPyodide } from '/pyodide/pyodide.mjs';
import bundle from '/bundle.js';
import { readSnapshot, restoreState } from '/_web/worker-snapshot.js';

/** The pointer, read from Python's memory (0: calls go through JavaScript). */
function trampoline(pyodide) {
  const module = pyodide._module;
  const offset = module.HEAP32[module.__PyEM_EMSCRIPTEN_TRAMPOLINE_OFFSET >> 2];
  return module.HEAP32[(module.__PyRuntime + offset) >> 2];
}

const booted = await loadPyodide({ indexURL: '/pyodide/' });
const snapshot = await readSnapshot((await fetch(`/${bundle.snapshot}`)).body, bundle.snapshotKey);
await snapshot.whole;
const restored = await loadPyodide({ indexURL: '/pyodide/', _loadSnapshot: snapshot.memory });
const table = restored._module.wasmTable.length;
restoreState(restored, { files: [], table });
const emptySlot = trampoline(restored);
restoreState(restored, snapshot);
const chunks = restored.runPython(`
import importlib, json
importlib.invalidate_caches()
from chunker import SemanticChunker
text = "# A\\n\\nOne. Two.\\n\\n# B\\n\\nThree."
json.dumps([c.to_dict() for c in SemanticChunker(target_size=20).chunk(text)])
`);
self.postMessage({ booted: trampoline(booted), restored: trampoline(restored), emptySlot, chunks });
