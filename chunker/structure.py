"""Step 1 of `SemanticChunker`: the text read line by line into heading, paragraph and
code-block segments.

The rules, as the original applies them to each line in turn:

- a line whose trimmed text starts with three backticks opens a code block that runs to the
  next such line (or the end) and becomes one code-block segment; the segment gathering when
  the block opens is flushed but kept, so if the block never closes it comes out again at
  the end;
- a heading line (one to six `#`, then white space) flushes the gathering segment and starts
  a heading segment;
- a blank line ends the gathering segment once it holds text and `target_size` characters;
- every other line joins the gathering segment.

A segment is a run of whole lines, each with its line feed, so it is a slice of the text
(the last one with a line feed added). Only the lines that can change anything are visited:
fences, headings, and the first blank line at or past `target_size` characters into a
segment. So a chunk of prose costs one search, not a Python step per line.
"""

from __future__ import annotations

import re
from typing import Tuple

from .records import BoundaryType
from .whitespace import TEXT_RE, WS_CLASS

__all__ = ["Segment", "split_by_structure"]

# A piece of the input on its way to becoming a chunk: its text, where it starts, its type.
Segment = Tuple[str, int, BoundaryType]

_WS_IN_LINE = WS_CLASS.replace("\\n", "")

# Each line pattern matches the line feed before the line, so a search jumps from line feed
# to line feed (the first line, which has none, is matched on its own).

# A fence line: "```py", "  ```" (its trimmed text starts with three backticks).
_FENCE = rf"(?P<fence>[{_WS_IN_LINE}]*```)"
# A heading line: "## Setup", "#\tx"; not "#word" nor "####### x".
_HEADING = rf"(?P<heading>#{{1,6}}[{_WS_IN_LINE}])"
FENCE_LINE_RE = re.compile(rf"\n{_FENCE}")
# The lines that open a block or start a segment, by (preserve_code_blocks, respect_headings):
# a pattern for the lines after a line feed, and one for the first line.
SPECIAL_LINE_RES = {
    options: (re.compile(rf"\n{pattern}"), re.compile(pattern))
    for options, pattern in {
        (True, True): f"(?:{_FENCE}|{_HEADING})",
        (True, False): _FENCE,
        (False, True): _HEADING,
        (False, False): "(?!)",  # matches nowhere: only blank lines matter
    }.items()
}
# A blank line: white space alone, up to the next line feed or the end.
BLANK_LINE_RE = re.compile(rf"\n[{_WS_IN_LINE}]*(?=\n|\Z)")

_NOT_FOUND = 1 << 62  # a position past any text


def split_by_structure(
    text: str, target_size: int, preserve_code_blocks: bool, respect_headings: bool
) -> list[Segment]:
    """Cut `text` into segments at fences, headings and blank lines, as the module says."""
    length = len(text)
    special_re, first_special_re = SPECIAL_LINE_RES[preserve_code_blocks, respect_headings]
    segments: list[Segment] = []

    def next_special(position: int) -> tuple[int, str | None]:
        """Where the first special line at or after `position` starts, and its kind."""
        if position == 0:
            first = first_special_re.match(text)
            if first is not None:
                return 0, first.lastgroup
        found = special_re.search(text, max(position - 1, 0))
        return (found.start() + 1, found.lastgroup) if found else (length + 1, None)

    def lines(start: int, stop: int) -> str:
        """The lines from `start` up to the line starting at `stop`, each with its line feed."""
        return text[start:stop] if stop <= length else text[start:] + "\n"

    def line_end(start: int) -> int:
        end = text.find("\n", start)
        return length if end < 0 else end

    start = 0  # where the gathering segment starts
    boundary: BoundaryType = "paragraph"
    first_text = -1  # where its text starts (_NOT_FOUND: none), -1 until asked

    def has_text_before(stop: int) -> bool:
        nonlocal first_text
        if first_text < 0:
            found = TEXT_RE.search(text, start)
            first_text = found.start() if found else _NOT_FOUND
        return first_text < stop

    def begin(at: int, kind: BoundaryType) -> None:
        nonlocal start, boundary, first_text
        start, boundary, first_text = at, kind, -1

    position = 0  # lines before it are handled
    special_at, kind = next_special(0)
    while True:
        blank = None
        least = max(position, start + target_size)  # at least 1: no blank first line to find
        if least < special_at:
            blank = BLANK_LINE_RE.search(text, least - 1, special_at - 1)
        if blank is not None:
            at = blank.start() + 1
            if has_text_before(at):
                segments.append((text[start:at], start, boundary))
                begin(line_end(at) + 1, "paragraph")
                position = start
            elif first_text < length:
                # White space alone so far: no blank line ends the segment before its text.
                position = text.rfind("\n", 0, first_text) + 1
            else:
                break  # white space to the end
            continue
        if kind is None:
            break
        end = line_end(special_at)
        if kind == "fence":
            if has_text_before(special_at):
                segments.append((text[start:special_at], start, boundary))
            closing = FENCE_LINE_RE.search(text, end)
            if closing is None:
                segments.append((lines(special_at, length + 1), special_at, "code-block"))
                if has_text_before(special_at):
                    segments.append((text[start:special_at], start, boundary))
                return segments
            close_end = line_end(closing.start() + 1)
            segments.append((text[special_at:close_end], special_at, "code-block"))
            begin(close_end + 1, "paragraph")
            position = close_end + 1
        else:
            if has_text_before(special_at):
                segments.append((text[start:special_at], start, boundary))
            begin(special_at, "heading")
            position = end + 1
        special_at, kind = next_special(position)
    if has_text_before(length + 1):
        segments.append((lines(start, length + 1), start, boundary))
    return segments
