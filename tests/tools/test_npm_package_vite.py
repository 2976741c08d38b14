"""The npm package in a site that Vite builds, as docs/browser.md's recipe for bundlers says: a
Vite app installs the packed tarball (and Vite, from the npm registry, pinned exactly), copies
the runtime with the package's command, and chunks a text in Chromium both from its
production build (`vite build`, served by the docs' serve.py, which sends the strict CSP)
and from Vite's dev server.

Each server is started and stopped here, on a free 127.0.0.1 port. npm caches what it
downloads in .cache/npm/, so a run after the first needs the registry no more.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from support.facade import BOOT_TIMEOUT_MS, SNAPSHOT_DROPPED
from support.readme import doc_block
from support.recorder import Recorder

from chunker import SemanticChunker
from tools.paths import CACHE

# The Vite the app builds with, and no other: a test-only dependency, from the npm registry.
VITE = "8.4.0"
# Where the docs' recipe copies the runtime, and the URL it is served at.
COPY = "public/chunker-web"
TEXT = (
    "# Refunds\n\nRefunds go back to the card that paid. They take five to ten business days."
    "\n\n# Shipping\n\nOrders ship within two days of payment. Tracking comes by mail.\n"
)
# The app's page: a text box, a button that stays disabled until the chunker is ready, and
# the chunks, as JSON.
INDEX_HTML = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Chunks</title>
<script type="module" src="/src/main.js"></script></head>
<body>
<label>Text <textarea id="text"></textarea></label>
<button id="chunk" disabled>Chunk</button>
<pre id="chunks"></pre>
</body>
</html>
"""
# After the docs' two lines (import, loadChunker).
MAIN_JS = """
const button = document.querySelector('#chunk');
button.addEventListener('click', async () => {
  const text = document.querySelector('#text').value;
  const chunks = await new api.SemanticChunker({ targetSize: 60, overlap: 0 }).chunk(text);
  document.querySelector('#chunks').textContent = JSON.stringify(chunks);
});
button.disabled = false;
"""


def npm(app: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """`npm ARGS` in `app`, with the repository's npm cache; fails the test on an error."""
    done = subprocess.run(
        ["npm", *args, "--cache", str(CACHE / "npm"), "--no-audit", "--no-fund"],
        cwd=app,
        check=False,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, f"npm {' '.join(args)}:\n{done.stdout[-3000:]}{done.stderr}"
    return done


@pytest.fixture(scope="module")
def app(tarball: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new Vite app: the docs' scripts and module lines, the tarball and Vite installed."""
    folder = tmp_path_factory.mktemp("vite-app")
    manifest = {
        "name": "vite-app",
        "private": True,
        "type": "module",
        **json.loads(doc_block("browser.md", '{\n  "scripts"')),
        "dependencies": {"chunker-web": f"file:{tarball}"},
        "devDependencies": {"vite": VITE},
    }
    (folder / "package.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    (folder / "index.html").write_text(INDEX_HTML, encoding="utf-8")
    (folder / "src").mkdir()
    recipe = doc_block("browser.md", "import { loadChunker } from 'chunker-web';")
    (folder / "src" / "main.js").write_text(recipe + MAIN_JS, encoding="utf-8")
    npm(folder, "install", "--prefer-offline", "--ignore-scripts", "--loglevel=error")
    return folder


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running(command: list[str], cwd: Path, origin: str, log: Path) -> Iterator[str]:
    """Run `command` in a session of its own until `origin` answers; yield it; then stop
    the session (npm, the shell it starts and the server alike)."""
    with log.open("w") as output:
        server = subprocess.Popen(
            command, cwd=cwd, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, f"{command} stopped:\n{log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, f"{origin} never answered:\n{log.read_text()}"
            try:
                urllib.request.urlopen(f"{origin}/", timeout=5).close()
                break
            except OSError:
                time.sleep(0.2)
        yield origin
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def production_build(app: Path) -> Path:
    """`npm run build`: the docs' copy, then `vite build`, into dist/."""
    npm(app, "run", "build")
    return app / "dist"


@pytest.fixture(params=["production build", "dev server"])
def origin(request: pytest.FixtureRequest, app: Path) -> Iterator[str]:
    """Where the app is served: its production build by the docs' serve.py, or Vite's
    dev server (`npm run dev`, which copies the runtime first, as the docs say)."""
    port = free_port()
    if request.param == "production build":
        dist = request.getfixturevalue("production_build")
        (app / "serve.py").write_text(doc_block("browser.md", "# serve.py"), encoding="utf-8")
        command = [sys.executable, str(app / "serve.py"), str(port)]
        cwd = dist
    else:
        command = [
            "npm",
            "run",
            "dev",
            "--",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--strictPort",
        ]
        cwd = app
    log = app / f"{request.param}.log"
    with running(command, cwd, f"http://127.0.0.1:{port}", log) as served:
        yield served


def wait_until_ready(page: Any, recorder: Recorder) -> None:
    """Until the app enables its button; fails at once if loadChunker rejects (the error
    is uncaught: the docs' lines await it at the module's top level)."""
    button = page.locator("#chunk")
    deadline = time.monotonic() + BOOT_TIMEOUT_MS / 1000
    while not button.is_enabled():
        uncaught = [error for error in recorder.errors if error.startswith("[pageerror]")]
        assert uncaught == [], uncaught
        assert time.monotonic() < deadline, f"not ready: {recorder.problems()}"
        page.wait_for_timeout(100)


def test_the_production_build_holds_the_copy_beside_the_bundle(production_build):
    served = {p.relative_to(production_build).as_posix() for p in production_build.rglob("*")}
    assert "chunker-web/worker.js" in served
    assert "chunker-web/pyodide/pyodide.asm.wasm" in served
    assert any(name.startswith("assets/index-") and name.endswith(".js") for name in served)
    assert not any("node_modules" in name for name in served)


def test_a_vite_app_chunks_a_text_in_chromium(browser, origin):
    context = browser.new_context()
    try:
        page = context.new_page()
        recorder = Recorder(origin).attach(page)
        page.goto(f"{origin}/")
        wait_until_ready(page, recorder)
        page.locator("#text").fill(TEXT)
        page.locator("#chunk").click()
        page.wait_for_selector("#chunks:not(:empty)", timeout=30_000)
        got: Any = json.loads(page.text_content("#chunks") or "null")
        # The page holds its facade in a module: no call of ours can go through its worker and
        # back, so its late console messages get a moment to arrive.
        page.wait_for_timeout(200)
    finally:
        context.close()
    expected = SemanticChunker(target_size=60, overlap=0).chunk(TEXT)
    assert got == [c.to_dict() for c in expected] and len(expected) == 2
    # Nothing failed or logged and no request left the origin, but for the icon every
    # browser asks a site for, which this one has not (its console line names no URL: any
    # other request that failed is in `failed`), and the snapshot's plain file, which Vite
    # sends as it is.
    icon = f"{origin}/favicon.ico"
    failed = (icon, SNAPSHOT_DROPPED)
    assert [url for url in recorder.failed if not any(f in url for f in failed)] == []
    assert [p for p in recorder.problems() if not any(f in p for f in (*failed, "404"))] == []
    assert recorder.foreign() == []
    paths = {url[len(origin) :].split("?")[0] for url in recorder.requests}
    assert {"/chunker-web/worker.js", "/chunker-web/pyodide/pyodide.asm.wasm"} <= paths
    # The dev server serves its own bundle of the facade from node_modules/.vite/, no more.
    assert not any(path.startswith("/node_modules/chunker-web/") for path in paths)
