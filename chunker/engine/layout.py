"""The `layout` strategy: fenced code blocks and pipe tables whole, prose cut with `fixed`."""

from __future__ import annotations

from typing import Literal

from ..records import DocumentChunk
from ..whitespace import js_trim
from .fixed import fixed_chunks

__all__ = ["layout_chunks"]

CODE_FENCE = "```"

Kind = Literal["code", "table", "prose"]


def layout_chunks(content: str, chunk_size: int, chunk_overlap: int) -> list[DocumentChunk]:
    """Keep each code block and table as one chunk; cut the prose between them."""
    chunks: list[DocumentChunk] = []
    for kind, text in _blocks(content.split("\n")):
        if kind == "prose":
            chunks += fixed_chunks(text, chunk_size, chunk_overlap, len(chunks))
        else:
            chunks.append(DocumentChunk(text, len(chunks), metadata={"type": kind}))
    return chunks


def _blocks(lines: list[str]) -> list[tuple[Kind, str]]:
    """Group lines into code blocks (a line starting with ``` to the line starting with the same
    fence), tables (consecutive lines holding `|`) and prose (trimmed; blank prose dropped)."""
    blocks: list[tuple[Kind, str]] = []
    count = len(lines)
    i = 0
    while i < count:
        line = lines[i]
        if line.startswith(CODE_FENCE):
            fence = line[: len(line) - len(line.lstrip("`"))]
            start = i
            i += 1
            while i < count and not lines[i].startswith(fence):
                i += 1
            i = min(i + 1, count)  # the closing fence, when there is one
            blocks.append(("code", "\n".join(lines[start:i])))
        elif "|" in line:
            start = i
            # The original also admits blank lines here, but only before the table's first
            # line, which always holds a `|`: so a table is a run of lines holding one.
            while i < count and "|" in lines[i]:
                i += 1
            blocks.append(("table", "\n".join(lines[start:i])))
        else:
            start = i
            while i < count and not lines[i].startswith(CODE_FENCE) and "|" not in lines[i]:
                i += 1
            prose = js_trim("\n".join(lines[start:i]))
            if prose:
                blocks.append(("prose", prose))
    return blocks
