"""The `layout` strategy: fenced code blocks and pipe tables whole, prose cut with `fixed`."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal, cast

from chunker.base.whitespace import JS_WHITESPACE, tight_span
from chunker.engine.fixed import fixed_chunks
from chunker.text.records import DocumentRow

if TYPE_CHECKING:
    from chunker.base.whitespace import MatchingPattern

__all__ = ["layout_chunks"]

CODE_FENCE = "```"

# A fence: the backticks at the start of its line, three or more ("````" closes only "````").
# Matched only where a fence line starts.
FENCE_RE: MatchingPattern = cast("MatchingPattern", re.compile("`+"))

# A table from its first line on: that line, then each next line holding a `|`. Over
# "a|b\nc|d\ntext" it matches "a|b\nc|d". It matches the empty string, so everywhere.
TABLE_RE: MatchingPattern = cast("MatchingPattern", re.compile(r"[^\n]*(?:\n[^\n|]*\|[^\n]*)*"))

Kind = Literal["code", "table", "prose"]


def layout_chunks(
    content: str, chunk_size: int, chunk_overlap: int, rows: list[DocumentRow]
) -> None:
    """Keep each code block and table as one chunk; cut the prose between them. A row a chunk
    is added to `rows`.

    A block's span is its lines trimmed; prose is trimmed before `fixed` cuts it.
    """
    for kind, start, end in _blocks(content):
        if kind == "prose":
            text = content[start:end]
            fixed_chunks(text, chunk_size, chunk_overlap, rows, offset=start)
        else:
            text = content[start:end]
            block = DocumentRow()
            block.content = text
            block.heading = None
            block.metadata = {"type": kind}
            # A block mostly starts and ends on text, and CPython's `strip` then returns the
            # block itself: cheaper than `tight_span`'s two patterns (tests/bench/core.py).
            if text.strip(JS_WHITESPACE) is text:
                block.span = start, end
            else:
                span = tight_span(content, start, end)
                assert span is not None  # a block holds its fence, a table a "|"
                block.span = span
            rows.append(block)


def _blocks(content: str) -> list[tuple[Kind, int, int]]:
    """Group the lines of `content` into code blocks (a line starting with ``` to the next line
    starting with the same fence, or the end), tables (consecutive lines holding `|`) and prose
    between them (trimmed; blank prose dropped), each as its kind, start and end. Only fence and
    table lines are visited."""
    blocks: list[tuple[Kind, int, int]] = []
    length = len(content)
    line = 0  # where the current line starts
    fence = _next_fence(content, 0)  # where the next fence line starts, found again once passed
    while line <= length:
        if fence < line:
            fence = _next_fence(content, line)
        # The first line holding `|` before the fence, if any, starts a table.
        pipe = content.find("|", line, fence)
        special = content.rfind("\n", 0, pipe) + 1 if pipe >= 0 else fence
        prose = tight_span(content, line, max(special - 1, line))
        if prose is not None:
            blocks.append(("prose", *prose))
        if special > length:
            break
        if special == fence:
            end = _code_block_end(content, special)
            blocks.append(("code", special, end))
        else:
            # The original also admits blank lines here, but only before the table's first
            # line, which always holds a `|`: so a table is a run of lines holding one.
            end = TABLE_RE.match(content, special).end()
            blocks.append(("table", special, end))
        line = end + 1
    return blocks


def _next_fence(content: str, line: int) -> int:
    """Where the first line at or after `line` that starts with ``` starts, or past the end."""
    if content.startswith(CODE_FENCE, line):
        return line
    found = content.find("\n" + CODE_FENCE, line)
    return found + 1 if found >= 0 else len(content) + 1


def _code_block_end(content: str, start: int) -> int:
    """Where the code block whose fence line starts at `start` ends: at the end of the next
    line starting with the same fence, or at the end of `content`."""
    fence = FENCE_RE.match(content, start).group()
    closing = content.find("\n" + fence, start + len(fence))
    return _line_end(content, closing + 1) if closing >= 0 else len(content)


def _line_end(content: str, start: int) -> int:
    """Where the line starting at `start` ends: its line feed, or the end of `content`."""
    end = content.find("\n", start)
    return len(content) if end < 0 else end
