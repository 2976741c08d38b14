"""One side of `core.py --before`: every chunker's median call on the given texts, timed with
the `chunkspan` package of the checkout given (so old and new code run in processes of their own).

    python tests/bench/calls.py CHECKOUT RUNS NAME=FILE ...

Prints a JSON object: "<chunker>, <NAME>" -> median milliseconds of RUNS calls after a warm-up.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path


def main() -> int:
    checkout, runs, *named = sys.argv[1:]
    sys.path.insert(0, checkout)  # before anything imports chunker
    from chunkspan import ChunkingEngine, SemanticChunker

    medians: dict[str, float] = {}
    for pair in named:
        name, path = pair.split("=", 1)
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
