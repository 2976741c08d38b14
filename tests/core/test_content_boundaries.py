"""`fixed` with `boundaries="content"`: windows that end where the text's own words say
(chunker/engine/content_windows.py; docs/spans.md, "Windows that end at the text's own
words"). The same windows in every run and every Python, `fixed`'s rules of size, overlap and
spans, few windows moved by an edit, and work linear in the text."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.readme import doc_block, run_block
from support.strategies import texts
from support.work import python_lines

from chunker import ChunkingEngine, chunk_many
from chunker.base.whitespace import JS_WHITESPACE, TEXT_RE, WS_CLASS
from chunker.engine.content_windows import HASHED_WORDS, content_window_ends
from chunker.stability import Edit, kept_count

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ChunkingEngine()


def prose(seed: int, words: int) -> str:
    """`words` words of a made-up language, with sentence ends, the same for a seed."""
    draw = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocabulary = ["".join(draw.choices(letters, k=draw.randint(1, 12))) for _ in range(500)]
    return "".join(
        draw.choice(vocabulary) + (". " if draw.random() < 0.07 else " ") for _ in range(words)
    )


def chunks_of(text: str, size: int, overlap: int, boundaries: str = "content") -> list:
    return ENGINE.chunk(
        text, strategy="fixed", chunk_size=size, chunk_overlap=overlap, boundaries=boundaries
    )


# --- the same windows everywhere ------------------------------------------------------------

PINNED_TEXT = prose(7, 400)
# The windows of PINNED_TEXT at 300/40: any change to the hash, the chances or the rule moves
# them (and the facade's test compares Pyodide's with CPython's).
PINNED_ENDS = [
    135,
    214,
    292,
    381,
    483,
    642,
    751,
    833,
    906,
    999,
    1146,
    1234,
    1401,
    1620,
    1715,
    1785,
    1905,
    2058,
    2237,
    2319,
    2464,
    2611,
    2857,
    2938,
    3053,
    3058,
]


def test_the_windows_are_pinned():
    assert content_window_ends(PINNED_TEXT, 300, 40) == PINNED_ENDS


@pytest.mark.parametrize("seed", ["0", "1", "random"])
def test_the_windows_are_the_same_whatever_the_hash_seed(seed):
    script = (
        "import json, sys; from chunker import ChunkingEngine; "
        "text = sys.stdin.read(); "
        "print(json.dumps([c.span for c in ChunkingEngine().chunk(text, chunk_size=300, "
        "chunk_overlap=40, boundaries='content')]))"
    )
    environment = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    answer = subprocess.run(
        [sys.executable, "-c", script],
        input=PINNED_TEXT,
        capture_output=True,
        text=True,
        env=environment,
        check=True,
        encoding="utf-8",
    )
    spans = [list(c.span) for c in chunks_of(PINNED_TEXT, 300, 40)]
    assert json.loads(answer.stdout) == spans


# --- fixed's rules --------------------------------------------------------------------------


@given(texts, st.integers(1, 120), st.data())
def test_content_windows_keep_fixed_s_rules(text, size, data):
    overlap = data.draw(st.integers(0, size - 1))
    chunks = chunks_of(text, size, overlap)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    for chunk in chunks:
        start, end = chunk.span
        assert chunk.content == text[start:end] == chunk.content.strip(JS_WHITESPACE) != ""
        assert end - start <= size
    # Nothing lost: every character that is not white space is in a chunk.
    covered = {i for c in chunks for i in range(*c.span)}
    assert {m.start() for m in TEXT_RE.finditer(text)} <= covered


@given(texts, st.integers(2, 120), st.data())
def test_each_window_starts_the_overlap_before_the_end_before(text, size, data):
    overlap = data.draw(st.integers(0, size - 1))
    ends = content_window_ends(text, size, overlap)
    assert ends[-1] == len(text)
    starts = [0] + [end - overlap if end > overlap else end for end in ends[:-1]]
    assert all(0 < end - start <= size for start, end in zip(starts, ends) if end > start)
    assert ends == sorted(ends)


def test_the_default_and_position_are_the_original_s_windows():
    text = prose(3, 2_000)
    position = [c.to_dict() for c in chunks_of(text, 300, 40, "position")]
    assert [c.to_dict() for c in ENGINE.chunk(text, chunk_size=300, chunk_overlap=40)] == position
    assert [c.to_dict() for c in chunks_of(text, 300, 40)] != position


# --- edits ----------------------------------------------------------------------------------


def one_word_insert(text: str, draw: random.Random) -> Edit:
    at = text.index(" ", draw.randrange(len(text) // 2))
    return Edit(at, at, " " + "".join(draw.choices("xyz", k=draw.randint(1, 9))))


def lost(text: str, edit: Edit, size: int, overlap: int, boundaries: str) -> int:
    """How many chunks of `text` an edit does not keep (`chunker.stability.kept_count`)."""
    before = chunks_of(text, size, overlap, boundaries)
    after = chunks_of(edit.apply(text), size, overlap, boundaries)
    return len(before) - kept_count(before, after, edit)


@given(
    st.integers(0, 10**6),
    st.integers(200, 1000),
    st.integers(0, 250),
    st.integers(500, 1500),
)
def test_a_one_word_insert_moves_few_content_windows(seed, size, overlap, words):
    # Two runs of windows, before the edit and after it, meet at a common end within a few
    # windows (of 4,000 such edits, none moved more than 9 chunks, most 1 or 2).
    overlap = min(overlap, size // 4)
    text = prose(seed, words)
    edit = one_word_insert(text, random.Random(seed))
    assert lost(text, edit, size, overlap, "content") <= 16


@given(st.integers(0, 10**6), st.integers(20, 1000), st.data())
def test_once_the_windows_meet_past_the_edit_they_stay_together(seed, size, data):
    # What makes the windows stable, exactly: a window's end depends only on the end before
    # and the words since, so two runs that share an end past the words the hash reads after
    # the edit share every end after it.
    overlap = data.draw(st.integers(0, size - 1))
    text = prose(seed, 600)
    edit = one_word_insert(text, random.Random(seed))
    edited = edit.apply(text)
    shift = len(edit.replacement)
    old = {
        end + shift if end > edit.start else end for end in content_window_ends(text, size, overlap)
    }
    new = content_window_ends(edited, size, overlap)
    word_ends = [m.end() for m in TEXT_RE.finditer(edited, edit.start + shift)]
    past = _word_end_after(edited, edit.start + shift, HASHED_WORDS + 1)
    common = [end for end in new if end >= past and end in old]
    assert word_ends  # the edit is in the text's first half
    if common:
        assert [e for e in new if e >= common[0]] == sorted(e for e in old if e >= common[0])


def _word_end_after(text: str, at: int, words: int) -> int:
    """Where the `words`-th word after `at` ends (the end of the text if it has fewer)."""
    for number, word in enumerate(re.finditer(f"[^{WS_CLASS}]+", text[at:]), start=1):
        if number == words:
            return at + word.end()
    return len(text)


def test_content_windows_keep_far_more_than_position_windows():
    # 200 one-word inserts into made-up prose: position windows move after the edit until
    # they happen to meet white space again; content windows meet within a window or two.
    lost_by = {"content": 0, "position": 0}
    chunks = 0
    for seed in range(200):
        draw = random.Random(seed)
        size = draw.randint(200, 1000)
        overlap = draw.randint(0, size // 4)
        text = prose(seed, 60 * size // 7)  # about 60 windows of position
        edit = one_word_insert(text, draw)
        chunks += len(chunks_of(text, size, overlap))
        for boundaries in lost_by:
            lost_by[boundaries] += lost(text, edit, size, overlap, boundaries)
    assert lost_by["content"] * 4 <= lost_by["position"]
    assert 1 - lost_by["content"] / chunks >= 0.98


# --- linear work ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "x" * n,  # one very long word
        lambda n: "中文没有空格" * (n // 6),  # no white space
        lambda n: "a " * (n // 2),  # the same short word, over and over
        lambda n: " " * n + "x",  # white space alone, then a word
        lambda n: ("w" * 700 + " ") * (n // 701),  # words longer than the step
    ],
    ids=["long word", "no white space", "one short word", "white space", "long words"],
)
def test_work_is_linear_in_the_text(make):
    def work(n: int) -> int:
        text = make(n)
        return python_lines(lambda: chunks_of(text, 50, 10), limit=50 * n)

    small, large = work(20_000), work(80_000)
    assert large <= 4.4 * small


# --- the option -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, error, message",
    [
        ({"boundaries": "words"}, ValueError, "unknown boundaries 'words' (must be one of"),
        ({"boundaries": 1}, TypeError, "boundaries must be a string, got int 1"),
        (
            {"boundaries": "content", "strategy": "hierarchical"},
            ValueError,
            "boundaries 'content' is for strategy 'fixed' only, not 'hierarchical'",
        ),
    ],
)
def test_a_bad_boundaries_is_refused_naming_it(options, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(")) as raised:
        ENGINE.chunk("some text", **options)
    assert raised.value.field == "boundaries"
    with pytest.raises(error, match=message.replace("(", r"\(")):
        list(chunk_many(["some text"], **{"strategy": "fixed", **options}))


def test_chunk_many_takes_it():
    text = prose(5, 3_000)
    many = next(iter(chunk_many([text], strategy="fixed", boundaries="content", jobs=1)))
    assert [c.to_dict() for c in many.chunks] == [c.to_dict() for c in chunks_of(text, 512, 64)]


def test_the_example_in_the_docs_runs_as_shown():
    block = doc_block("spans.md", "from chunker import ChunkingEngine")
    assert run_block(block, {}) == []
