"""The browser path's speed, all measured side by side in one run.

    python tests/bench/browser.py [--runs N] [--calls N] [--before SITE] [--calls-only]
    python tests/bench/browser.py --wire --before SITE [--runs N] [--mbps N]

1. Cold start: milliseconds from navigation to `loadChunker()` ready, each run in a fresh
   browser profile (the first visit), then loaded again in the same profile (a repeat visit,
   the browser's cache warm and, for the facade, the memory snapshot the first visit kept
   in Cache Storage: the repeat visit waits until it is kept), against a bare Pyodide boot
   in a module worker (the floor): from the npm package's files as shipped (its full
   standard library, as sources), and from the site's (its standard library compiled).
   Beside them, the same boot with micropip loaded, imported and installing a wheel of one
   empty module: what any package installed by micropip pays before its own code, which the
   facade's worker no longer pays (it unpacks the wheel itself). With `--before SITE`, that
   site's facade too (today's runtime, say main's), and the ratios of issue 45's targets.
2. One `SemanticChunker().chunk(text)` call on 100 KB and 1 MB of Markdown (and 1 MB with
   no ASCII chunk: every "e" an "é"): through the
   facade, each call on another text than the call before (two texts of the same size take
   turns, as the facade sends no text when it is the one it sent last); in Python inside a
   Pyodide worker of the same browser (no facade), taking turns with the facade call by
   call so that both see the same load; in CPython; in the original under Node. The
   facade's overhead is the first minus the second: the messages to and from the worker,
   the text crossing into Python, the chunks' spans back and their texts cut out in
   JavaScript; "facade/Python" is the first over the second. Then the facade on the same
   text again, as the playground calls it at each change of a setting. With `--before SITE`
   (a site built from another commit, say main's), that site's facade takes its turn beside
   each call too, so old and new are compared under the same load.

With `--wire` (and `--before SITE`, the site of the commit to compare with, say main's): the
bytes on the wire from navigation to `loadChunker()` ready on a first visit (a fresh profile),
as this server sends them (each file's compressed copy when the site has one: the site of a
commit from before compressed copies has none, so it is sent as it was), counted by the server
(headers and bodies), and the time to ready on the first and a repeat visit, the two sites
taking turns; then, in another fresh profile, after a first visit's ready, its first call
(`SemanticChunker().chunk` on 100 KB of Markdown) and its first call that counts tokens
(`countTokens`: the tokenizer's load); and the floor under this commit's visits,
tests/pages/restore-floor.html (Pyodide restoring the snapshot and nothing else): its first
visit in a third fresh profile (the shipped snapshot), its repeat visit in a fourth, after a
first visit of this commit's facade (the kept one). With `--mbps N`, over a link of N Mbit/s
that the server shares among its responses (loopback, the default, makes bytes nearly free).
Only that; not the parts above.

Every first visit stays open DWELL_MS after ready before its repeat visit, as a visitor's
would, and a site whose first visit keeps a memory snapshot in Cache Storage (a commit since
the kept snapshot) stays until it is kept, if that is later.

Run by `python3 build.py bench` (after tests/bench/core.py), which builds the site first.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "bench"), str(ROOT / "tests")]
from core import (  # noqa: E402
    ensure_original,
    listed,
    markdown_corpus,
    median_seconds,
    original_seconds,
)
from support.serving import MOUNTS as TEST_MOUNTS  # noqa: E402
from visits import DWELL_MS, fresh_tab, stay  # noqa: E402

from chunker import SemanticChunker  # noqa: E402
from tools.chromium import chromium_options  # noqa: E402
from tools.paths import NODE_MODULES, SITE  # noqa: E402
from tools.server import make_server, served  # noqa: E402
from tools.site import build_web  # noqa: E402

# The test server's (the site, the test pages, web/'s modules), and Pyodide's npm package as
# shipped (for the stock floor).
MOUNTS = {**TEST_MOUNTS, "/_stock/": NODE_MODULES / "pyodide"}
OURS = "chunker.js: Pyodide, chunker imported (the shipped snapshot restored), ready"
COLD_PAGES = {
    "bare Pyodide boot, npm package as shipped": "bare.html?runtime=/_stock/",
    "bare Pyodide boot, the site's runtime": "bare.html",
    "the site's runtime, micropip installing a one-module wheel": "micropip.html",
    OURS: "ours.html",
}
TARGET_RATIO = 1.15  # the facade's cold start against the site's bare boot (issue 14)
BEFORE_PAGE = "before.html"  # the `--before` site's facade
# Issue 45: the facade's ready against the `--before` site's, first and repeat visit.
FIRST_VISIT_TARGET = 0.8
REPEAT_VISIT_TARGET = 0.5
# In the page, after ready: ms of the facade's first call, and of its first call that counts
# tokens (the tokenizer's load with it).
FIRST_CALLS = """async (text) => {
  const time = async (call) => {
    const start = performance.now();
    await call();
    return performance.now() - start;
  };
  return {
    call: await time(() => new api.SemanticChunker().chunk(text)),
    tokens: await time(() => api.countTokens('Hello world', 'cl100k_base')),
  };
}"""
# The inputs of the calls: Markdown, and the same with every "e" an "é", where no chunk text
# is ASCII (as in most languages but English), so that none crosses as ASCII bytes.
INPUTS: dict[str, Callable[[], str]] = {
    "markdown 100 KB": lambda: markdown_corpus(100_000),
    "markdown 1 MB": lambda: markdown_corpus(1_000_000),
    "markdown 1 MB, every e an é": lambda: markdown_corpus(1_000_000).replace("e", "é"),
}


def write_empty_wheel(folder: Path) -> None:
    """A wheel of one empty module, `nothing`, for tests/pages/micropip.html."""
    dist_info = "nothing-0.0.0.dist-info"
    files = {
        "nothing/__init__.py": b"",
        f"{dist_info}/METADATA": b"Metadata-Version: 2.1\nName: nothing\nVersion: 0.0.0\n",
        f"{dist_info}/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = [
        f"{name},sha256="
        f"{base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},"
        f"{len(data)}"
        for name, data in files.items()
    ]
    files[f"{dist_info}/RECORD"] = ("\n".join([*record, f"{dist_info}/RECORD,,"]) + "\n").encode()
    with zipfile.ZipFile(folder / "nothing-0.0.0-py3-none-any.whl", "w") as wheel:
        for name, data in files.items():
            wheel.writestr(name, data)


def keeps_a_snapshot(site: Path) -> bool:
    """Whether a first visit to `site` keeps a memory snapshot in Cache Storage for the next
    (the one it took, or the one the site ships): a site from a commit since the kept ones."""
    return (site / "worker-snapshot.js").exists()


def cold_start_ms(playwright: Any, origin: str, page: str, keeps: bool) -> tuple[float, float]:
    """Navigation to ready on `page` (bare or ours) in a browser with a new empty profile,
    then again in the same profile, its cache warm (the server asks for revalidation), after
    the first has stayed (`stay`)."""
    with fresh_tab(playwright) as tab:
        tab.goto(f"{origin}/_test/{page}")
        first = tab.evaluate("window.booted")
        stay(tab, keeps)
        tab.goto(f"{origin}/_test/{page}")
        return first, tab.evaluate("window.booted")


def first_calls_ms(playwright: Any, origin: str, page: str, text: str) -> dict[str, float]:
    """FIRST_CALLS on `page` (ours or before) in a browser with a new empty profile, once
    ready: its own profile, so that the repeat visits measured beside it follow a first visit
    that made no call."""
    with fresh_tab(playwright) as tab:
        tab.goto(f"{origin}/_test/{page}")
        tab.evaluate("window.booted")
        times: dict[str, float] = tab.evaluate(FIRST_CALLS, text)
        return times


def restore_floor_ms(playwright: Any, origin: str) -> tuple[float, float]:
    """Navigation to ready of RESTORE_FLOOR_PAGE: on a first visit (a fresh profile: the
    shipped snapshot), and on a repeat visit as the facade's (another fresh profile, where a
    first visit of the facade has kept its snapshot: the browser's caches as warm)."""
    with fresh_tab(playwright) as tab:
        tab.goto(f"{origin}/_test/{RESTORE_FLOOR_PAGE}")
        first: float = tab.evaluate("window.booted")
    with fresh_tab(playwright) as tab:
        tab.goto(f"{origin}/_test/ours.html")
        tab.evaluate("window.booted")
        stay(tab, keeps=True)
        tab.goto(f"{origin}/_test/{RESTORE_FLOOR_PAGE}")
        repeat: float = tab.evaluate("window.booted")
    return first, repeat


