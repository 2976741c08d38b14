#!/usr/bin/env python3
"""Build, serve, test and measure chunker. Standard library only; Python 3.11+ (tomllib).

    python build.py wheel          the py3-none-any wheel, into dist/
    python build.py web            the static site, into site/ (incremental)
    python build.py serve          build what is stale, then serve site/ on 127.0.0.1:8000
    python build.py test [ARGS]    install the test tools, build, run pytest with ARGS
    python build.py bench          the benchmarks (CPython and Node, then the browser)
"""

from __future__ import annotations

import argparse
import ast
import base64
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import time
import threading
import tomllib
import urllib.parse
import zipfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Mapping

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
SITE = ROOT / "site"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
NODE_MODULES = WEB / "node_modules"

# micropip is not in the npm package; it comes from PyPI, pinned by version and content.
MICROPIP_WHEEL = "micropip-0.11.1-py3-none-any.whl"
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"

# What the browser needs of the npm package `pyodide` (the .map only for developer tools),
# besides its standard library, which the site serves compiled (see _with_bytecode), and its
# lock file, which the site rewrites (see _site_lock).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.mjs.map",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
)
PYODIDE_STDLIB = "python_stdlib.zip"
PYODIDE_LOCK = "pyodide-lock.json"

# Files of web/ that build the site rather than belong to it.
WEB_BUILD_FILES = {"package.json", "package-lock.json", "node_modules", "pycompile.mjs"}
# The wheels with bytecode added (web/pycompile.mjs), by content and Pyodide version.
PYC_CACHE = CACHE / "pyc"

# Debian's Chromium, used when present; otherwise Playwright's own.
SYSTEM_CHROMIUM = Path("/usr/bin/chromium")
# Without the background-networking flags Chromium calls Google's hosts, which a closed
# network refuses, many times at each start.
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)

# Sent with every response. A CSP in a <meta> tag would not bind the worker, so it is a
# header. Pyodide needs 'wasm-unsafe-eval' to compile its WebAssembly, nothing more.
CSP = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "worker-src 'self'",
        "connect-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)

# A wrong type for .wasm or .mjs leaves Pyodide pending forever, so none is left to guessing.
MIME_TYPES = {
    "": "application/octet-stream",
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".svg": "image/svg+xml",
    ".ico": "image/x-icon",
    ".png": "image/png",
    ".md": "text/markdown; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}


def log(message: str) -> None:
    print(f"build.py: {message}", flush=True)


# --- wheel -------------------------------------------------------------------------------

# The pyproject.toml keys this builder knows how to put in a wheel; any other stops it, so
# a new setting is never dropped silently.
KNOWN_PROJECT_KEYS = {
    "name", "dynamic", "version", "description", "readme", "requires-python", "license",
    "dependencies", "optional-dependencies", "classifiers", "keywords", "urls", "authors",
}
KNOWN_SETUPTOOLS_KEYS = {"packages", "package-data", "dynamic"}
# Every entry of a wheel gets this date, so the same sources give the same bytes.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def build_wheel() -> Path:
    """Write dist/<name>-<version>-py3-none-any.whl from pyproject.toml; answer its path.

    Built by hand (no setuptools, no network) and byte-for-byte reproducible: the file is
    rewritten only when its bytes change, so the site's copy stays fresh for HTTP caches.
    """
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = pyproject["project"]
    setuptools = pyproject.get("tool", {}).get("setuptools", {})
    for keys, known, table in (
        (project, KNOWN_PROJECT_KEYS, "[project]"),
        (setuptools, KNOWN_SETUPTOOLS_KEYS, "[tool.setuptools]"),
    ):
        unknown = sorted(set(keys) - known)
        if unknown:
            sys.exit(f"build.py: cannot put {table} {', '.join(unknown)} in a wheel yet")
    name, version = project["name"], _version(project, setuptools)
    files = _package_files(setuptools)
    dist_info = f"{name}-{version}.dist-info"
    entries: list[tuple[str, bytes]] = [
        (path.relative_to(ROOT).as_posix(), path.read_bytes()) for path in files
    ]
    entries.append((f"{dist_info}/METADATA", _metadata(project, version).encode()))
    wheel_file = "Wheel-Version: 1.0\nGenerator: chunker build.py\nRoot-Is-Purelib: true\n"
    entries.append((f"{dist_info}/WHEEL", (wheel_file + "Tag: py3-none-any\n").encode()))
    top_level = sorted({p.split(".")[0] for p in setuptools["packages"]})
    entries.append((f"{dist_info}/top_level.txt", ("\n".join(top_level) + "\n").encode()))
    record = [f"{path},sha256={_urlsafe_sha256(data)},{len(data)}" for path, data in entries]
    record.append(f"{dist_info}/RECORD,,")
    entries.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode()))

    target = DIST / f"{name}-{version}-py3-none-any.whl"
    data = _zip_bytes(entries)
    DIST.mkdir(exist_ok=True)
    for stale in DIST.glob(f"{name}-*.whl"):
        if stale != target:
            stale.unlink()
    if not target.exists() or target.read_bytes() != data:
        target.write_bytes(data)
        log(f"wrote {target.relative_to(ROOT)}")
    return target


