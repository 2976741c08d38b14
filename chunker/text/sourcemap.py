"""Where the characters of a text made from pieces of the input stand in the input.

A chunker that copies a slice of the input knows each character's place by one number, the
slice's start (a `Source` that is an `int`). One that joins pieces (sentences with " ",
paragraphs with "\\n\\n") makes a text whose places jump at each joiner: a `PieceMap` holds
where each piece starts in the joined text and in the input. Joiners are white space, so a
span's ends, which are never white space, always fall inside a piece.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import final

__all__ = ["PieceMap", "Source", "to_input", "input_span", "after", "joined"]


# Final, so that `type(source) is PieceMap` tells a type checker, in both branches, which of
# the two a `Source` is (an `int` may be a subclass of int, so testing for it narrows only
# one branch): the one test, exact and cheap, that these hot paths make.
@final
class PieceMap:
    """Pieces of the input in a joined text: `starts[k]` there stands for `origins[k]` here.

    Example:
        >>> pieces = PieceMap([0, 4], [10, 20])  # "ab. " + "cd": "ab." from 10, "cd" from 20
        >>> pieces.to_input(1), pieces.to_input(5)
        (11, 21)
    """

    __slots__ = ("starts", "origins")

    def __init__(self, starts: list[int], origins: list[int]) -> None:
        self.starts = starts
        self.origins = origins

    def to_input(self, position: int) -> int:
        """Where the character at `position` of the joined text is in the input (for a
        character of a piece; a joiner's characters have no place there)."""
        piece = bisect_right(self.starts, position) - 1
        return self.origins[piece] + position - self.starts[piece]

    def after(self, position: int) -> PieceMap:
        """The map of the joined text's characters from `position` on, counted from 0 there."""
        first = bisect_right(self.starts, position)
        starts = [0] + [start - position for start in self.starts[first:]]
        return PieceMap(starts, [self.to_input(position), *self.origins[first:]])


# Where a text's characters are in the input: an int when the text is one slice of it (the
# slice's start), a PieceMap when it joins several.
Source = int | PieceMap


def to_input(source: Source, position: int) -> int:
    """Where the character at `position` of a text with `source` is in the input."""
    if type(source) is PieceMap:
        return source.to_input(position)
    return source + position


def input_span(source: Source, start: int, end: int) -> tuple[int, int]:
    """Where the characters `start` to `end` of a text with `source` stand in the input, the
    first and the last of them in a piece (not a joiner's white space): from the first's
    place to just past the last's.

    Example:
        >>> input_span(PieceMap([0, 4], [10, 20]), 1, 5)  # "b. c" of "ab. " + "cd"
        (11, 21)
    """
    if type(source) is PieceMap:
        return source.to_input(start), source.to_input(end - 1) + 1
    return source + start, source + end


def after(source: Source, position: int) -> Source:
    """The source of the text's characters from `position` on."""
    if type(source) is PieceMap:
        return source.after(position)
    return source + position


def joined(sources: Sequence[Source], lengths: Sequence[int], joiner: int) -> Source:
    """The source of texts of `lengths` characters, with `sources`, joined by `joiner` characters.

    Example:
        >>> joined([10, 20], [3, 2], 1).to_input(4)
        20
    """
    if len(sources) == 1:
        return sources[0]
    starts: list[int] = []
    origins: list[int] = []
    at = 0
    for source, length in zip(sources, lengths):
        if type(source) is PieceMap:
            # A piece of a joined text may end before its map does: keep what it holds.
            for start, origin in zip(source.starts, source.origins):
                if start < length:
                    starts.append(at + start)
                    origins.append(origin)
        else:
            starts.append(at)
            origins.append(source)
        at += length + joiner
    return PieceMap(starts, origins)
