// Pyodide started from the snapshot the facade keeps, read from Cache Storage as the
// facade's worker reads it (web/worker-snapshot.js), and nothing else: its digest not
// awaited, its files not written, no progress followed, no chunker.js on the page. What is
// left is Pyodide's own restore: the floor under the facade's repeat visit.
import bundle from '/bundle.js';
import { findSnapshot, readKept } from '/worker-snapshot.js';

const base = new URL('/', import.meta.url);
const pyodideScript = import('/pyodide/pyodide.mjs');
const kept = await findSnapshot(bundle.snapshotKey, base);
if (!kept) throw new Error('no kept snapshot: visit the facade first');
const memory = readKept(kept, bundle.snapshotKey, base).then((snapshot) => snapshot.memory);
const { loadPyodide } = await pyodideScript;
const pyodide = await loadPyodide({ indexURL: new URL('/pyodide/', base).href, _loadSnapshot: memory });
self.postMessage(pyodide.runPython("import sys; 'chunker.bridge' in sys.modules"));
