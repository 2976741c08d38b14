// For tests and benchmarks that run Python in Pyodide as the facade's worker has it: a site's
// runtime, and its chunker's and tokenizer's wheels (bundle.js) unpacked into site-packages as
// web/worker.js unpacks them. `?site=/_before/` takes them from a site mounted there (this
// server's own by default). Message in: Python source whose last expression is a string; out:
// {result} (that string) or {error} (Python's traceback). 'ready' once booted.
const site = new URL(import.meta.url).searchParams.get('site') ?? '/';
const { loadPyodide } = await import(`${site}pyodide/pyodide.mjs`);
const { default: bundle } = await import(`${site}bundle.js`);

const pyodide = await loadPyodide({ indexURL: `${site}pyodide/` });
const sitePackages = pyodide.runPython('import site; site.getsitepackages()[0]');
for (const wheel of [bundle.wheel, bundle.tokenizer]) {
  const response = await fetch(`${site}${wheel}`);
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
