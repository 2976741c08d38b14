"""The playground's figures, in headless Chromium against the built site.

    python tests/bench/playground.py [--runs N] [--before SITE] [--sizes 1MB ...]

- time to ready: from navigation to the facade ready and the controls enabled, each run in a
  fresh browser profile (a first visit), then again in the same profile (a repeat visit) once
  the first has stayed on the page (visits.py); with `--before SITE`, that site's playground
  takes its turn beside each run;
- slider to redrawn result: a target-size slider moved one step with the keyboard, until the
  page has redrawn the stats, histogram, list and the visible part of the document, on the
  technical guide sample repeated to 100 KB, 1 MB and 5 MB. "page" is the page's own
  measure (from the input event to the end of the redraw); "painted" runs from the key
  event (its time stamp) to the end of the frame after the redraw, in the page's clock: what
  a person waits for; "wall" is the key's round trips through the browser protocol and the
  polling until the page says it is done, as seen from here (no paint in it); "redraw" is
  the part of "page" after the facade's answer became the page's chunks (the rest is that
  call and that step);
- pasting over a text as a person does, Control+A then Control+V with the text on the
  clipboard (the browser's own select-all and paste commands): 1 MB and 5 MB, each over the
  technical guide sample and over 1 MB of text, until the page has painted again, until the
  chunks are redrawn, and the longest stretch the main thread was blocked meanwhile; beside
  the same keys in a bare text area on a blank page (tests/pages/textarea.html);
- typing: a key typed at the end of a 1 MB text, one key about every 150 ms as a person
  types, with the Event Timing API (8 ms steps): from the key to the next frame painted, the
  time in the page's handlers, and the browser's own edit (inserting the character into the
  text area), beside the same keys in a bare text area added to the page;
- opening a file (the file chooser of "Open file…"), by size: the longest stretch the main
  thread was held (a long task, or a long animation frame, which counts the layout of the
  text put in the text box) from the pick to the chunks drawn, in a fresh page each run,
  beside the same text put in a bare text area by a task, as the page puts it: where the text
  box starts to hold the page for seconds, which sets the largest file the page opens
  (web/playground/files.js, MAX_FILE_BYTES; a larger one is refused and shows no figure).

Each figure is the median of N runs (5 unless given), after one warm-up for the sliders.
With `--before SITE` (a site built from another commit, say main's), that site's playground
takes its turn beside each slider step and each ten keys, so old and new are compared under
the same load.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS.parent), str(TESTS)]  # tools/, chunker/ and support/

from support.paths import PAGES  # noqa: E402
from support.playground import (  # noqa: E402
    NEXT_FRAME,
    ROOT,
    STALLS,
    longest_stall,
    open_file,
    open_playground,
    paste_over,
    put_text,
    quiet,
    runs,
    settled,
    stalls_seen,
    wait_until,
)
from support.recorder import Recorder  # noqa: E402
from visits import DWELL_MS, fresh_tab, stay  # noqa: E402

from tools.chromium import chromium_options  # noqa: E402
from tools.paths import SITE  # noqa: E402
from tools.server import served  # noqa: E402
from tools.site import build_web  # noqa: E402

GUIDE = (ROOT / "web/samples/indexer-guide.md").read_text(encoding="utf-8")
SIZES = {"100 KB": 100_000, "1 MB": 1_000_000, "5 MB": 5_000_000}
FILE_SIZES = {"500 KB": 500_000, "1 MB": 1_000_000, "2 MB": 2_000_000, "4 MB": 4_000_000}
CLIPBOARD = ["clipboard-read", "clipboard-write"]
READY_MS = "() => document.body.dataset.readyMs"  # set once the controls are enabled


def document(size: int) -> str:
    return (GUIDE * (size // len(GUIDE) + 1))[:size]


def time_to_ready(
    playwright: Any, origin: str, count: int, sites: list[str]
) -> dict[str, tuple[list[float], list[float]]]:
    """Navigation to ready (the controls enabled) of the playground at each of `sites` (its
    path under `origin`), taking turns, `count` times: a first visit in a fresh profile, and
    a repeat visit in the same profile once the first has stayed (visits.py). Answers each
    site's first visits and repeat visits, ms."""
    times: dict[str, tuple[list[float], list[float]]] = {site: ([], []) for site in sites}
    for _ in range(count):
        for site in sites:
            first, repeat = times[site]
            with fresh_tab(playwright) as page:
                recorder = Recorder(origin).attach(page)
                first.append(ready_ms(page, f"{origin}{site}"))
                stay(page, keeps=True)
                repeat.append(ready_ms(page, f"{origin}{site}"))
                if recorder.problems():
                    raise SystemExit(f"the page reported problems: {recorder.problems()}")
    return times


