"""`locate_chunks`: where each of a list of chunk texts sits in the document they came from.

Our own chunkers need none of this: every `Chunk` and `DocumentChunk` carries its `span`,
taken where it was cut. This serves chunks from elsewhere (another splitter, a store of
chunks saved without offsets) that a user wants to place in the text. Contents are found in
order, each at or after the start of the one before (windows overlap; where none is found
there, from the start), first verbatim, then with any run of white space standing for any
other (a splitter may join sentences with one space).
"""

from __future__ import annotations

from collections.abc import Sequence

from chunker.base.validation import require_sequence, require_text
from chunker.base.whitespace import JS_WHITESPACE, WHITESPACE_RUN_RE

__all__ = ["locate_chunks"]


def locate_chunks(text: str, contents: Sequence[str]) -> list[tuple[int, int] | None]:
    """Return `(start, end)` of each content in `text`, or None where it cannot be found.

    Example:
        >>> locate_chunks("One. Two.\\nThree.", ["One. Two.", "Two. Three."])
        [(0, 9), (5, 16)]
    """
    require_text("text", text)
    spans: list[tuple[int, int] | None] = []
    cursor = 0
    for number, given in enumerate(require_sequence("contents", contents, of="strings")):
        content = require_text(f"contents[{number}]", given, field="contents")
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
    return _find_spaced(text, WHITESPACE_RUN_RE.split(content), cursor)


def _find_spaced(text: str, words: list[str], cursor: int) -> tuple[int, int] | None:
    """The first place at or after `cursor` where `words` stand with a run of white space
    between each two, as the pattern `word[ ]+word...` would find it: a white space run in
    the content (its words' ends: "" first or last) stands for any run of the text.

    Word by word rather than one compiled pattern: a chunk may hold hundreds of words, and
    compiling a pattern for each chunk cost seconds a megabyte.
    """
    leading, trailing = words[0] == "", words[-1] == ""
    words = [word for word in words if word]
    if not words:  # white space alone: the first run
        run = WHITESPACE_RUN_RE.search(text, cursor)
        return (run.start(), run.end()) if run else None
    first, run_at = words[0], WHITESPACE_RUN_RE.match
    at = text.find(first, cursor)
    while at != -1:
        start = at
        if leading:
            # A run must end where the first word starts, and counts from the cursor on.
            while start > cursor and text[start - 1] in JS_WHITESPACE:
                start -= 1
        end = at + len(first)
        for word in words[1:]:
            run = run_at(text, end)
            if run is None or not text.startswith(word, run.end()):
                end = -1
                break
            end = run.end() + len(word)
        if end != -1 and (start < at or not leading):
            if not trailing:
                return start, end
            run = run_at(text, end)
            if run is not None:
                return start, run.end()
        at = text.find(first, at + 1)
    return None
