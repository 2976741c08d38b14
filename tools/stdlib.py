"""The standard library zip the site serves: of Pyodide's (compiled), only the files that
what the site runs imports, found by running it (web/stdlib-trace.mjs), and the few the run
cannot reach (UNSEEN).

Pyodide's zip holds the whole standard library, 4.5 MB compiled, and every visit fetches it
before Python starts; the worker's run imports a third of it."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

from .paths import CACHE, NODE_MODULES, WEB, log

TRACE_SCRIPT = WEB / "stdlib-trace.mjs"
# The texts the trace's calls cut, search and evaluate: the playground's own samples.
SAMPLES = WEB / "samples"
SAMPLE_FILES = ("indexer-guide.md", "meeting.json", "guide-questions.json")
# Files of the zip that the site's Python needs but the trace cannot reach, each with why.
# None today: the browser suite passes on what the trace found. A module a test finds
# missing goes here, with the reason the trace cannot reach it (else into the trace).
UNSEEN: dict[str, str] = {}
# The trimmed zips, by the content of every input (see `traced_stdlib`).
STDLIB_CACHE = CACHE / "stdlib"


def traced_stdlib(stdlib: Path, wheel: Path, tokenizer: Path, micropip: Path) -> Path:
    """The zip of the files of `stdlib` (the compiled standard library) that the trace
    imports, with the wheels as the site serves them, plus UNSEEN.

    Cached in .cache/stdlib/ by the content of every input (the wheels, the trace script,
    its samples, UNSEEN, Pyodide's runtime), so Node runs only when one of them changed.
    """
    inputs = [stdlib, wheel, tokenizer, micropip, TRACE_SCRIPT]
    inputs += [SAMPLES / name for name in SAMPLE_FILES]
    inputs += [NODE_MODULES / "pyodide" / name for name in ("pyodide.asm.wasm", "pyodide.mjs")]
    digest = hashlib.sha256(json.dumps(UNSEEN, sort_keys=True).encode())
    for path in inputs:
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    folder = STDLIB_CACHE / digest.hexdigest()[:16]
    output = folder / stdlib.name
    if not output.exists():
        log("tracing the standard library the site runs (web/stdlib-trace.mjs)")
        folder.mkdir(parents=True, exist_ok=True)
        trace = folder / "trace.json"
        subprocess.run(
            [
                "node",
                str(TRACE_SCRIPT),
                str(NODE_MODULES / "pyodide"),
                str(stdlib),
                str(wheel),
                str(tokenizer),
                str(micropip),
                str(SAMPLES),
                str(trace),
            ],
            check=True,
        )
        files = set(json.loads(trace.read_text(encoding="utf-8"))["files"]) | set(UNSEEN)
        _write_subset(stdlib, files, output)
    for stale in STDLIB_CACHE.iterdir():  # the traces of inputs that are gone
        if stale != folder:
            shutil.rmtree(stale, ignore_errors=True)
    return output


def _write_subset(stdlib: Path, files: set[str], output: Path) -> None:
    """Write the entries of `stdlib` named in `files`, and the folders holding them, in
    their order there, compressed as they were; whole or not at all."""
    folders = {name[: i + 1] for name in files for i, c in enumerate(name) if c == "/"}
    part = output.with_name(output.name + ".part")
    with zipfile.ZipFile(stdlib) as source, zipfile.ZipFile(part, "w") as target:
        missing = files - set(source.namelist())
        if missing:
            raise SystemExit(f"build.py: the standard library has no {', '.join(sorted(missing))}")
        for info in source.infolist():
            if info.filename in files or info.filename in folders:
                target.writestr(info, source.read(info))
    part.rename(output)
    kept = output.stat().st_size
    log(f"standard library: {len(files)} of its modules, {kept / 1e6:.2f} MB")
