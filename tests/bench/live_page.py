"""`LiveDocument` in the browser: an edit in the worker beside a full cut there, and a key
typed into 5 MB in the playground.

    python tests/bench/live_page.py [--keys N] [--runs N] [--before SITE] [--rounds N]

1. The facade, in a page of its own: `LiveDocument.edit` of one character (typed or deleted
   at a seeded random place, in turns, so the text stays its size) in 5 MB of Markdown
   (tests/bench/core.py's corpus), beside `new SemanticChunker().chunk(text)` of the same
   text (the text already in the worker, as a page re-cutting its text sends it). Medians;
   the target is at most 1/20.
2. The playground, the technical guide sample repeated to 5 MB, its search index made (the
   query box focused): a key typed in the middle of the text, one about every 300 ms. Per
   key: "redrawn", from the key's edit reaching the page to the changed chunks drawn
   (`data-last-run-ms`: the worker's edit in it, and whatever held the page's thread
   meanwhile, the browser's own layout of the text box mostly); "indexed", from the input
   event to the index edited by the chunks removed and added; "the page's own work", the
   page's JavaScript for the key, the waits for the worker left out (`data-last-live-work-ms`);
   "redraw", its part after the worker's answer; and the browser's own edit of the text box
   (Event Timing: keypress's processing less the handlers nested in it, as
   tests/bench/playground.py measures it). The target: the page's own work within 16 ms.

With `--before SITE` (a site built from another commit, say main's), that site's facade and
playground take their turn beside this commit's, in each of `--rounds` rounds (1 unless
given), so that old and new are compared under the same load; the figures of each round are
printed as it ends, and the medians over the rounds at the end.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS.parent), str(TESTS), str(TESTS / "bench")]

from core import markdown_corpus  # noqa: E402
from playground import WATCH, per_key  # noqa: E402
from support.facade import BOOT_TIMEOUT_MS, LOAD_FACADE  # noqa: E402
from support.playground import (  # noqa: E402
    GUIDE,
    open_playground,
    put_text,
    runs,
    settled,
    wait_until,
)
from support.serving import MOUNTS  # noqa: E402

from tools.chromium import chromium_options  # noqa: E402
from tools.server import served  # noqa: E402
from tools.site import build_web  # noqa: E402

SIZE = 5_000_000

# The `--before` site's facade, as LOAD_FACADE loads this commit's.
LOAD_BEFORE = """async (timeoutMs) => {
  const { loadChunker } = await import('/_before/chunker.js');
  window.api = await loadChunker({ baseUrl: '/_before/', timeoutMs });
}"""

# Times `edits` ([start, end, replacement], JavaScript indices) on a LiveDocument of `text`,
# and `runs` full cuts of it; answers the milliseconds of each.
IN_THE_WORKER = """async ([text, edits, runs]) => {
  const chunker = new api.SemanticChunker();
  await chunker.chunk(text);  // the text into the worker; a warm-up
  const full = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await chunker.chunk(text);
    full.push(performance.now() - started);
  }
  const doc = new api.LiveDocument(text);
  await doc.chunks();
  const edit = [];
  for (const [start, end, replacement] of edits) {
    const started = performance.now();
    await doc.edit(start, end, replacement);
    edit.push(performance.now() - started);
  }
  const count = (await doc.chunks()).length;
  await doc.dispose();
  return { full, edit, count };
}"""

# The input event's time stamp of each key, and when the index was edited after it.
WATCH_KEYS = """() => {
  window.benchInputs = [];
  document.getElementById('text').addEventListener('input', (event) => {
    benchInputs.push(event.timeStamp);
  }, {capture: true});
}"""


def typing_edits(text: str, keys: int) -> list[list[object]]:
    """`keys` edits of one character, at seeded random places, in JavaScript indices."""
    rng = random.Random(46)
    edits: list[list[object]] = []
    length = len(text.encode("utf-16-le")) // 2
    for number in range(keys):
        at = rng.randrange(length // 10, length - length // 10)
        # Typed, then deleted: the text stays its size. Not inside a surrogate pair: the
        # corpus's one emoji is far from most places, and a place next to it moves on.
        edits.append([at, at, "x"] if number % 2 == 0 else [edits[-1][0], edits[-1][0] + 1, ""])
    return edits


def worker_figures(browser, origin: str, load: str, text: str, keys: int, runs: int) -> dict:
    """A facade's full cuts and edits of `text` (its medians, ms, and its chunks)."""
    page = browser.new_page()
    page.goto(f"{origin}/_test/blank.html")
    page.evaluate(load, BOOT_TIMEOUT_MS)
    got = page.evaluate(IN_THE_WORKER, [text, typing_edits(text, keys), runs])
    page.close()
    edit = sorted(got["edit"])
    return {
        "chunks": got["count"],
        "full": statistics.median(got["full"]),
        "edit": statistics.median(edit),
        "p90": edit[int(len(edit) * 0.9)],
        "most": edit[-1],
    }


PAGE_FIGURES = {
    "redrawn": "redrawn (input event to chunks drawn)",
    "indexed": "indexed (input event to index edited)",
    "work": "the page's own work (its JavaScript, no wait)",
    "redraw": "redraw (the page's JavaScript after the answer)",
    "browser": "the browser's own edit of the text box",
}


