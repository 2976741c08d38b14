"""The suite's one oracle for JavaScript strings: Python text as UTF-16 code units, and
Python string indices (code points) turned into JavaScript's (code units).

Written the plain way (encode and count), never as the bridge does it (`chunkspan.bridge.utf16`,
`toUtf16` in chunker.js), so that it checks them rather than repeats them.
"""

from __future__ import annotations


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
    """The JavaScript index of Python index `offset` into `text`.

    Past the end too: a chunk's end offset may count the line feed the chunker adds after
    the last line, and each astral character before it still counts twice.
    """
    return js_length(text[:offset]) + max(0, offset - len(text))
