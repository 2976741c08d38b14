"""An evaluation set of two documents, and the stability figure computed plainly from
docs/evaluation.md's rule ("Stability under edits"), for the tests that check
`chunker.stability` against it."""

from __future__ import annotations

import random

from chunker import ChunkingEngine
from chunker.evaluation import EvaluationSet, Question

GUIDE = "\n\n".join(
    f"## Part {n}\n\n"
    + " ".join(f"Sentence {n}.{k} says {'more ' * (n % 5)}about part {n}." for k in range(6))
    for n in range(40)
)
NOTES = "\n".join(f"Line {n} of the notes, {'long ' * (n % 7)}and done." for n in range(60))
DATA = EvaluationSet(
    {"guide": GUIDE, "notes": NOTES},
    [Question("part 7", "guide", ((GUIDE.index("## Part 7"), GUIDE.index("## Part 8")),))],
)


def paragraphs(text: str) -> list[tuple[int, int]]:
    """The documented rule, plainly: runs of lines between blank lines; with none, lines."""
    spans, start = [], 0
    lines = text.split("\n")
    blank = [line.strip() == "" for line in lines]
    if not any(blank[1:-1]):  # no blank line between two others: each line a paragraph
        return [(s, s + len(line.strip())) for s, line in _starts(lines) if line.strip()]
    for (at, line), is_blank in [*zip(_starts(lines), blank), ((len(text) + 1, ""), True)]:
        if is_blank:
            if start < at - 1 and text[start : at - 1].strip():
                piece = text[start : at - 1]
                left = len(piece) - len(piece.lstrip())
                spans.append((start + left, start + len(piece.rstrip())))
            start = at + len(line) + 1
    return spans


def _starts(lines: list[str]) -> list[tuple[int, str]]:
    out, at = [], 0
    for line in lines:
        out.append((at, line))
        at += len(line) + 1
    return out


def engine_key(chunk):
    return chunk.content, chunk.span


def semantic_key(chunk):
    """A `Chunk`'s text, its overlap's included, and the range it covers from its overlap."""
    start, end = chunk.span
    if chunk.overlap_span is not None and chunk.overlap_span[0] < start:
        start = chunk.overlap_span[0]
    return chunk.text, (start, end)


def direct_shares(cut, texts, edits: int, seed: int, key=engine_key) -> list[float]:
    """Each edit's share kept, computed as docs/evaluation.md defines it."""
    draw = random.Random(seed)
    shares = []
    for text in texts:
        before = [key(c) for c in cut(text)]
        spans = paragraphs(text)
        for _ in range(edits):
            replaced = draw.randrange(len(spans))
            other = draw.randrange(len(spans) - 1)
            other += other >= replaced
            start, end = spans[replaced]
            replacement = text[slice(*spans[other])]
            after = {key(c) for c in cut(text[:start] + replacement + text[end:])}
            shift = len(replacement) - (end - start)
            kept = 0
            for content, (s, e) in before:
                if e <= start:
                    kept += (content, (s, e)) in after
                elif s >= end:
                    kept += (content, (s + shift, e + shift)) in after
            shares.append(kept / len(before))
    return shares


def fixed(boundaries: str):
    engine = ChunkingEngine()
    return lambda text: engine.chunk(text, chunk_size=200, chunk_overlap=20, boundaries=boundaries)
