"""`LiveDocument` in the browser: an edit in the worker beside a full cut there, and a key
typed into 5 MB in the playground.

    python tests/bench/live_page.py [--keys N] [--runs N]

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


def worker_figures(browser, origin: str, keys: int, runs: int) -> None:
    text = markdown_corpus(SIZE)
    rng = random.Random(46)
    edits, length = [], len(text.encode("utf-16-le")) // 2
    for number in range(keys):
        at = rng.randrange(length // 10, length - length // 10)
        # Typed, then deleted: the text stays its size. Not inside a surrogate pair: the
        # corpus's one emoji is far from most places, and a place next to it moves on.
        edits.append([at, at, "x"] if number % 2 == 0 else [edits[-1][0], edits[-1][0] + 1, ""])
    page = browser.new_page()
    page.goto(f"{origin}/_test/blank.html")
    page.evaluate(LOAD_FACADE, BOOT_TIMEOUT_MS)
    got = page.evaluate(IN_THE_WORKER, [text, edits, runs])
    full, edit = statistics.median(got["full"]), statistics.median(got["edit"])
    print(f"the facade, 5 MB of Markdown ({got['count']:,} chunks), ms:")
    print(f"  full SemanticChunker().chunk   {full:9.1f} (median of {runs})")
    p90 = sorted(got["edit"])[int(len(got["edit"]) * 0.9)]
    print(
        f"  LiveDocument.edit, one char    {edit:9.2f} median, {p90:.2f} p90, "
        f"{max(got['edit']):.2f} at most ({keys} edits): 1/{full / edit:.0f} of a full cut"
    )
    page.close()


def page_figures(browser, origin: str, keys: int) -> None:
    page, _, _ = open_playground(browser, origin)
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
    redrawn, indexed, redraw, work = [], [], [], []
    for number in range(keys):
        done, edits = runs(page), int(page.evaluate("document.body.dataset.indexEdits"))
        page.keyboard.press("y" if number % 2 else "z")
        wait_until(
            page,
            f"Number(document.body.dataset.runs) > {done}"
            f" && Number(document.body.dataset.indexEdits) > {edits}",
            timeout=60,
        )
        figures = page.evaluate(
            """() => [Number(document.body.dataset.lastRunMs),
                      Number(document.body.dataset.indexEditedAt) - benchInputs.at(-1),
                      Number(document.body.dataset.lastDrawMs),
                      Number(document.body.dataset.lastLiveWorkMs)]"""
        )
        redrawn.append(figures[0])
        indexed.append(figures[1])
        redraw.append(figures[2])
        work.append(figures[3])
        time.sleep(0.3)
    browser_edit = per_key(page.evaluate("benchEvents"))["edit"]
    print(f"the playground, a key typed into 5 MB ({keys} keys), ms, median / at most:")
    for name, values in (
        ("redrawn (input event to chunks drawn)", redrawn),
        ("indexed (input event to index edited)", indexed),
        ("the page's own work (its JavaScript, no wait)", work),
        ("redraw (the page's JavaScript after the answer)", redraw),
        ("the browser's own edit of the text box", browser_edit),
    ):
        if values:
            print(f"  {name:<50} {statistics.median(values):7.1f} / {max(values):7.1f}")
    page.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=30, help="keys or edits (default 30)")
    parser.add_argument("--runs", type=int, default=5, help="full cuts (default 5)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    build_web()
    print(f"{platform.machine()}, load {os.getloadavg()[0]:.1f}")
    with served(MOUNTS) as origin, sync_playwright() as playwright:
        browser = playwright.chromium.launch(**chromium_options())
        worker_figures(browser, origin, args.keys, args.runs)
        page_figures(browser, origin, args.keys)
        browser.close()
    print(f"load {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
