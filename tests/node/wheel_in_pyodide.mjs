// The wheel under Pyodide in Node, no browser: the quick first check of the browser path.
//
//   node wheel_in_pyodide.mjs PYODIDE_DIR CHUNKER_WHEEL OPERATION REQUEST
//
// Boots the runtime in PYODIDE_DIR (the site's) and installs micropip and the chunker wheel
// as the worker does (micropip by name, from the runtime's lock file, asserted; the wheel
// with micropip, deps=False), then prints {bytecode, reply}: whether chunker was installed
// with its compiled bytecode, and chunker.bridge.handle(OPERATION, REQUEST) in base64.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pyodideDir, wheel, operation, request] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, 'pyodide.mjs')).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + '/', stdout: () => {} });
// A failed load only logs: checked below.
await pyodide.loadPackage('micropip', { messageCallback: () => {}, errorCallback: () => {} });
if (!pyodide.loadedPackages.micropip) {
  throw new Error(`micropip did not load from the lock file in ${pyodideDir}`);
}
const target = `/tmp/${basename(wheel)}`;
pyodide.FS.writeFile(target, readFileSync(wheel));
await pyodide.runPythonAsync(
  `import micropip\nawait micropip.install(${JSON.stringify(`emfs:${target}`)}, deps=False)`,
);
const bytecode = pyodide.runPython(
  'import importlib.util, os, chunker.bridge\n' +
    'os.path.exists(importlib.util.cache_from_source(chunker.bridge.__file__))',
);
const bridge = pyodide.pyimport('chunker.bridge');
const reply = bridge.handle(operation, request);
const bytes = Buffer.from(reply.toJs()).toString('base64');
reply.destroy();
bridge.destroy();
process.stdout.write(JSON.stringify({ bytecode, reply: bytes }));
