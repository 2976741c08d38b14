// Build step (not part of the site): compile the Python the page loads, with Pyodide's own
// Python, so that the browser never compiles it.
//
//   node pycompile.mjs PYODIDE_DIR MODE IN OUT [MODE IN OUT ...]
//
// Pyodide's npm package ships its standard library as sources, and so do wheels: every
// import in the page compiled them again, which was most of Pyodide's own boot and most of
// what micropip costs after it. All pycs are unchecked-hash ones: Python uses them without
// compiling or checking the sources (whose times mean nothing in Pyodide's file system).
//
// - MODE --keep-sources (the chunker wheel: tracebacks show its sources): each `x.py` stays
//   and gains `__pycache__/x.cpython-3XX.pyc`.
// - MODE --sourceless (micropip's wheel, the standard library zip): each `x.py` is replaced
//   by `x.pyc`, which Python imports in its place: half the files for micropip to unpack,
//   and no doubled download.
// A wheel's RECORD lists its files as they now are.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pyodideDir, ...jobs] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, 'pyodide.mjs')).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + '/' });

const withBytecode = pyodide.runPython(`
import base64, hashlib, importlib.util, io, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc


def with_bytecode(data, keep_sources, is_wheel):
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
            if keep_sources:
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

const MODES = { '--keep-sources': true, '--sourceless': false };
for (let i = 0; i < jobs.length; i += 3) {
  const [mode, input, output] = jobs.slice(i, i + 3);
  if (!(mode in MODES)) throw new Error(`pycompile.mjs: unknown mode ${mode}`);
  const data = new Uint8Array(readFileSync(input));
  const compiled = withBytecode(data, MODES[mode], input.endsWith('.whl'));
  // Written whole or not at all: build.py takes any file it finds as done.
  writeFileSync(`${output}.part`, compiled.toJs());
  renameSync(`${output}.part`, output);
  compiled.destroy();
}
withBytecode.destroy();
