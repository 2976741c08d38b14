"""The `hierarchical` strategy: a chunk per Markdown section, its heading path in the metadata."""

from __future__ import annotations

import re
from typing import Any, Iterator

from ..records import DocumentChunk, new_document_chunk
from ..whitespace import LINE_TERMINATORS, WS_CLASS, js_trim
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
    chunks: list[DocumentChunk] = []
    append = chunks.append
    for heading, level, ancestors, text in _sections(content):
        metadata: dict[str, Any] = {}
        if level:
            metadata["headingLevel"] = level
        if ancestors:
            metadata["ancestorHeadings"] = ancestors
        if len(text) <= chunk_size:
            # A heading with no body becomes a chunk holding the heading itself.
            append(
                new_document_chunk(text or heading or "", len(chunks), heading, metadata or None)
            )
        else:
            # Sub-chunks carry the metadata even when empty, as the original's do.
            chunks += fixed_chunks(text, chunk_size, chunk_overlap, len(chunks), metadata, heading)
    return chunks


def _sections(content: str) -> Iterator[tuple[str | None, int, list[str], str]]:
    """(heading, level, ancestor headings, body) of each section; (None, 0, [], text) for the
    text before the first heading, and for the whole text when it has none."""
    # (start of the heading line, end of the match, level, heading) in `content`'s positions.
    matches = [
        (m.start(), m.end(), len(m.group(1)) + 1, js_trim(m.group(2)))
        for m in HEADING_RE.finditer(content)
    ]
    if not matches:
        # Untrimmed, as the original: white space alone makes a chunk of white space.
        if content:
            yield None, 0, [], content
        return
    preamble = js_trim(content[: matches[0][0]])
    if preamble:
        yield None, 0, [], preamble
    stack: list[tuple[int, str]] = []  # (level, heading) of the open ancestors
    ends = [start for start, _, _, _ in matches[1:]] + [len(content)]
    for (_, end, level, heading), body_end in zip(matches, ends):
        while stack and stack[-1][0] >= level:
            stack.pop()
        ancestors = [text for _, text in stack]
        stack.append((level, heading))
        yield heading, level, ancestors, js_trim(content[end:body_end])
