import { loadPyodide } from '/pyodide/pyodide.mjs';

const pyodide = await loadPyodide({ indexURL: '/pyodide/' });
self.postMessage(pyodide.runPython('import sys; sys.version'));