def page_figures(browser, origin: str, path: str, keys: int) -> dict[str, list[float]]:
    """A playground's figures for `keys` keys typed into 5 MB (each key's, ms)."""
    page, _, _ = open_playground(browser, origin, path)
    text = (GUIDE * (SIZE // len(GUIDE) + 1))[:SIZE]
    before = runs(page)
    put_text(page, text)
    settled(page, before, timeout=600)
    page.focus("#query")
    wait_until(page, "document.body.dataset.indexMs !== undefined", timeout=600)
    page.evaluate(WATCH)
    page.evaluate(WATCH_KEYS)
    middle = text.index("\n\n", len(text) // 2)
    at = middle + sum(1 for char in text[:middle] if ord(char) > 0xFFFF)
    page.eval_on_selector("#text", f"(t) => {{ t.focus(); t.setSelectionRange({at}, {at}); }}")
    # The first key makes the page's LiveDocument (a full cut in the worker): not counted.
    page.keyboard.press("x")
    wait_until(page, "Number(document.body.dataset.indexEdits || 0) >= 1", timeout=600)
    time.sleep(1)
    page.evaluate("benchEvents.length = 0; benchInputs.length = 0")
    figures: dict[str, list[float]] = {name: [] for name in PAGE_FIGURES}
    for number in range(keys):
        done, edits = runs(page), int(page.evaluate("document.body.dataset.indexEdits"))
        page.keyboard.press("y" if number % 2 else "z")
        wait_until(
            page,
            f"Number(document.body.dataset.runs) > {done}"
            f" && Number(document.body.dataset.indexEdits) > {edits}",
            timeout=60,
        )
        key = page.evaluate(
            """() => [Number(document.body.dataset.lastRunMs),
                      Number(document.body.dataset.indexEditedAt) - benchInputs.at(-1),
                      Number(document.body.dataset.lastLiveWorkMs),
                      Number(document.body.dataset.lastDrawMs)]"""
        )
        for name, value in zip(("redrawn", "indexed", "work", "redraw"), key, strict=True):
            figures[name].append(value)
        time.sleep(0.3)
    figures["browser"] = per_key(page.evaluate("benchEvents"))["edit"]
    page.context.close()
    return figures


def report(name: str, worker: list[dict], keyed: list[dict[str, list[float]]]) -> None:
    """`name`'s figures: the worker's medians over the rounds, each key's over all keys."""
    full = statistics.median(figures["full"] for figures in worker)
    edit = statistics.median(figures["edit"] for figures in worker)
    verdict = "met" if edit * 20 <= full else "NOT met"
    print(f"{name}: the facade, 5 MB of Markdown ({worker[0]['chunks']:,} chunks), ms:")
    print(f"  full SemanticChunker().chunk   {full:9.1f}")
    print(
        f"  LiveDocument.edit, one char    {edit:9.2f} median, "
        f"{statistics.median(r['p90'] for r in worker):.2f} p90, "
        f"{max(r['most'] for r in worker):.2f} at most"
    )
    print(f"  edit / full cut                1/{full / edit:.1f} (target 1/20: {verdict})")
    print(f"{name}: the playground, a key typed into 5 MB, ms, median / p90 / at most:")
    for key, label in PAGE_FIGURES.items():
        values = sorted(value for figures in keyed for value in figures[key])
        if values:
            print(
                f"  {label:<50} {statistics.median(values):7.1f} / "
                f"{values[int(len(values) * 0.9)]:7.1f} / {values[-1]:7.1f}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=30, help="keys or edits (default 30)")
    parser.add_argument("--runs", type=int, default=5, help="full cuts (default 5)")
    parser.add_argument("--before", type=Path, help="a site built from another commit, to compare")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of each site (default 1)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    build_web()
    text = markdown_corpus(SIZE)
    # Each site: how its facade is loaded in a blank page, and where its playground is.
    sites = {"this commit": (LOAD_FACADE, "")}
    mounts = dict(MOUNTS)
    if args.before:
        sites["before (--before)"] = (LOAD_BEFORE, "_before/")
        mounts["/_before/"] = args.before
    worker: dict[str, list[dict]] = {name: [] for name in sites}
    keyed: dict[str, list[dict[str, list[float]]]] = {name: [] for name in sites}
    print(f"{platform.machine()}, load {os.getloadavg()[0]:.1f}")
    with served(mounts) as origin, sync_playwright() as playwright:
        browser = playwright.chromium.launch(**chromium_options())
        for number in range(args.rounds):
            for name, (load, path) in sites.items():
                worker[name].append(
                    worker_figures(browser, origin, load, text, args.keys, args.runs)
                )
                keyed[name].append(page_figures(browser, origin, path, args.keys))
                figures = worker[name][-1]
                print(
                    f"round {number + 1}, {name}: full cut {figures['full']:.1f} ms, edit "
                    f"{figures['edit']:.2f} ms (1/{figures['full'] / figures['edit']:.1f}), "
                    f"the page's own work {statistics.median(keyed[name][-1]['work']):.1f} ms; "
                    f"load {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
        browser.close()
    for name in sites:
        report(name, worker[name], keyed[name])
    print(f"load {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
