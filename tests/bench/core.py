"""Throughput of the core in CPython beside the original in Node, LangChain and semchunk.

    python tests/bench/core.py [--runs N] [--rounds N] [--quick] [--engine-only]
    python tests/bench/core.py --before CHECKOUT [--runs N] [--rounds N] [--quick]

Inputs: Markdown built from real documents (the Markdown files npm ships) at 100 KB, 1 MB
and 10 MB; prose with no white space (Chinese); a megabyte of blank lines; and the first
2,000 real documents of 1-20 KB on this machine (tests/support/real_documents.py), cut by
`chunk_many(jobs=1)`, in documents a second. Each figure is the
median of the runs in steady state: after a second of warm-up calls (V8 compiles the
original's hot code only after some runs), at least `--runs` runs and a second of them. Ours
and the original take turns in rounds, and each ratio is the median of the rounds' ratios. The
first call in a fresh process (Python's or Node's) is reported apart, in milliseconds.
Sizes are characters; MB/s counts a million characters a second. With `--before`, every
chunker of this checkout beside the same chunker of another (a `git worktree` of an older
commit), each side in a process of its own (`calls.py`), in turns over the rounds.
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
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # chunker/ and support/

from support.real_documents import real_documents  # noqa: E402

from chunker import ChunkingEngine, SemanticChunker, chunk_many  # noqa: E402

ORACLE = ROOT / "tests" / "fixtures" / ".oracle"
ORIGINAL = "@framers/agentos@0.9.164"
NODE_TIMEOUT_S = 120  # the original is quadratic on some inputs: report those as unfinished
# Warm-up, and the least time of timed runs, each side (original.mjs takes the same figure).
STEADY_SECONDS = 1.0


def npm_markdown() -> list[Path]:
    """The Markdown files npm ships (its own documentation), in a fixed order."""
    npm_root = subprocess.run(["npm", "root", "-g"], capture_output=True, text=True).stdout.strip()
    files = sorted(Path(npm_root, "npm").rglob("*.md"))
    if not files:
        raise SystemExit("no Markdown found under npm's install to build the corpus from")
    return files


def markdown_corpus(size: int) -> str:
    """`size` characters of real Markdown: npm's own documentation, repeated in a fixed order."""
    documents = [f.read_text(encoding="utf-8", errors="replace") for f in npm_markdown()]
    parts, total, i = [], 0, 0
    while total < size:
        parts.append(documents[i % len(documents)])
        total += len(parts[-1]) + 2
        i += 1
    return "\n\n".join(parts)[:size]


def inputs(quick: bool) -> dict[str, str]:
    sizes = {"markdown 100 KB": 100_000, "markdown 1 MB": 1_000_000}
    if not quick:
        sizes["markdown 10 MB"] = 10_000_000
    texts = {name: markdown_corpus(size) for name, size in sizes.items()}
    texts["no white space 1 MB"] = ("中文的句子没有空格，每句以句号结束。" * 60_000)[:1_000_000]
    texts["blank lines 1 MB"] = "start\n" + "\n" * 1_000_000 + "end"
    return texts


SMALL_DOCUMENTS, SMALLEST, LARGEST = 2_000, 1_000, 20_000
SMALL_SIZES = f"{SMALLEST // 1000}-{LARGEST // 1000} KB"


def small_documents() -> list[str]:
    """The first SMALL_DOCUMENTS real documents of SMALLEST to LARGEST characters (a page, a
    note, a README: what most calls cut), or as many as this machine has."""
    found = [text for text in real_documents() if SMALLEST <= len(text) <= LARGEST]
    if len(found) < SMALL_DOCUMENTS:
        print(f"(only {len(found):,} real documents of {SMALL_SIZES} on this machine)")
    return found[:SMALL_DOCUMENTS]


def small_documents_table(documents: list[str], runs: int, rounds: int) -> None:
    """`chunk_many(jobs=1)` beside LangChain's splitter (defaults) over the same documents,
    in documents a second, taking turns in rounds."""
    if not documents:
        return
    ours: list[float] = []
    theirs: list[float] = []
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter
    except ImportError:
        RecursiveCharacterTextSplitter = None  # noqa: N806
    for _ in range(rounds):
        ours.append(median_seconds(lambda: sum(1 for _ in chunk_many(documents, jobs=1)), runs))
        if RecursiveCharacterTextSplitter is not None:
            splitter = RecursiveCharacterTextSplitter()
            theirs.append(
                median_seconds(lambda: [splitter.split_text(text) for text in documents], runs)
            )
    count = len(documents)
    print()
    print(
        f"chunk_many(jobs=1), default settings, over {count:,} real documents of {SMALL_SIZES} "
        f"({sum(map(len, documents)) / count / 1000:.1f} KB on average; documents a second)"
    )
    print()
    print("| ours | LangChain (defaults) | ours/LangChain |")
    print("|---|---|---|")
    langchain = f"{count / statistics.median(theirs):,.0f}" if theirs else "—"
    mine = statistics.median(ours)
    versus = ratio(statistics.median(t / o for o, t in zip(ours, theirs))) if theirs else "—"
    print(f"| {count / mine:,.0f} | {langchain} | {versus} |")


