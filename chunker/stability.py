"""How many of a chunking's chunks an edit leaves as they were: the stability figure of
`chunker.evaluation` (docs/evaluation.md, "Stability under edits").

An edit replaces one paragraph (a run of lines between blank lines; a line, in a text with no
blank line, as Wikipedia's dumps write paragraphs) or one sentence of a text
with another paragraph or sentence of the same text, drawn at random from a seeded
`random.Random`. The text is cut before and after it; a chunk of before is kept when a chunk
of after has the same text over the same range, shifted by what the edit added when the
chunk lies after it (the range a chunk covers, its overlap included: `recipe.covered`). A
chunk that overlaps the replaced text is never kept. The share kept is the chunks kept over
the chunks before: what a pipeline that re-embeds what changed need not embed again.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any, Literal, NamedTuple

from chunker.base.whitespace import WS_CLASS, tight_span
from chunker.recipe import covered, fields

__all__ = ["Edit", "EditKind", "EDIT_KINDS", "pieces", "random_edit", "kept_count", "kept_shares"]

EditKind = Literal["paragraph", "sentence"]
EDIT_KINDS: tuple[EditKind, ...] = ("paragraph", "sentence")

# What separates paragraphs: a line feed, then lines of white space alone, then a line feed.
_LINE_SPACE = WS_CLASS.replace(r"\n", "")
_PARAGRAPH_GAP = rf"\n(?:[{_LINE_SPACE}]*\n)+"
# What separates sentences too: white space after a sentence's end (`.`, `!` or `?`).
_GAPS: dict[str, re.Pattern[str]] = {
    "paragraph": re.compile(_PARAGRAPH_GAP),
    "line": re.compile(rf"\n[{WS_CLASS}]*"),
    "sentence": re.compile(rf"{_PARAGRAPH_GAP}|(?<=[.!?])[{WS_CLASS}]+"),
}


class Edit(NamedTuple):
    """`text[start:end]` replaced by `replacement`."""

    start: int
    end: int
    replacement: str

    def apply(self, text: str) -> str:
        """`text` edited."""
        return text[: self.start] + self.replacement + text[self.end :]


def pieces(text: str, kind: EditKind) -> list[tuple[int, int]]:
    """The spans of `text`'s paragraphs or sentences, each from its first character that is
    not white space to its last (in a pass or two over the text).

    Example:
        >>> pieces("One. Two!\\n\\n Three", "sentence")
        [(0, 4), (5, 9), (12, 17)]
        >>> pieces("One. Two!\\n\\n Three", "paragraph")
        [(0, 9), (12, 17)]
        >>> pieces("One. Two!\\n Three", "paragraph")  # no blank line: its lines
        [(0, 9), (11, 16)]
    """
    spans = _split(text, kind)
    return _split(text, "line") if kind == "paragraph" and len(spans) < 2 else spans


def _split(text: str, gaps: str) -> list[tuple[int, int]]:
    spans = []
    start = 0
    for gap in [*_GAPS[gaps].finditer(text), None]:
        stop = len(text) if gap is None else gap.start()
        span = tight_span(text, start, stop)
        if span is not None:
            spans.append(span)
        if gap is not None:
            start = gap.end()
    return spans


def random_edit(text: str, kind: EditKind, draw: random.Random) -> Edit | None:
    """One paragraph or sentence of `text` replaced by another of its own, both drawn by
    `draw`; None when the text has fewer than two."""
    spans = pieces(text, kind)
    if len(spans) < 2:
        return None
    replaced = draw.randrange(len(spans))
    other = draw.randrange(len(spans) - 1)
    other += other >= replaced  # any but the one replaced
    start, end = spans[replaced]
    return Edit(start, end, text[slice(*spans[other])])


def kept_count(before: Sequence[Any], after: Sequence[Any], edit: Edit) -> int:
    """How many of the chunks `before` (records of our chunkers) are among `after`, the
    chunks of the text `edit` made: the same text over the same range, shifted past it."""
    shift = len(edit.replacement) - (edit.end - edit.start)
    found = {(flat["text"], covered(flat)) for flat in map(fields, after)}
    kept = 0
    for flat in map(fields, before):
        start, end = covered(flat)
        if end <= edit.start:
            kept += (flat["text"], (start, end)) in found
        elif start >= edit.end:
            kept += (flat["text"], (start + shift, end + shift)) in found
    return kept


def kept_shares(
    cut: Callable[[str], Sequence[Any]],
    texts: Sequence[str],
    edits: int,
    seed: int,
    kind: EditKind = "paragraph",
) -> list[float]:
    """The share of each text's chunks (cut by `cut`) kept under each of `edits` random
    edits of `kind`, the texts in order, each edit made to the text as given; a text with
    fewer than two paragraphs (sentences), or no chunks, has none. The edits depend on
    `seed` and the texts alone, so every setting is measured on the same edits."""
    draw = random.Random(seed)
    shares = []
    for text in texts:
        before = cut(text)
        for _ in range(edits):
            edit = random_edit(text, kind, draw)
            if edit is None or not before:
                break
            shares.append(kept_count(before, cut(edit.apply(text)), edit) / len(before))
    return shares
