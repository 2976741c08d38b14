// Pyodide started from the chunker's snapshot and nothing else: the one the facade keeps,
// read from Cache Storage as the facade's worker reads it, or else the one the site ships,
// fetched and read as its bytes arrive (web/worker-snapshot.js). Its digest not awaited, its
// files not written, no progress followed, no chunker.js on the page: what is left is
// Pyodide's own restore, the floor under the facade's visits.
import bundle from '/bundle.js';
import { findSnapshot, readKept, readSnapshot } from '/_web/worker-snapshot.js';

const base = new URL('/', import.meta.url);
const pyodideScript = import('/pyodide/pyodide.mjs');
const kept = await findSnapshot(bundle.snapshotKey, base);
const snapshot = kept
  ? readKept(kept, bundle.snapshotKey, base)
  : fetch(new URL(bundle.snapshot, base)).then((shipped) =>
      readSnapshot(shipped.body, bundle.snapshotKey),
    );
const { loadPyodide } = await pyodideScript;
const pyodide = await loadPyodide({
  indexURL: new URL('/pyodide/', base).href,
  _loadSnapshot: snapshot.then(({ memory }) => memory),
});
self.postMessage(pyodide.runPython("import sys; 'chunker.bridge' in sys.modules"));