def ready_ms(page: Any, url: str) -> float:
    """Navigation to ready of the playground at `url`, ms (the page's own measure)."""
    page.goto(url)
    page.wait_for_function(READY_MS, timeout=120_000)
    return float(page.evaluate(READY_MS))


def show(page, text: str) -> None:
    """Put `text` in the playground as a paste would, wait for its result, focus the slider."""
    before = runs(page)
    put_text(page, text)
    settled(page, before, timeout=600)


# Notes, in the page, the time stamp of each key on the slider and the end of the frame after
# each redraw (a redraw sets `data-runs`; a task queued from the next frame's callbacks runs
# once that frame is rendered).
WATCH_PAINT = """() => {
  window.benchKeyAt = null;
  window.benchPaintedAt = null;
  document.getElementById('setting-targetSize-slider').addEventListener('keydown', (event) => {
    benchKeyAt = event.timeStamp;
    benchPaintedAt = null;
  }, {capture: true});
  new MutationObserver(() => requestAnimationFrame(() => setTimeout(() => {
    benchPaintedAt = performance.now();
  }))).observe(document.body, {attributes: true, attributeFilter: ['data-runs']});
}"""


def slider_step(page, step: int) -> tuple[float, float, float, float]:
    """One step of the target-size slider by keyboard: the page's ms, the ms from the key to
    the frame after the redraw, the wall ms, and the page's ms from the chunks' arrival in
    its own shape to the end of the redraw."""
    page.focus("#setting-targetSize-slider")
    before = runs(page)
    started = time.perf_counter()
    page.keyboard.press("ArrowRight" if step % 2 else "ArrowLeft")
    settled(page, before, timeout=600)
    outside = (time.perf_counter() - started) * 1000
    painted = wait_until(page, "benchPaintedAt !== null && benchPaintedAt - benchKeyAt")
    inside, drawing = page.evaluate(
        "[document.body.dataset.lastRunMs, document.body.dataset.lastDrawMs ?? 'NaN']"
    )
    return float(inside), float(painted), outside, float(drawing)


# Long tasks and input events as the page reports them, from here on.
WATCH = """() => {
  window.benchLongTasks = [];
  window.benchEvents = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) benchLongTasks.push(entry.duration);
  }).observe({type: 'longtask'});
  // Every event entry of the keys typed, read per key by `per_key`.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const {name, interactionId, startTime, duration, processingStart, processingEnd} = entry;
      benchEvents.push({name, interactionId, startTime, duration, processingStart, processingEnd});
    }
  }).observe({type: 'event', durationThreshold: 0});
}"""
PASTES = (("1 MB", "the sample"), ("1 MB", "1 MB"), ("5 MB", "the sample"), ("5 MB", "1 MB"))


