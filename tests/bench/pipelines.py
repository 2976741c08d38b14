"""Documents a second over real documents: a plain loop, `chunk_many`, the command line, Spark.

    python tests/bench/pipelines.py [--documents N] [--rounds N] [--no-spark] [--no-cli]
                                    [--options JSON] [--strategy NAME] [--folder PATH ...]

The corpus: the first `--documents` real Markdown, reStructuredText and text files on this
machine (tests/support/real_documents.py: npm's packages, Python's, /usr/share/doc, then
each `--folder`), cycled if there are fewer (the first line says how many are distinct). Every row runs once a round, the rows in turn, after a warm-up round, so
load that comes and goes falls on all of them; each figure is a row's median over the rounds,
and the last column is its speed beside the plain loop's in the same run.

- the plain loop: `SemanticChunker(**options)` made once, `.chunk()` each text (or a
  `ChunkingEngine`'s `.chunk(text, strategy, ...)`) — what a user writes without us;
- `chunk_many`, `jobs=1`, `jobs=2` and `jobs=None` (the texts in memory);
- the command line, `chunker chunk --jobs 1` and `--jobs 2`, reading the files from a
  folder and writing JSON Lines with `-o` (a process start included), and `--jobs 1` with
  `--since` a previous output of the same files (every chunk kept);
- `chunk_dataframe` on a local Spark session (`local[2]`, started once, not timed), on its
  Arrow path and on its row path, counting the chunks so every document is cut.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
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

from support.real_documents import real_documents  # noqa: E402

from chunker import ChunkingEngine, SemanticChunker, chunk_many  # noqa: E402
from chunker.recipe import Recipe  # noqa: E402


def corpus(count: int, more: tuple[Path, ...] = ()) -> list[str]:
    found = real_documents(count, more)
    if not found:
        raise SystemExit("no real documents found on this machine")
    return [found[n % len(found)] for n in range(count)]


def write_folder(folder: Path, texts: list[str]) -> None:
    for number, text in enumerate(texts):
        (folder / f"{number:05}.md").write_text(text, encoding="utf-8")


def command_line(folder: Path, output: Path, jobs: int, arguments: list[str], *more: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's CLI starts from cached bytecode
    env["PYTHONPYCACHEPREFIX"] = str(output.parent / "pycache")
    command = [sys.executable, "-m", "chunker", "chunk", "--quiet", "--jobs", str(jobs)]
    subprocess.run(
        [*command, *arguments, *more, "-o", str(output), str(folder)],
        env=env,
        check=True,
    )


def spark_rows(
    texts: list[str], strategy: str, options: dict[str, Any]
) -> tuple[list[tuple[str, Callable[[], object]]], Callable[[], None]]:
    """The Spark rows (Arrow and rows paths) on a `local[2]` session, and the session's stop."""
    from support.spark import local_session

    from chunker import spark

    session = local_session("chunker-bench")
    rows = [(f"doc-{n}", text) for n, text in enumerate(texts)]
    frame = session.createDataFrame(rows, ["id", "text"]).repartition(4).cache()
    frame.count()  # the documents are in Spark's memory before the clock starts

    def run(arrow: bool) -> Callable[[], object]:
        def count() -> object:
            saved = spark.arrow_ready
            spark.arrow_ready = lambda: arrow  # type: ignore[assignment]
            try:
                return spark.chunk_dataframe(frame, strategy=strategy, **options).count()
            finally:
                spark.arrow_ready = saved  # type: ignore[assignment]

        return count

    found = [("Spark local[2], chunk_dataframe (rows)", run(False))]
    if getattr(spark, "arrow_ready", lambda: False)():
        found.insert(0, ("Spark local[2], chunk_dataframe (Arrow)", run(True)))
    return found, session.stop


