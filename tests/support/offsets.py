"""The suite's one oracle for JavaScript strings: Python text as UTF-16 code units, and
Python string indices (code points) turned into JavaScript's (code units).

Written the plain way (encode and count), never as the bridge does it (`chunker.bridge.utf16`,
`toUtf16` in chunker.js), so that it checks them rather than repeats them.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate


def utf16le(text: str) -> bytes:
    """`text` as JavaScript holds it: UTF-16LE code units, a lone surrogate as the one unit
    it is (what the worker copies into Python)."""
    return text.encode("utf-16-le", "surrogatepass")


def code_units(text: str) -> list[int]:
    """The UTF-16 code units JavaScript sees in `text` (`charCodeAt` of each index)."""
    data = utf16le(text)
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]


def js_length(text: str) -> int:
    """`text.length` in JavaScript."""
    return len(utf16le(text)) // 2


def as_javascript(text: str) -> str:
    """`text` as Python reads it back from JavaScript's UTF-16: a high surrogate followed by
    a low one becomes the one character the two are there."""
    return utf16le(text).decode("utf-16-le", "surrogatepass")


def utf16_offset(text: str, offset: int) -> int:
    """The JavaScript index of Python index `offset` (0 or more) into `text`.

    Past the end too: a chunk's end offset may count the line feed the chunker adds after
    the last line, and each astral character before it still counts twice.
    """
    if offset < 0:
        raise ValueError(f"offset must be 0 or more, got {offset}")
    inside = min(offset, len(text))
    block = inside // _BLOCK
    units = _units_before_blocks(text)[block] + js_length(text[block * _BLOCK : inside])
    return units + offset - inside


# A text's units are counted a block at a time, once a text: a test that converts every
# chunk's span of a megabyte would otherwise encode a prefix of it each time.
_BLOCK = 4096


@lru_cache(maxsize=8)
def _units_before_blocks(text: str) -> list[int]:
    """The UTF-16 units of `text` before each `_BLOCK`-th character (blocks end between
    characters, so their counts add up to the text's)."""
    blocks = (js_length(text[at : at + _BLOCK]) for at in range(0, len(text), _BLOCK))
    return list(accumulate(blocks, initial=0))
