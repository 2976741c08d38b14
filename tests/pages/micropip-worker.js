// See micropip.js. The same steps as web/worker.js's boot, on a wheel with nothing in it.
import { loadPyodide } from '/pyodide/pyodide.mjs';

const name = 'nothing-0.0.0-py3-none-any.whl';
const wheel = fetch(`/_wheel/${name}`).then((response) => response.arrayBuffer());
const pyodide = await loadPyodide({ indexURL: '/pyodide/', packages: ['micropip'] });
if (!pyodide.loadedPackages.micropip) throw new Error('micropip did not load');
pyodide.FS.writeFile(`/tmp/${name}`, new Uint8Array(await wheel));
await pyodide.runPythonAsync(`
import gc
gc.disable()
try:
    import micropip
    await micropip.install("emfs:/tmp/${name}", deps=False)
    import nothing
finally:
    gc.freeze()
    gc.enable()
`);
self.postMessage('ready');
