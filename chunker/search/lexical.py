"""`lexical_tokens` and `snippet_around`: the words of a text, and where a query's words fall.

A word is a letter or a digit followed by letters, digits and combining marks, in any script.
Python's `re` has no `\\p{M}`, so the class of combining marks is read from `unicodedata`
once, on first use (a walk over every code point: too much to pay on every page load for a
function a page may never call), over the ranges that hold any.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from chunker.base.validation import require_int, require_sequence, require_text
from chunker.base.whitespace import JS_WHITESPACE, LAST_WHITESPACE_RE, WHITESPACE_RUN_RE

__all__ = ["Snippet", "lexical_tokens", "match_spans", "snippet_around", "word_re"]

# Ranges left out of the scan hold no combining mark: CJK ideographs, Hangul syllables,
# surrogates, private use, and planes 2 to 13.
_MARK_SCAN = (
    (0, 0x3400),
    (0xA000, 0xAC00),
    (0xD7A4, 0xD800),
    (0xF900, 0x20000),
    (0xE0000, 0xE1000),
)


# Every ASCII character that is not a letter or a digit, as a space (`str.isalnum` and
# `[^\W_]` agree on ASCII).
_ASCII_SEPARATORS = str.maketrans({chr(c): " " for c in range(128) if not chr(c).isalnum()})


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


def _mark_ranges() -> list[tuple[int, int]]:
    """The combining marks (categories Mn, Mc, Me) as ranges of code points, first to last."""
    ranges: list[tuple[int, int]] = []
    for low, high in _MARK_SCAN:
        start = None
        for code in range(low, high + 1):
            is_mark = code < high and unicodedata.category(chr(code)).startswith("M")
            if is_mark and start is None:
                start = code
            elif not is_mark and start is not None:
                ranges.append((start, code - 1))
                start = None
    return ranges


def _class(ranges: list[tuple[int, int]]) -> str:
    """`ranges` as a regex character class."""
    body = "".join(f"{re.escape(chr(low))}-{re.escape(chr(high))}" for low, high in ranges)
    return f"[{body}]"


@functools.cache
def word_re() -> re.Pattern[str]:
    r"""A word: a letter or digit (`[^\W_]` is `\w` without the underscore), then letters,
    digits and marks. "Q3's" -> "Q3", "s"; "Re\u0301sume\u0301" is one word."""
    ranges = _mark_ranges()
    bmp = [(low, high) for low, high in ranges if high <= 0xFFFF]
    astral = [(low, high) for low, high in ranges if low > 0xFFFF]
    # `re` tries a class of some 300 ranges one range after another, and does so at the end
    # of every word, where the next character is tested for a mark: most of the time spent
    # on a text. A one-range test before it (is the character at or past the first mark, in
    # its plane?) lets nearly every word end skip it (tests/bench/search.py: indexing).
    # Marks and `[^\W_]` are disjoint, so each character has one way through: linear.
    mark = (
        f"[{re.escape(chr(bmp[0][0]))}-\uffff](?<={_class(bmp)})"
        f"|[\U00010000-\U0010ffff](?<={_class(astral)})"
    )
    return re.compile(rf"[^\W_]+(?:(?:{mark})[^\W_]*)*")


def _fold(text: str) -> str:
    """A text as the functions here compare it: NFC, then lower case."""
    return unicodedata.normalize("NFC", text).lower()


def lexical_tokens(text: str) -> list[str]:
    """Return the words of `text` in order, read in NFC and lower case, nothing stemmed.

    Example:
        >>> lexical_tokens("Q3's budget: 1,200 units")
        ['q3', 's', 'budget', '1', '200', 'units']
    """
    if require_text("text", text).isascii():
        # The same words, faster (tests/bench/search.py): in ASCII a word is a run of letters
        # and digits (no marks; `_` parts words), so every other character becomes a space to
        # split at.
        return text.lower().translate(_ASCII_SEPARATORS).split()
    return word_re().findall(_fold(text))


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
    prefixes = _prefixes(words)
    require_int("before", before, minimum=0)
    require_int("after", after, minimum=0)
    at = next((word.start() for word in _matching_words(text, prefixes)), -1)
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


def match_spans(text: str, words: Iterable[str]) -> list[tuple[int, int]]:
    """Where each word of `text` that begins with one of `words` lies, as `(start, end)`.

    A word matches by the rule `snippet_around` finds its word with: the word and each of
    `words` compared in NFC and lower case; empty words match nothing. Offsets count code
    points in `text` as given, so `text[start:end]` is the word: what a page highlights.

    Example:
        >>> match_spans("Refunds: a refund, refunded.", ["refund"])
        [(0, 7), (11, 17), (19, 27)]
    """
    require_text("text", text)
    return [word.span() for word in _matching_words(text, _prefixes(words))]


def _prefixes(words: Iterable[str]) -> tuple[str, ...]:
    """The query's `words` as compared, empty ones left out; a clear error for anything else."""
    prefixes = []
    for number, word in enumerate(require_sequence("words", words, of="strings")):
        folded = _fold(require_text(f"words[{number}]", word, field="words"))
        if folded:
            prefixes.append(folded)
    return tuple(prefixes)


def _matching_words(text: str, prefixes: tuple[str, ...]) -> Iterator[re.Match[str]]:
    """The words of `text`, in order, whose NFC lower case begins with one of `prefixes`.

    Each word is folded alone, as the spec compares it, so a final sigma stays ς: the query
    "οδος" does not match "ΟΔΟΣΤ" (folded "οδοστ"), and matches "ΟΔΟΣ" alone.
    """
    # Most texts hold none of the words at all: one C-speed look at the whole text says so.
    # Folded whole, `lower()` picks ς or σ from what follows a word ("ΟΔΟΣ'S" gives
    # "οδοσ's"), so this look compares sigmas alike: it may let a text through, never drop one.
    relaxed = tuple(prefix.replace("ς", "σ") for prefix in prefixes)
    folded = _fold(text).replace("ς", "σ")
    if not any(prefix in folded for prefix in relaxed):
        return
    for word in word_re().finditer(text):
        if _fold(word.group()).startswith(prefixes):
            yield word