def facade_and_python_ms(tab: Any, calls: int) -> dict[str, float]:
    """Median ms of one facade call on `window.text` or a text as long (each call on another
    text than the one before), of the same chunking timed inside Python in the bench's own
    worker, and of a facade call on the same text again; after a warm-up call. With a
    `window.before` facade (`--before`), the same two facade figures for it too.

    The calls take turns, one each, so that all see the same load: on a shared machine a
    figure moves by half from one minute to the next, and their ratios are the point.
    """
    return tab.evaluate(
        """async (calls) => {
          const facades = { facade: api };
          if (window.before) facades.before = before;
          const chunkers = Object.fromEntries(
            Object.entries(facades).map(([name, f]) => [name, new f.SemanticChunker()]));
          const texts = [text, `X${text.slice(1)}`];
          for (const chunker of Object.values(chunkers)) await chunker.chunk(text);
          const inPython = (message) => new Promise((resolve) => {
            direct.onmessage = ({ data }) => resolve(data);
            direct.postMessage(message);
          });
          await inPython({ text });
          const time = async (call) => {
            const start = performance.now();
            await call();
            return performance.now() - start;
          };
          const times = { python: [] };
          for (let i = 0; i < calls; i++) {
            for (const [name, chunker] of Object.entries(chunkers)) {
              (times[name] ??= []).push(await time(() => chunker.chunk(texts[(i + 1) % 2])));
            }
            times.python.push(await inPython({ runs: 1 }));
          }
          // The same text again: each facade's last text is texts[calls % 2].
          for (let i = 0; i < calls; i++) {
            for (const [name, chunker] of Object.entries(chunkers)) {
              const same = texts[calls % 2];
              (times[`${name} again`] ??= []).push(await time(() => chunker.chunk(same)));
            }
          }
          const median = (list) => list.sort((a, b) => a - b)[Math.floor(calls / 2)];
          return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
        }""",
        calls,
    )


