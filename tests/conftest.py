"""Shared fixtures for the browser tests: the built site on a free port, Chromium, a recorder.

- `site_url`: site/ (brought up to date once) served by build.py's own server
  (tools/server.py) on a free 127.0.0.1 port, with tests/pages/ at /_test/.
- `browser`: headless Chromium through Playwright, Debian's /usr/bin/chromium when present,
  one per test module.
- `Recorder`: every request of a page and everything it reports as an error or a warning,
  the worker's console included (through the CDP log, `Log.entryAdded`).
- `chunker_page`: one page per test module with the facade loaded as `window.api`, so
  Pyodide boots once per module; `chunker_recorder` is its recorder.

Pages run under the site's CSP, which forbids `eval`; `page.evaluate` goes over CDP and is
not bound by it, so tests drive pages with it (and not `wait_for_function`, which evals).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # build.py's modules (tools/) are imported as a package
from tools.chromium import chromium_options  # noqa: E402
from tools.paths import SITE  # noqa: E402
from tools.server import CSP, served  # noqa: E402
from tools.site import build_web  # noqa: E402

PAGES = ROOT / "tests" / "pages"
FIXTURES = ROOT / "tests" / "fixtures"

# Booting Pyodide takes 2-3 s alone; a loaded CI machine can take several times that.
BOOT_TIMEOUT_MS = 120_000


# What the test server serves: the site, and the test pages beside it.
MOUNTS = {"/": SITE, "/_test/": PAGES}


def serving(csp: str = CSP):
    """Serve the site and the test pages on a free port (a context yielding the origin)."""
    return served(MOUNTS, csp=csp)


@pytest.fixture(scope="session")
def built_site() -> Path:
    """site/, brought up to date once per session (a second or so when nothing changed)."""
    return build_web()


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The origin serving the built site, e.g. `http://127.0.0.1:40123` (no trailing /)."""
    with serving() as origin:
        yield origin


# Per module, not per session: Playwright's sync API runs an event loop in this thread while
# it is open, and `asyncio.run()` in a later test (or another module's Playwright) would fail.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(**chromium_options())
        yield browser
        browser.close()


@dataclass
class Recorder:
    """What a page did and said: requests, failed requests, console errors and warnings,
    uncaught errors.

    Attach before navigating. The CDP log (`Log.entryAdded`) carries the browser's own
    messages (network, security) and those of the page's workers, which is where Pyodide's
    complaints land; the console event gives the page's own `console.error` calls.
    """

    origin: str
    requests: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> Recorder:
        # On the context, so that the worker's own requests are seen too.
        page.context.on("request", lambda request: self.requests.append(request.url))
        page.context.on("requestfailed", self._failed)
        page.context.on("response", self._response)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"[pageerror] {error}"))
        cdp = page.context.new_cdp_session(page)
        cdp.on("Log.entryAdded", self._log_entry)
        cdp.send("Log.enable")
        return self

    def _failed(self, request: Any) -> None:
        self.failed.append(f"{request.url}: {request.failure}")

    def _response(self, response: Any) -> None:
        if response.status >= 400:
            self.failed.append(f"{response.url}: HTTP {response.status}")

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"[console] {message.text}")
        elif message.type == "warning":
            self.warnings.append(f"[console] {message.text}")

    def _log_entry(self, event: dict[str, Any]) -> None:
        entry = event["entry"]
        text = f"[{entry['source']}] {entry['text']} {entry.get('url', '')}".rstrip()
        if entry["level"] == "error":
            self.errors.append(text)
        elif entry["level"] == "warning":
            self.warnings.append(text)

    def foreign(self) -> list[str]:
        """Requests to any other origin than the page's own."""
        return [url for url in self.requests if not url.startswith(self.origin + "/")]

    def problems(self) -> list[str]:
        """Everything a clean page must not show; `[]` when all is well."""
        foreign = [f"foreign request: {url}" for url in self.foreign()]
        return self.errors + self.warnings + self.failed + foreign


def utf16_offset(text: str, offset: int) -> int:
    """The JavaScript index of Python index `offset` into `text`.

    Past the end too: a chunk's end offset may count the line feed the chunker adds after
    the last line, and each astral character before it still counts twice.
    """
    units = len(text[:offset].encode("utf-16-le", "surrogatepass")) // 2
    return units + max(0, offset - len(text))


def read_reply(reply: bytes) -> tuple[list[int], str, Any]:
    """The ints, the ASCII text and the JSON of a `chunker.bridge.handle` reply, read as
    chunker.js reads them: two little-endian counts, that many 32-bit ints and characters of
    ASCII, then the JSON."""
    count, length = (int.from_bytes(reply[at : at + 4], "little") for at in (0, 4))
    ends = range(12, 12 + 4 * count, 4)
    ints = [int.from_bytes(reply[end - 4 : end], "little", signed=True) for end in ends]
    text = reply[8 + 4 * count :].decode("ascii")
    return ints, text[:length], json.loads(text[length:])


@pytest.fixture
def new_page(browser: Any, site_url: str) -> Iterator[Any]:
    """A factory of fresh pages, each in its own context with a `Recorder` attached.

    Call `page, recorder = new_page()`; the contexts close after the test.
    """
    contexts = []

    def make(**context_options: Any) -> tuple[Any, Recorder]:
        context = browser.new_context(**context_options)
        contexts.append(context)
        page = context.new_page()
        return page, Recorder(site_url).attach(page)

    yield make
    for context in contexts:
        context.close()


LOAD_FACADE = """async (timeoutMs) => {
  const { loadChunker } = await import('/chunker.js');
  const stages = [];
  window.api = await loadChunker({ timeoutMs, onProgress: (p) => stages.push(p) });
  return stages;
}"""


@pytest.fixture(scope="module")
def chunker_session(browser: Any, site_url: str) -> Iterator[tuple[Any, Recorder, list]]:
    context = browser.new_context()
    page = context.new_page()
    recorder = Recorder(site_url).attach(page)
    page.goto(f"{site_url}/_test/blank.html")
    stages = page.evaluate(LOAD_FACADE, BOOT_TIMEOUT_MS)
    yield page, recorder, stages
    context.close()


@pytest.fixture
def chunker_page(chunker_session: tuple[Any, Recorder, list]) -> Any:
    """The module's page with the facade ready as `window.api` (Pyodide booted once)."""
    return chunker_session[0]


@pytest.fixture
def chunker_recorder(chunker_session: tuple[Any, Recorder, list]) -> Recorder:
    """The recorder of `chunker_page`, attached before it first navigated."""
    return chunker_session[1]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The wheel's checks are quick and explain a broken browser test: run them first.
    items.sort(key=lambda item: not item.nodeid.startswith("tests/test_wheel"))
