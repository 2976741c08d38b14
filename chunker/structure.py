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
# to line feed; the text is searched with a line feed put in front, which makes positions in
# it equal to line starts in the text.

# A fence line: "```py", "  ```" (its trimmed text starts with three backticks).
_FENCE = rf"(?P<fence>[{_WS_IN_LINE}]*```)"
# A heading line: "## Setup", "#\tx"; not "#word" nor "####### x".
_HEADING = rf"(?P<heading>#{{1,6}}[{_WS_IN_LINE}])"
FENCE_LINE_RE = re.compile(rf"\n{_FENCE}")
HEADING_LINE_RE = re.compile(rf"\n{_HEADING}")
FENCE_OR_HEADING_LINE_RE = re.compile(rf"\n(?:{_FENCE}|{_HEADING})")
# A blank line: white space alone, up to the next line feed or the end.
BLANK_LINE_RE = re.compile(rf"\n[{_WS_IN_LINE}]*(?=\n|\Z)")

# Matches nowhere: with neither fences nor headings, only blank lines matter.
_NOTHING_RE = re.compile(r"(?!)")

_NOT_FOUND = 1 << 62  # a position past any text


def split_by_structure(
    text: str, target_size: int, preserve_code_blocks: bool, respect_headings: bool
) -> list[Segment]:
    """Cut `text` into segments at fences, headings and blank lines, as the module says."""
    fed = "\n" + text  # fed[i] is the line feed before the line starting at text[i]
    length = len(text)
    special_re = _special_line_re(preserve_code_blocks, respect_headings)
    segments: list[Segment] = []

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
    special = special_re.search(fed, 0)
    while True:
        special_at = special.start() if special else length + 1
        blank = None
        least = max(position, start + target_size)
        if least < special_at:
            blank = BLANK_LINE_RE.search(fed, least, special_at)
        if blank is not None:
            at = blank.start()
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
        if special is None:
            break
        end = line_end(special_at)
        if special.lastgroup == "fence":
            if has_text_before(special_at):
                segments.append((text[start:special_at], start, boundary))
            closing = FENCE_LINE_RE.search(fed, end + 1)
            if closing is None:
                segments.append((lines(special_at, length + 1), special_at, "code-block"))
                if has_text_before(special_at):
                    segments.append((text[start:special_at], start, boundary))
                return segments
            close_end = line_end(closing.start())
            segments.append((text[special_at:close_end], special_at, "code-block"))
            begin(close_end + 1, "paragraph")
            position = close_end + 1
        else:
            if has_text_before(special_at):
                segments.append((text[start:special_at], start, boundary))
            begin(special_at, "heading")
            position = end + 1
        special = special_re.search(fed, position)
    if has_text_before(length + 1):
        segments.append((lines(start, length + 1), start, boundary))
    return segments


def _special_line_re(fences: bool, headings: bool) -> re.Pattern[str]:
    """The lines that open a block or start a segment, under these options."""
    if fences and headings:
        return FENCE_OR_HEADING_LINE_RE
    return FENCE_LINE_RE if fences else HEADING_LINE_RE if headings else _NOTHING_RE
