"""JavaScript strings in Python: their UTF-16 code units decoded once, and where their
characters outside the BMP are.

Offsets are counted in code points in Python and in UTF-16 code units in JavaScript. The
bridge answers and takes Python's; they are converted in one place, web/chunker-utf16.js,
from where the characters outside the BMP are: the page finds them in a text it holds, and
the worker sends them (found here) for a text only it holds.

Why UTF-16: the text comes as JavaScript's own code units, which the worker writes straight
into a `bytearray`: that costs less than encoding UTF-8 once the text holds a non-Latin-1
character (tests/bench/browser.py), a lone surrogate survives as it is, and their count tells
at once whether the text has any character outside the BMP. A text is decoded once: the
worker keeps its `JsString` for the calls on the same text after it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

__all__ = [
    "JsString",
    "as_bytes",
    "astral_positions",
    "astral_positions_of",
]

# A byte table for `bytes.translate` over the high bytes of UTF-16LE units: 1 for a high
# surrogate (D800-DBFF), which starts each character outside the BMP, else 0.
HIGH_SURROGATE_MARKS = bytes(1 if 0xD8 <= byte <= 0xDB else 0 for byte in range(256))


# A plain slotted class rather than a dataclass: it is internal to the bridge, and every
# class made at import delays the page's first call (a dataclass compiles its methods as the
# module loads, a cost that shows in Chromium as Pyodide starts).
class JsString:
    """A JavaScript string as Python holds it: `text`, and where its characters outside the
    BMP are (`astral`, as `astral_positions` finds them), found once for every call on it."""

    # `text`: the string, a lone surrogate kept as the one character it is there.
    # `astral`: where the characters outside the BMP are in `text`, in code points, in order.
    __slots__ = ("text", "astral")

    def __init__(self, text: str, astral: tuple[int, ...]) -> None:
        self.text = text
        self.astral = astral

    def __repr__(self) -> str:
        return f"JsString(text={self.text!r}, astral={self.astral!r})"

    @classmethod
    def from_utf16(cls, units: bytes | bytearray, highs: Any = None) -> JsString:
        """The string whose UTF-16LE code units are `units` (JavaScript's own; the worker
        writes them into a bytearray). `highs`, when given, lists the units that are high
        surrogates, as 32-bit ints (bytes, or a JavaScript Int32Array): see
        `astral_positions`.

        Example:
            >>> JsString.from_utf16("a😀b".encode("utf-16-le"))
            JsString(text='a😀b', astral=(1,))
        """
        # "surrogatepass": a lone surrogate stays one character, as it was one unit.
        text = units.decode("utf-16-le", "surrogatepass")
        if len(units) // 2 == len(text):  # no two units make one character
            return cls(text, ())
        known = None if highs is None else memoryview(as_bytes(highs)).cast("i")
        return cls(text, tuple(astral_positions(units, known)))


def as_bytes(data: Any) -> bytes:
    """Bytes from CPython, or from a JavaScript typed array (Pyodide's buffer proxy)."""
    return data if isinstance(data, bytes) else data.to_bytes()


def astral_positions_of(text: str, astral: Sequence[int] | None = None) -> Sequence[int]:
    """`astral` when the caller knows it (a `JsString`'s), else where the characters outside
    the BMP are in `text`, found.

    Example:
        >>> astral_positions_of("a😀b"), astral_positions_of("a😀b", (1,))
        ([1], (1,))
    """
    if astral is not None:
        return astral
    # An ASCII text (`isascii()` is O(1)) has none; "surrogatepass": a lone surrogate from
    # JavaScript is one unit, as it was there.
    utf16 = b"" if text.isascii() else text.encode("utf-16-le", "surrogatepass")
    return astral_positions(utf16)


def astral_positions(utf16: bytes | bytearray, highs: Iterable[int] | None = None) -> list[int]:
    """Where the characters outside the BMP are, in code points, in UTF-16LE `utf16`.

    `highs` lists the units that are high surrogates (D800-DBFF), in order, when the caller
    knows them: the worker notes them as it copies the units in, at almost no cost. Else
    they are found here with C-speed steps, as Python loops and regexes (even `max(text)`)
    are slow in Pyodide: the high byte of a high surrogate is D8-DB, `translate` marks
    those bytes and `find` jumps from one to the next (tests/bench/browser.py). A
    high surrogate that no low one follows is a lone one: one unit, one character.

    Example:
        >>> astral_positions("a😀b😀".encode("utf-16-le"))
        [1, 3]
        >>> astral_positions("a😀b\\ud83d".encode("utf-16-le", "surrogatepass"), [1, 4])
        [1]
    """
    if highs is None:
        highs = _high_surrogates(utf16[1::2])
    positions: list[int] = []
    for unit in highs:
        # The next unit's high byte: DC-DF for a low surrogate.
        if b"\xdc" <= utf16[2 * unit + 3 : 2 * unit + 4] <= b"\xdf":
            positions.append(unit - len(positions))  # each pair before is one unit more
    return positions


def _high_surrogates(high_bytes: bytes | bytearray) -> Iterator[int]:
    """The units that are high surrogates, from the high byte of each unit."""
    marks = high_bytes.translate(HIGH_SURROGATE_MARKS)
    unit = marks.find(1)
    while unit != -1:
        yield unit
        unit = marks.find(1, unit + 1)
