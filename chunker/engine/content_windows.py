"""Where `fixed` windows end with `boundaries="content"`: at points the text's own words choose.

`fixed`'s windows follow each other by position, so one character inserted moves every window
after it. Here, as FastCDC does for bytes, a window ends where a rolling hash of the last
`HASHED_WORDS` words says so, which an edit changes only next to itself: the windows after it
end where they ended, shifted by what the edit added. The rule (docs/spans.md, "Windows that
end at the text's own words"):

- the step is `chunk_size - chunk_overlap`, what a window adds after the end before; each
  window starts `chunk_overlap` characters before that end, as `fixed`'s do;
- a window may end at the end of a word (a run of characters that are not white space) that
  another word follows, once it adds at least a quarter of the step;
- it ends at the first such word whose hash is small enough: each word passes with a
  chance proportional to the characters it adds (its white space before it and itself), low
  until the window adds half the step, twice as high after, so that nine windows in ten add
  between a quarter and three quarters of the step, their mean about half, and few reach it
  (the "normalised" chunking of FastCDC's two masks);
- a window that reaches the step with no such word ends as `fixed`'s do: at the last word end
  within it, or, in a word longer than that, after exactly the step's characters; the last
  window ends at the end of the text.

The hash of a word is CRC-32 of its UTF-8 (lone surrogates kept), and the rolling hash a
polynomial over the last words' hashes in 64-bit integer arithmetic, so the windows are the
same in every Python, Pyodide's included, and in every run (no hash randomisation).
"""

from __future__ import annotations

import re
from zlib import crc32

from chunker.base.whitespace import JS_WHITESPACE, WS_CLASS

__all__ = ["content_window_ends", "HASHED_WORDS"]

# How many words the rolling hash reads: an edit can move only the ends within this many
# words after it (and the window it falls in). Fewer would make any repeated short phrase end
# windows alike; more would let an edit move more ends.
HASHED_WORDS = 4

# A window may end once it adds a quarter of the step (`content_window_ends`), with these
# chances a character, in 2**32 parts of one over the step: 3 / step before it adds half the
# step, 6 / step after. Higher chances after half the step would make the windows' sizes
# more even, and so more alike to windows by position: two runs of windows, one through the
# text before an edit and one after it, would take longer to meet at a common end.
_EARLY = 3 << 32
_LATE = 6 << 32

_WORD_RE = re.compile(f"[^{WS_CLASS}]+")
_M64 = (1 << 64) - 1
# Odd 64-bit multipliers: `_BASE` rolls the hash, `_MIX` spreads its low bits into the top 32
# that are compared (the golden-ratio constant of Fibonacci hashing, and one of SplitMix64's).
_BASE = 0xBF58476D1CE4E5B9
_MIX = 0x9E3779B97F4A7C15
_BASE_OUT = pow(_BASE, HASHED_WORDS, 1 << 64)  # what the word leaving the hash was weighed by


def content_window_ends(content: str, size: int, overlap: int) -> list[int]:
    """Where each window of `content` ends, the last at its end (see the module's rule).

    Linear in `content`: one pass over its words, each hashed once (a word seen before is
    looked up, not hashed again), and a word longer than the step cut in steps.

    Example:
        >>> text = "one two three four five six seven eight nine ten eleven twelve " * 4
        >>> ends = content_window_ends(text, 40, 0)
        >>> ends
        [13, 23, 48, 62, 76, 86, 111, 125, 139, 149, 174, 188, 202, 212, 237, 252]
        >>> moved = content_window_ends("An edit. " + text, 40, 0)
        >>> [end for end in ends if end + 9 not in moved]  # the ends the edit moved
        [13, 23]
    """
    step = size - overlap
    least = step // 4
    normal = step // 2
    length = len(content)
    last_text = len(content.rstrip(JS_WHITESPACE))  # where the last word ends
    ends: list[int] = []
    previous = 0  # where the window before ended (0: none yet)
    reach = step  # how far this window may reach: `previous + step`
    fitting = -1  # the last word end this window could end at, else -1
    hashes: dict[str, int] = {}
    recent = [0] * HASHED_WORDS  # the last words' hashes, a ring
    turn = 0
    rolled = 0
    word_end = 0
    for word in _WORD_RE.finditer(content):
        text = word.group()
        hashed = hashes.get(text)
        if hashed is None:
            hashed = hashes[text] = crc32(text.encode("utf-8", "surrogatepass"))
        rolled = (rolled * _BASE + hashed - recent[turn] * _BASE_OUT) & _M64
        recent[turn] = hashed
        turn = (turn + 1) % HASHED_WORDS
        added = word.end() - word_end  # the white space before the word, and the word
        word_end = word.end()
        while word_end > reach:  # the word runs past the step: a window ends as `fixed`'s
            previous = fitting if fitting > previous else reach
            ends.append(previous)
            reach = previous + step
            fitting = -1
        if word_end >= last_text:
            fitting = word_end
            break  # the last word: its window ends at the end of the text
        advance = word_end - previous
        if advance >= least:
            chance = _EARLY if advance < normal else _LATE
            if (((rolled * _MIX) & _M64) >> 32) * step < added * chance:
                ends.append(word_end)
                previous = word_end
                reach = previous + step
                fitting = -1
                continue
        fitting = word_end
    while length > reach:  # white space past the step after the last word
        previous = fitting if fitting > previous else reach
        ends.append(previous)
        reach = previous + step
        fitting = -1
    ends.append(length)
    return ends
