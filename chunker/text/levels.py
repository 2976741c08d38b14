"""The levels a text too long is split at, from the most to the least desirable break.

Two tables, one a reader: `SPLIT_LEVELS`, `SemanticChunker`'s step 2 for a segment over
`max_size` (in the spec's order: blank lines, then sentence ends, then every `target_size`
characters), and `BUDGET_LEVELS`, the token budget's pass for a chunk over `max_tokens`
(budget.py). Each level is its boundary type (that of a part cut at it), what finds its
breaks, and how parts between breaks are joined again once packed; a reader tries a level,
and a part still too long, or a text with no break, goes on to the next. The last level of
each finds no break: it cuts by size, characters for step 2, tokens for the budget.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from chunker.base.whitespace import WHITESPACE_RUN_RE, WS_CLASS
from chunker.text.records import BoundaryType

__all__ = [
    "Level",
    "Breaks",
    "SPLIT_LEVELS",
    "BUDGET_LEVELS",
    "paragraph_breaks",
    "sentence_breaks",
    "pieces_between",
]

# The breaks in `text[start:stop]`, each as where it starts and ends, in order: the white
# space dropped between two parts.
Breaks = Callable[[str, int, int], list[tuple[int, int]]]


# Plain and slotted, not a NamedTuple: a NamedTuple class compiles its methods as its module
# loads, and the page's worker loads this module as it starts (with `SemanticChunker`).
class Level:
    """One level of a split."""

    __slots__ = ("boundary", "breaks", "joiner")

    def __init__(self, boundary: BoundaryType, breaks: Breaks | None, joiner: str | None) -> None:
        self.boundary = boundary
        """The boundary type of a part cut at this level."""
        self.breaks = breaks
        """What finds the breaks; None: the last level, which cuts by size."""
        self.joiner = joiner
        """What joins again the parts packed up to the size (the break they had is dropped);
        None: each part stays apart."""

    def __repr__(self) -> str:
        return f"Level({self.boundary!r}, {self.breaks!r}, {self.joiner!r})"


# A paragraph break: a line feed, any white space, another line feed.
# "a\n\nb", "a\n \t\nb" and "a\n\n\n\nb" each split into "a" and "b".
PARAGRAPH_BREAK_RE = re.compile(rf"\n[{WS_CLASS}]*\n")

# A sentence end: a full stop and the white space after it. "Hi. There" holds ". ".
# `!` and `?` end sentences too; they are searched as full stops (see `sentence_breaks`).
SENTENCE_END_RE = re.compile(rf"\.[{WS_CLASS}]+")

# Where the budget may cut after a sentence: the white space after `.`, `!` or `?` ("Hi.
# There" holds ". "'s space) or white space holding a line feed ("a \n b": " \n "). A match
# starts only where a run of white space does (the lookbehinds), so each run is read once:
# linear.
SENTENCE_OR_LINE_RE = re.compile(
    rf"(?<=[.!?])[{WS_CLASS}]+|(?<![{WS_CLASS}])[{WS_CLASS}]*\n[{WS_CLASS}]*"
)


def paragraph_breaks(text: str, start: int, stop: int) -> list[tuple[int, int]]:
    """The blank lines that start in `text[start:stop]` and end there."""
    return [found.span() for found in PARAGRAPH_BREAK_RE.finditer(text, start, stop)]


def sentence_breaks(text: str, start: int, stop: int) -> list[tuple[int, int]]:
    """The white space after each `.`, `!` and `?` in `text[start:stop]`."""
    # A pattern that starts with one literal character lets `re` jump between its
    # occurrences; one that starts with a class such as [.!?] tests every character. So
    # search a copy in which `!` and `?` read as `.` (tests/bench/core.py, no white space).
    marked = text.replace("!", ".").replace("?", ".")
    return [(end.start() + 1, end.end()) for end in SENTENCE_END_RE.finditer(marked, start, stop)]


def _pattern_breaks(pattern: re.Pattern[str]) -> Breaks:
    def breaks(text: str, start: int, stop: int) -> list[tuple[int, int]]:
        return [found.span() for found in pattern.finditer(text, start, stop)]

    return breaks


def pieces_between(text: str, breaks: list[tuple[int, int]]) -> tuple[list[str], list[int]]:
    """The parts of `text` between `breaks` (the breaks dropped), and where each starts."""
    pieces: list[str] = []
    starts: list[int] = []
    start = 0
    for end, after in breaks:
        pieces.append(text[start:end])
        starts.append(start)
        start = after
    pieces.append(text[start:])
    starts.append(start)
    return pieces, starts


SPLIT_LEVELS = (
    # Between paragraphs: at blank lines, packed again with one blank line.
    Level("paragraph", paragraph_breaks, "\n\n"),
    # Between sentences: at the white space after `.`, `!` or `?`, packed again with a space.
    Level("sentence", sentence_breaks, " "),
    # Every `target_size` characters, back to a space more than `min_size` characters in.
    Level("fixed", None, None),
)

BUDGET_LEVELS = (
    # After a sentence, or at white space holding a line feed (a line, a paragraph, a turn
    # ends there too).
    Level("sentence", _pattern_breaks(SENTENCE_OR_LINE_RE), None),
    # At any white space, between words.
    Level("fixed", _pattern_breaks(WHITESPACE_RUN_RE), None),
    # Within a word too long alone: its longest prefix within the budget, again and again.
    Level("fixed", None, None),
)
