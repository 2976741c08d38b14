"""The `layout` strategy: fenced code blocks and pipe tables whole, prose cut with `fixed`."""

from __future__ import annotations

import re
from typing import Literal

from ..records import DocumentChunk
from ..whitespace import js_trim
from .fixed import fixed_chunks

__all__ = ["layout_chunks"]

CODE_FENCE = "```"

# A fence: the backticks at the start of its line, three or more ("````" closes only "````").
FENCE_RE = re.compile("`+")

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
    between them (trimmed; blank prose dropped). Only fence and table lines are visited."""
    blocks: list[tuple[Kind, str]] = []
    length = len(content)
    line = 0  # where the current line starts
    while line <= length:
        special = _next_special_line(content, line)
        prose = js_trim(content[line : max(special - 1, line)])
        if prose:
            blocks.append(("prose", prose))
        if special > length:
            break
        end = _line_end(content, special)
        if content.startswith(CODE_FENCE, special):
            fence = FENCE_RE.match(content, special).group()  # type: ignore[union-attr]
            closing = content.find("\n" + fence, end)
            end = _line_end(content, closing + 1) if closing >= 0 else length
            blocks.append(("code", content[special:end]))
        else:
            # The original also admits blank lines here, but only before the table's first
            # line, which always holds a `|`: so a table is a run of lines holding one.
            while end < length:
                next_end = _line_end(content, end + 1)
                if content.find("|", end + 1, next_end) < 0:
                    break
                end = next_end
            blocks.append(("table", content[special:end]))
        line = end + 1
    return blocks


def _next_special_line(content: str, line: int) -> int:
    """Where the first line at or after `line` that starts a fence or holds `|` starts, or
    past the end."""
    if content.startswith(CODE_FENCE, line):
        return line
    fence = content.find("\n" + CODE_FENCE, line)
    fence = fence + 1 if fence >= 0 else len(content) + 1
    pipe = content.find("|", line, fence)
    return content.rfind("\n", 0, pipe) + 1 if pipe >= 0 else fence


def _line_end(content: str, start: int) -> int:
    """Where the line starting at `start` ends: its line feed, or the end of `content`."""
    end = content.find("\n", start)
    return len(content) if end < 0 else end
