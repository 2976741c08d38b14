"""A visit as the browser benches make one: a fresh profile, a first visit that stays on its
page as a visitor's would before the repeat visit, and the facade's kept snapshot awaited."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tools.chromium import chromium_options

# A first visit's time on the page after ready, before the repeat visit, the same for every
# page: Chromium keeps a page's compiled WebAssembly for the next visit only once V8 has
# optimized enough of it, in the background, so a first visit left at once makes a repeat
# visit no visitor makes, and one that stays longer (to keep its snapshot) is favoured by it.
DWELL_MS = 5000
# In the page: whether the facade's worker has kept its snapshot yet (worker-snapshot.js).
SNAPSHOT_KEPT = """async () =>
  (await (await caches.open('chunker-snapshot')).keys()).length > 0"""


@contextmanager
def fresh_tab(playwright: Any) -> Iterator[Any]:
    """The tab of a browser with a new empty profile (a first visit's), closed after."""
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(profile, **chromium_options())
        try:
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()


def stay(tab: Any, keeps: bool) -> None:
    """A first visit just ready stays on its page DWELL_MS, or until its worker has kept its
    snapshot when it `keeps` one, whichever is later."""
    left = time.perf_counter() + DWELL_MS / 1000
    if keeps:
        wait_for_snapshot(tab)
    tab.wait_for_timeout(max(0.0, left - time.perf_counter()) * 1000)


def wait_for_snapshot(tab: Any) -> None:
    """Wait until the first visit's worker has kept its snapshot (it does so after ready)."""
    for _ in range(300):
        if tab.evaluate(SNAPSHOT_KEPT):
            return
        tab.wait_for_timeout(100)
    raise RuntimeError("the facade kept no snapshot within 30 s")
