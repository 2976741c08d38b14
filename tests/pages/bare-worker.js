const runtime = new URL(import.meta.url).searchParams.get('runtime') ?? '/pyodide/';
const { loadPyodide } = await import(`${runtime}pyodide.mjs`);
const pyodide = await loadPyodide({ indexURL: runtime });
self.postMessage(pyodide.runPython('import sys; sys.version'));
