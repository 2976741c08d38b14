// For tests that run Python in Pyodide as the facade's worker has it: the site's runtime, and
// the chunker's and the tokenizer's wheels from bundle.js unpacked into site-packages as
// web/worker.js unpacks them. Message in: Python source whose last expression is a string;
// out: {result} (that string) or {error} (Python's traceback). 'ready' once booted.
import { loadPyodide } from '/pyodide/pyodide.mjs';
import bundle from '/bundle.js';

const pyodide = await loadPyodide({ indexURL: '/pyodide/' });
const sitePackages = pyodide.runPython('import site; site.getsitepackages()[0]');
for (const wheel of [bundle.wheel, bundle.tokenizer]) {
  const response = await fetch(`/${wheel}`);
  if (!response.ok) throw new Error(`${wheel}: HTTP ${response.status}`);
  pyodide.unpackArchive(await response.arrayBuffer(), 'wheel', { extractDir: sitePackages });
}
pyodide.runPython('import importlib; importlib.invalidate_caches()');
self.onmessage = ({ data }) => {
  try {
    self.postMessage({ result: pyodide.runPython(data) });
  } catch (error) {
    self.postMessage({ error: error.message });
  }
};
self.postMessage('ready');
