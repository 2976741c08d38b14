"""`overlap_boundary` (docs/spans.md, "Overlap that starts at a word"): "word" and "sentence"
move each overlap's start forward to the first word or sentence start among the last
`overlap` characters of the chunk before's own text, or leave none; "chars", the default,
is the original's. Nothing else about a chunk changes.

The boundaries are written here again, plainly, from the docs' words, and every overlap is
checked against them: a suffix of the chunk before's own text, at most `overlap` long, that
starts at a boundary, the longest that does, with `overlap_span` reading it.
"""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.fixture_cases import SEMANTIC_OPTIONS, params, snake
from support.strategies import PIECES, SEPARATORS, documents, semantic_options, texts

from chunker import Chunk, SemanticChunker, chunk
from chunker.base.limits import OVERLAP_BOUNDARIES
from chunker.base.validation import ArgumentTypeError, ArgumentValueError
from chunker.base.whitespace import JS_WHITESPACE, WS_CLASS
from chunker.text.overlap import lead_length

MODES = [mode for mode in OVERLAP_BOUNDARIES if mode != "chars"]

# Prose with words and sentences of every length, so that overlaps start in all places.
WORDY = [*PIECES, "Officially supported.", "a", "an end.\n\nNew", "Why? Because!", "x" * 30]
wordy_texts = st.one_of(
    texts,
    st.lists(
        st.tuples(st.sampled_from(WORDY), st.sampled_from([*SEPARATORS, "\n\n\n", "  "])),
        max_size=60,
    ).map(lambda parts: "".join(piece + sep for piece, sep in parts)),
)
# The options but the boundary, which each test sets.
options_with_overlap = semantic_options.map(
    lambda o: {
        **{name: value for name, value in o.items() if name != "overlap_boundary"},
        "overlap": o.get("overlap", 100),
    }
)


def own_text(c: Chunk) -> str:
    return c.text[len(c.text) - (c.end_offset - c.start_offset) :]


def lead_of(c: Chunk) -> str:
    return c.text[: len(c.text) - (c.end_offset - c.start_offset)]


def trim(text: str) -> str:
    return text.strip(JS_WHITESPACE)


def starts_word(own: str, at: int) -> bool:
    """A character that is not white space, first in `own` or after white space."""
    return own[at] not in JS_WHITESPACE and (at == 0 or own[at - 1] in JS_WHITESPACE)


def starts_sentence(own: str, at: int) -> bool:
    """A word start with only white space before it, or after `.`, `!` or `?` and white
    space, or after white space holding a blank line."""
    if not starts_word(own, at):
        return False
    before = own[:at].rstrip(JS_WHITESPACE)
    gap = own[len(before) : at]
    return not before or before[-1] in ".!?" or gap.count("\n") >= 2


STARTS = {"word": starts_word, "sentence": starts_sentence}


def expected_lead(own: str, overlap: int, mode: str) -> str:
    """The docs' rule: the last `overlap` characters of `own` from the first boundary among
    them; "" when none is."""
    window = range(max(0, len(own) - overlap), len(own))
    return next((own[at:] for at in window if STARTS[mode](own, at)), "")


def reads_like(piece: str, selected: str) -> bool:
    """`selected` holds the words of `piece`, white space between them (a joined text's
    blank line may stand where the input had none: docs/spans.md)."""
    words = re.split(f"([{WS_CLASS}]+)", trim(piece))
    pattern = "".join(
        re.escape(word)
        if number % 2 == 0
        else (f"[{WS_CLASS}]*" if word == "\n\n" else f"[{WS_CLASS}]+")
        for number, word in enumerate(words)
    )
    return re.fullmatch(pattern, selected) is not None


def check_overlaps(text: str, options: dict, mode: str) -> list[Chunk]:
    """Each chunk of `text` cut with `mode` against the rule, and against the default's."""
    overlap = options.get("overlap", 100)
    chunks = SemanticChunker(**options, overlap_boundary=mode).chunk(text)
    default = SemanticChunker(**options).chunk(text)
    # Otherwise identical: the same chunks, own texts, offsets, types and spans.
    assert [c.to_dict() | {"text": own_text(c)} for c in chunks] == [
        c.to_dict() | {"text": own_text(c)} for c in default
    ]
    assert [c.span for c in chunks] == [c.span for c in default]
    for before, after in pairwise(chunks):
        own, lead = own_text(before), lead_of(after)
        assert len(lead) <= overlap
        assert own.endswith(lead) and before.text.endswith(lead)
        assert lead == expected_lead(own, overlap, mode), (own, lead)
        if lead:
            at = len(own) - len(lead)
            assert STARTS[mode](own, at)
            assert after.overlap_span is not None
            start, end = after.overlap_span
            assert text[start] == lead[0]
            assert end == before.span[1]
            assert reads_like(lead, text[start:end]), (lead, text[start:end])
        else:
            assert after.overlap_span is None
    return chunks


# Strings dense in what decides a boundary: sentence ends, line feeds, white space of both
# languages' kinds (U+0085 is none to JavaScript), text.
dense = st.lists(st.sampled_from([*"ab.!? \n\t\r", "\u00a0", "\ufeff", "\x85", "😀"])).map("".join)


@pytest.mark.parametrize("mode", MODES)
@given(before=dense, own=dense, after=dense, reach=st.integers(1, 40))
def test_lead_length_is_the_rule_within_its_range_alone(mode, before, own, after, reach):
    # What lies outside `string[start:stop]` (the input around a chunk's text) never counts.
    string = before + own + after
    start, stop = len(before), len(before) + len(own)
    length = lead_length(string, start, stop, reach, mode)
    assert length == len(expected_lead(own, reach, mode))


