"""The `hierarchical` strategy: a chunk per Markdown section, its heading path in the metadata."""

from __future__ import annotations

import re
from typing import Any

from ..records import DocumentChunk, DocumentChunkDraft
from ..whitespace import JS_WHITESPACE, LINE_TERMINATORS, WS_CLASS
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
    """Cut `content` at its headings; a section over `chunk_size` is cut with `fixed`."""
    # The text before the first heading, then for each heading: its `#`s after the first, its
    # text and its body (up to the next heading), all cut in one scan.
    parts = HEADING_RE.split(content)
    chunks: list[DocumentChunk] = []
    # Untrimmed when there is no heading, as the original: white space alone makes a chunk.
    preamble = parts[0].strip(JS_WHITESPACE) if len(parts) > 1 else parts[0]
    if preamble:
        _add_section(chunks, preamble, None, {}, chunk_size, chunk_overlap)
    levels: list[int] = []  # the levels of the open ancestors
    names: list[str] = []  # and their headings
    for hashes, name, body in zip(parts[1::3], parts[2::3], parts[3::3]):
        level = len(hashes) + 1
        while levels and levels[-1] >= level:
            levels.pop()
            names.pop()
        metadata: dict[str, Any] = {"headingLevel": level}
        if names:
            metadata["ancestorHeadings"] = names[:]
        name = name.strip(JS_WHITESPACE)
        levels.append(level)
        names.append(name)
        _add_section(chunks, body.strip(JS_WHITESPACE), name, metadata, chunk_size, chunk_overlap)
    return chunks


def _add_section(
    chunks: list[DocumentChunk],
    text: str,
    heading: str | None,
    metadata: dict[str, Any],
    chunk_size: int,
    chunk_overlap: int,
) -> None:
    """Append the section's chunk, or its `fixed` chunks when it is over `chunk_size`."""
    if len(text) <= chunk_size:
        chunk = DocumentChunkDraft()
        # A heading with no body becomes a chunk holding the heading itself.
        chunk.content = text or heading or ""
        chunk.index = len(chunks)
        chunk.heading = heading
        chunk.metadata = metadata or None
        chunk.__class__ = DocumentChunk
        chunks.append(chunk)  # type: ignore[arg-type]
    else:
        # Sub-chunks carry the metadata even when empty, as the original's do.
        chunks += fixed_chunks(text, chunk_size, chunk_overlap, len(chunks), metadata, heading)
