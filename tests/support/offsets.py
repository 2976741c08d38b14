"""Python string indices (code points) turned into JavaScript's (UTF-16 code units)."""

from __future__ import annotations


def utf16_offset(text: str, offset: int) -> int:
    """The JavaScript index of Python index `offset` into `text`.

    Past the end too: a chunk's end offset may count the line feed the chunker adds after
    the last line, and each astral character before it still counts twice.
    """
    units = len(text[:offset].encode("utf-16-le", "surrogatepass")) // 2
    return units + max(0, offset - len(text))