@pytest.mark.parametrize("mode", MODES)
@given(text=wordy_texts, options=options_with_overlap)
def test_each_overlap_starts_at_the_first_boundary_within_it(mode, text, options):
    check_overlaps(text, options, mode)


@pytest.mark.parametrize("mode", MODES)
@given(text=wordy_texts, options=options_with_overlap)
def test_an_overlap_of_one_piece_of_the_input_reads_exactly_there(mode, text, options):
    # No merges and nothing to split: each chunk's own text is a slice of the input, so its
    # overlap is too, and `text[overlap_span]` is the overlap to its last character.
    options.update(min_size=0, max_size=max(len(text) + 1, options.get("max_size", 1)))
    for c in check_overlaps(text, options, mode)[1:]:
        if c.overlap_span is not None:
            assert text[slice(*c.overlap_span)] == trim(lead_of(c))


@pytest.mark.parametrize("mode", MODES)
@given(text=documents, options=options_with_overlap)
def test_the_columns_hold_the_same_chunks(mode, text, options):
    chunker = SemanticChunker(**options, overlap_boundary=mode)
    chunks = chunker.chunk(text)
    columns = chunker.chunk_columns(text)
    assert columns.chunk_texts(text) == [c.text for c in chunks]
    assert columns.overlap_spans == [o for c in chunks for o in (c.overlap_span or (-1, -1))]
    assert columns.spans == [at for c in chunks for at in c.span]


@pytest.mark.parametrize("case", params("semantic_chunker.json", leading_bom=False))
def test_the_original_cases_change_only_their_overlaps(case):
    """On every case the original answered (those led by a byte-order mark, which we read as
    a mark, aside: core/test_fixtures.py), "word" changes no chunk but its overlap, and
    "chars", named, answers the original's chunks byte for byte."""
    config = snake(case["config"], SEMANTIC_OPTIONS)
    named = SemanticChunker(**config, overlap_boundary="chars").chunk(
        case["text"], case["metadata"]
    )
    assert [c.to_dict() for c in named] == case["expected"]
    check_overlaps(case["text"], config, "word")


def leads(text: str, mode: str, **options: int) -> list[str]:
    return [lead_of(c) for c in chunk(text, overlap_boundary=mode, **options)]


def test_an_overlap_that_would_start_inside_a_word_starts_at_the_next():
    text = "We fixed the fault. Officially supported options follow here, and more."
    sizes = dict(target_size=20, max_size=30, min_size=0, overlap=12)
    # The original's: the last 12 characters, wherever they start.
    assert leads(text, "chars", **sizes) == ["", "d the fault.", "ly supported", "follow here,"]
    assert leads(text, "word", **sizes) == ["", "the fault.", "supported", "follow here,"]
    # No sentence starts within the last 12 characters of any chunk: no overlap.
    assert leads(text, "sentence", **sizes) == ["", "", "", ""]
    words = SemanticChunker(**sizes, overlap_boundary="word").chunk(text)
    assert text[slice(*words[1].overlap_span)] == "the fault."


def test_a_sentence_overlap_starts_at_a_sentence_or_the_text_before():
    text = "It broke down. We fixed it fast. Then it ran all day."
    sizes = dict(target_size=20, max_size=20, min_size=0, overlap=14)
    # The first chunk is 14 characters: all of it, from its start, is the overlap.
    assert leads(text, "sentence", **sizes) == ["", "It broke down.", ""]
    assert leads(text, "word", **sizes) == ["", "It broke down.", "fixed it fast."]
    # After a blank line, a sentence starts too.
    text = "alpha beta\n\ngamma delta\n\nomega"
    assert leads(text, "word", target_size=20, min_size=0, overlap=18)[1] == "beta\n\ngamma delta\n"
    assert leads(text, "sentence", target_size=20, min_size=0, overlap=18)[1] == "gamma delta\n"


def test_with_no_boundary_within_it_there_is_no_overlap():
    text = "https://example.com/" + "p" * 60 + " tail"
    chars, words = (
        SemanticChunker(target_size=40, max_size=40, min_size=0, overlap=10, overlap_boundary=b)
        for b in ("chars", "word")
    )
    assert lead_of(chars.chunk(text)[1]) == "p" * 10
    second = words.chunk(text)[1]
    assert lead_of(second) == "" and second.overlap_span is None


@pytest.mark.parametrize(
    ("value", "error", "said"),
    [
        ("words", ArgumentValueError, "unknown overlap_boundary 'words' (must be one of"),
        ("", ArgumentValueError, "unknown overlap_boundary ''"),
        (None, ArgumentTypeError, "overlap_boundary must be a string, got NoneType"),
        (1, ArgumentTypeError, "overlap_boundary must be a string, got int"),
    ],
)
def test_a_bad_overlap_boundary_is_refused_naming_it(value, error, said):
    with pytest.raises(error, match=re.escape(said)) as refused:
        SemanticChunker(overlap_boundary=value)
    assert refused.value.field == "overlap_boundary"


def test_the_option_is_read_only_kept_in_the_repr_and_copies():
    import copy
    import pickle

    chunker = SemanticChunker(overlap=5, overlap_boundary="sentence")
    assert "overlap_boundary='sentence'" in repr(chunker)
    assert copy.copy(chunker).overlap_boundary == "sentence"
    assert pickle.loads(pickle.dumps(chunker)).overlap_boundary == "sentence"
    with pytest.raises(AttributeError, match="overlap_boundary"):
        chunker.overlap_boundary = "word"  # type: ignore[misc]
