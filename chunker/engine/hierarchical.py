"""The `hierarchical` strategy: a chunk per Markdown section, its heading path in the metadata."""

from __future__ import annotations

import re
from typing import Any

from chunker.base.whitespace import JS_WHITESPACE, LINE_TERMINATORS, WS_CLASS, tight_span
from chunker.engine.fixed import fixed_chunks
from chunker.text.records import DocumentRow

__all__ = ["hierarchical_chunks"]

# The original's /^(#{1,6})\s+(.+)$/gm spelt for Python: `^` and `$` at JavaScript's line
# terminators, `.` anything but one. `\s+` may cross lines, so "#\n\nIntro" is a heading
# "Intro", as in the original; "#Intro" and "####### x" are not headings. The pattern starts
# with a literal `#`, then checks that no other character than a line terminator stands
# before it, so the scan jumps from `#` to `#`.
# Its first group holds every character it passes, so that the lengths of what `split`
# answers place each piece in the input, with no search (tests/bench/core.py, hierarchical):
# the heading's line and the white space after it, which starts the body and holds no heading
# (one starts with `#`). Within that, the `#`s, and the heading's text (which starts on a
# character that is not white space, or holds white space alone, when only white space
# follows it). `(.+)$` needs no `$` here, as `[^...]+` runs to the end of the line.
HEADING_RE = re.compile(
    rf"((#(?<![^{LINE_TERMINATORS}]#)#{{0,5}})[{WS_CLASS}]+([^{LINE_TERMINATORS}]+)"
    rf"[{WS_CLASS}]*)"
)
_NAME = 3  # the group of the heading's text


def hierarchical_chunks(
    content: str, chunk_size: int, chunk_overlap: int, rows: list[DocumentRow]
) -> None:
    """Cut `content` at its headings, a row a chunk added to `rows`; a section over
    `chunk_size` is cut with `fixed`.

    A section's span is its body's, trimmed; a section with no body holds its heading, and
    takes the heading's span (empty, where the heading's text would start, if it is blank).
    """
    # The text before the first heading, then for each heading the groups above and the
    # rest of its body, up to the next heading.
    parts = HEADING_RE.split(content)
    if len(parts) == 1:
        # Untrimmed, as the original: white space alone makes a chunk, its span empty at 0.
        if content:
            span = tight_span(content, 0, len(content)) or (0, 0)
            _add_section(rows, content, 0, span, None, {}, chunk_size, chunk_overlap)
        return
    pieces = iter(parts)
    before = next(pieces)
    preamble = before.strip(JS_WHITESPACE)
    if preamble:
        at = len(before) - len(before.lstrip(JS_WHITESPACE))
        span = at, at + len(preamble)
        _add_section(rows, preamble, at, span, None, {}, chunk_size, chunk_overlap)
    at = len(before)  # where the next heading starts
    levels: list[int] = []  # the levels of the open ancestors
    names: list[str] = []  # and their headings
    for line, hashes, heading_text, body in zip(pieces, pieces, pieces, pieces):
        level = len(hashes)
        while levels and levels[-1] >= level:
            levels.pop()
            names.pop()
        metadata: dict[str, Any] = {"headingLevel": level}
        if names:
            metadata["ancestorHeadings"] = names[:]
        body_at = at + len(line)
        at = body_at + len(body)
        name = heading_text.rstrip(JS_WHITESPACE)
        levels.append(level)
        names.append(name)
        text = body.rstrip(JS_WHITESPACE)  # `line` took the white space before it
        if len(text) > chunk_size:
            fixed_chunks(text, chunk_size, chunk_overlap, rows, metadata, name, body_at)
            continue
        # The short section's row written here, not in `_add_section`: a call per section
        # costs more than these lines (tests/bench/core.py, hierarchical).
        row = DocumentRow()
        row.heading = name
        row.metadata = metadata
        if text:
            row.content = text
            row.span = body_at, body_at + len(text)
        else:
            # A heading with no body becomes a chunk holding the heading itself.
            row.content = name
            # Where its text starts, found again: a group for it in every heading cost more.
            heading_at = body_at - len(line)
            heading = HEADING_RE.match(content, heading_at)
            assert heading is not None  # a heading starts there
            name_at = heading.start(_NAME)
            row.span = name_at, name_at + len(name)
        rows.append(row)


def _add_section(
    rows: list[DocumentRow],
    text: str,
    text_at: int,
    span: tuple[int, int],
    heading: str | None,
    metadata: dict[str, Any],
    chunk_size: int,
    chunk_overlap: int,
) -> None:
    """Add the section's row, or its `fixed` rows when it is over `chunk_size`; `text` starts
    at `text_at` in the input, and `span` is the chunk's when it is one."""
    if len(text) <= chunk_size:
        row = DocumentRow()
        # A heading with no body becomes a chunk holding the heading itself.
        row.content = text or heading or ""
        row.heading = heading
        row.metadata = metadata or None
        row.span = span
        rows.append(row)
    else:
        # Sub-chunks carry the metadata even when empty, as the original's do.
        fixed_chunks(text, chunk_size, chunk_overlap, rows, metadata, heading, text_at)
