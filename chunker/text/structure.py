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
(the last one with a line feed added); its span, the slice without the white space at its
ends, is taken as it is cut. A slice is kept as where it ends, and cut only when its chunk
is built. Only the lines that can change anything are visited:
fences, headings, and the first blank line at or past `target_size` characters into a
segment. Fences and headings are listed first: headings with one regex scan that matches a
heading line's start itself, fences with a scan for "```" that checks the line of each hit
and starts again past a line of inline code; then a walk over the two lists cuts the text,
a run of headings within `target_size` characters of each other in a loop of its own. A
chunk of prose costs a few searches, not a Python step per line.
"""

from __future__ import annotations

import re
import sys
from typing import Final

from chunker.base.whitespace import JS_WHITESPACE, LAST_TEXT_RE, TEXT_RE, WS_CLASS
from chunker.text.records import BoundaryType
from chunker.text.sourcemap import Source

__all__ = [
    "CutSegment",
    "HeldSegment",
    "Segment",
    "TEXT",
    "OFFSET",
    "BOUNDARY",
    "SPAN_START",
    "SPAN_END",
    "SOURCE",
    "segment_text",
    "span_end",
    "split_by_structure",
]

# A segment: a piece of the input on its way to becoming a chunk. A plain tuple of six
# fields, read by the name of each field's place (`segment[SPAN_END]`) or unpacked in this
# order:
TEXT: Final = 0  # its text, or where it ends when it is the input from SOURCE on (below)
OFFSET: Final = 1  # where it starts by the original's count
BOUNDARY: Final = 2  # its type: "heading", "paragraph", "code-block", "sentence", "fixed"
SPAN_START: Final = 3  # where its first text is in the input
SPAN_END: Final = 4  # just past its last (both at its start when it holds white space alone)
SOURCE: Final = 5  # where its characters are in the input (sourcemap.py)
# A text that is the input from its source (an int) to some point is that point, an int:
# cut when its chunk is built, the text is not held from step 1 to step 4 beside the chunks
# made from it (tests/bench/core.py, SemanticChunker at 10 MB). `segment_text` cuts it.
# The two shapes apart, so that a type checker knows a segment whose first field is an int
# has an int source (`isinstance(segment[TEXT], int)` tells it which shape a segment has):
CutSegment = tuple[int, int, BoundaryType, int, int, int]
HeldSegment = tuple[str, int, BoundaryType, int, int, Source]
Segment = CutSegment | HeldSegment
# Not a NamedTuple: steps 1 and 2 make one a segment, and a tuple subclass, made by its
# call, by `tuple.__new__` or all at once after step 1, costs several times a tuple's
# display; read by index or unpacked, it misses the interpreter's fast paths for a tuple
# (tests/bench/core.py, SemanticChunker).
# Its span's ends are found in one place each: `span_end` for a segment cut from the
# input, `sourcemap.input_span` for a text step 2 holds.

_WS_IN_LINE = WS_CLASS.replace("\\n", "")

# What may stand before a fence's backticks on its line: "  ```", "\t```".
FENCE_INDENT_RE = re.compile(f"[{_WS_IN_LINE}]*")
# A heading line's start: "## Setup", "#\tx"; not "#word" nor "####### x".
HEADING_START_RE = re.compile(f"#{{1,6}}[{_WS_IN_LINE}]")
# A blank line, matched from the line feed before it: white space alone, up to the next line
# feed or the end (MULTILINE's `$`). Its white space is taken whole, possessive (`*+`, Python
# 3.11 and later): it holds no line feed, so giving any back never makes a match, and not
# keeping the places to give back costs less at each of the text's line feeds, which the
# search tries in turn (tests/bench/core.py, its small documents: step 1).
# Python 3.10 has no possessive quantifier and takes the same pattern without it.
BLANK_LINE_RE = re.compile(
    rf"\n[{_WS_IN_LINE}]*{'+' if sys.version_info >= (3, 11) else ''}$", re.MULTILINE
)

# A position past any text, and a valid search bound in 32-bit Pyodide too.
NOT_FOUND = sys.maxsize

# Each `str.find` or pattern call costs as much as many Python steps, so the lines
# that matter are listed in one pass each, and the walk over them calls as little as it can
# (tests/bench/core.py measures it, on Markdown and on a megabyte of blank lines). A pass is
# `finditer` over a pattern that starts with a literal: the regex engine's scan for it costs
# less than a `str.find` call a hit, most of all over a text of four bytes a character (one
# emoji makes it so). The heading pass tests a line's marks within the scan, not with a call
# a hit after it: the line feed before a heading line, then the rest of HEADING_START_RE,
# spelled "##{0,5}" so that the pattern starts with the literal "\n#" the scan looks for
# (tests/bench/core.py, SemanticChunker at 10 MB).
HEADING_LINE_RE = re.compile(f"\n##{{0,5}}[{_WS_IN_LINE}]")
BACKTICKS_RE = re.compile("```")


def heading_lines(text: str) -> list[int]:
    """Where each heading line starts, in order (inside code blocks too).

    Most documents hold no heading line (tests/bench/core.py, its small documents): a
    one-character `in`, a memchr, tells a text without a "#", and the pass starts at the
    first line feed and "#", which `str.find` reaches for less than the pattern's scan
    costs (it skips ahead past characters not in what it looks for)."""
    if "#" not in text:
        return []
    found = [0] if HEADING_START_RE.match(text) else []
    first = text.find("\n#")
    if first >= 0:
        found += [line_feed.start() + 1 for line_feed in HEADING_LINE_RE.finditer(text, first)]
    return found


def fence_lines(text: str) -> list[int]:
    """Where each fence line starts, in order: the lines open and close code blocks in turn.

    The pass starts at the first "```", found by `str.find` (see `heading_lines`)."""
    at = text.find("```")  # where the scan goes on
    if at < 0:
        return []
    find, rfind, indent = text.find, text.rfind, FENCE_INDENT_RE.fullmatch
    found = []
    if not at:
        found.append(0)
        at = 3  # every backtick found from here is past 0
    while at >= 0:
        for backticks in BACKTICKS_RE.finditer(text, at):
            ticks = backticks.start()
            if text[ticks - 1] == "\n":
                found.append(ticks)
                continue
            line_start = rfind("\n", 0, ticks) + 1
            if indent(text, line_start, ticks):
                found.append(line_start)
                continue
            # Backticks after other text on their line (inline code) open nothing, nor do
            # any more on that line: the scan starts again at its end. Only these few cost
            # more than the test above (tests/bench/core.py, SemanticChunker at 10 MB).
            at = find("\n", ticks)
            break
        else:
            break
    return found


def segment_text(text: str, segment: Segment) -> str:
    """The text of `segment`, a segment of `text`."""
    if isinstance(segment[TEXT], int):
        return text[segment[SOURCE] : segment[TEXT]]
    return segment[TEXT]


def span_end(text: str, text_at: int, stop: int) -> int:
    """Where the span of `text[:stop]`, which holds text at `text_at`, ends: past its last
    text. Each segment step 1 cuts has its span's end found here, one call a segment.

    Most segments end with a line feed or a blank line after their text: a look at the last
    characters finds it for less than the pattern, which walks back over longer white space
    (tests/bench/core.py, SemanticChunker)."""
    if text[stop - 1] in JS_WHITESPACE:
        stop -= 1
        if text[stop - 1] in JS_WHITESPACE:
            return LAST_TEXT_RE.match(text, text_at, stop).end()
    return stop


def split_by_structure(
    text: str,
    target_size: int,
    max_size: int,
    preserve_code_blocks: bool,
    respect_headings: bool,
) -> tuple[list[Segment], dict[int, int], bool]:
    """Cut `text` into segments at fences, headings and blank lines, as the module says; map
    where those longer than `max_size` are, for step 2, which then visits only them
    (tests/bench/core.py, SemanticChunker), to how far into each a blank line may start;
    and tell whether the last segment is the original's repeat of the one before a code
    block left open, which is then the segment before that block, again (not listed among
    the long ones).

    How far: the walk searched a segment for a blank line from `least - 1` on (`least`
    characters into it, or past its leading white space) and found none before the one
    that ended it, so none starts there or later, and step 2's search for the blank lines
    between its paragraphs stops there (tests/bench/core.py, its small documents). A code
    block, and a segment the walk did not search, may hold them anywhere (NOT_FOUND)."""
    length = len(text)
    segments: list[Segment] = []
    long: dict[int, int] = {}

    def first_text(at: int) -> int:
        found = TEXT_RE.search(text, at)
        return found.start() if found else NOT_FOUND

    def add(
        start: int, stop: int, boundary: BoundaryType, text_at: int, added: str, blank_by: int
    ) -> None:
        # The segment text[start:stop] + added, whose first text is at text_at; a blank line
        # starts in it blank_by characters in or earlier, if at all (see above).
        end = span_end(text, text_at, stop)
        if stop - start + len(added) > max_size:
            long[len(segments)] = blank_by
        segments.append((text[start:stop] + added, start, boundary, text_at, end, start))

    # Fences pair up in order, whatever stands between them: each opens a block that the next
    # closes. Headings inside a block (comments in shell code) are skipped as it closes.
    fences = fence_lines(text) if preserve_code_blocks else []
    openers, closers = [*fences[0::2], NOT_FOUND], [*fences[1::2], NOT_FOUND]
    headings = heading_lines(text) if respect_headings else []
    headings.append(NOT_FOUND)
    next_heading = next_block = 0  # places in `headings` and `openers`

    start = 0  # where the gathering segment starts
    boundary: BoundaryType = "paragraph"
    position = 0  # a blank line before it ends nothing
    while True:
        heading_at, opener_at = headings[next_heading], openers[next_block]
        special_at = heading_at if heading_at < opener_at else opener_at
        least = start + target_size  # at least 1: no blank first line to look for
        if least < position:
            least = position
        if least < special_at:
            blank = BLANK_LINE_RE.search(text, least - 1, special_at - 1)
            if blank is not None:
                at = blank.start() + 1
                text_at = start if boundary == "heading" else first_text(start)
                if text_at < at:
                    # Inlined `add`, as most segments end here: text[at - 1] is the line feed
                    # before the blank line.
                    end = span_end(text, text_at, at - 1)
                    if at - start > max_size:
                        long[len(segments)] = least - 1 - start
                    segments.append((at, start, boundary, text_at, end, start))
                    start = position = text.find("\n", at) + 1 or length + 1
                    boundary = "paragraph"
                elif text_at < length:
                    # White space alone so far: no blank line ends the segment before its text.
                    position = text.rfind("\n", 0, text_at) + 1
                else:
                    break  # white space to the end
                continue
        if special_at == NOT_FOUND:
            break

        # A heading segment holds text from its first character; others may hold none.
        gathered_at = start if boundary == "heading" else first_text(start)
        kept = gathered_at < special_at
        if kept:
            # Inlined `add`, as a heading or fence ends most segments: text[special_at - 1]
            # is the line feed before that line.
            end = span_end(text, gathered_at, special_at - 1)
            if special_at - start > max_size:
                long[len(segments)] = least - 1 - start
            segments.append((special_at, start, boundary, gathered_at, end, start))
        if special_at == heading_at:
            # Most heading segments end at the next heading, before the next fence and
            # within `target_size` characters, where no blank line can end them: such a run
            # is cut here, at a few steps a segment (tests/bench/core.py, SemanticChunker).
            start = special_at
            next_heading += 1
            heading_at = headings[next_heading]
            while heading_at < opener_at and heading_at - start <= target_size:
                end = span_end(text, start, heading_at - 1)
                if heading_at - start > max_size:  # not searched: max_size < target_size
                    long[len(segments)] = NOT_FOUND
                segments.append((heading_at, start, "heading", start, end, start))
                start = heading_at
                next_heading += 1
                heading_at = headings[next_heading]
            position = start
            boundary = "heading"
            continue
        closer_at = closers[next_block]
        # Past the fence's indent, if any.
        fence_at = special_at if text[special_at] == "`" else first_text(special_at)
        if closer_at == NOT_FOUND:  # a code block left open
            add(special_at, length, "code-block", fence_at, "\n", NOT_FOUND)
            if kept:
                # The original's repeat: the same text, so the same span, out of order.
                segments.append(segments[-2])
            return segments, long, kept
        close_end = text.find("\n", closer_at)
        if close_end < 0:
            close_end = length
        # Inlined `add`: the closing fence's line most often ends with its backticks.
        end = span_end(text, fence_at, close_end)
        if close_end - special_at > max_size:
            long[len(segments)] = NOT_FOUND
        segments.append((close_end, special_at, "code-block", fence_at, end, special_at))
        start = position = close_end + 1
        boundary = "paragraph"
        next_block += 1
        while headings[next_heading] < start:
            next_heading += 1
    text_at = start if boundary == "heading" else first_text(start)
    if text_at < length:  # searched from `least - 1` to the end
        add(start, length, boundary, text_at, "\n", least - 1 - start)
    return segments, long, False
