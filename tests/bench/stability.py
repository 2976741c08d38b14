"""The share of chunks kept under a random edit (`chunker.stability`, the naive re-chunk and
compare): `fixed` by position and by content (512/64), beside `SemanticChunker`'s defaults.

    python tests/bench/stability.py [--edits N] [--size CHARS] [--seed N]

Two documents of about `--size` characters (600,000 unless given), at least 1,000 chunks of
`fixed` 512/64 each: Markdown made from the documentation npm ships (as tests/bench/core.py
makes it), edited one paragraph at a time; and prose made from the same documents' prose
paragraphs (their lines joined, eight paragraphs to one: paragraphs of thousands of
characters), edited one sentence at a time. Each edit replaces one paragraph (sentence) with
another of the same text, drawn from `--seed`, and is made to the document as it was; each
figure is the mean over `--edits` edits (40 unless given), with the least. The time is one
cut of the document (the median of the cuts before each edit's, which are the same work).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parent)]

from core import markdown_corpus  # noqa: E402

from chunker import ChunkingEngine, SemanticChunker  # noqa: E402
from chunker.stability import EditKind, kept_shares  # noqa: E402

# Lines that are not prose: headings, fences, tables, lists, quotes, HTML, link definitions.
NOT_PROSE = re.compile(r"^\s*(#|```|~~~|\||[-*+] |\d+[.)] |>|<|\[[^]]+\]:)")


def long_paragraph_prose(markdown: str, size: int) -> str:
    """The prose paragraphs of `markdown` (outside code fences), each on one line, joined
    eight to a paragraph, repeated to `size` characters."""
    paragraphs, fenced = [], False
    for block in re.split(r"\n\s*\n", markdown):
        lines = block.strip().splitlines()
        if any(line.lstrip().startswith(("```", "~~~")) for line in lines):
            fenced = not fenced if len(lines) == 1 else fenced
            continue
        if fenced or not lines or any(NOT_PROSE.match(line) for line in lines):
            continue
        text = " ".join(line.strip() for line in lines)
        if len(text) > 80 and text[-1] in ".!?":
            paragraphs.append(text)
    joined = [" ".join(paragraphs[at : at + 8]) for at in range(0, len(paragraphs), 8)]
    text, parts = "", []
    while len(text) < size:
        parts += joined
        text = "\n\n".join(parts)
    return text[: text.rfind("\n\n", 0, size)]


def measure(
    cut: Callable[[str], Sequence[Any]], text: str, kind: EditKind, edits: int, seed: int
) -> dict[str, float]:
    chunks = cut(text)
    times = []
    for _ in range(3):
        began = time.perf_counter()
        cut(text)
        times.append(time.perf_counter() - began)
    shares = kept_shares(cut, [text], edits, seed, kind)
    lengths = [c.span[1] - c.span[0] for c in chunks]
    return {
        "chunks": len(chunks),
        "mean": statistics.fmean(lengths),
        "kept": statistics.fmean(shares),
        "least": min(shares),
        "ms": 1000 * statistics.median(times),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--size", type=int, default=600_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    markdown = markdown_corpus(args.size)
    documents: dict[str, tuple[str, EditKind]] = {
        "Markdown, one paragraph": (markdown, "paragraph"),
        "long-paragraph prose, one sentence": (
            long_paragraph_prose(markdown_corpus(4 * args.size), args.size),
            "sentence",
        ),
    }
    engine = ChunkingEngine()
    chunkers: dict[str, Callable[[str], Sequence[Any]]] = {
        "fixed 512/64, position": engine.chunk,
        "fixed 512/64, content": lambda text: engine.chunk(text, boundaries="content"),
        "fixed 900/64, content": lambda text: engine.chunk(
            text, chunk_size=900, boundaries="content"
        ),
        "SemanticChunker defaults": SemanticChunker().chunk,
    }
    print(f"{args.edits} edits a row, seed {args.seed}; Python {sys.version.split()[0]}")
    for name, (text, kind) in documents.items():
        print(f"\n{name} ({len(text):,} characters)")
        print(f"{'chunker':<26} {'chunks':>7} {'mean':>6} {'kept':>7} {'least':>7} {'cut ms':>7}")
        for label, cut in chunkers.items():
            m = measure(cut, text, kind, args.edits, args.seed)
            print(
                f"{label:<26} {m['chunks']:>7,} {m['mean']:>6.0f} {100 * m['kept']:>6.2f}% "
                f"{100 * m['least']:>6.2f}% {m['ms']:>7.1f}"
            )


if __name__ == "__main__":
    main()
