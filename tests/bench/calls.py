"""One side of `core.py --before`: every chunker's median call on the given texts, timed with
the `chunker` package of the checkout given (so old and new code run in processes of their own).

    python tests/bench/calls.py CHECKOUT RUNS NAME=FILE ...

Prints a JSON object: "<chunker>, <NAME>" -> median milliseconds of RUNS calls after a warm-up.
A FILE ending in .json holds a list of texts, timed as one `chunk_many(texts, jobs=1)`.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path


def main() -> int:
    checkout, runs, *named = sys.argv[1:]
    sys.path.insert(0, checkout)  # before anything imports chunker
    from chunker import ChunkingEngine, SemanticChunker, chunk_many

    medians: dict[str, float] = {}
    for pair in named:
        name, path = pair.split("=", 1)
        calls: dict[str, Callable[[], object]]
        if path.endswith(".json"):
            texts = json.loads(Path(path).read_text(encoding="utf-8"))
            calls = {"chunk_many(jobs=1)": lambda: sum(1 for _ in chunk_many(texts, jobs=1))}
        else:
            text = Path(path).read_text(encoding="utf-8")
            calls = {"SemanticChunker": lambda: SemanticChunker().chunk(text)}
            for strategy in ("fixed", "hierarchical", "layout"):
                calls[strategy] = lambda strategy=strategy: ChunkingEngine().chunk(text, strategy)
        for chunker, call in calls.items():
            call()  # warm-up
            times = []
            for _ in range(int(runs)):
                start = time.perf_counter()
                call()
                times.append(time.perf_counter() - start)
            medians[f"{chunker}, {name}"] = statistics.median(times) * 1000
    print(json.dumps(medians))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
