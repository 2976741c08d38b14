"""Each validation error carries the Python name of the argument it concerns, as `field`: a
form can put the message at that argument without reading the message."""

from __future__ import annotations

import asyncio
import copy
import pickle
from math import nan

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunker import (
    ChunkingEngine,
    SemanticChunker,
    Turn,
    chunk,
    chunk_turns,
    lexical_tokens,
    locate_chunks,
    snippet_around,
)
from chunker.base.validation import ArgumentTypeError, ArgumentValueError, field_of

engine = ChunkingEngine()
TWO_SENTENCES = "A b. C d."

CASES = {
    "target_size zero": (lambda: SemanticChunker(target_size=0), ValueError, "target_size"),
    "max_size float": (lambda: SemanticChunker(max_size=1.5), TypeError, "max_size"),
    "min_size negative": (lambda: SemanticChunker(min_size=-1), ValueError, "min_size"),
    "overlap bool": (lambda: SemanticChunker(overlap=True), TypeError, "overlap"),
    "preserve_code_blocks str": (
        lambda: SemanticChunker(preserve_code_blocks="yes"),
        TypeError,
        "preserve_code_blocks",
    ),
    "respect_headings int": (
        lambda: SemanticChunker(respect_headings=1),
        TypeError,
        "respect_headings",
    ),
    "text None": (lambda: SemanticChunker().chunk(None), TypeError, "text"),
    # Python's own refusal of an unknown keyword named nothing.
    "chunk unknown option": (lambda: chunk("x", unknown=1), TypeError, "options"),
    "metadata list": (lambda: SemanticChunker().chunk("x", metadata=[1]), TypeError, "metadata"),
    "content int": (lambda: engine.chunk(42), TypeError, "content"),
    "strategy unknown": (lambda: engine.chunk("x", strategy="recursive"), ValueError, "strategy"),
    "strategy list": (lambda: engine.chunk("x", strategy=["fixed"]), TypeError, "strategy"),
    "chunk_size zero": (lambda: engine.chunk("x", chunk_size=0), ValueError, "chunk_size"),
    "chunk_overlap negative": (
        lambda: engine.chunk("x", chunk_overlap=-1),
        ValueError,
        "chunk_overlap",
    ),
    # The overlap is what to change: chunk size is the window, the overlap must fit in it.
    "chunk_overlap equal to chunk_size": (
        lambda: engine.chunk("x", chunk_size=10, chunk_overlap=10),
        ValueError,
        "chunk_overlap",
    ),
    "chunk_overlap above chunk_size": (
        lambda: engine.chunk("x", chunk_size=512, chunk_overlap=600),
        ValueError,
        "chunk_overlap",
    ),
    "embed_fn not callable": (lambda: engine.chunk("x", embed_fn="no"), TypeError, "embed_fn"),
    "embed_fn too few vectors": (
        lambda: engine.chunk(TWO_SENTENCES, strategy="semantic", embed_fn=lambda s: [[1.0]]),
        ValueError,
        "embed_fn",
    ),
    "embed_fn non-number": (
        lambda: engine.chunk(TWO_SENTENCES, strategy="semantic", embed_fn=lambda s: [[1], ["x"]]),
        TypeError,
        "embed_fn",
    ),
    "embed_fn nan": (
        lambda: engine.chunk(TWO_SENTENCES, strategy="semantic", embed_fn=lambda s: [[nan]] * 2),
        ValueError,
        "embed_fn",
    ),
    "embed_fn None": (
        lambda: engine.chunk(TWO_SENTENCES, strategy="semantic", embed_fn=lambda s: None),
        TypeError,
        "embed_fn",
    ),
    "turns str": (lambda: chunk_turns("hello"), TypeError, "turns"),
    "turns entry str": (lambda: chunk_turns(["hello"]), TypeError, "turns"),
    "turns entry without text": (lambda: chunk_turns([{"seq": 1}]), ValueError, "turns"),
    "turns entry seq str": (lambda: chunk_turns([{"seq": "1", "text": "a"}]), TypeError, "turns"),
    "turns entry endMs nan": (
        lambda: chunk_turns([{"seq": 1, "text": "a", "endMs": nan}]),
        ValueError,
        "turns",
    ),
    "max_chars zero": (lambda: chunk_turns([], max_chars=0), ValueError, "max_chars"),
    "overlap_turns negative": (
        lambda: chunk_turns([], overlap_turns=-1),
        ValueError,
        "overlap_turns",
    ),
    "Turn seq str": (lambda: Turn(seq="1", text="a"), TypeError, "seq"),
    "Turn text int": (lambda: Turn(seq=1, text=2), TypeError, "text"),
    "Turn item_id int": (lambda: Turn(seq=1, text="a", item_id=3), TypeError, "item_id"),
    "Turn start_ms nan": (lambda: Turn(seq=1, text="a", start_ms=nan), ValueError, "start_ms"),
    "lexical text None": (lambda: lexical_tokens(None), TypeError, "text"),
    "words str": (lambda: snippet_around("text", "refund"), TypeError, "words"),
    "words entry int": (lambda: snippet_around("text", ["a", 3]), TypeError, "words"),
    "before negative": (lambda: snippet_around("t", ["a"], before=-1), ValueError, "before"),
    "after float": (lambda: snippet_around("t", ["a"], after=1.5), TypeError, "after"),
    "contents str": (lambda: locate_chunks("text", "te"), TypeError, "contents"),
    "contents entry None": (lambda: locate_chunks("text", [None]), TypeError, "contents"),
}


@pytest.mark.parametrize(("call", "kind", "field"), CASES.values(), ids=CASES.keys())
def test_error_carries_the_argument_it_concerns(call, kind, field):
    with pytest.raises(kind) as raised:
        call()
    assert raised.value.field == field
    assert field_of(raised.value) == field


def test_async_chunk_errors_carry_the_field_too():
    async def embed(sentences):
        return [[1.0]]

    with pytest.raises(ValueError) as raised:
        asyncio.run(engine.achunk(TWO_SENTENCES, strategy="semantic", embed_fn=embed))
    assert raised.value.field == "embed_fn"


@given(
    name=st.sampled_from(["target_size", "max_size", "min_size", "overlap"]),
    value=st.one_of(st.integers(max_value=-1), st.floats(allow_nan=True), st.text(max_size=3)),
)
def test_any_bad_option_of_semantic_chunker_names_itself(name, value):
    with pytest.raises((ValueError, TypeError)) as raised:
        SemanticChunker(**{name: value})
    assert raised.value.field == name
    assert name in str(raised.value)


@given(size=st.integers(1, 10_000), extra=st.integers(0, 10_000))
def test_any_overlap_not_below_the_size_concerns_the_overlap(size, extra):
    with pytest.raises(ValueError) as raised:
        engine.chunk("x", chunk_size=size, chunk_overlap=size + extra)
    assert raised.value.field == "chunk_overlap"
    message = str(raised.value)
    assert f"chunk_overlap {size + extra} must be less than chunk_size {size}" in message


@pytest.mark.parametrize(
    "error", [ArgumentValueError("max_size", "m"), ArgumentTypeError("words", "w")]
)
def test_errors_survive_pickle_and_copy(error):
    for again in (pickle.loads(pickle.dumps(error)), copy.copy(error)):
        assert type(again) is type(error)
        assert (again.field, str(again)) == (error.field, str(error))


def test_errors_that_name_no_argument_have_no_field():
    assert field_of(ValueError("plain")) is None
    assert field_of(Exception()) is None
