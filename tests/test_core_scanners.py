"""The fast scanners of `SemanticChunker` against the plain definitions they stand for.

`structure.py` lists fence and heading lines with `str.find` passes, `split_sentences`
searches full stops in a copy where `!` and `?` read as full stops, and `locate_chunks` walks
a chunk's words instead of compiling a pattern for it; each must find exactly what the rule,
read line by line or as the obvious pattern, finds.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from chunker.locate import _find_spaced
from chunker.semantic_chunker import split_sentences
from chunker.structure import fence_lines, heading_lines
from chunker.whitespace import JS_WHITESPACE, WHITESPACE_RUN_RE, WS_CLASS
from support.strategies import texts

# The sentence break as the spec states it: the white space after `.`, `!` or `?`.
PLAIN_SENTENCE_BREAK_RE = re.compile(rf"(?<=[.!?])[{WS_CLASS}]+")
PLAIN_HEADING_RE = re.compile(f"#{{1,6}}[{WS_CLASS.replace(chr(92) + 'n', '')}]")

# Backticks inside lines and on indented lines, next to the documents' pieces.
fenced_texts = st.one_of(
    texts,
    st.lists(st.sampled_from(["```", "a```", "``", "\t```", " \u00a0```x", "\n", "x", "#"]))
    .map("".join),
)


def line_starts(text: str) -> list[tuple[int, str]]:
    """(start, line) for each line of `text`, split at line feeds as the original does."""
    starts, at = [], 0
    for line in text.split("\n"):
        starts.append((at, line))
        at += len(line) + 1
    return starts


@given(fenced_texts)
def test_fence_lines_are_lines_whose_trimmed_text_starts_with_backticks(text):
    expected = [at for at, line in line_starts(text) if line.strip(JS_WHITESPACE)[:3] == "```"]
    assert fence_lines(text) == expected


@given(fenced_texts)
def test_heading_lines_are_the_lines_that_start_like_a_heading(text):
    expected = [at for at, line in line_starts(text) if PLAIN_HEADING_RE.match(line)]
    assert heading_lines(text) == expected


@given(st.one_of(texts, st.text(alphabet="ab.!? \n\t\u00a0\ufeff\x1c\u2029")))
def test_split_sentences_is_the_plain_pattern_split(text):
    assert split_sentences(text) == PLAIN_SENTENCE_BREAK_RE.split(text)


def plain_spaced_find(text: str, content: str, cursor: int) -> tuple[int, int] | None:
    """`content` as a pattern in which each run of white space stands for any other run."""
    words = WHITESPACE_RUN_RE.split(content)
    pattern = f"[{WS_CLASS}]+".join(re.escape(word) for word in words)
    found = re.compile(pattern).search(text, cursor)
    return (found.start(), found.end()) if found else None


spaced_texts = st.text(alphabet="ab \n\t\u00a0.", max_size=40)


@given(spaced_texts, spaced_texts, st.integers(0, 45))
def test_spaced_find_is_the_plain_pattern_search(text, content, cursor):
    if content:
        words = WHITESPACE_RUN_RE.split(content)
        assert _find_spaced(text, words, cursor) == plain_spaced_find(text, content, cursor)


@given(spaced_texts, st.data())
def test_spaced_find_finds_every_slice_of_the_text_spaced_anew(text, data):
    # A content cut from the text with its white space runs changed is found where the
    # plain pattern finds it, which is at or before where it was cut.
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    content = WHITESPACE_RUN_RE.sub(data.draw(st.sampled_from([" ", "\t\n"])), text[start:end])
    if content:
        found = _find_spaced(text, WHITESPACE_RUN_RE.split(content), 0)
        assert found == plain_spaced_find(text, content, 0)
        assert found is not None and found[0] <= start
