"""The `fixed` strategy: windows of `chunk_size` characters cut back to white space, overlapping.

The other strategies call it for their long sections and prose.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from chunker.base.whitespace import JS_WHITESPACE, LAST_WHITESPACE_RE, WS_CLASS
from chunker.engine.content_windows import content_window_ends
from chunker.text.records import DocumentRow

if TYPE_CHECKING:
    from typing import Protocol

    # `re.Pattern.scanner`, which typeshed leaves out (CPython has had it since 1.5, and
    # Pyodide's too): a scanner's `match` answers each next match from where the last ended.
    class _Scanner(Protocol):
        def match(self) -> re.Match[str] | None: ...

    class _ScanningPattern(Protocol):
        def scanner(self, string: str, pos: int = ..., /) -> _Scanner: ...


__all__ = ["fixed_chunks"]


def fixed_chunks(
    content: str,
    chunk_size: int,
    chunk_overlap: int,
    rows: list[DocumentRow],
    metadata: Mapping[str, Any] | None = None,
    heading: str | None = None,
    offset: int = 0,
    boundaries: str = "position",
) -> None:
    """Cut `content` into windows of at most `chunk_size` characters, trimmed, a row each
    added to `rows` (`records.document_records` numbers them).

    A window ends at the last white space within `chunk_size` characters, or is cut hard when
    there is none; the next starts `chunk_overlap` characters before that end. The original
    loops forever when the only white space in reach is where the window before ended (a cut
    just before a run of `chunk_size - chunk_overlap` characters without white space): here
    white space at or before the previous end does not count, so that window is cut hard too.
    Wherever the original ends, the two agree.

    Each chunk gets its own copy of `metadata` when it is given (even empty), as the original,
    and `heading` (for `hierarchical`'s long sections). Its span is the window trimmed, in the
    input that `content` starts `offset` characters into.

    With `boundaries` "content", the windows end where the text's words choose instead
    (content_windows.py), each still starting `chunk_overlap` characters before the end before.
    """
    start = 0
    find_ends = content_window_ends if boundaries == "content" else _window_ends
    for end in find_ends(content, chunk_size, chunk_overlap):
        window = content[start:end]
        part = window.strip(JS_WHITESPACE)
        if part:
            row = DocumentRow()
            row.content = part
            row.heading = heading
            row.metadata = None if metadata is None else dict(metadata)
            if part is not window:
                # The part ends where the window's trailing white space starts, which
                # `rstrip` tells with no search, and copies nothing when there is none, as
                # for most of these windows (tests/bench/core.py, fixed).
                stop = start + len(window.rstrip(JS_WHITESPACE)) + offset
                row.span = stop - len(part), stop
            elif offset:
                row.span = start + offset, end + offset
            else:
                # Most windows start and end on text, and CPython's `strip` then returns
                # the window itself: the span is the window's (tests/bench/core.py, fixed).
                row.span = start, end
            rows.append(row)
        start = end - chunk_overlap if end > chunk_overlap else end


def _window_ends(content: str, size: int, overlap: int) -> list[int]:
    """Where each window ends, the last one at the end of `content`.

    A window starts `overlap` characters before the end of the one before, or at that end
    while it lies within `overlap` characters of the start (the original's guard).
    """
    length = len(content)
    ends: list[int] = []
    start = previous_end = 0
    step = size - overlap
    while start + size < length:
        if previous_end > overlap:
            # Every later window searches the `step` characters after the end before: one
            # regex scan finds them all, not a call per window (tests/bench/core.py, fixed).
            scan = _long_steady_ends if length > LONG_TEXT else _steady_ends
            ends += scan(content, previous_end, step)
            break
        floor = start if start > previous_end else previous_end  # max() costs a call
        found = LAST_WHITESPACE_RE.match(content, floor + 1, start + size + 1)
        end = found.end() - 1 if found is not None else start + size
        ends.append(end)
        start = end - overlap if end > overlap else end
        previous_end = end
    ends.append(length)
    return ends


def _steady_ends(content: str, previous_end: int, step: int) -> list[int]:
    """The ends of the windows after one that ended at `previous_end`, each the last white
    space among the `step` characters after the end before, or the last of them when none is
    white space; all but the window that reaches the end of `content`."""
    matches = _steady_window_re(step).scanner(content, previous_end + 1).match
    return [found.end() - 1 for found in iter(matches, None)]


def _long_steady_ends(content: str, previous_end: int, step: int) -> list[int]:
    """`_steady_ends` for a long text: the scan looks nothing ahead and runs on past the last
    of these windows, whose ends are then dropped: on a long text the lookahead costs more
    than the matches past the last window do (tests/bench/core.py, fixed)."""
    matches = _free_window_re(step).scanner(content, previous_end + 1).match
    ends = [found.end() - 1 for found in iter(matches, None)]
    # A window belongs while the end before lies more than `step` characters before the end.
    del ends[bisect_left(ends, len(content) - step) + 1 :]
    return ends


# About 36 windows of the default sizes, chosen, not tuned: `_long_steady_ends` pays over the
# 1 MB text and costs over sections and prose of a few windows, which `hierarchical` and
# `layout` mostly cut (tests/bench/core.py).
LONG_TEXT = 16_384


@lru_cache(maxsize=16)
def _steady_window_re(step: int) -> _ScanningPattern:
    """What one window adds after the end before: with `step` 4, over "ab cdef" it matches
    "ab " (up to the last white space within 4 characters), over "abcdef" "abcd" (cut hard);
    it matches nothing when fewer than `step` characters remain (the last window's turn)."""
    return cast("_ScanningPattern", re.compile(rf"(?s)(?=.{{{step}}}){_window(step)}"))


@lru_cache(maxsize=16)
def _free_window_re(step: int) -> _ScanningPattern:
    """`_steady_window_re` without the lookahead: it matches on to the end."""
    return cast("_ScanningPattern", re.compile(rf"(?s){_window(step)}"))


def _window(step: int) -> str:
    return rf"(?:.{{0,{step - 1}}}[{WS_CLASS}]|.{{{step}}})"