def pasted_over(page, bare, pasted: str, over: str, count: int) -> dict[str, list[float]]:
    """`pasted` pasted over `over` with the keys (see `paste_over`), `count` times, in the
    page's text area and in the bare one: the ms to the next frame, to the chunks redrawn,
    the longest task meanwhile, and the bare text area's ms to the next frame."""
    figures: dict[str, list[float]] = {"answers": [], "redrawn": [], "blocked": [], "bare": []}
    for _ in range(count):
        before = runs(page)
        paste_over(page, "#text", over)
        settled(page, before, timeout=600)
        page.evaluate("benchLongTasks.length = 0")
        before = runs(page)
        started = time.perf_counter()
        figures["answers"].append(paste_over(page, "#text", pasted))
        settled(page, before, timeout=600)
        figures["redrawn"].append((time.perf_counter() - started) * 1000)
        figures["blocked"].append(max(page.evaluate("benchLongTasks"), default=0))
        paste_over(bare, "#text", over)
        figures["bare"].append(paste_over(bare, "#text", pasted))
    return figures


def file_opened(browser, origin: str, path: Path) -> float | None:
    """The longest stall, in ms, from picking `path` in a fresh playground to its chunks drawn;
    None when the page refuses the file."""
    page, recorder, _ = open_playground(browser, origin, init_script=STALLS)
    try:
        seen = stalls_seen(page)
        before = runs(page)
        open_file(page, path)
        wait_until(
            page,
            "document.getElementById('file-error').textContent !== '' "
            f"|| Number(document.body.dataset.runs) > {before}",
            timeout=600,
        )
        if page.text_content("#file-error"):
            return None
        settled(page, before, timeout=600)
        quiet(page, timeout=600)
        if recorder.problems():
            raise SystemExit(f"the page reported problems: {recorder.problems()}")
        return longest_stall(page, seen)
    finally:
        page.context.close()


def put_by_a_task(bare, text: str) -> float:
    """The longest stall, in ms, of `text` put in the bare text area by a task, to the frame
    after it."""
    seen = stalls_seen(bare)
    bare.evaluate(
        """(text) => new Promise((resolve) => setTimeout(() => {
             document.getElementById('text').value = text;
             requestAnimationFrame(() => setTimeout(resolve));
           }))""",
        text,
    )
    bare.evaluate("new Promise((resolve) => setTimeout(resolve, 200))")  # entries come late
    return longest_stall(bare, seen)


def typing_into(page, selector: str, text: str, count: int) -> dict[str, list[float]]:
    """Per key typed at the end of `text` in `selector`: ms to the next frame painted, ms in
    the page's handlers, and ms of the browser's own edit (see `per_key`)."""
    page.eval_on_selector(selector, "(area, text) => { area.value = text; }", text)
    page.focus(selector)
    page.keyboard.press("Control+End")
    page.evaluate(NEXT_FRAME)
    page.evaluate("benchEvents.length = 0")
    for _ in range(count):
        page.keyboard.press("x")
        time.sleep(0.15)
    quiet(page, timeout=600)
    # Entries come after the frame they led to, late on a busy main thread; a key done in
    # under 16 ms has none (Event Timing's least threshold), so do not wait for ever.
    deadline = time.monotonic() + 10
    while (
        time.monotonic() < deadline
        and page.evaluate("benchEvents.filter((e) => e.name === 'keypress').length") < count
    ):
        time.sleep(0.1)
    return per_key(page.evaluate("benchEvents"))


def per_key(events: list[dict]) -> dict[str, list[float]]:
    """Each key's figures from its Event Timing entries. Chromium inserts the character as
    keypress's default action, inside its dispatch, and fires beforeinput and input from
    there: keypress's processing is the browser's edit with those two events' handlers in
    it (the page has no keypress handler). The handlers' time is every event's processing
    but keypress's; the edit, keypress's less the events nested in it."""

    def processing(event: dict) -> float:
        return event["processingEnd"] - event["processingStart"]

    figures: dict[str, list[float]] = {"paint": [], "handlers": [], "edit": []}
    for key in (event for event in events if event["name"] == "keypress"):
        nested = [
            event
            for event in events
            if event is not key
            and key["processingStart"] <= event["startTime"] <= key["processingEnd"]
        ]
        related = nested + [
            event
            for event in events
            if event is not key
            and event["interactionId"] == key["interactionId"]
            and event not in nested
        ]
        figures["paint"].append(max(event["duration"] for event in [key, *related]))
        figures["handlers"].append(sum(processing(event) for event in related))
        figures["edit"].append(processing(key) - sum(processing(event) for event in nested))
    return figures