def timed_rounds(rows: list[tuple[str, Callable[[], object]]], rounds: int) -> dict[str, float]:
    """Each row's median seconds over `rounds` rounds, the rows run in turn in each round,
    after one warm-up round."""
    times: dict[str, list[float]] = {name: [] for name, _ in rows}
    for round_number in range(rounds + 1):
        for name, call in rows:
            start = time.perf_counter()
            call()
            if round_number:
                times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--documents", type=int, default=7500, help="real documents to cut (cycled if fewer)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds")
    parser.add_argument("--strategy", default="semantic", help="a pipeline strategy")
    parser.add_argument("--options", default="{}", help="the strategy's options, as JSON")
    parser.add_argument("--no-spark", action="store_true", help="leave out the Spark rows")
    parser.add_argument("--no-cli", action="store_true", help="leave out the command line")
    parser.add_argument(
        "--folder",
        action="append",
        type=Path,
        default=[],
        help="a folder of real documents to take too (CMake's Help, a project's docs)",
    )
    args = parser.parse_args()
    options = json.loads(args.options)
    Recipe(args.strategy, options)  # a bad strategy or option fails before any work
    load = os.getloadavg()[0]
    print(
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load {load:.1f} at the start"
    )
    texts = corpus(args.documents, tuple(args.folder))
    megabytes = sum(map(len, texts)) / 1e6
    print(
        f"Corpus: {len(texts)} real documents ({len(set(texts))} distinct), "
        f"{megabytes:.1f} M characters; "
        f"{args.strategy} {options or '(defaults)'}; {args.rounds} rounds"
    )

    def plain_loop() -> None:
        if args.strategy == "semantic":
            chunker = SemanticChunker(**options)
            for text in texts:
                chunker.chunk(text)
            return
        engine = ChunkingEngine()
        for text in texts:
            engine.chunk(text, args.strategy, **options)

    def many(jobs: int | None) -> Callable[[], object]:
        return lambda: sum(1 for _ in chunk_many(texts, jobs, strategy=args.strategy, **options))

    rows: list[tuple[str, Callable[[], object]]] = [
        ("plain loop", plain_loop),
        ("chunk_many, jobs=1", many(1)),
        ("chunk_many, jobs=2", many(2)),
        ("chunk_many, jobs=None", many(None)),
    ]
    stop: Callable[[], None] = lambda: None  # noqa: E731
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary, "in")
        folder.mkdir()
        output = Path(temporary, "out.jsonl")
        if not args.no_cli:
            write_folder(folder, texts)
            cli_options = [
                item
                for name, value in options.items()
                for item in (f"--{name.replace('_', '-')}", str(value))
            ]
            if args.strategy != "semantic":
                cli_options += ["--strategy", args.strategy]
            rows += [
                (
                    f"chunker chunk --jobs {jobs} -o",
                    lambda jobs=jobs: command_line(folder, output, jobs, cli_options),
                )
                for jobs in (1, 2)
            ]
            # What changed since a previous output (here, nothing): the ids of every chunk of
            # that output and of this run, each line read back in the parent.
            previous = Path(temporary, "previous.jsonl")
            command_line(folder, previous, 2, cli_options)
            rows.append(
                (
                    "chunker chunk --jobs 1 --since -o",
                    lambda: command_line(folder, output, 1, cli_options, "--since", str(previous)),
                )
            )
        if not args.no_spark and shutil.which("java"):
            found, stop = spark_rows(texts, args.strategy, options)
            rows += found
        try:
            medians = timed_rounds(rows, args.rounds)
        finally:
            stop()
    base = medians["plain loop"]
    print(f"Load {os.getloadavg()[0]:.1f} at the end\n")
    print("| how | documents/s | MB/s | seconds | speed vs the plain loop |")
    print("|---|---|---|---|---|")
    for name, seconds in medians.items():
        print(
            f"| {name} | {len(texts) / seconds:,.0f} | {megabytes / seconds:.1f} | "
            f"{seconds:.2f} | {base / seconds:.2f}x |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
