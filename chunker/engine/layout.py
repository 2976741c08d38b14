"""The `layout` strategy: fenced code blocks and pipe tables whole, prose cut with `fixed`."""

from __future__ import annotations

import re
from typing import Literal

from ..records import DocumentChunk
from ..whitespace import js_trim
from .fixed import fixed_chunks

__all__ = ["layout_chunks"]

# A line that ends prose: one starting with a fence of three or more backticks ("```py"),
# or one holding a pipe ("| a | b |").
SPECIAL_LINE_RE = re.compile(r"^(?:(?P<fence>```+)|[^\n]*\|)", re.MULTILINE)

Kind = Literal["code", "table", "prose"]


def layout_chunks(content: str, chunk_size: int, chunk_overlap: int) -> list[DocumentChunk]:
    """Keep each code block and table as one chunk; cut the prose between them."""
    chunks: list[DocumentChunk] = []
    for kind, text in _blocks(content):
        if kind == "prose":
            chunks += fixed_chunks(text, chunk_size, chunk_overlap, len(chunks))
        else:
            chunks.append(DocumentChunk(text, len(chunks), metadata={"type": kind}))
    return chunks


def _blocks(content: str) -> list[tuple[Kind, str]]:
    """Group the lines of `content` into code blocks (a line starting with ``` to the next line
    starting with the same fence, or the end), tables (consecutive lines holding `|`) and prose
    between them (trimmed; blank prose dropped). Only the fence and table lines are visited."""
    blocks: list[tuple[Kind, str]] = []
    length = len(content)
    line = 0  # where the current line starts
    while line <= length:
        special = SPECIAL_LINE_RE.search(content, line)
        prose_end = special.start() - 1 if special else length
        prose = js_trim(content[line:max(prose_end, line)])
        if prose:
            blocks.append(("prose", prose))
        if special is None:
            break
        start = special.start()
        if special.group("fence"):
            closing = content.find("\n" + special.group("fence"), _line_end(content, start))
            end = _line_end(content, closing + 1) if closing >= 0 else length
            blocks.append(("code", content[start:end]))
        else:
            # The original also admits blank lines here, but only before the table's first
            # line, which always holds a `|`: so a table is a run of lines holding one.
            end = _line_end(content, start)
            while end < length and "|" in content[end + 1 : _line_end(content, end + 1)]:
                end = _line_end(content, end + 1)
            blocks.append(("table", content[start:end]))
        line = end + 1
    return blocks


def _line_end(content: str, start: int) -> int:
    """Where the line starting at `start` ends: its line feed, or the end of `content`."""
    end = content.find("\n", start)
    return len(content) if end < 0 else end
