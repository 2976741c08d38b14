"""The suite's pytest fixtures and hooks, and its Hypothesis profile (helpers: tests/support/).

- Hypothesis: one profile for every property test, "ci" when CI=true, "dev" otherwise.
- `tarball`: the npm package (tools/package.py), built once.
- `site_url`: site/ (brought up to date once) served by build.py's own server
  (tools/server.py) on a free 127.0.0.1 port, with tests/pages/ at /_test/.
- `browser`: headless Chromium through Playwright, Debian's /usr/bin/chromium when present,
  one per test module.
- `new_page`: fresh pages, each with a `support.recorder.Recorder` attached.
- `chunker_page`: one page per test module with the facade loaded as `window.api`, so
  Pyodide boots once per module; `chunker_recorder` is its recorder.

The core tests (tests/core/) need none of these: build.py's modules (tools/, which need
Python 3.11+) and Playwright are imported by the fixtures that use them, so the core suite
runs on Python 3.10 and without Node or Chromium (`python3 build.py test --core`).

Each folder of tests/ is a layer, and its tests carry its marker (registered in
pyproject.toml), put on here by folder: `-m core`, `-m "not playground"` select by layer
without anyone marking a test. Tests marked `network` ask the package registries; they run
only with `--network`.

Pages run under the site's CSP, which forbids `eval`; `page.evaluate` goes over CDP and is
not bound by it, so tests drive pages with it (and not `wait_for_function`, which evals).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from support.facade import BOOT_TIMEOUT_MS, LOAD_FACADE
from support.paths import LAYERS, ROOT, TESTS
from support.recorder import Recorder

sys.path.insert(0, str(ROOT))  # chunker/ and build.py's modules (tools/), as from the root

# No deadline: speed is measured in the benchmarks, and a loaded machine would fail an example
# that is merely slow. CI explores fresh examples on every run like a developer's machine does,
# with no example database to keep (its checkout is thrown away) and the seed of a failure
# printed, so that `@reproduce_failure` replays it anywhere.
settings.register_profile("dev", max_examples=300, deadline=None)
settings.register_profile("ci", parent=settings.get_profile("dev"), database=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") == "true" else "dev")


@pytest.fixture(scope="session")
def built_site() -> Path:
    """site/, brought up to date once per session (quick when nothing changed)."""
    from tools.site import build_web

    return build_web()


@pytest.fixture(scope="session")
def tarball() -> Path:
    """The npm package, dist/chunker-web-<version>.tgz, built once per session."""
    from tools.package import build_package

    return build_package()


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The origin serving the built site, e.g. `http://127.0.0.1:40123` (no trailing /)."""
    from support.serving import serving

    with serving() as origin:
        yield origin


# Per module, not per session: Playwright's sync API runs an event loop in this thread while
# it is open, and `asyncio.run()` in a later test (or another module's Playwright) would fail.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    from tools.chromium import chromium_options

    # A renderer that crashes ("Target crashed", seen twice in full runs, never alone) says why
    # on the browser's standard error: Playwright's driver passes it on with DEBUG=pw:browser,
    # and pytest shows it under a failing test only.
    options = chromium_options()
    options["args"] = [*options["args"], "--enable-logging=stderr"]
    with pytest.MonkeyPatch.context() as env:
        # Read as the driver starts; a developer's own DEBUG namespaces are kept.
        env.setenv("DEBUG", ",".join(filter(None, [os.environ.get("DEBUG"), "pw:browser"])))
        playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(**options)
        yield browser
        browser.close()
    finally:
        playwright.stop()


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


@pytest.fixture(scope="module")
def booted(browser: Any, site_url: str) -> Iterator[Any]:
    """The playground booted once for a module, the clipboard allowed: a
    `support.playground.Booted`. A module that needs it opened otherwise (another query, a
    script run before the page's own) defines its own `booted` with `booted_playground`."""
    from support.playground import CLIPBOARD, booted_playground

    with booted_playground(browser, site_url, permissions=CLIPBOARD) as booted:
        yield booted


@pytest.fixture
def page(booted: Any) -> Iterator[Any]:
    """The page of the module's `booted` playground; the test fails if the page reports any
    problem while it runs."""
    seen = len(booted.recorder.problems())
    yield booted.page
    assert booted.recorder.problems()[seen:] == [], "the page reported problems"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--network",
        action="store_true",
        help="also run the tests marked `network`, which ask PyPI and npm over the network",
    )


# First, so that `-m` (pytest's own hook) sees the markers put on here.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        layer = item.path.relative_to(TESTS).parts[0]
        if layer in LAYERS:
            item.add_marker(layer)
    if not config.getoption("--network"):
        kept = [item for item in items if item.get_closest_marker("network") is None]
        if len(kept) < len(items):
            config.hook.pytest_deselected(items=[item for item in items if item not in kept])
            items[:] = kept
    # The wheel's checks are quick and explain a broken browser test: run them first.
    items.sort(key=lambda item: not item.nodeid.startswith("tests/tools/test_wheel.py"))


@pytest.fixture
def scheme(page, request):
    """The page in the colour scheme `request.param`, back to light afterwards (a
    parametrized test names it: `@pytest.mark.parametrize("scheme", [...], indirect=True)`)."""
    page.emulate_media(color_scheme=request.param)
    yield request.param
    page.emulate_media(color_scheme="light")
