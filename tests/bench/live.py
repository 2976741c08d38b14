"""`LiveDocument` in CPython: what an edit costs beside a full `chunk()`, and what it keeps.

    python tests/bench/live.py [--edits N] [--runs N] [--seed S]

1. Speed: a one-character edit (a character typed, or one deleted, at a seeded random place,
   in turns, so the text stays the size it was) in 5 MB of Markdown, beside a full `chunk()`
   of it with the same settings (`SemanticChunker`'s defaults). Each figure is the median
   over the edits (the full cut's over `--runs` cuts, after one to warm up); the ratio is
   the target's measure (at most 1/20). Reading `chunks` afterwards, which makes the moved
   records, is timed apart.
2. Kept share: seeded random edits that replace one paragraph of Markdown with another of
   the same document, or one sentence of prose whose paragraphs run long with another
   sentence; each edit undone before the next; the share of the chunks before each edit
   that its `Change` keeps, averaged over the edits (the target: at least 98% for
   `SemanticChunker`'s defaults). The documents are cut into at least 1,000 chunks.

Texts: Markdown, the documentation npm ships (tests/bench/core.py's corpus, the real
Markdown on this machine); prose, the corpora of Chroma's evaluation set
(/work/shared/datasets/chroma-general-evaluation: financial filings, PubMed articles,
Wikipedia, a speech, chat logs), whose paragraphs run to thousands of characters.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS.parent), str(TESTS), str(TESTS / "bench")]

from core import markdown_corpus  # noqa: E402

from chunker import LiveDocument, chunk  # noqa: E402

CHROMA = Path("/work/shared/datasets/chroma-general-evaluation/corpora")
MARKDOWN_SIZE = 5_000_000
SETTINGS: dict[str, dict[str, Any]] = {
    "SemanticChunker defaults": {},
    "fixed 512/64 (by position)": {"strategy": "fixed", "chunk_size": 512, "chunk_overlap": 64},
    "hierarchical 512/64": {"strategy": "hierarchical", "chunk_size": 512, "chunk_overlap": 64},
    "layout 512/64": {"strategy": "layout", "chunk_size": 512, "chunk_overlap": 64},
}
SENTENCE_RE = re.compile(r"[^.!?\n]+[.!?]+(?= )")


def prose() -> str:
    return "\n\n".join(path.read_text(encoding="utf-8") for path in sorted(CHROMA.glob("*.md")))


def median_ms(call: Callable[[], object], runs: int) -> float:
    call()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def speed(text: str, edits: int, runs: int, seed: int) -> None:
    full = median_ms(lambda: chunk(text), runs)
    document = LiveDocument(text)
    rng = random.Random(seed)
    times, reads = [], []
    for number in range(edits):
        at = rng.randrange(len(document.text) - 1)
        started = time.perf_counter()
        if number % 2:
            document.edit(at, at + 1, "")  # one deleted
        else:
            document.edit(at, at, "x")  # one typed
        times.append(time.perf_counter() - started)
        if number % 10 == 9:
            started = time.perf_counter()
            _ = document.chunks
            reads.append(time.perf_counter() - started)
    edit = statistics.median(times) * 1000
    worst = max(times) * 1000
    p90 = statistics.quantiles(times, n=10)[-1] * 1000
    print(f"Markdown {len(text) / 1e6:.1f} MB, {len(document.chunks):,} chunks")
    print(f"  full chunk():                    {full:8.2f} ms (median of {runs})")
    print(
        f"  one-character edit:              {edit:8.3f} ms median, {p90:.3f} ms p90, "
        f"{worst:.2f} ms at most ({edits} edits): 1/{full / edit:,.0f} of a full chunk()"
    )
    print(f"  reading chunks after 10 edits:   {statistics.median(reads) * 1000:8.2f} ms median")
    assert document.chunks == chunk(document.text)


def paragraph_edits(text: str) -> list[tuple[int, int]]:
    """Where each paragraph of body text lies: no heading, no fence, no blank."""
    found = []
    at = 0
    for paragraph in text.split("\n\n"):
        body = paragraph.strip()
        if body and not body.startswith(("#", "```", "|")) and "```" not in body:
            found.append((at, at + len(paragraph)))
        at += len(paragraph) + 2
    return found


def sentence_edits(text: str) -> list[tuple[int, int]]:
    """Where each sentence of a paragraph over 2,000 characters lies."""
    found = []
    for paragraph in re.finditer(r"[^\n]{2000,}", text):
        found += [
            (paragraph.start() + sentence.start(), paragraph.start() + sentence.end())
            for sentence in SENTENCE_RE.finditer(paragraph.group())
        ]
    return found


def kept_share(
    text: str, places: list[tuple[int, int]], options: dict[str, Any], edits: int, seed: int
) -> tuple[float, int]:
    options = dict(options)
    strategy = options.pop("strategy", "semantic")
    document = LiveDocument(text, strategy, **options)
    count = len(document.chunks)
    rng = random.Random(seed)
    shares = []
    for _ in range(edits):
        start, end = rng.choice(places)
        other = rng.choice(places)
        replacement = text[other[0] : other[1]]
        before = len(document.chunks)
        change = document.edit(start, end, replacement)
        shares.append(len(change.kept) / before)
        document.edit(start, start + len(replacement), text[start:end])  # undone
    return statistics.mean(shares), count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=46)
    args = parser.parse_args()
    print(
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    markdown = markdown_corpus(MARKDOWN_SIZE)
    speed(markdown, args.edits, args.runs, args.seed)
    texts = {
        "Markdown, one paragraph replaced": (
            markdown[:1_500_000],
            paragraph_edits(markdown[:1_500_000]),
        ),
        "prose, one sentence replaced": (prose(), sentence_edits(prose())),
    }
    for kind, (text, places) in texts.items():
        print(f"{kind} ({len(text) / 1e6:.1f} MB, {len(places):,} places, {args.edits} edits):")
        for name, options in SETTINGS.items():
            share, count = kept_share(text, places, options, args.edits, args.seed)
            print(f"  {name:28} {count:6,} chunks, {share:7.2%} kept")
    print(f"load at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