def round_trip_ms(tab: Any, runs: int) -> float:
    """Median ms of the cheapest call: the fixed cost of a message to the worker and back."""
    return tab.evaluate(
        """async (runs) => {
          const times = [];
          for (let i = 0; i < runs; i++) {
            const start = performance.now();
            await api.lexicalTokens('');
            times.push(performance.now() - start);
          }
          times.sort((a, b) => a - b);
          return times[Math.floor(runs / 2)];
        }""",
        runs,
    )


START_DIRECT = """() => new Promise((resolve, reject) => {
  window.direct = new Worker('/_test/direct-worker.js', { type: 'module' });
  direct.onmessage = () => resolve();
  direct.onerror = (event) => reject(new Error(event.message));
})"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold starts per page (default 5)")
    # Calls are cheap and a loaded machine makes single ones jump: more of them steady a median.
    parser.add_argument("--calls", type=int, default=15, help="calls per figure (default 15)")
    parser.add_argument("--before", type=Path, help="a site built from another commit, to compare")
    parser.add_argument("--calls-only", action="store_true", help="skip the cold starts")
    parser.add_argument(
        "--wire", action="store_true", help="bytes on the wire to ready, against --before"
    )
    parser.add_argument(
        "--mbps", type=float, help="with --wire: the link's speed, Mbit/s (default: loopback)"
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    build_web()
    if args.wire:
        if args.before is None:
            parser.error("--wire compares with another commit's site: give --before SITE")
        with sync_playwright() as playwright:
            wire(playwright, args.before, args.runs, args.mbps)
        return 0
    wheel_folder = tempfile.TemporaryDirectory()
    write_empty_wheel(Path(wheel_folder.name))
    mounts = {**MOUNTS, "/_wheel/": Path(wheel_folder.name)}
    if args.before:
        mounts["/_before/"] = args.before
    with wheel_folder, served(mounts) as origin, sync_playwright() as playwright:
        if not args.calls_only:
            pages = dict(COLD_PAGES)
            keeping = {COLD_PAGES[OURS]} if keeps_a_snapshot(SITE) else set()
            if args.before:
                pages[f"today's facade (--before {args.before})"] = BEFORE_PAGE
                if keeps_a_snapshot(args.before):
                    keeping.add(BEFORE_PAGE)
            cold_starts(playwright, origin, args.runs, pages, keeping)
        calls(playwright, origin, args)
    return 0


def cold_starts(
    playwright: Any, origin: str, count: int, pages: dict[str, str], keeping: set[str]
) -> None:
    """Part 1: the cold starts of `pages`, first and repeat visits, interleaved, with their
    ratios; those in `keeping` keep a snapshot for their repeat visit."""
    print(
        "Cold start, navigation to ready: first visit in a fresh profile, then a repeat "
        f"visit in the same profile {DWELL_MS} ms after its ready (ms, median of {count})"
    )
    print()
    first: dict[str, list[float]] = {name: [] for name in pages}
    repeat: dict[str, list[float]] = {name: [] for name in pages}
    for _ in range(count):  # interleaved, so all see the same machine load
        for name, page in pages.items():
            visit, again = cold_start_ms(playwright, origin, page, page in keeping)
            first[name].append(visit)
            repeat[name].append(again)
    print("| page | first visit | repeat visit | first, all runs | repeat, all runs |")
    print("|---|---|---|---|---|")
    for name in pages:
        print(
            f"| {name} | {statistics.median(first[name]):.0f} | "
            f"{statistics.median(repeat[name]):.0f} | {listed(first[name])} | "
            f"{listed(repeat[name])} |"
        )
    print()
    for kind, runs in (("first visit", first), ("repeat visit", repeat)):
        medians = [statistics.median(times) for times in runs.values()]
        stock, site, micropip, ours = medians[:4]
        before = medians[4:]
        verdict = "within" if ours <= TARGET_RATIO * site else "OVER"
        print(
            f"{kind}: ours/bare (site's runtime) {ours / site:.2f}× ({verdict} the "
            f"{TARGET_RATIO}× target); micropip and an empty wheel/bare "
            f"{micropip / site:.2f}×; ours/bare (npm package as shipped) {ours / stock:.2f}×"
        )
        if before:
            target = FIRST_VISIT_TARGET if kind == "first visit" else REPEAT_VISIT_TARGET
            verdict = "within" if ours <= target * before[0] else "OVER"
            print(f"{kind}: ours/today's {ours / before[0]:.2f}× ({verdict} the {target}× target)")
    print()
    sys.stdout.flush()


# The two sites of `--wire`: the page that boots each, by its label.
WIRE_PAGES = {"before (--before)": "before.html", "this commit": "ours.html"}
# The floor under this commit's visits: Pyodide restoring the snapshot (the one the site
# ships, or the one the facade's first visit kept), and nothing else (no digest, files,
# progress nor chunker.js).
RESTORE_FLOOR_PAGE = "restore-floor.html"


class Link:
    """A link of `mbps` megabits a second that every response shares (None: as fast as the
    machine): each write waits for its turn on it, as bytes do on a real one."""

    def __init__(self, mbps: float | None) -> None:
        self.bytes_per_second = None if mbps is None else mbps * 1e6 / 8
        self.free_at = 0.0
        self.lock = threading.Lock()

    def wait(self, size: int) -> None:
        if self.bytes_per_second is None:
            return
        with self.lock:
            start = max(time.perf_counter(), self.free_at)
            self.free_at = start + size / self.bytes_per_second
            done = self.free_at
        time.sleep(max(0.0, done - time.perf_counter()))


class CountingWriter:
    """A response stream that adds each write's bytes to its server's count, by URL path,
    and sends them at the link's speed."""

    def __init__(
        self, stream: BinaryIO, counts: Counter[str], path: Callable[[], str], link: Link
    ) -> None:
        self.stream, self.counts, self.path, self.link = stream, counts, path, link

    def write(self, data: bytes) -> int:
        self.counts[self.path()] += len(data)
        self.link.wait(len(data))
        return self.stream.write(data)

    def __getattr__(self, name: str) -> Any:  # flush, close, closed: the stream's
        return getattr(self.stream, name)


