"""White space as JavaScript defines it, the one definition every module here uses.

The original runs `String.prototype.trim()` and the regex class `\\s`; both mean the ECMAScript
WhiteSpace and LineTerminator characters. Python's `str.strip()` and `re`'s `\\s` differ: they
also take U+001C..U+001F and U+0085, and `str.strip()` leaves U+FEFF. A text holding any of
those would chunk differently from the original, so we spell the set out.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from typing import Protocol

    class MatchingPattern(Protocol):
        """A compiled pattern whose `match` is called only where it matches, so it answers a
        match, never None: a pattern that matches the empty string, or one matched over a
        range that the caller knows holds a match. Typed so where it is compiled, once,
        instead of a check or a `# type: ignore` at each call (a type checker only)."""

        def match(self, string: str, pos: int = ..., endpos: int = ..., /) -> re.Match[str]: ...


__all__ = [
    "JS_WHITESPACE",
    "WS_CLASS",
    "LINE_TERMINATORS",
    "TEXT_RE",
    "WHITESPACE_RUN_RE",
    "LAST_WHITESPACE_RE",
    "LAST_TEXT_RE",
    "js_trim",
    "is_blank",
    "tight_span",
    "BOM",
    "bom_length",
]

# ECMAScript WhiteSpace (TAB, VT, FF, SP, NBSP, ZWNBSP and the Zs category) and LineTerminator.
JS_WHITESPACE = (
    "\t\n\x0b\x0c\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)

# The same set as the body of a regex character class, for `[...]` and `[^...]`.
WS_CLASS = r"\t\n\x0b\x0c\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

# What ends a line for JavaScript's `^`, `$` and `.` (without the `s` flag).
LINE_TERMINATORS = "\n\r\u2028\u2029"


def js_trim(text: str) -> str:
    """Return `text` without leading and trailing white space, as JavaScript's `trim()`."""
    return text.strip(JS_WHITESPACE)


# Any character that is not white space.
TEXT_RE = re.compile(f"[^{WS_CLASS}]")

# A run of white space: "a \t\n b" holds one.
WHITESPACE_RUN_RE = re.compile(f"[{WS_CLASS}]+")

# Matched from a range's start to its end, this backtracks from the end to the range's last
# white space: over "ab cd|ef" (the range ending at |) it ends just past the space.
LAST_WHITESPACE_RE = re.compile(f"(?s:.*)[{WS_CLASS}]")

# The same from the end back to the range's last text: over "ab c \n|" it ends just past "c".
# `(?s:.*)` jumps to the end at once, so the cost is the white space backtracked over. Matched
# only over a range holding text.
LAST_TEXT_RE: MatchingPattern = cast("MatchingPattern", re.compile(f"(?s:.*)[^{WS_CLASS}]"))


def is_blank(text: str) -> bool:
    """Tell whether `text` is empty or holds white space alone (stops at its first text)."""
    return TEXT_RE.search(text) is None


def tight_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The range of `text[start:end]` without the white space at its ends; None when blank.

    Example:
        >>> tight_span("  ab c\\n", 0, 7)
        (2, 6)
    """
    first = TEXT_RE.search(text, start, end)
    if first is None:
        return None
    at = first.start()
    return at, LAST_TEXT_RE.match(text, at, end).end()


# A byte-order mark: U+FEFF at the very start of a text says how its file was encoded (an
# editor on Windows saves UTF-8 so, and Python's and Node's UTF-8 decoders keep it). It is no
# part of the text: left in, it would hide the first line's heading (`\ufeff# Title` is no
# heading). Anywhere else U+FEFF is ZWNBSP, white space, as above.
BOM = "\ufeff"


def bom_length(text: str) -> int:
    """The characters of `text` that are a leading byte-order mark: 1 or 0. Every chunker cuts
    the text after them, its spans and offsets still indexing `text` (docs/spans.md).

    Example:
        >>> bom_length("\\ufeff# Title"), bom_length("# Title"), bom_length("a\\ufeff")
        (1, 0, 0)
    """
    return 1 if text.startswith(BOM) else 0
