"""`LexicalIndex`'s speed: in CPython, in the worker through the facade, and the playground's
search on a large document.

    python tests/bench/search.py [--runs N] [--cpython-only] [--before SITE]

Documents: the chunks `SemanticChunker()` cuts from the technical guide sample repeated to
1 MB and 5 MB (the playground's sample, as tests/bench/playground.py uses it).

1. CPython: indexing the chunks (`add_documents`), against reading their words alone
   (`lexical_tokens` on each, the floor any index of these words pays); a query of three
   words, any and all; the same as a prefix query, the first after indexing (which sorts the
   vocabulary) and later ones.
2. The worker, through the facade (`api.LexicalIndex` in Chromium): the same, from the page's
   call to its answer, the chunks' texts crossing into the worker included.
3. The playground, on the 5 MB document: from focusing the query box to the chunks indexed;
   a query typed one key at a time, then from the search's start to its best 20 hits drawn
   with snippets and marks (the page's own measure), and from the last key to those hits
   painted (the 150 ms pause the page waits for typing to stop included); and the longest
   the page's main thread was busy at once while typing (long tasks, and the slowest key's
   event handling), which says whether typing was ever held up.

Each figure is the median of N runs (5 unless given) after a warm-up. With `--before SITE`
(a site built from another commit, say main's) its page takes turns with ours, run by run,
and each figure is given for both: on a shared machine only figures taken side by side
compare.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS.parent), str(TESTS)]

from chunker import LexicalIndex, SemanticChunker, lexical_tokens  # noqa: E402

GUIDE = (TESTS.parent / "web/samples/indexer-guide.md").read_text(encoding="utf-8")
SIZES = {"1 MB": 1_000_000, "5 MB": 5_000_000}
QUERY = "chunk overlap tokens"
PREFIX_QUERY = "chun over tok"


def document(size: int) -> str:
    return (GUIDE * (size // len(GUIDE) + 1))[:size]


def median_ms(call: Callable[[], object], runs: int, warm: bool = True) -> float:
    if warm:
        call()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def cpython(runs: int) -> None:
    print(f"CPython {platform.python_version()}, medians of {runs} runs, milliseconds\n")
    print(
        f"{'chunks of':<10} {'chunks':>7} {'words':>9} {'index':>8} {'words alone':>12} "
        f"{'any':>7} {'all':>7} {'prefix 1st':>11} {'prefix':>7}"
    )
    for name, size in SIZES.items():
        chunks = SemanticChunker().chunk(document(size))
        docs = [{"id": str(chunk.index), "text": chunk.text} for chunk in chunks]

        def build() -> LexicalIndex:
            index = LexicalIndex()
            index.add_documents(docs)
            return index

        indexing = median_ms(build, runs)
        words = median_ms(lambda: [lexical_tokens(doc["text"]) for doc in docs], runs)
        index = build()
        any_ms = median_ms(lambda: index.search(QUERY, 20), runs)
        all_ms = median_ms(lambda: index.search(QUERY, 20, match="all"), runs)
        firsts = []
        for _ in range(runs):
            fresh = build()
            started = time.perf_counter()
            fresh.search(PREFIX_QUERY, 20, prefix=True)
            firsts.append((time.perf_counter() - started) * 1000)
        prefix_ms = median_ms(lambda: index.search(PREFIX_QUERY, 20, prefix=True), runs)
        count = index.stats().average_length * len(index)
        print(
            f"{name:<10} {len(chunks):>7,} {count:>9,.0f} {indexing:>8.0f} {words:>12.0f} "
            f"{any_ms:>7.1f} {all_ms:>7.1f} {statistics.median(firsts):>11.1f} "
            f"{prefix_ms:>7.1f}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument("--cpython-only", action="store_true", help="skip the browser")
    parser.add_argument("--before", type=Path, help="a site built from another commit, to compare")
    args = parser.parse_args()
    cpython(args.runs)
    if not args.cpython_only:
        browser(args.runs, args.before)
    return 0


# In the page: the chunks of `text`, then `runs` fresh indexes of them (after a warm-up)
# and searches on the last; milliseconds from each call to its answer.
WORKER_RUNS = """async ([text, runs, query, prefixQuery]) => {
  const chunks = await new api.SemanticChunker().chunk(text);
  const docs = chunks.map((chunk) => ({ id: String(chunk.index), text: chunk.text }));
  const timed = async (call) => { const t = performance.now(); await call();
                                  return performance.now() - t; };
  const indexing = [];
  let index;
  for (let run = 0; run <= runs; run += 1) {
    await index?.dispose();
    index = new api.LexicalIndex();
    await index.stats(); // made before the clock starts
    const took = await timed(() => index.addDocuments(docs));
    if (run) indexing.push(took);
  }
  const times = { indexing, any: [], all: [], prefixFirst: [], prefix: [] };
  for (let run = 0; run <= runs; run += 1) {
    const any = await timed(() => index.search(query, 20));
    const all = await timed(() => index.search(query, 20, { match: 'all' }));
    await index.addDocument('extra', 'a word more'); // the vocabulary changes
    const first = await timed(() => index.search(prefixQuery, 20, { prefix: true }));
    const later = await timed(() => index.search(prefixQuery, 20, { prefix: true }));
    if (run) {
      times.any.push(any); times.all.push(all);
      times.prefixFirst.push(first); times.prefix.push(later);
    }
  }
  await index.dispose();
  return { count: chunks.length, times };
}"""

# Watches the page's main thread while typing: long tasks (over 50 ms) and key events
# slower than 16 ms to handle, as the browser records them.
WATCH = """() => {
  window.__busy = { long: [], events: [] };
  new PerformanceObserver((list) => window.__busy.long.push(
    ...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  new PerformanceObserver((list) => window.__busy.events.push(
    ...list.getEntries().map((e) => e.duration)))
    .observe({ type: 'event', durationThreshold: 16 });
}"""

QUERIES = ["chunk overlap", "tokens budget", "retrieval index", "headings code", "model cost"]


def browser(runs: int, before: Path | None) -> None:
    from playwright.sync_api import sync_playwright
    from support.playground import open_playground, settled, wait_until

    from tools.chromium import chromium_options
    from tools.paths import SITE
    from tools.server import served
    from tools.site import build_web

    build_web()
    mounts = {"/": SITE, **({"/_before/": before} if before else {})}
    with served(mounts) as origin, sync_playwright() as playwright:
        chromium = playwright.chromium.launch(**chromium_options())
        pages = {"ours": open_playground(chromium, origin)}
        if before:
            pages["before"] = open_playground(chromium, origin, "_before/")
        for page, _, _ in pages.values():
            page.evaluate("window.chunkerReady.then((api) => { window.api = api; })")
        print(f"\nThe worker through the facade (Chromium), medians of {runs} runs, ms\n")
        print(
            f"{'chunks of':<18} {'chunks':>7} {'index':>8} {'any':>7} {'all':>7} "
            f"{'prefix 1st':>11} {'prefix':>7}"
        )
        for name, size in SIZES.items():
            text = document(size)
            times: dict[str, dict[str, list[float]]] = {which: {} for which in pages}
            count = 0
            for _ in range(runs):  # the pages take turns, a run each
                for which, (page, _, _) in pages.items():
                    got = page.evaluate(WORKER_RUNS, [text, 1, QUERY, PREFIX_QUERY])
                    count = got["count"]
                    for key, values in got["times"].items():
                        times[which].setdefault(key, []).extend(values)
            for which, measured in times.items():
                medians = {key: statistics.median(values) for key, values in measured.items()}
                label = name if which == "ours" else f"{name}, before"
                print(
                    f"{label:<18} {count:>7,} {medians['indexing']:>8.0f} "
                    f"{medians['any']:>7.1f} {medians['all']:>7.1f} "
                    f"{medians['prefixFirst']:>11.1f} {medians['prefix']:>7.1f}"
                )
        playground(pages, runs, settled, wait_until)
        for _page, recorder, _ in pages.values():
            if recorder.problems():
                raise SystemExit(f"the page reported problems: {recorder.problems()}")
        chromium.close()


def playground(pages: dict[str, Any], runs: int, settled: Any, wait_until: Any) -> None:
    """The playground's search on the 5 MB document, as a user types; the pages in turn."""
    from support.playground import put_text

    text = document(SIZES["5 MB"])
    chunks = ""
    for page, _, _ in pages.values():
        before = int(page.evaluate("Number(document.body.dataset.runs || 0)"))
        put_text(page, text)
        settled(page, before, timeout=600)
        chunks = page.text_content('#stats [data-stat="count"] dd')
        page.evaluate(WATCH)
        page.evaluate(PAINTED)
        # A plain input beside the query box, for the floor: the same keys, in the same
        # place of the page's layout, no search behind them.
        page.evaluate(
            "document.getElementById('query').after(Object.assign("
            "document.createElement('input'), { id: 'bench-plain' }))"
        )
    figures = {
        which: {
            "indexing": [],
            "drawn": [],
            "walls": [],
            "painted": [],
            "long": [],
            "events": [],
            "plainLong": [],
            "plainEvents": [],
        }
        for which in pages
    }
    for number, query in enumerate(QUERIES[: max(runs, 1)]):
        for which, (page, _, _) in pages.items():
            typing_round(page, number, query, figures[which], settled, wait_until)
    print(f"\nThe playground, 5 MB ({chunks} chunks), medians of {min(runs, len(QUERIES))}, ms")
    for which, got in figures.items():
        print(f"\n{'ours' if which == 'ours' else 'before (--before)'}")
        median = statistics.median
        print(f"{'indexing the chunks (focus to indexed)':<52} {median(got['indexing']):>7.0f}")
        print(f"{'a query: search start to 20 hits drawn':<52} {median(got['drawn']):>7.0f}")
        print(
            f"{'the last key to its hits drawn (150 ms debounce)':<52} {median(got['walls']):>7.0f}"
        )
        print(
            f"{'the last key to its hits painted (150 ms debounce)':<52} "
            f"{median(got['painted']):>7.0f}"
        )
        for label, long, events in (
            ("typing into the query box", "long", "events"),
            ("typing into a plain input beside it (the floor)", "plainLong", "plainEvents"),
        ):
            print(
                f"{label:<52} longest task {max(got[long], default=0):>5.0f} "
                f"({len(got[long])} over 50 ms), slowest key "
                f"{max(got[events], default=0):>5.0f} ({len(got[events])} over 16 ms)"
            )


# The time of the last key typed into the query box, and of the first paint after the
# search's results change (a frame, then a task after it): `__painted - __lastKey`.
PAINTED = """() => {
  const query = document.getElementById('query');
  query.addEventListener('keydown', () => { window.__lastKey = performance.now(); }, true);
  new MutationObserver(() => requestAnimationFrame(() => setTimeout(() => {
    window.__painted = performance.now();
  }))).observe(document.getElementById('search-results'), { childList: true });
}"""


def typing_round(
    page: Any,
    number: int,
    query: str,
    got: dict[str, list[float]],
    settled: Any,
    wait_until: Any,
) -> None:
    """New chunks, the query box focused (the page indexes them), then `query` typed."""
    # A new target size makes new chunks, which the page indexes again once the query box
    # has the focus.
    page.evaluate("delete document.body.dataset.indexMs")
    before = int(page.evaluate("Number(document.body.dataset.runs || 0)"))
    page.fill("#query", "")
    page.fill("#setting-targetSize", str(1000 + 10 * (number + 1)))
    settled(page, before, timeout=600)
    page.focus("#query")
    got["indexing"].append(float(wait_until(page, "document.body.dataset.indexMs", 600)))
    page.focus("#bench-plain")
    page.evaluate("window.__busy.long.length = window.__busy.events.length = 0")
    page.keyboard.type(query, delay=40)
    page.wait_for_timeout(600)
    plain = page.evaluate("window.__busy")
    got["plainLong"] += plain["long"]
    got["plainEvents"] += plain["events"]
    page.focus("#query")
    page.evaluate("window.__busy.long.length = window.__busy.events.length = 0")
    searched = int(page.evaluate("Number(document.body.dataset.searches || 0)"))
    page.keyboard.type(query, delay=40)
    typed = time.perf_counter()
    wait_until(
        page,
        f"Number(document.body.dataset.searches || 0) > {searched} && "
        f"document.getElementById('query').value === {query!r}",
        600,
    )
    # The search of the whole query, not of a prefix typed before it: wait for calm.
    count, stamp = -1, typed
    while count != page.evaluate("Number(document.body.dataset.searches)"):
        count = page.evaluate("Number(document.body.dataset.searches)")
        stamp = time.perf_counter()
        page.wait_for_timeout(400)
    got["walls"].append((stamp - typed) * 1000)
    got["drawn"].append(float(page.evaluate("document.body.dataset.searchMs")))
    got["painted"].append(float(page.evaluate("window.__painted - window.__lastKey")))
    searching = page.evaluate("window.__busy")
    got["long"] += searching["long"]
    got["events"] += searching["events"]


if __name__ == "__main__":
    sys.exit(main())
