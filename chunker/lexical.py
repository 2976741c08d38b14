"""`lexical_tokens` and `snippet_around`: the words of a text, and where a query's words fall.

A word is a letter or a digit followed by letters, digits and combining marks, in any script.
Python's `re` has no `\\p{M}`, so the class of combining marks is read from `unicodedata`
once, on first use (about 10 ms in CPython, 85 ms in Pyodide: too much to pay on every page
load for a function a page may never call), over the ranges that hold any.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Iterable

from .validation import ArgumentTypeError, require_int, require_text
from .whitespace import JS_WHITESPACE, LAST_WHITESPACE_RE, WHITESPACE_RUN_RE

__all__ = ["Snippet", "lexical_tokens", "snippet_around", "word_re"]

# Ranges left out of the scan hold no combining mark: CJK ideographs, Hangul syllables,
# surrogates, private use, and planes 2 to 13.
_MARK_SCAN = (
    (0, 0x3400),
    (0xA000, 0xAC00),
    (0xD7A4, 0xD800),
    (0xF900, 0x20000),
    (0xE0000, 0xE1000),
)


@dataclass(frozen=True, slots=True)
class Snippet:
    """What `snippet_around` answers."""

    at: int
    """Where the matching word starts in the text as given, or -1 when no word matches."""
    text: str
    """The whole words around it, white space collapsed."""

    def to_dict(self) -> dict[str, Any]:
        """Return `{at, text}`."""
        return {"at": self.at, "text": self.text}


def _mark_class() -> str:
    """The combining marks (categories Mn, Mc, Me) as the body of a regex character class."""
    ranges: list[str] = []
    for low, high in _MARK_SCAN:
        start = None
        for code in range(low, high + 1):
            is_mark = code < high and unicodedata.category(chr(code)).startswith("M")
            if is_mark and start is None:
                start = code
            elif not is_mark and start is not None:
                ranges.append(f"{re.escape(chr(start))}-{re.escape(chr(code - 1))}")
                start = None
    return "".join(ranges)


@functools.cache
def word_re() -> re.Pattern[str]:
    r"""A word: a letter or digit (`[^\W_]` is `\w` without the underscore), then letters,
    digits and marks. "Q3's" -> "Q3", "s"; "Re\u0301sume\u0301" is one word."""
    return re.compile(rf"[^\W_](?:[^\W_]|[{_mark_class()}])*")


def _fold(text: str) -> str:
    """A text as the functions here compare it: NFC, then lower case."""
    return unicodedata.normalize("NFC", text).lower()


def lexical_tokens(text: str) -> list[str]:
    """Return the words of `text` in order, read in NFC and lower case, nothing stemmed.

    Example:
        >>> lexical_tokens("Q3's budget: 1,200 units")
        ['q3', 's', 'budget', '1', '200', 'units']
    """
    return word_re().findall(_fold(require_text("text", text)))


def snippet_around(text: str, words: Iterable[str], before: int = 80, after: int = 120) -> Snippet:
    """Find the first word of `text` that begins with one of `words`; answer it with its context.

    `at` is where that word starts in `text` as given (-1 when no word matches). The snippet
    starts after the last white space at or before `before` characters ahead of the word (or
    at the start) and ends at the first white space at or after `after` characters past the
    word's start (or at the end), its white space collapsed. With no match it is the text's
    start. Empty words match nothing.

    Example:
        >>> snippet_around("The refund goes back to the card.", ["refund"])
        Snippet(at=4, text='The refund goes back to the card.')
    """
    require_text("text", text)
    if isinstance(words, (str, bytes)) or not isinstance(words, Iterable):
        raise ArgumentTypeError(
            "words",
            f"words must be a list of strings, got {type(words).__name__} {words!r:.80}"
        )
    prefixes = []
    for number, word in enumerate(words):
        folded = _fold(require_text(f"words[{number}]", word, field="words"))
        if folded:
            prefixes.append(folded)
    require_int("before", before, minimum=0)
    require_int("after", after, minimum=0)
    at = _first_match(text, tuple(prefixes))
    anchor = max(at, 0)
    start = 0
    if anchor - before >= 0:
        last = LAST_WHITESPACE_RE.match(text, 0, anchor - before + 1)
        start = last.end() if last else 0
    end = len(text)
    if anchor + after < len(text):
        following = WHITESPACE_RUN_RE.search(text, anchor + after)
        end = following.start() if following else len(text)
    window = WHITESPACE_RUN_RE.sub(" ", text[start:end]).strip(JS_WHITESPACE)
    return Snippet(at, window)


def _first_match(text: str, prefixes: tuple[str, ...]) -> int:
    """Where the first word of `text` beginning with one of `prefixes` starts, or -1.

    Final sigma is compared as sigma: `lower()` picks ς or σ from what follows a word, so the
    same word folds to either alone or in a longer text ("ΟΔΟΣ" alone, "ΟΔΟΣ'S").
    """
    relaxed = tuple(prefix.replace("ς", "σ") for prefix in prefixes)
    # Most texts hold none of the words at all: one C-speed look at the whole text says so.
    folded = _fold(text).replace("ς", "σ")
    if any(prefix in folded for prefix in relaxed):
        for word in word_re().finditer(text):
            if _fold(word.group()).replace("ς", "σ").startswith(relaxed):
                return word.start()
    return -1
