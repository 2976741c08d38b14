"""The playground's figures, in headless Chromium against the built site.

    python tests/bench/playground.py [--runs N] [--before SITE] [--sizes 1MB ...]

- time to ready: from navigation to the facade ready and the controls enabled, each run in a
  fresh browser context (an empty cache, as a first visit);
- slider to redrawn result: a target-size slider moved one step with the keyboard, until the
  page has redrawn the stats, histogram, list and the visible part of the document, on the
  technical guide sample repeated to 100 KB, 1 MB and 5 MB. "page" is the page's own
  measure (from the input event to the end of the redraw); "wall" adds the round trips of
  the browser protocol, as seen from here.

Each figure is the median of N runs (5 unless given), after one warm-up for the sliders.
With `--before SITE` (a site built from another commit, say main's), that site's playground
takes its turn beside each slider step, so old and new are compared under the same load.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS.parent), str(TESTS)]  # tools/, chunker/ and support/

from support.playground import ROOT, open_playground, runs, settled  # noqa: E402

from tools.chromium import chromium_options  # noqa: E402
from tools.paths import SITE  # noqa: E402
from tools.server import served  # noqa: E402
from tools.site import build_web  # noqa: E402

GUIDE = (ROOT / "web/samples/indexer-guide.md").read_text(encoding="utf-8")
SIZES = {"100 KB": 100_000, "1 MB": 1_000_000, "5 MB": 5_000_000}


def document(size: int) -> str:
    return (GUIDE * (size // len(GUIDE) + 1))[:size]


def time_to_ready(browser, origin: str, count: int) -> list[float]:
    times = []
    for _ in range(count):
        page, recorder, _ = open_playground(browser, origin)
        times.append(float(page.evaluate("document.body.dataset.readyMs")))
        if recorder.problems():
            raise SystemExit(f"the page reported problems: {recorder.problems()}")
        page.context.close()
    return times


def show(page, text: str) -> None:
    """Put `text` in the playground as a paste would, wait for its result, focus the slider."""
    before = runs(page)
    page.eval_on_selector(
        "#text",
        """(area, text) => {
          area.value = text;
          area.dispatchEvent(new InputEvent('input', {bubbles: true}));
        }""",
        text,
    )
    settled(page, before, timeout=600)


def slider_step(page, step: int) -> tuple[float, float]:
    """One step of the target-size slider by keyboard: the page's ms and the wall ms."""
    page.focus("#setting-targetSize-slider")
    before = runs(page)
    started = time.perf_counter()
    page.keyboard.press("ArrowRight" if step % 2 else "ArrowLeft")
    settled(page, before, timeout=600)
    outside = (time.perf_counter() - started) * 1000
    return float(page.evaluate("document.body.dataset.lastRunMs")), outside


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument("--before", type=Path, help="a site built from another commit, to compare")
    parser.add_argument("--sizes", nargs="*", choices=list(SIZES), default=list(SIZES))
    parser.add_argument("--no-ready", action="store_true", help="skip the time to ready")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    build_web()
    print(f"Playground in Chromium, {platform.machine()}, medians of {args.runs} runs\n")
    mounts = {"/": SITE, **({"/_before/": args.before} if args.before else {})}
    with served(mounts) as origin, sync_playwright() as playwright:
        browser = playwright.chromium.launch(**chromium_options())
        if not args.no_ready:
            ready = time_to_ready(browser, origin, args.runs)
            print(f"{'time to ready (navigation to controls enabled)':<48} "
                  f"{statistics.median(ready):>8.0f} ms   "
                  f"(min {min(ready):.0f}, max {max(ready):.0f})")
        pages = {"ours": open_playground(browser, origin)}
        if args.before:
            pages["before"] = open_playground(browser, origin, "_before/")
        print(f"\n{'slider step to redrawn result':<32} {'page':>10} {'wall':>10}")
        for name in args.sizes:
            text = document(SIZES[name])
            for page, _, _ in pages.values():
                show(page, text)
            times = {which: ([], []) for which in pages}
            for step in range(args.runs + 1):  # the first is a warm-up
                for which, (page, _, _) in pages.items():  # in turn: the same load
                    inside, outside = slider_step(page, step)
                    if step:
                        times[which][0].append(inside)
                        times[which][1].append(outside)
            for which, (inside, outside) in times.items():
                label = name if which == "ours" else f"{name}, before"
                print(f"{label:<32} {statistics.median(inside):>7.0f} ms "
                      f"{statistics.median(outside):>7.0f} ms")
            sys.stdout.flush()
        for page, recorder, _ in pages.values():
            if recorder.problems():
                raise SystemExit(f"the page reported problems: {recorder.problems()}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
