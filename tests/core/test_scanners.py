"""The fast scanners of `SemanticChunker` against the plain definitions they stand for.

`structure.py` lists fence and heading lines with regex scans, `split_sentences`
searches full stops in a copy where `!` and `?` read as full stops, and `locate_chunks` walks
a chunk's words instead of compiling a pattern for it; each must find exactly what the rule,
read line by line or as the obvious pattern, finds.
"""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.strategies import PIECES, texts

from chunker.base.whitespace import JS_WHITESPACE, WHITESPACE_RUN_RE, WS_CLASS
from chunker.engine.fixed import LONG_TEXT, _long_steady_ends, _steady_ends, _window_ends
from chunker.search.locate import _find_spaced
from chunker.semantic_chunker import split_paragraphs, split_sentences
from chunker.text.structure import (
    BLANK_LINE_RE,
    fence_lines,
    heading_lines,
    segment_text,
    split_by_structure,
)

# The sentence break as the spec states it: the white space after `.`, `!` or `?`.
PLAIN_SENTENCE_BREAK_RE = re.compile(rf"(?<=[.!?])[{WS_CLASS}]+")
PLAIN_HEADING_RE = re.compile(f"#{{1,6}}[{WS_CLASS.replace(chr(92) + 'n', '')}]")

# Backticks inside lines and on indented lines, next to the documents' pieces.
fenced_texts = st.one_of(
    texts,
    st.lists(st.sampled_from(["```", "a```", "``", "\t```", " \u00a0```x", "\n", "x", "#"])).map(
        "".join
    ),
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


def first_blank_line(text: str, start: int, stop: int) -> int | None:
    """Where the first line feed in `text[start:stop]` is that is followed by white space
    alone up to the next line feed or `stop`: a blank line, read line by line."""
    for at, line in line_starts(text[:stop]):
        feed = at - 1  # the line feed before this line
        if feed >= start and not line.strip(JS_WHITESPACE.replace("\n", "")):
            return feed
    return None


blank_line_texts = st.text(alphabet="\n \t\r\u00a0\u3000\u2028\ufeffx\x1c")


@given(blank_line_texts, st.integers(0, 40), st.integers(0, 40))
@pytest.mark.parametrize("possessive", [False, True] if sys.version_info >= (3, 11) else [False])
def test_the_blank_line_search_is_the_rule_read_line_by_line(possessive, text, start, stop):
    # What step 1 reads of a match is where it starts, searched between two bounds; the
    # pattern Python 3.10 gets (no possessive quantifier) is checked beside this one's.
    pattern = BLANK_LINE_RE.pattern
    pattern = pattern.replace("*+$", "*$") if not possessive else pattern
    found = re.compile(pattern, re.MULTILINE).search(text, start, stop)
    stop = min(max(stop, start), len(text))
    assert (found and found.start()) == first_blank_line(text, start, stop)


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


def plain_window_ends(content: str, size: int, overlap: int) -> list[int]:
    """The `fixed` windows' ends, one window at a time: each at the last white space after
    the end before and within `size` of its start, or `size` on; see `fixed_chunks`."""
    ends, start, previous_end = [], 0, 0
    while start + size < len(content):
        reach = range(max(start, previous_end) + 1, start + size + 1)
        spaces = [at for at in reach if content[at] in JS_WHITESPACE]
        end = spaces[-1] if spaces else start + size
        ends.append(end)
        start = end - overlap if end > overlap else end
        previous_end = end
    return [*ends, len(content)]


window_texts = st.text(alphabet="ab \n\u3000", max_size=120)


@given(window_texts, st.integers(1, 12), st.data())
def test_the_scan_past_the_last_window_keeps_the_windows_of_the_stopping_scan(text, step, data):
    # As `_window_ends` calls them: with over `step` characters after the end before.
    previous_end = data.draw(st.integers(0, max(len(text) - step - 1, 0)))
    if previous_end + step < len(text):
        long, steady = _long_steady_ends, _steady_ends
        assert long(text, previous_end, step) == steady(text, previous_end, step)


@pytest.mark.parametrize(("size", "overlap"), [(512, 64), (40, 39), (300, 0), (7, 3)])
def test_window_ends_of_a_long_text_are_the_plain_loop_s(size, overlap):
    # Over LONG_TEXT characters, with runs of words, of white space and of neither.
    pieces = ["word ", "a", " " * 9, "\n\n", "x" * 700, "\u3000", "ab cd "]
    text = "".join(pieces[(at * at + 3 * at) % len(pieces)] for at in range(LONG_TEXT // 20))
    assert len(text) > LONG_TEXT
    assert _window_ends(text, size, overlap) == plain_window_ends(text, size, overlap)


# Blank lines of every kind among the pieces, long enough to make segments over max_size.
blanky_texts = st.lists(
    st.sampled_from([*PIECES, "\n", "\n\n", "\n \t\n", "\r\n\r\n", "\n\u3000\n", "word " * 9]),
    max_size=80,
).map("".join)


# A blank line of every kind just before or after `target_size` characters (where step 1
# starts its search), then a long paragraph: the bound's edge.
@st.composite
def blank_line_near_the_target(draw: st.DrawFn) -> tuple[str, int]:
    target_size = draw(st.integers(4, 60))
    head = "x" * draw(st.integers(max(0, target_size - 6), target_size + 3))
    blank = draw(
        st.sampled_from(["\n\n", "\n \n", "\n\n\n", "\r\n\r\n", "\n\t \n\n", "\n\u3000\n"])
    )
    tail = "word " * draw(st.integers(20, 60)) + draw(st.sampled_from(["", "\n", "\n  "]))
    return draw(st.sampled_from(["", "# T\n", "\n\n"])) + head + blank + tail, target_size


@given(
    st.one_of(
        st.tuples(st.one_of(texts, blanky_texts), st.integers(1, 120)),
        blank_line_near_the_target(),
    ),
    st.integers(1, 240),
    st.booleans(),
    st.booleans(),
)
def test_step_2_needs_no_blank_line_past_where_step_1_searched(
    text_and_target, max_size, code_blocks, headings
):
    # Step 1 tells, for each long segment, how far into it a blank line may start; the
    # paragraphs cut with that bound are the paragraphs cut without it.
    text, target_size = text_and_target
    segments, long, _ = split_by_structure(text, target_size, max_size, code_blocks, headings)
    for at, blank_by in long.items():
        segment = segment_text(text, segments[at])
        assert split_paragraphs(segment, blank_by) == split_paragraphs(segment)
