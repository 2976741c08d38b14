"""`locate_chunks`: where each of a list of chunk texts sits in the document they came from.

`ChunkingEngine` answers contents without offsets, as the original does; a page that colours
them in place needs their spans. Contents are found in order, each at or after the start of
the one before (windows overlap; where none is found there, from the start, as a `fixed`
window can step back past the one before), first verbatim, then with any run of white space
standing for any other (the `semantic` strategy joins sentences with one space).
"""

from __future__ import annotations

import re
from typing import Sequence

from .validation import require_text
from .whitespace import WHITESPACE_RUN_RE, WS_CLASS

__all__ = ["locate_chunks"]


def locate_chunks(text: str, contents: Sequence[str]) -> list[tuple[int, int] | None]:
    """Return `(start, end)` of each content in `text`, or None where it cannot be found.

    Example:
        >>> locate_chunks("One. Two.\\nThree.", ["One. Two.", "Two. Three."])
        [(0, 9), (5, 16)]
    """
    require_text("text", text)
    if isinstance(contents, str) or not isinstance(contents, Sequence):
        raise TypeError(f"contents must be a list of strings, got {type(contents).__name__}")
    spans: list[tuple[int, int] | None] = []
    cursor = 0
    for number, content in enumerate(contents):
        content = require_text(f"contents[{number}]", content)
        span = _find(text, content, cursor) or _find(text, content, 0)
        spans.append(span)
        if span is not None:
            cursor = span[0] + 1
    return spans


def _find(text: str, content: str, cursor: int) -> tuple[int, int] | None:
    if not content:
        return None
    start = text.find(content, cursor)
    if start != -1:
        return start, start + len(content)
    words = WHITESPACE_RUN_RE.split(content)
    pattern = f"[{WS_CLASS}]+".join(re.escape(word) for word in words)
    found = re.compile(pattern).search(text, cursor)
    return (found.start(), found.end()) if found else None
