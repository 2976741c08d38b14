"""The `hierarchical` strategy: a chunk per Markdown section, its heading path in the metadata."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..records import DocumentChunk
from ..whitespace import LINE_TERMINATORS, WS_CLASS, js_trim
from .fixed import fixed_chunks

__all__ = ["hierarchical_chunks"]

# The original's /^(#{1,6})\s+(.+)$/gm spelt for Python: `^` and `$` at JavaScript's line
# terminators, `.` anything but one. `\s+` may cross lines, so "#\n\nIntro" is a heading
# "Intro", as in the original; "#Intro" and "####### x" are not headings. It is matched
# with the line terminator before the `#` (a line feed is put in front of the text), so the
# scan jumps between line ends instead of trying every position.
HEADING_RE = re.compile(
    rf"[{LINE_TERMINATORS}](#{{1,6}})[{WS_CLASS}]+([^{LINE_TERMINATORS}]+)"
    rf"(?=[{LINE_TERMINATORS}]|\Z)"
)


@dataclass(frozen=True, slots=True)
class _Section:
    heading: str | None
    level: int | None
    ancestors: tuple[str, ...]
    text: str


def hierarchical_chunks(content: str, chunk_size: int, chunk_overlap: int) -> list[DocumentChunk]:
    """Cut `content` at its headings; a section over `chunk_size` is cut with `fixed`."""
    chunks: list[DocumentChunk] = []
    for section in _sections(content):
        if not section.text and section.heading is None:
            continue
        metadata: dict[str, Any] = {}
        if section.level is not None:
            metadata["headingLevel"] = section.level
        if section.ancestors:
            metadata["ancestorHeadings"] = list(section.ancestors)
        if len(section.text) <= chunk_size:
            # A heading with no body becomes a chunk holding the heading itself.
            chunks.append(
                DocumentChunk(
                    section.text or section.heading or "",
                    len(chunks),
                    heading=section.heading,
                    metadata=metadata or None,
                )
            )
        else:
            # Sub-chunks carry the metadata even when empty, as the original's do.
            for part in fixed_chunks(section.text, chunk_size, chunk_overlap, len(chunks), metadata):
                chunks.append(DocumentChunk(part.content, part.index, section.heading, part.metadata))
    return chunks


def _sections(content: str) -> list[_Section]:
    # (start of the heading line, end of the match, level, heading) in `content`'s positions.
    matches = [
        (m.start(1) - 1, m.end() - 1, len(m.group(1)), js_trim(m.group(2)))
        for m in HEADING_RE.finditer("\n" + content)
    ]
    if not matches:
        # Untrimmed, as the original: white space alone makes a chunk of white space.
        return [_Section(None, None, (), content)]
    sections: list[_Section] = []
    preamble = js_trim(content[: matches[0][0]])
    if preamble:
        sections.append(_Section(None, None, (), preamble))
    stack: list[tuple[int, str]] = []  # (level, heading) of the open ancestors
    for number, (_, end, level, heading) in enumerate(matches):
        body_end = matches[number + 1][0] if number + 1 < len(matches) else len(content)
        while stack and stack[-1][0] >= level:
            stack.pop()
        ancestors = tuple(text for _, text in stack)
        stack.append((level, heading))
        sections.append(_Section(heading, level, ancestors, js_trim(content[end:body_end])))
    return sections