@contextmanager
def counting_server(mounts: dict[str, Path], link: Link) -> Iterator[tuple[str, Counter[str]]]:
    """`served(mounts)`, counting the bytes each URL path was sent (headers and body), at
    the speed of `link`."""
    counts: Counter[str] = Counter()
    server = make_server(0, mounts, quiet=True)
    base = server.RequestHandlerClass

    class Counting(base):  # type: ignore[valid-type,misc]  # a class made at run time
        def setup(self) -> None:
            super().setup()
            path = lambda: urllib.parse.urlsplit(getattr(self, "path", "")).path  # noqa: E731
            self.wfile = CountingWriter(self.wfile, counts, path, link)

    server.RequestHandlerClass = Counting
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    try:
        yield f"http://{host}:{port}", counts
    finally:
        server.shutdown()
        server.server_close()


def wire(playwright: Any, before: Path, count: int, mbps: float | None) -> None:
    """Bytes on the wire to ready, first visit, and the time to ready, first and repeat
    visits, over a link of `mbps` (None: loopback): this commit's site against `before`'s,
    taking turns; and the first visit's first calls after ready."""
    sent: dict[str, list[int]] = {name: [] for name in WIRE_PAGES}
    first: dict[str, list[float]] = {name: [] for name in WIRE_PAGES}
    repeat: dict[str, list[float]] = {name: [] for name in WIRE_PAGES}
    calls: dict[str, dict[str, list[float]]] = {name: {} for name in WIRE_PAGES}
    by_file: dict[str, Counter[str]] = {}
    floor: dict[str, list[float]] = {"first": [], "repeat": []}
    keeps = {"before (--before)": keeps_a_snapshot(before), "this commit": keeps_a_snapshot(SITE)}
    text = markdown_corpus(100_000)
    with counting_server({**MOUNTS, "/_before/": before}, Link(mbps)) as (origin, counts):
        for _ in range(count):
            for name, page in WIRE_PAGES.items():
                with fresh_tab(playwright) as tab:
                    counts.clear()
                    tab.goto(f"{origin}/_test/{page}")
                    first[name].append(tab.evaluate("window.booted"))
                    sent[name].append(sum(counts.values()))
                    by_file[name] = Counter(counts)
                    stay(tab, keeps[name])
                    tab.goto(f"{origin}/_test/{page}")
                    repeat[name].append(tab.evaluate("window.booted"))
                for call, ms in first_calls_ms(playwright, origin, page, text).items():
                    calls[name].setdefault(call, []).append(ms)
            floor_first, floor_repeat = restore_floor_ms(playwright, origin)
            floor["first"].append(floor_first)
            floor["repeat"].append(floor_repeat)
    speed = "loopback" if mbps is None else f"a {mbps:g} Mbit/s link"
    print(f"First visit in a fresh profile: bytes the server sent until ready (median of {count})")
    print(f"and ms from navigation to ready, first and repeat visit ({DWELL_MS} ms after the")
    print(f"first's ready), over {speed}")
    print()
    print("| site | MB on the wire | first visit, ms | repeat visit, ms | first, all runs |")
    print("|---|---|---|---|---|")
    for name in WIRE_PAGES:
        print(
            f"| {name} | {statistics.median(sent[name]) / 1e6:.2f} | "
            f"{statistics.median(first[name]):.0f} | {statistics.median(repeat[name]):.0f} | "
            f"{listed(first[name])} |"
        )
    old, new = WIRE_PAGES
    bytes_ratio = statistics.median(sent[new]) / statistics.median(sent[old])
    first_ratio = statistics.median(first[new]) / statistics.median(first[old])
    repeat_ratio = statistics.median(repeat[new]) / statistics.median(repeat[old])
    print()
    print(
        f"this commit/before: bytes {bytes_ratio:.2f}×, ready first visit {first_ratio:.2f}×, "
        f"repeat visit {repeat_ratio:.2f}×"
    )
    print("Pyodide restoring the snapshot, nothing else: the floor under this commit's visits")
    for kind, before_runs in (("first", first[old]), ("repeat", repeat[old])):
        runs = floor[kind]
        ratio = statistics.median(runs) / statistics.median(before_runs)
        print(
            f"  {kind} visit: {statistics.median(runs):.0f} ms, {ratio:.2f}× before's "
            f"(all runs: {listed(runs)})"
        )
    for name in WIRE_PAGES:
        biggest = ", ".join(f"{path} {n / 1e6:.2f}" for path, n in by_file[name].most_common(4))
        print(f"{name}, the largest (MB, last run): {biggest}")
    print()
    print("After the first visit's ready (ms, median): the first call (SemanticChunker on 100 KB)")
    print("and the first that counts tokens (the tokenizer loaded)")
    print()
    print("| site | first call | first count | first calls, all runs | first counts, all runs |")
    print("|---|---|---|---|---|")
    for name in WIRE_PAGES:
        call, tokens = calls[name]["call"], calls[name]["tokens"]
        print(
            f"| {name} | {statistics.median(call):.0f} | {statistics.median(tokens):.0f} | "
            f"{listed(call)} | {listed(tokens)} |"
        )
    print()
    for kind in ("call", "tokens"):
        ratio = statistics.median(calls[new][kind]) / statistics.median(calls[old][kind])
        print(
            f"this commit/before, the first {'call' if kind == 'call' else 'count'}: {ratio:.2f}×"
        )
    sys.stdout.flush()


