// Build step (not part of the site): compile the Python the page loads, with Pyodide's own
// Python, so that the browser never compiles it.
//
//   node pycompile.mjs PYODIDE_DIR IN OUT [IN OUT ...]
//
// Pyodide's npm package ships its standard library as sources, and so do wheels: every
// import in the page compiled them again, which was most of Pyodide's own boot and most of
// what micropip costs after it. All pycs are unchecked-hash ones: Python uses them without
// compiling or checking the sources (whose times mean nothing in Pyodide's file system).
//
// - A wheel (.whl) keeps its sources (tracebacks show them) and gains
//   `__pycache__/<module>.cpython-3XX.pyc` for each; RECORD lists the new files.
// - A zip of modules (.zip, the standard library) has each `x.py` replaced by `x.pyc`, which
//   zipimport reads in its place: keeping the sources too would double the download.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pyodideDir, ...pairs] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, 'pyodide.mjs')).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + '/' });

const withBytecode = pyodide.runPython(`
import base64, hashlib, importlib.util, io, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc


def with_bytecode(data, is_wheel):
    entries = []
    with zipfile.ZipFile(io.BytesIO(data.to_bytes())) as archive:
        for info in archive.infolist():
            source = archive.read(info)
            if not info.filename.endswith(".py"):
                entries.append((info.filename, source))
                continue
            code = compile(source, info.filename, "exec", dont_inherit=True)
            checksum = importlib.util.source_hash(source)
            pyc = bytes(_code_to_hash_pyc(code, checksum, checked=False))
            if is_wheel:
                cached = importlib.util.cache_from_source(info.filename)
                entries += [(info.filename, source), (cached, pyc)]
            else:
                entries.append((info.filename + "c", pyc))
    if is_wheel:
        record = next(name for name, _ in entries if name.endswith(".dist-info/RECORD"))
        lines = [f"{name},sha256={_digest(d)},{len(d)}" for name, d in entries if name != record]
        listing = ("\\n".join(lines + [record + ",,"]) + "\\n").encode()
        entries = [(name, listing if name == record else d) for name, d in entries]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith("/") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return out.getvalue()


def _digest(data):
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


with_bytecode
`);

for (let i = 0; i < pairs.length; i += 2) {
  const [input, output] = [pairs[i], pairs[i + 1]];
  const compiled = withBytecode(new Uint8Array(readFileSync(input)), input.endsWith('.whl'));
  // Written whole or not at all: build.py takes any file it finds as done.
  writeFileSync(`${output}.part`, compiled.toJs());
  renameSync(`${output}.part`, output);
  compiled.destroy();
}
withBytecode.destroy();
