"""The `hierarchical` strategy: a chunk per Markdown section, its heading path in the metadata."""

from __future__ import annotations

import re
from typing import Any

from ..records import DocumentChunk, DocumentChunkDraft
from ..whitespace import LINE_TERMINATORS, WS_CLASS, tight_span, trimmed
from .fixed import fixed_chunks

__all__ = ["hierarchical_chunks"]

# The original's /^(#{1,6})\s+(.+)$/gm spelt for Python: `^` and `$` at JavaScript's line
# terminators, `.` anything but one. `\s+` may cross lines, so "#\n\nIntro" is a heading
# "Intro", as in the original; "#Intro" and "####### x" are not headings. The pattern starts
# with a literal `#`, then checks that no other character than a line terminator stands
# before it, so the scan jumps from `#` to `#`.
HEADING_RE = re.compile(
    rf"#(?<![^{LINE_TERMINATORS}]#)(#{{0,5}})[{WS_CLASS}]+([^{LINE_TERMINATORS}]+)"
    rf"(?=[{LINE_TERMINATORS}]|\Z)"
)


def hierarchical_chunks(content: str, chunk_size: int, chunk_overlap: int) -> list[DocumentChunk]:
    """Cut `content` at its headings; a section over `chunk_size` is cut with `fixed`.

    A section's span is its body's, trimmed; a section with no body holds its heading, and
    takes the heading's span (empty, where the heading's text would start, if it is blank).
    """
    chunks: list[DocumentChunk] = []
    # For each heading: its `#`s after the first, its text; its body runs to the next.
    headings = list(HEADING_RE.finditer(content))
    if not headings:
        # Untrimmed, as the original: white space alone makes a chunk, its span empty at 0.
        if content:
            span = tight_span(content, 0, len(content)) or (0, 0)
            _add_section(chunks, content, 0, span, None, {}, chunk_size, chunk_overlap)
        return chunks
    preamble, at = trimmed(content, 0, headings[0].start())
    if preamble:
        span = at, at + len(preamble)
        _add_section(chunks, preamble, at, span, None, {}, chunk_size, chunk_overlap)
    levels: list[int] = []  # the levels of the open ancestors
    names: list[str] = []  # and their headings
    ends = [heading.start() for heading in headings[1:]] + [len(content)]
    for heading, body_end in zip(headings, ends):
        level = len(heading.group(1)) + 1
        while levels and levels[-1] >= level:
            levels.pop()
            names.pop()
        metadata: dict[str, Any] = {"headingLevel": level}
        if names:
            metadata["ancestorHeadings"] = names[:]
        name, name_at = trimmed(content, heading.start(2), heading.end(2))
        levels.append(level)
        names.append(name)
        body, body_at = trimmed(content, heading.end(), body_end)
        if body:
            span = body_at, body_at + len(body)
        else:
            span = name_at, name_at + len(name)
        _add_section(chunks, body, body_at, span, name, metadata, chunk_size, chunk_overlap)
    return chunks


def _add_section(
    chunks: list[DocumentChunk],
    text: str,
    text_at: int,
    span: tuple[int, int],
    heading: str | None,
    metadata: dict[str, Any],
    chunk_size: int,
    chunk_overlap: int,
) -> None:
    """Append the section's chunk, or its `fixed` chunks when it is over `chunk_size`; `text`
    starts at `text_at` in the input, and `span` is the chunk's when it is one."""
    if len(text) <= chunk_size:
        chunk = DocumentChunkDraft()
        # A heading with no body becomes a chunk holding the heading itself.
        chunk.content = text or heading or ""
        chunk.index = len(chunks)
        chunk.heading = heading
        chunk.metadata = metadata or None
        chunk.span = span
        chunk.__class__ = DocumentChunk
        chunks.append(chunk)  # type: ignore[arg-type]
    else:
        # Sub-chunks carry the metadata even when empty, as the original's do.
        chunks += fixed_chunks(
            text, chunk_size, chunk_overlap, len(chunks), metadata, heading, text_at
        )