def open_files(browser, origin: str, count: int) -> None:
    """Print the figures of opening a file, by size (see the module's docstring)."""
    bare_context = browser.new_context(viewport={"width": 1280, "height": 900})
    bare_context.add_init_script(STALLS)
    bare = bare_context.new_page()
    bare.goto(f"{origin}/_test/textarea.html")
    print(f"\n{'a file opened: longest stall':<40} {'median':>9} {'max':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for name, size in FILE_SIZES.items():
            # `size` bytes of UTF-8 (the page's limit is in bytes), cut at a character.
            text = document(size).encode()[:size].decode("utf-8", "ignore")
            path = Path(folder) / "opened.md"
            path.write_text(text, encoding="utf-8")
            rows = {"page": [], "bare text area": []}
            for _ in range(count):
                rows["page"].append(file_opened(browser, origin, path))
                put_by_a_task(bare, "")
                rows["bare text area"].append(put_by_a_task(bare, text))
            for which, values in rows.items():
                label = f"{name}, {which}"
                if None in values:
                    print(f"{label:<40} {'refused':>9}")
                    continue
                print(f"{label:<40} {statistics.median(values):>6.0f} ms {max(values):>6.0f} ms")
            sys.stdout.flush()
    bare_context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument(
        "--only",
        choices=["ready", "slider", "edit", "keys", "open"],
        help="run one part only (keys: the typing of edit alone)",
    )
    parser.add_argument(
        "--before",
        type=Path,
        help="a site built from another commit, to compare (ready, slider, keys)",
    )
    parser.add_argument("--sizes", nargs="*", choices=list(SIZES), default=list(SIZES))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    build_web()
    print(f"Playground in Chromium, {platform.machine()}, medians of {args.runs} runs\n")
    mounts = {"/": SITE, "/_test/": PAGES, **({"/_before/": args.before} if args.before else {})}
    with served(mounts) as origin, sync_playwright() as playwright:
        browser = playwright.chromium.launch(**chromium_options())
        if args.only in (None, "ready"):
            ready = time_to_ready(
                playwright, origin, args.runs, ["/", *(["/_before/"] if args.before else [])]
            )
            print(f"time to ready (navigation to controls enabled), repeat {DWELL_MS} ms after")
            for site, (first, repeat) in ready.items():
                name = "ours" if site == "/" else "before"
                print(
                    f"  {name:<8} first visit {statistics.median(first):>6.0f} ms "
                    f"(min {min(first):.0f}, max {max(first):.0f}), "
                    f"repeat {statistics.median(repeat):>6.0f} ms "
                    f"(min {min(repeat):.0f}, max {max(repeat):.0f})"
                )
            if args.before:
                (ours_first, ours_repeat), (first, repeat) = ready["/"], ready["/_before/"]
                print(
                    f"  ours/before: first visit "
                    f"{statistics.median(ours_first) / statistics.median(first):.2f}x, "
                    f"repeat {statistics.median(ours_repeat) / statistics.median(repeat):.2f}x"
                )
        pages = {"ours": open_playground(browser, origin, permissions=CLIPBOARD)}
        if args.before and args.only in (None, "slider", "keys"):
            pages["before"] = open_playground(browser, origin, "_before/")
        page, _recorder, _ = pages["ours"]
        if args.only in (None, "slider"):
            print(
                f"\n{'slider step to redrawn result':<32} {'page':>10} {'painted':>10} "
                f"{'wall':>10} {'redraw':>10}"
            )
            for shown, _, _ in pages.values():
                shown.evaluate(WATCH_PAINT)
            for name in args.sizes:
                text = document(SIZES[name])
                for shown, _, _ in pages.values():
                    show(shown, text)
                times = {which: ([], [], [], []) for which in pages}
                for step in range(args.runs + 1):  # the first is a warm-up
                    for which, (shown, _, _) in pages.items():  # in turn: the same load
                        figures = slider_step(shown, step)
                        if step:
                            for kept, figure in zip(times[which], figures):
                                kept.append(figure)
                for which, (inside, painted, outside, drawing) in times.items():
                    label = name if which == "ours" else f"{name}, before"
                    # A site from before the page said how long its redraw took: nan.
                    print(
                        f"{label:<32} {statistics.median(inside):>7.0f} ms "
                        f"{statistics.median(painted):>7.0f} ms "
                        f"{statistics.median(outside):>7.0f} ms "
                        f"{statistics.median(drawing):>7.1f} ms"
                    )
                sys.stdout.flush()
        if args.only in (None, "edit", "keys"):
            page.select_option("#source", "own-document")
            page.evaluate(WATCH)
        if args.only in (None, "edit"):
            bare_context = browser.new_context(viewport={"width": 1280, "height": 900})
            bare_context.grant_permissions(CLIPBOARD, origin=origin)
            bare = bare_context.new_page()
            bare.goto(f"{origin}/_test/textarea.html")
            texts = {"the sample": GUIDE, **{name: document(SIZES[name]) for name in SIZES}}
            for pasted, over in PASTES:
                figures = pasted_over(page, bare, texts[pasted], texts[over], args.runs)
                print(
                    f"\n{f'{pasted} pasted over {over} (Control+A, Control+V)':<48} "
                    f"{'median':>9} {'max':>9}"
                )
                for label, key in (
                    ("page answers again", "answers"),
                    ("chunks redrawn", "redrawn"),
                    ("longest blocked stretch", "blocked"),
                    ("bare text area, blank page: answers again", "bare"),
                ):
                    print(
                        f"{label:<48} {statistics.median(figures[key]):>6.0f} ms "
                        f"{max(figures[key]):>6.0f} ms"
                    )
                sys.stdout.flush()
            bare_context.close()
        if args.only in (None, "edit", "keys"):
            # Each text area in turn, ten keys at a time, so that all see the same load: the
            # page's, the page's of --before, and a bare one beside the page's (one at the end
            # of the page had Event Timing entries for only the first of its keys here).
            areas = {"ours": (page, "#text")}
            if "before" in pages:
                areas["before"] = (pages["before"][0], "#text")
                pages["before"][0].select_option("#source", "own-document")
                pages["before"][0].evaluate(WATCH)
            for shown, _ in areas.values():  # the page's own, holding the text
                before = runs(shown)
                put_text(shown, document(1_000_000))
                settled(shown, before, timeout=600)
            page.evaluate(
                "document.getElementById('text').after(Object.assign("
                "document.createElement('textarea'), {id: 'bench-bare', rows: 14}))"
            )
            areas["bare text area"] = (page, "#bench-bare")
            keys = {which: {"paint": [], "handlers": [], "edit": []} for which in areas}
            for _ in range(args.runs):
                for which, (shown, selector) in areas.items():
                    for figure, values in typing_into(
                        shown, selector, document(1_000_000), 10
                    ).items():
                        keys[which][figure] += values
            page.evaluate("document.getElementById('bench-bare').remove()")
            print(f"\n{'a key typed into 1 MB':<40} {'median':>9} {'max':>9}")
            for which, figures in keys.items():
                for label, figure in (
                    ("to next paint", "paint"),
                    ("in the page's handlers", "handlers"),
                    ("the browser's own edit", "edit"),
                ):
                    if which == "bare text area" and figure == "handlers":
                        continue
                    values = figures[figure] or [float("nan")]
                    print(
                        f"{f'{which}: {label}':<40} {statistics.median(values):>6.1f} ms "
                        f"{max(values):>6.1f} ms"
                    )
        if args.only in (None, "open"):
            open_files(browser, origin, args.runs)
        for _, watched, _ in pages.values():
            if watched.problems():
                raise SystemExit(f"the page reported problems: {watched.problems()}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
