// Build step (not part of the site): add bytecode compiled by Pyodide's own Python to wheels.
//
//   node pycompile.mjs PYODIDE_DIR IN.whl OUT.whl [IN.whl OUT.whl ...]
//
// Each OUT is IN plus `__pycache__/<module>.cpython-3XX.pyc` for every .py, as unchecked-hash
// pycs: Python then imports them without compiling the sources or checking them (their
// files in Pyodide have no meaningful times). Compiling micropip and chunker is a large part
// of what the page does after Pyodide starts, and it is the same every time: done once here.
// The sources stay in the wheel (tracebacks show them); RECORD lists the new files.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pyodideDir, ...pairs] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, 'pyodide.mjs')).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + '/' });

const withBytecode = pyodide.runPython(`
import base64, hashlib, importlib.util, io, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc


def with_bytecode(data):
    entries = []
    with zipfile.ZipFile(io.BytesIO(data.to_bytes())) as wheel:
        for info in wheel.infolist():
            source = wheel.read(info)
            entries.append((info.filename, source))
            if info.filename.endswith(".py"):
                code = compile(source, info.filename, "exec", dont_inherit=True)
                pyc = _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
                entries.append((importlib.util.cache_from_source(info.filename), bytes(pyc)))
    record = next(name for name, _ in entries if name.endswith(".dist-info/RECORD"))
    lines = [f"{name},sha256={_digest(d)},{len(d)}" for name, d in entries if name != record]
    entries = [(n, ("\\n".join(lines + [record + ",,"]) + "\\n").encode() if n == record else d)
               for n, d in entries]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in entries:
            info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    return out.getvalue()


def _digest(data):
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


with_bytecode
`);

for (let i = 0; i < pairs.length; i += 2) {
  const compiled = withBytecode(new Uint8Array(readFileSync(pairs[i])));
  // Written whole or not at all: build.py takes any file it finds as done.
  writeFileSync(`${pairs[i + 1]}.part`, compiled.toJs());
  renameSync(`${pairs[i + 1]}.part`, pairs[i + 1]);
  compiled.destroy();
}
withBytecode.destroy();