def _version(project: dict, setuptools: dict) -> str:
    if "version" in project:
        return project["version"]
    # `attr = "chunker.__version__"`: read the assignment without importing the package.
    module, _, attribute = setuptools["dynamic"]["version"]["attr"].rpartition(".")
    source = ROOT.joinpath(*module.split(".")) / "__init__.py"
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == attribute for t in node.targets
        ):
            return ast.literal_eval(node.value)
    sys.exit(f"build.py: no {attribute} = '...' in {source}")


def _package_files(setuptools: dict) -> list[Path]:
    files: set[Path] = set()
    for package in setuptools["packages"]:
        folder = ROOT.joinpath(*package.split("."))
        files.update(folder.glob("*.py"))
        for pattern in setuptools.get("package-data", {}).get(package, []):
            files.update(p for p in folder.glob(pattern) if p.is_file())
    return sorted(files)


def _metadata(project: dict, version: str) -> str:
    """Core metadata 2.1 (the METADATA file) for the [project] table."""
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {version}"]
    if "description" in project:
        lines.append(f"Summary: {project['description']}")
    for keyword in project.get("keywords", ()):
        lines.append(f"Keywords: {keyword}")
    for author in project.get("authors", ()):
        if "email" in author:
            who = f"{author['name']} <{author['email']}>" if "name" in author else author["email"]
            lines.append(f"Author-email: {who}")
        else:
            lines.append(f"Author: {author['name']}")
    if "license" in project:
        lines.append(f"License: {project['license']['text']}")
    for label, url in project.get("urls", {}).items():
        lines.append(f"Project-URL: {label}, {url}")
    lines += [f"Classifier: {c}" for c in project.get("classifiers", ())]
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", ())]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in requirements]
    readme = ROOT / project["readme"] if "readme" in project else None
    if readme is None or not readme.exists():
        return "\n".join(lines) + "\n"
    content_type = "text/markdown" if readme.suffix == ".md" else "text/plain"
    lines.append(f"Description-Content-Type: {content_type}")
    return "\n".join(lines) + "\n\n" + readme.read_text(encoding="utf-8")


