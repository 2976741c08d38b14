"""Where `SemanticChunker`'s overlap starts with `overlap_boundary` "word" or "sentence".

The original takes the last `overlap` characters of the chunk before, wherever they start
("chars", the default), so a chunk may open with "fault. Officially ...". "word" and
"sentence" move the start forward to the first boundary among those characters, so the
overlap is never longer than `overlap`; when none lies among them, there is no overlap (a
chunk never opens inside a word, at the cost of an overlap where the text has no white
space, such as Chinese: keep "chars" there). The boundaries, in the chunk before's own
text (the text the overlap is cut from):

- a word starts at a character that is not white space (`whitespace.py`'s definition) at
  the start of that text or after white space;
- a sentence starts at a word start at the start of that text, after a sentence end (`.`,
  `!` or `?` then white space, where step 2 splits sentences) or after a blank line (white
  space holding two line feeds, where step 2 splits paragraphs).

Each search reads the last `overlap` characters and the white space just before them:
linear in the chunk's text.
"""

from __future__ import annotations

import re

from chunker.base.whitespace import (
    JS_WHITESPACE,
    LAST_TEXT_RE,
    TEXT_RE,
    WHITESPACE_RUN_RE,
    WS_CLASS,
)

__all__ = ["lead_length"]

# The white space where a sentence starts, from the character before it to the text after it:
# after a sentence end (`.`, `!` or `?`, as step 2 splits sentences), or holding a blank line
# (two line feeds, as step 2 splits paragraphs). "end.  Next" holds ".  ", "a \n\n b" holds
# "\n\n ". A match starts only at one of those characters and reads its run of white space
# to the end; a line feed with no other after it in its run fails after one reading of it:
# linear.
SENTENCE_GAP_RE = re.compile(rf"(?:[.!?][{WS_CLASS}]|\n[{WS_CLASS}]*\n)[{WS_CLASS}]*")


def lead_length(string: str, start: int, stop: int, reach: int, boundary: str) -> int:
    """The length of the overlap cut from a chunk's own text, `string[start:stop]`: its last
    `reach` characters (at least 1) from the first `boundary` ("word" or "sentence") among
    them; 0 when none is.

    Example:
        >>> lead_length("Ends here. Then more", 0, 20, 16, "word")  # "here. Then more"
        15
        >>> lead_length("Ends here. Then more", 0, 20, 16, "sentence")  # "Then more"
        9
        >>> lead_length("Ends here. Then more", 0, 20, 3, "word")  # inside "more": none
        0
    """
    at = stop - reach if stop - reach > start else start
    follows_white = at > start and string[at - 1] in JS_WHITESPACE
    if boundary == "word":
        if at == start or follows_white:
            return _from_first_text(string, at, stop)
        found = WHITESPACE_RUN_RE.search(string, at, stop)
    else:
        # The white space just before `at`, from `gap` on (none when `at` follows text).
        gap = _gap(string, start, at) if follows_white else at
        if gap == start:  # only white space before `at` in the chunk's text
            return _from_first_text(string, at, stop)
        # From the character before that white space, which may end a sentence.
        found = SENTENCE_GAP_RE.search(string, gap - 1, stop)
    # A match ends at the text after its run of white space, or at the end: none follows.
    return 0 if found is None else stop - found.end()


def _from_first_text(string: str, at: int, stop: int) -> int:
    """The length of `string[at:stop]` from its first text on (0 when it has none)."""
    first = TEXT_RE.search(string, at, stop)
    return 0 if first is None else stop - first.start()


def _gap(string: str, start: int, at: int) -> int:
    """Where the white space just before `at` starts: past the last text of `string[start:at]`,
    or `start` when it holds none."""
    first = TEXT_RE.search(string, start, at)
    return start if first is None else LAST_TEXT_RE.match(string, first.start(), at).end()
