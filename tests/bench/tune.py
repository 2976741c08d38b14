"""Evaluation in the browser, on Chroma's whole set (5 corpora, 472 questions, BM25, k=5):
`evaluate` in CPython beside `api.evaluate` in the worker, and a 3 x 4 sweep driven through
the playground's Tune view.

    python tests/bench/tune.py [--runs N]

- evaluate: CPython's `evaluate(data)` and the facade's `api.evaluate(set)` (the page's clock,
  from the call to the report, the set crossing included), turn by turn, medians of N runs,
  their ratio taken within the run;
- the sweep: Chroma's files opened in the Tune view, target size 200, 400, 800 by overlap 0,
  100, 200, 400, from the click on Sweep to "Sweep done", with the longest main-thread task
  the page reported meanwhile (PerformanceObserver, `longtask`: 50 ms and over) and the
  slowest of ten keys typed into the search field during it (Event Timing: key to next frame).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS.parent), str(TESTS)]  # tools/, chunker/ and support/

from support.playground import open_playground, wait_until  # noqa: E402
from support.serving import serving  # noqa: E402

from chunker.evaluation import EvaluationSet, evaluate  # noqa: E402
from tools.chromium import chromium_options  # noqa: E402
from tools.site import build_web  # noqa: E402

CHROMA = TESTS.parents[1] / "shared" / "datasets" / "chroma-general-evaluation"

EVALUATE_IN_WORKER = """async (set) => {
  const api = await window.chunkerReady;
  const started = performance.now();
  await api.evaluate(set, {});
  return performance.now() - started;
}"""

WATCH = """() => {
  window.benchLongTasks = [];
  window.benchKeys = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) benchLongTasks.push(entry.duration);
  }).observe({type: 'longtask'});
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'keydown') benchKeys.push(entry.duration);
    }
  }).observe({type: 'event', durationThreshold: 16});
}"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    data = EvaluationSet.from_chroma(CHROMA)
    shape = data.to_json()  # Chroma's corpora are all in the BMP: the same indices in JavaScript
    assert all(len(t.encode("utf-16-le")) == 2 * len(t) for t in data.corpora.values())
    build_web()
    print(
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; "
        f"Chroma's set: {len(data.corpora)} corpora, {len(data.questions)} questions; "
        f"medians of {args.runs}\n"
    )
    with serving() as origin, sync_playwright() as playwright:
        browser = playwright.chromium.launch(**chromium_options())
        page, recorder, _ = open_playground(browser, origin)
        python, worker = [], []
        evaluate(data)
        page.evaluate(EVALUATE_IN_WORKER, shape)  # warm-ups
        for _ in range(args.runs):
            started = time.perf_counter()
            evaluate(data)
            python.append((time.perf_counter() - started) * 1000)
            worker.append(page.evaluate(EVALUATE_IN_WORKER, shape))
        p, w = statistics.median(python), statistics.median(worker)
        print(f"evaluate, CPython            {p:8.0f} ms")
        print(f"api.evaluate, in the worker  {w:8.0f} ms   ({w / p:.2f}x CPython)")

        files = [CHROMA / "questions_df.csv", *sorted((CHROMA / "corpora").glob("*.md"))]
        page.set_input_files("#tune-files", [str(f) for f in files])
        wait_until(page, "document.getElementById('tune-set').value === 'files'")
        page.fill("#tune-rows", "200, 400, 800")
        page.fill("#tune-columns", "0, 100, 200, 400")
        page.evaluate(WATCH)
        started = time.perf_counter()
        page.click("#tune-sweep")
        page.click("#query")
        for key in "refund pol":  # a person typing during the sweep, about 150 ms a key
            page.keyboard.type(key)
            time.sleep(0.15)
        wait_until(
            page,
            "document.getElementById('tune-status').textContent.startsWith('Sweep done')",
            timeout=600,
        )
        seconds = time.perf_counter() - started
        tasks, keys = page.evaluate("[benchLongTasks, benchKeys]")
        print(f"3 x 4 sweep in the Tune view  {seconds:6.1f} s")
        print(
            f"  longest main-thread task     {max(tasks, default=0):6.0f} ms ({len(tasks)} over 50 ms)"
        )
        print(f"  slowest key during it        {max(keys, default=0):6.0f} ms (key to next frame)")
        problems = recorder.problems()
        browser.close()
    if problems:
        print(json.dumps(problems, indent=2))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
