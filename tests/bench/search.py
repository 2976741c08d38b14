"""`LexicalIndex`'s speed: in CPython, in the worker through the facade, and the playground's
search on a large document.

    python tests/bench/search.py [--runs N] [--cpython-only]

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
   with snippets and marks (the page's own measure); and the longest the page's main thread
   was busy at once while typing (long tasks, and the slowest key's event handling), which
   says whether typing was ever held up.

Each figure is the median of N runs (5 unless given) after a warm-up.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

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
    print(f"{'chunks of':<10} {'chunks':>7} {'words':>9} {'index':>8} {'words alone':>12} "
          f"{'any':>7} {'all':>7} {'prefix 1st':>11} {'prefix':>7}")
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
        print(f"{name:<10} {len(chunks):>7,} {count:>9,.0f} {indexing:>8.0f} {words:>12.0f} "
              f"{any_ms:>7.1f} {all_ms:>7.1f} {statistics.median(firsts):>11.1f} "
              f"{prefix_ms:>7.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument("--cpython-only", action="store_true", help="skip the browser")
    args = parser.parse_args()
    cpython(args.runs)
    if not args.cpython_only:
        browser(args.runs)
    return 0


def browser(runs: int) -> None:
    raise NotImplementedError


if __name__ == "__main__":
    sys.exit(main())