def _urlsafe_sha256(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _zip_bytes(entries: list[tuple[str, bytes]]) -> bytes:
    from io import BytesIO

    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in entries:
            info = zipfile.ZipInfo(path, ZIP_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


# --- web ---------------------------------------------------------------------------------


def build_web() -> Path:
    """Bring site/ up to date: the page files, Pyodide, micropip, the wheel; answer SITE."""
    started = time.perf_counter()
    _npm_ci()
    pyodide_version = json.loads((NODE_MODULES / "pyodide" / "package.json").read_text())["version"]
    stdlib = NODE_MODULES / "pyodide" / PYODIDE_STDLIB
    # Our wheel keeps its sources, for the tracebacks of a failed call; micropip and the
    # standard library have theirs replaced by bytecode: micropip's wheel then holds half
    # the files (45, not 80) for Pyodide to unpack as it boots, and a third fewer bytes.
    micropip, wheel, stdlib = _with_bytecode(
        [(_micropip_wheel(), False), (build_wheel(), True), (stdlib, False)], pyodide_version
    )
    plan: dict[str, Path] = {}
    for path in sorted(WEB.rglob("*")):
        relative = path.relative_to(WEB)
        if path.is_file() and not _is_build_file(relative):
            plan[relative.as_posix()] = path
    for name in PYODIDE_FILES:
        plan[f"pyodide/{name}"] = NODE_MODULES / "pyodide" / name
    plan[f"pyodide/{PYODIDE_STDLIB}"] = stdlib
    plan[f"pyodide/{MICROPIP_WHEEL}"] = micropip
    plan[f"wheels/{wheel.name}"] = wheel
    # What the worker loads, so it never guesses a file name or a version. A module, not
    # JSON: the worker imports it beside pyodide.mjs, in parallel, not after it.
    bundle = {
        "pyodide": pyodide_version,
        "micropip": f"pyodide/{MICROPIP_WHEEL}",
        "wheel": f"wheels/{wheel.name}",
    }
    generated = {
        "bundle.js": f"export default {json.dumps(bundle, indent=2)};\n",
        f"pyodide/{PYODIDE_LOCK}": _site_lock(micropip),
    }
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


def _micropip_wheel() -> Path:
    """The micropip wheel from PyPI, downloaded once into .cache/ and checked by content."""
    wheel = CACHE / MICROPIP_WHEEL
    if not wheel.exists():
        log(f"downloading {MICROPIP_WHEEL} from PyPI")
        name, version = MICROPIP_WHEEL.split("-")[:2]
        subprocess.run(
            [
                sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                "--disable-pip-version-check", "--only-binary=:all:", "--python-version", "3.14",
                "--dest", str(CACHE), f"{name}=={version}",
            ],
            check=True,
        )
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != MICROPIP_SHA256:
        wheel.unlink()
        sys.exit(f"build.py: {MICROPIP_WHEEL} has sha256 {digest}, expected {MICROPIP_SHA256}")
    return wheel


def _site_lock(micropip: Path) -> str:
    """The site's Pyodide lock file: the npm package's, listing only the package the site
    serves, micropip, as the site serves it (compiled, so its sha256 is not the npm entry's).

    The npm lock file lists 357 packages whose files the site does not hold, and `import
    micropip` turns that whole list into Python dicts (40-60 ms in Chromium here, a tenth of
    what micropip costs the boot). Listed by name, micropip loads with its checksum checked.
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


# --- serve -------------------------------------------------------------------------------


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves folders mounted at URL prefixes, with exact MIME types and a strict CSP."""

    protocol_version = "HTTP/1.1"  # keep-alive: the page makes a dozen requests at boot
    extensions_map = MIME_TYPES
    mounts: tuple[tuple[str, Path], ...] = ()  # (URL prefix, folder), longest prefix first
    csp = CSP
    quiet = False

    def translate_path(self, path: str) -> str:
        # Still quoted: the parent class unquotes once ("%2525" must stay "%25" on disk).
        url_path = urllib.parse.urlsplit(path).path
        for prefix, folder in self.mounts:
            if url_path.startswith(prefix):
                # The parent class does the safe join (no `..` escapes) below `directory`.
                self.directory = str(folder)
                local = super().translate_path("/" + url_path[len(prefix) :])
                # A NUL ("%00") or a lone surrogate ("%ED%A0%80") makes no file name: a 404,
                # not a crash in os.stat or open.
                try:
                    os.fsencode(local)
                except UnicodeEncodeError:
                    return ""
                return "" if "\0" in local else local
        return ""  # matches no mount: a 404

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        self.send_error(404, "No directory listings")

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", self.csp)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        # Revalidate every time (cheap: 304s), so a rebuilt site is never half stale.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        # A tab or worker closed mid-download resets its connection: not our error.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(
    port: int, mounts: Mapping[str, Path], *, quiet: bool = False, csp: str = CSP
) -> SiteServer:
    """A server on 127.0.0.1:`port` (0 picks a free one) for `mounts`: {"/": SITE, ...}.

    `csp` replaces the policy (the tests check what a weaker one breaks); `quiet` stops the
    log line per request.
    """
    ordered = tuple(sorted(mounts.items(), key=lambda item: -len(item[0])))
    attributes = {"mounts": ordered, "quiet": quiet, "csp": csp}
    handler = type("Handler", (SiteHandler,), attributes)
    return SiteServer(("127.0.0.1", port), handler)


@contextmanager
def served(mounts: Mapping[str, Path], *, csp: str = CSP) -> Iterator[str]:
    """Serve `mounts` quietly from a thread on a free port; yields the origin (no final /)."""
    server = make_server(0, mounts, quiet=True, csp=csp)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    try:
        yield f"http://{host}:{port}"
    finally:
        server.shutdown()
        server.server_close()


def serve(port: int) -> None:
    build_web()
    try:
        server = make_server(port, {"/": SITE})
    except OSError as error:
        sys.exit(f"build.py: cannot serve on 127.0.0.1:{port}: {error.strerror} (try --port)")
    host, bound = server.server_address[:2]
    print(f"Serving site/ at http://{host}:{bound}/  (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


# --- test and bench ----------------------------------------------------------------------


def chromium_options() -> dict[str, object]:
    """Playwright launch options for the tests and benchmarks: Debian's Chromium if present."""
    options: dict[str, object] = {"args": list(CHROMIUM_ARGS)}
    if SYSTEM_CHROMIUM.exists():
        options["executable_path"] = str(SYSTEM_CHROMIUM)
    return options


def test(pytest_args: list[str]) -> int:
    """Install the test tools, make sure a Chromium is there, build, run pytest."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    requirements = pyproject["project"]["optional-dependencies"]["test"]
    log(f"pip install {' '.join(requirements)}")
    subprocess.run(
        [
            sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
            "--root-user-action=ignore", *requirements,
        ],
        check=True,
    )
    if not SYSTEM_CHROMIUM.exists():
        log(f"no {SYSTEM_CHROMIUM}: installing Playwright's Chromium")
        subprocess.run([sys.executable, "-m", "playwright", "install", "chromium"], check=True)
    build_web()
    return subprocess.call([sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT)


def bench() -> int:
    build_web()
    status = 0
    # The core first, then the facade, then the page that stands on both.
    for name in ("core.py", "browser.py", "playground.py"):
        script = ROOT / "tests" / "bench" / name
        log(f"running {script.relative_to(ROOT)}")
        status = subprocess.call([sys.executable, str(script)], cwd=ROOT) or status
    return status


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("wheel", help="build dist/chunker-<version>-py3-none-any.whl")
    commands.add_parser("web", help="assemble the static site in site/ (incremental)")
    serving = commands.add_parser("serve", help="build what is stale, serve site/ on 127.0.0.1")
    serving.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any)")
    commands.add_parser(
        "test", help="install test tools, build, run pytest (extra arguments go to pytest)"
    )
    commands.add_parser("bench", help="run tests/bench/core.py, browser.py and playground.py")
    args, extra = parser.parse_known_args()
    if extra and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "wheel":
        print(build_wheel())
    elif args.command == "web":
        build_web()
    elif args.command == "serve":
        serve(args.port)
    elif args.command == "test":
        return test(extra)
    elif args.command == "bench":
        return bench()
    return 0


if __name__ == "__main__":
    sys.exit(main())
