"""Documents a second over a folder of real Markdown: one process, two, and Spark `local[2]`.

    python tests/bench/pipelines.py [--runs N] [--copies N] [--no-spark]

The folder: the Markdown files npm ships (its own documentation), each copied `--copies`
times under its own name, so the corpus is real text of the usual sizes. Each figure is the
median of `--runs` timed runs after a warm-up run, the rows side by side:

- `chunk_many` in Python, `jobs=1` and `jobs=2` (the texts read beforehand);
- the command line, `chunkspan chunk --jobs 1` and `--jobs 2`, reading the folder and writing
  JSON Lines to /dev/null (a process start included);
- `chunk_dataframe` on a local Spark session (`local[2]`, started once, not timed), counting
  the chunks so that every document is cut on the executors.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # chunkspan/ and support/

from core import median_seconds, npm_markdown  # noqa: E402  (tests/bench/, this script's folder)

from chunkspan import chunk_many  # noqa: E402


def make_corpus(folder: Path, copies: int) -> list[str]:
    """Copy npm's Markdown `copies` times into `folder`; answer the texts in the CLI's order."""
    for copy in range(copies):
        for number, source in enumerate(npm_markdown()):
            data = source.read_bytes().decode("utf-8", errors="replace").encode()
            (folder / f"{copy:03}-{number:04}-{source.name}").write_bytes(data)
    return [path.read_text(encoding="utf-8") for path in sorted(folder.iterdir())]


def command_line(folder: Path, jobs: int) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(os.devnull, "wb") as sink:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "chunkspan",
                "chunk",
                "--quiet",
                "--jobs",
                str(jobs),
                str(folder),
            ],
            stdout=sink,
            env=env,
            check=True,
        )


def spark_timer(texts: list[str]) -> tuple[Callable[[], object], Callable[[], None]]:
    """A call that cuts every text on a `local[2]` session, and the session's stop."""
    from support.spark import local_session

    from chunkspan.spark import chunk_dataframe

    session = local_session("chunker-bench")
    rows = [(f"doc-{n}", text) for n, text in enumerate(texts)]
    frame = session.createDataFrame(rows, ["id", "text"]).repartition(4).cache()
    frame.count()  # the documents are in Spark's memory before the clock starts
    return (lambda: chunk_dataframe(frame).count()), session.stop


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each row")
    parser.add_argument("--copies", type=int, default=10, help="copies of npm's Markdown")
    parser.add_argument("--no-spark", action="store_true", help="leave out the Spark row")
    args = parser.parse_args()
    print(
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        texts = make_corpus(folder, args.copies)
        megabytes = sum(len(t) for t in texts) / 1e6
        print(
            f"Corpus: {len(texts)} Markdown documents, {megabytes:.1f} M characters "
            f"(npm's documentation x {args.copies}); SemanticChunker, default settings"
        )
        rows: list[tuple[str, float]] = [
            (
                "chunk_many, jobs=1",
                median_seconds(lambda: list(chunk_many(texts, jobs=1)), args.runs),
            ),
            (
                "chunk_many, jobs=2",
                median_seconds(lambda: list(chunk_many(texts, jobs=2)), args.runs),
            ),
            (
                "chunkspan chunk --jobs 1",
                median_seconds(lambda: command_line(folder, 1), args.runs),
            ),
            (
                "chunkspan chunk --jobs 2",
                median_seconds(lambda: command_line(folder, 2), args.runs),
            ),
        ]
        if not args.no_spark and shutil.which("java"):
            run, stop = spark_timer(texts)
            try:
                rows.append(("Spark local[2], chunk_dataframe", median_seconds(run, args.runs)))
            finally:
                stop()
    base = rows[0][1]
    print()
    print("| how | documents/s | MB/s | seconds | speed vs one process |")
    print("|---|---|---|---|---|")
    for name, seconds in rows:
        print(
            f"| {name} | {len(texts) / seconds:,.0f} | {megabytes / seconds:.1f} | "
            f"{seconds:.2f} | {base / seconds:.2f}x |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
