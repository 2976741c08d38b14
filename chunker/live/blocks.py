"""A live document's text as blocks, so that an edit copies a block or two, not the text."""

from __future__ import annotations

from bisect import bisect_right
from typing import overload

__all__ = ["BLOCK_CHARS", "BlockText"]

# The characters a block of a `BlockText` holds, about: an edit copies one or two blocks.
BLOCK_CHARS = 1 << 16


class BlockText:
    """A text as blocks, so that an edit copies a block or two, not the text (5 MB of text
    with one character outside the BMP is 20 MB, and copying it costs more than re-cutting
    the region an edit reaches: tests/bench/live.py). Read as the `str` methods it answers;
    `str()` joins it, once."""

    __slots__ = ("blocks", "starts", "length", "whole")

    def __init__(self, blocks: list[str], whole: str | None = None) -> None:
        self.blocks = blocks
        self.starts = []  # where each block starts
        at = 0
        for block in blocks:
            self.starts.append(at)
            at += len(block)
        self.length = at
        # An empty text is read as the empty string: with no block, a block's search has
        # nowhere to start (an edit that empties a text of many blocks made one).
        self.whole = "" if not blocks else whole

    @classmethod
    def of(cls, text: str) -> BlockText:
        step = BLOCK_CHARS
        return cls([text[at : at + step] for at in range(0, len(text), step)], text)

    def __str__(self) -> str:
        if self.whole is None:
            self.whole = "".join(self.blocks)
        return self.whole

    def __len__(self) -> int:
        return self.length

    def _block(self, at: int) -> int:
        """The block holding the character at `at` (the last block for the end)."""
        return max(bisect_right(self.starts, at) - 1, 0)

    @overload
    def __getitem__(self, at: int) -> str: ...
    @overload
    def __getitem__(self, at: slice) -> str: ...
    def __getitem__(self, at: int | slice) -> str:
        if self.whole is not None:
            return self.whole[at]
        if isinstance(at, int):
            number = self._block(at)
            return self.blocks[number][at - self.starts[number]]
        start, stop, _ = at.indices(self.length)
        if start >= stop:
            return ""
        first, last = self._block(start), self._block(stop - 1)
        if first == last:
            return self.blocks[first][start - self.starts[first] : stop - self.starts[first]]
        return "".join(
            (
                self.blocks[first][start - self.starts[first] :],
                *self.blocks[first + 1 : last],
                self.blocks[last][: stop - self.starts[last]],
            )
        )

    def find(self, sub: str, start: int) -> int:
        """`str.find`, for a `sub` shorter than a block."""
        if self.whole is not None:
            return self.whole.find(sub, start)
        reach = len(sub) - 1
        for number in range(self._block(start), len(self.blocks)):
            at = self.starts[number]
            # The block, and what `sub` may reach of the next one past its end.
            found = self.blocks[number].find(sub, max(start - at, 0))
            if found >= 0:
                return at + found
            if reach and number + 1 < len(self.blocks):
                seam = self[
                    max(at + len(self.blocks[number]) - reach, start) : at
                    + len(self.blocks[number])
                    + reach
                ]
                found = seam.find(sub)
                if found >= 0:
                    return max(at + len(self.blocks[number]) - reach, start) + found
        return -1

    def rfind(self, sub: str, start: int, end: int) -> int:
        """`str.rfind` from `start` (0 or a place in the first block) to `end`."""
        if self.whole is not None:
            return self.whole.rfind(sub, start, end)
        reach = len(sub) - 1
        for number in range(self._block(max(end - 1, 0)), -1, -1):
            at = self.starts[number]
            if reach and number + 1 < len(self.blocks):
                seam_at = max(at + len(self.blocks[number]) - reach, start)
                seam = self[seam_at : min(at + len(self.blocks[number]) + reach, end)]
                found = seam.rfind(sub)
                if found >= 0:
                    return seam_at + found
            found = self.blocks[number].rfind(sub, max(start - at, 0), max(end - at, 0))
            if found >= 0:
                return at + found
            if at <= start:
                break
        return -1

    def replaced(self, start: int, end: int, replacement: str) -> BlockText:
        """This text with `[start:end]` replaced."""
        if not self.blocks:
            return BlockText.of(replacement)
        first, last = self._block(start), self._block(end)
        middle = "".join(
            (
                self.blocks[first][: start - self.starts[first]],
                replacement,
                self.blocks[last][end - self.starts[last] :],
            )
        )
        step = BLOCK_CHARS
        made = [middle[at : at + step] for at in range(0, len(middle), step)]
        return BlockText([*self.blocks[:first], *made, *self.blocks[last + 1 :]])
