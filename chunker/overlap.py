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

from .whitespace import JS_WHITESPACE, LAST_TEXT_RE, TEXT_RE, WHITESPACE_RUN_RE

__all__ = ["lead_length"]

# What ends a sentence before white space, as step 2 reads it (`split_sentences`).
SENTENCE_ENDS = ".!?"


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
    sentences = boundary == "sentence"
    if at == start or string[at - 1] in JS_WHITESPACE:
        # The first text from `at` on starts a word: it starts the chunk's text, or follows
        # white space.
        first = TEXT_RE.search(string, at, stop)
        if first is None:
            return 0
        found = first.start()
        if not sentences:
            return stop - found
        gap = _gap(string, start, at)
        if gap == start or _ends_sentence(string, gap, found):
            return stop - found
        at = found
    # Each later run of white space that text follows ends at a word start.
    for run in WHITESPACE_RUN_RE.finditer(string, at, stop):
        gap, found = run.span()
        if found == stop:
            break
        if not sentences or _ends_sentence(string, gap, found):
            return stop - found
    return 0


def _gap(string: str, start: int, at: int) -> int:
    """Where the white space just before `at` starts: past the last text of `string[start:at]`,
    or `start` when it holds none."""
    first = TEXT_RE.search(string, start, at)
    return start if first is None else LAST_TEXT_RE.match(string, first.start(), at).end()


def _ends_sentence(string: str, gap: int, found: int) -> bool:
    """Whether the white space `string[gap:found]`, after text, follows a sentence end or
    holds a blank line."""
    return string[gap - 1] in SENTENCE_ENDS or string.count("\n", gap, found) >= 2