def calls(playwright: Any, origin: str, args: argparse.Namespace) -> None:
    """Part 2: one call through the facade (and the one `--before`) against Python."""
    browser = playwright.chromium.launch(**chromium_options())
    tab = browser.new_page()
    tab.goto(f"{origin}/_test/blank.html")
    tab.evaluate("async () => { window.api = await (await import('/chunker.js')).loadChunker(); }")
    if args.before:
        tab.evaluate(
            """async () => { window.before = await (await import('/_before/chunker.js'))
              .loadChunker({ baseUrl: '/_before/' }); }"""
        )
    tab.evaluate(START_DIRECT)
    has_node = ensure_original()
    print(f"One SemanticChunker().chunk(text) call (ms, median of {args.calls} after a warm-up)")
    print()
    print(
        "| input | facade call | Python in a Pyodide worker | facade overhead | "
        "facade/Python | facade, same text again | CPython | original (Node) | "
        "facade/original |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, make in INPUTS.items():
        text = make()
        tab.evaluate("(t) => { window.text = t; }", text)
        times = facade_and_python_ms(tab, args.calls)
        facade, direct, again = times["facade"], times["python"], times["facade again"]
        chunker = SemanticChunker()
        cpython = median_seconds(lambda: chunker.chunk(text), args.calls) * 1000
        timed = original_seconds(text, "semantic", args.calls) if has_node else None
        original = timed[0] if timed is not None else None  # its steady state, not its first call
        original_ms = f"{original * 1000:.1f}" if original is not None else "—"
        versus = f"{facade / (original * 1000):.1f}×" if original else "—"
        overhead = f"{facade - direct:.1f} ({(facade - direct) / facade:.0%})"
        print(
            f"| {name} | {facade:.1f} | {direct:.1f} | {overhead} | "
            f"{facade / direct:.2f}× | {again:.1f} | {cpython:.1f} | {original_ms} | "
            f"{versus} |"
        )
        if "before" in times:
            before, before_again = times["before"], times["before again"]
            print(
                f"|   before (--before), same calls in turn | {before:.1f} | | | "
                f"{before / direct:.2f}× | {before_again:.1f} | | | |"
            )
        sys.stdout.flush()
    print(f"\nround trip of the cheapest call (lexicalTokens('')): {round_trip_ms(tab, 50):.2f} ms")
    browser.close()


if __name__ == "__main__":
    started = time.perf_counter()
    status = main()
    print(f"\n(benchmark took {time.perf_counter() - started:.0f} s)")
    sys.exit(status)