def listed(values: list[float]) -> str:
    """Every run's figure, rounded, for a table's "all runs" column."""
    return ", ".join(f"{v:.0f}" for v in values)


def median_seconds(call: Callable[[], object], runs: int) -> float:
    """The median of `call`'s runs in steady state: timed after STEADY_SECONDS of warm-up
    calls, until both `runs` runs and STEADY_SECONDS have passed."""
    warm = 0.0
    while warm < STEADY_SECONDS:
        start = time.perf_counter()
        call()
        warm += time.perf_counter() - start
    times: list[float] = []
    while len(times) < runs or sum(times) < STEADY_SECONDS:
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# Ours, first call in a fresh Python: the import, then one timed call of TASK on the file.
FIRST_CALL = """
import sys, time
from chunker import ChunkingEngine, SemanticChunker
text = open(sys.argv[1], encoding="utf-8").read()
task = sys.argv[2]
start = time.perf_counter()
SemanticChunker().chunk(text) if task == "semantic" else ChunkingEngine().chunk(text, task)
print(time.perf_counter() - start)
"""


def first_call_seconds(text: str, task: str) -> float:
    """Our first call of `task` on `text` in a fresh Python process (its import not timed)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8", delete=False) as f:
        f.write(text)
    try:
        done = subprocess.run(
            [sys.executable, "-c", FIRST_CALL, f.name, task],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    finally:
        os.unlink(f.name)
    return float(done.stdout)


class SideBySide(NamedTuple):
    """Medians in steady state, seconds; the ratio original/ours (the rounds' median); each
    side's first call in a fresh process. The original's are None when it ran out of time."""

    ours: float
    original: float | None
    speedup: float | None
    ours_first: float
    original_first: float | None


def side_by_side(
    call: Callable[[], object], text: str, task: str, runs: int, rounds: int, has_node: bool
) -> SideBySide:
    """Ours and the original over `rounds` rounds, each timing ours then the original, so both
    sides of each ratio ran within seconds of each other."""
    ours_times: list[float] = []
    original_times: list[float] = []
    original_first: float | None = None
    for _ in range(rounds):
        ours_times.append(median_seconds(call, runs))
        original = original_seconds(text, task, runs) if has_node else None
        if original is None:
            break
        original_times.append(original[0])
        original_first = original[1]
    ours_first = first_call_seconds(text, task)
    if len(original_times) < rounds:
        return SideBySide(statistics.median(ours_times), None, None, ours_first, None)
    ratios = [theirs / ours for ours, theirs in zip(ours_times, original_times)]
    return SideBySide(
        statistics.median(ours_times),
        statistics.median(original_times),
        statistics.median(ratios),
        ours_first,
        original_first,
    )


# The original's two modules that original.mjs loads (other tests extract other modules of the
# same tarball into ORACLE, so a `package/` folder alone says nothing).
ORIGINAL_MODULES = (
    "package/dist/cognition/rag/chunking/SemanticChunker.js",
    "package/dist/cognition/memory/io/ingestion/ChunkingEngine.js",
)


def ensure_original() -> bool:
    """The original's modules under ORACLE, packed from the npm registry when missing."""
    if all((ORACLE / module).exists() for module in ORIGINAL_MODULES):
        return True
    if shutil.which("npm") is None:
        return False
    ORACLE.mkdir(parents=True, exist_ok=True)
    tarball = ORACLE / f"{ORIGINAL.lstrip('@').replace('/', '-').replace('@', '-')}.tgz"
    if not tarball.exists():
        subprocess.run(
            ["npm", "pack", ORIGINAL, "--pack-destination", str(ORACLE), "--silent"],
            capture_output=True,
            check=True,
        )
    subprocess.run(["tar", "xzf", str(tarball), "-C", str(ORACLE), *ORIGINAL_MODULES], check=True)
    return True


def original_seconds(text: str, task: str, runs: int) -> tuple[float, float] | None:
    """The original in Node: its median in steady state and its first call in that fresh
    process, in seconds; None if it did not finish in time."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8", delete=False) as f:
        f.write(text)
    try:
        done = subprocess.run(
            [
                "node",
                str(Path(__file__).with_name("original.mjs")),
                str(ORACLE),
                f.name,
                task,
                str(runs),
                str(STEADY_SECONDS),
            ],
            capture_output=True,
            text=True,
            timeout=NODE_TIMEOUT_S,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return None
    finally:
        os.unlink(f.name)
    answer = json.loads(done.stdout)
    return answer["median"] / 1000, answer["first"] / 1000


def others(text: str, runs: int) -> dict[str, float]:
    """LangChain's RecursiveCharacterTextSplitter with its defaults (4000 characters, overlap
    200: what issue 26 compares with, as a user who reaches for it gets it) and semchunk at
    1000 characters, if installed."""
    found: dict[str, float] = {}
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        splitter = RecursiveCharacterTextSplitter()
        found["LangChain"] = median_seconds(lambda: splitter.split_text(text), runs)
    except ImportError:
        pass
    try:
        import semchunk

        chunk = semchunk.chunkerify(len, chunk_size=1000)
        found["semchunk"] = median_seconds(lambda: chunk(text), runs)
    except ImportError:
        pass
    return found


def rate(size: int, seconds: float | None) -> str:
    return f"> {NODE_TIMEOUT_S} s" if seconds is None else f"{size / seconds / 1e6:.1f}"


def ratio(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}×"


def milliseconds(seconds: float | None) -> str:
    return "—" if seconds is None else f"{seconds * 1000:,.0f}"


def semantic_table(texts: dict[str, str], runs: int, rounds: int, has_node: bool) -> None:
    print()
    print("SemanticChunker, default settings (MB/s; ratio = our speed / theirs)")
    print()
    print(
        "| input | ours (CPython) | original (Node) | ours/original | LangChain (defaults)"
        " | semchunk | first call, ours / original (ms) |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, text in texts.items():
        chunker = SemanticChunker()
        timed = side_by_side(lambda: chunker.chunk(text), text, "semantic", runs, rounds, has_node)
        rest = others(text, runs) if name.startswith(("markdown", "no white")) else {}
        langchain, semchunk = (
            rate(len(text), rest[key]) if key in rest else "—" for key in ("LangChain", "semchunk")
        )
        print(
            f"| {name} | {rate(len(text), timed.ours)} | {rate(len(text), timed.original)} | "
            f"{ratio(timed.speedup)} | {langchain} | {semchunk} | "
            f"{milliseconds(timed.ours_first)} / {milliseconds(timed.original_first)} |"
        )
        sys.stdout.flush()


def engine_table(texts: dict[str, str], runs: int, rounds: int, has_node: bool) -> None:
    print()
    print("ChunkingEngine strategies, default settings (MB/s)")
    print()
    print(
        "| input | strategy | ours (CPython) | original (Node) | ours/original"
        " | first call, ours / original (ms) |"
    )
    print("|---|---|---|---|---|---|")
    engine = ChunkingEngine()
    for name in [n for n in texts if n.startswith("markdown") and not n.endswith("100 KB")]:
        text = texts[name]
        for strategy in ("fixed", "hierarchical", "layout"):
            timed = side_by_side(
                lambda: engine.chunk(text, strategy), text, strategy, runs, rounds, has_node
            )
            print(
                f"| {name} | {strategy} | {rate(len(text), timed.ours)} | "
                f"{rate(len(text), timed.original)} | {ratio(timed.speedup)} | "
                f"{milliseconds(timed.ours_first)} / {milliseconds(timed.original_first)} |"
            )
            sys.stdout.flush()


def before_table(
    before: Path, texts: dict[str, str], documents: list[str], runs: int, rounds: int
) -> None:
    """Each chunker's median call, and `chunk_many(jobs=1)` over `documents`, `before`'s code
    and ours taking turns in `rounds` rounds."""
    with tempfile.TemporaryDirectory() as folder:
        named = []
        for number, (name, text) in enumerate(texts.items()):
            path = Path(folder, f"{number}.txt")
            path.write_text(text, encoding="utf-8")
            named.append(f"{name}={path}")
        path = Path(folder, "documents.json")
        path.write_text(json.dumps(documents), encoding="utf-8")
        named.append(f"{len(documents):,} documents of {SMALL_SIZES}={path}")
        sides: dict[str, list[dict[str, float]]] = {"before": [], "ours": []}
        for _ in range(rounds):
            for side, checkout in (("before", before), ("ours", ROOT)):
                done = subprocess.run(
                    [
                        sys.executable,
                        str(Path(__file__).with_name("calls.py")),
                        str(checkout),
                        str(runs),
                        *named,
                    ],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                sides[side].append(json.loads(done.stdout))
    print()
    print(f"Every chunker beside {before} (ms, medians; ratio = ours/before, the rounds' median)")
    print()
    print("| call | before | ours | ours/before |")
    print("|---|---|---|---|")
    for call in sides["ours"][0]:
        old = statistics.median(result[call] for result in sides["before"])
        new = statistics.median(result[call] for result in sides["ours"])
        ratio = statistics.median(
            ours[call] / theirs[call] for ours, theirs in zip(sides["ours"], sides["before"])
        )
        print(f"| {call} | {old:.1f} | {new:.1f} | {ratio:.2f}× |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs a round, each side")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of ours then the original")
    parser.add_argument("--quick", action="store_true", help="leave out the 10 MB input")
    parser.add_argument("--engine-only", action="store_true", help="only the ChunkingEngine table")
    parser.add_argument("--before", type=Path, help="a checkout of another commit, to compare")
    args = parser.parse_args()
    has_node = shutil.which("node") is not None and ensure_original()
    node = "absent"
    if has_node:
        node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    print(
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, Node {node}"
    )
    texts = inputs(args.quick)
    if args.before:
        markdown = {name: text for name, text in texts.items() if name.startswith("markdown")}
        before_table(args.before, markdown, small_documents(), args.runs, args.rounds)
        return 0
    if not args.engine_only:
        semantic_table(texts, args.runs, args.rounds, has_node)
        small_documents_table(small_documents(), args.runs, args.rounds)
    engine_table(texts, args.runs, args.rounds, has_node)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
