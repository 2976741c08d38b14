"""Bad input gets a TypeError or ValueError naming the argument and the value, at once."""

from __future__ import annotations

import array
import asyncio
import copy
import json
import pickle
from math import inf, nan
from types import MappingProxyType

import pytest

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

engine = ChunkingEngine()

CASES = {
    # what is checked: (call, exception, words the message must hold)
    "semantic-target_size-zero": (
        lambda: SemanticChunker(target_size=0),
        ValueError,
        ["target_size", "0"],
    ),
    "semantic-max_size-negative": (
        lambda: SemanticChunker(max_size=-5),
        ValueError,
        ["max_size", "-5"],
    ),
    "semantic-min_size-negative": (
        lambda: SemanticChunker(min_size=-1),
        ValueError,
        ["min_size", "-1"],
    ),
    "semantic-overlap-negative": (
        lambda: SemanticChunker(overlap=-1),
        ValueError,
        ["overlap", "-1"],
    ),
    "semantic-target_size-float": (
        lambda: SemanticChunker(target_size=10.5),
        TypeError,
        ["target_size", "10.5"],
    ),
    "semantic-target_size-bool": (
        lambda: SemanticChunker(target_size=True),
        TypeError,
        ["target_size", "True"],
    ),
    "semantic-target_size-str": (
        lambda: SemanticChunker(target_size="100"),
        TypeError,
        ["target_size", "'100'"],
    ),
    "semantic-respect_headings-str": (
        lambda: SemanticChunker(respect_headings="yes"),
        TypeError,
        ["respect_headings", "'yes'"],
    ),
    "semantic-text-none": (lambda: SemanticChunker().chunk(None), TypeError, ["text", "None"]),
    "semantic-text-bytes": (
        lambda: SemanticChunker().chunk(b"bytes"),
        TypeError,
        ["text", "bytes"],
    ),
    "semantic-metadata-list": (
        lambda: SemanticChunker().chunk("x", metadata=[1]),
        TypeError,
        ["metadata", "list", "[1]"],
    ),
    "chunk-target_size-zero": (lambda: chunk("x", target_size=0), ValueError, ["target_size"]),
    "chunk-unknown-option": (lambda: chunk("x", unknown=1), TypeError, ["unknown"]),
    "engine-content-int": (lambda: engine.chunk(42), TypeError, ["content", "42"]),
    "engine-strategy-unknown": (
        lambda: engine.chunk("x", strategy="recursive"),
        ValueError,
        ["'recursive'", "'fixed'", "'semantic'", "'hierarchical'", "'layout'"],
    ),
    "engine-chunk_size-zero": (
        lambda: engine.chunk("x", chunk_size=0),
        ValueError,
        ["chunk_size", "0"],
    ),
    "engine-chunk_size-negative": (
        lambda: engine.chunk("x", chunk_size=-3),
        ValueError,
        ["chunk_size", "-3"],
    ),
    "engine-chunk_overlap-negative": (
        lambda: engine.chunk("x", chunk_overlap=-1),
        ValueError,
        ["chunk_overlap", "-1"],
    ),
    "engine-chunk_overlap-not-below-chunk_size": (
        lambda: engine.chunk("x", chunk_size=10, chunk_overlap=10),
        ValueError,
        ["chunk_overlap", "10", "chunk_size"],
    ),
    "engine-strategy-list": (
        lambda: engine.chunk("x", strategy=["fixed"]),
        TypeError,
        ["strategy", "['fixed']"],
    ),
    "engine-embed_fn-not-callable": (
        lambda: engine.chunk("x", embed_fn="not callable"),
        TypeError,
        ["embed_fn", "'not callable'"],
    ),
    "embed_fn-too-few-vectors": (
        lambda: engine.chunk("A b. C d.", strategy="semantic", embed_fn=lambda s: [[1.0]]),
        ValueError,
        ["embed_fn", "1 vectors", "2 sentences"],
    ),
    "embed_fn-vectors-of-unequal-length": (
        lambda: engine.chunk(
            "A b. C d.", strategy="semantic", embed_fn=lambda s: [[1.0], [1.0, 2.0]]
        ),
        ValueError,
        ["unequal length", "vector 1"],
    ),
    "embed_fn-vector-of-str": (
        lambda: engine.chunk("A b. C d.", strategy="semantic", embed_fn=lambda s: [[1.0], ["x"]]),
        TypeError,
        ["vector 1", "'x'"],
    ),
    "embed_fn-vector-nan": (
        lambda: engine.chunk("A b. C d.", strategy="semantic", embed_fn=lambda s: [[1.0], [nan]]),
        ValueError,
        ["vector 1", "nan", "finite"],
    ),
    "embed_fn-vector-inf": (
        lambda: engine.chunk("A b. C d.", strategy="semantic", embed_fn=lambda s: [[inf]] * 2),
        ValueError,
        ["vector 0", "inf", "finite"],
    ),
    "embed_fn-vector-empty": (
        lambda: engine.chunk("A b. C d.", strategy="semantic", embed_fn=lambda s: [[]] * 2),
        ValueError,
        ["vector 0", "empty"],
    ),
    "embed_fn-vector-too-large": (
        lambda: engine.chunk("A b. C d.", strategy="semantic", embed_fn=lambda s: [[10**400]] * 2),
        ValueError,
        ["vector 0", "too large"],
    ),
    "embed_fn-answers-none": (
        lambda: engine.chunk("A b. C d.", strategy="semantic", embed_fn=lambda s: None),
        TypeError,
        ["embed_fn", "None"],
    ),
    "turns-text-missing": (lambda: chunk_turns([{"seq": 1}]), ValueError, ["turns[0]", "'text'"]),
    "turns-seq-missing": (lambda: chunk_turns([{"text": "hi"}]), ValueError, ["turns[0]", "'seq'"]),
    "turns-seq-str": (
        lambda: chunk_turns([{"seq": 1, "text": "a"}, {"seq": "2", "text": "b"}]),
        TypeError,
        ["turns[1].seq", "'2'"],
    ),
    "turns-text-int": (
        lambda: chunk_turns([{"seq": 1, "text": 5}]),
        TypeError,
        ["turns[0].text", "5"],
    ),
    "turns-startMs-str": (
        lambda: chunk_turns([{"seq": 1, "text": "a", "startMs": "soon"}]),
        TypeError,
        ["turns[0].startMs", "'soon'"],
    ),
    "turns-endMs-nan": (
        lambda: chunk_turns([{"seq": 1, "text": "a", "endMs": float("nan")}]),
        ValueError,
        ["turns[0].endMs", "finite", "nan"],
    ),
    "Turn-start_ms-inf": (
        lambda: Turn(seq=1, text="a", start_ms=float("inf")),
        ValueError,
        ["Turn.start_ms", "inf"],
    ),
    "turns-item-str": (lambda: chunk_turns(["hello"]), TypeError, ["turns[0]", "str", "'hello'"]),
    "turns-str": (lambda: chunk_turns("hello"), TypeError, ["turns", "str"]),
    "Turn-seq-str": (lambda: Turn(seq="1", text="a"), TypeError, ["Turn.seq", "'1'"]),
    "Turn-end_ms-str": (
        lambda: Turn(seq=1, text="a", end_ms="late"),
        TypeError,
        ["Turn.end_ms", "'late'"],
    ),
    "turns-max_chars-zero": (lambda: chunk_turns([], max_chars=0), ValueError, ["max_chars", "0"]),
    "turns-overlap_turns-negative": (
        lambda: chunk_turns([], overlap_turns=-1),
        ValueError,
        ["overlap_turns", "-1"],
    ),
    "lexical_tokens-text-none": (lambda: lexical_tokens(None), TypeError, ["text", "None"]),
    "snippet-words-str": (lambda: snippet_around("text", "refund"), TypeError, ["words", "str"]),
    "snippet-words-bytes": (
        lambda: snippet_around("text", b"re"),
        TypeError,
        ["words", "bytes", "b're'"],
    ),
    "locate_chunks-contents-str": (
        lambda: locate_chunks("text", "te"),
        TypeError,
        ["contents", "str", "'te'"],
    ),
    "snippet-words-item-int": (lambda: snippet_around("text", [3]), TypeError, ["words[0]", "3"]),
    "snippet-before-negative": (
        lambda: snippet_around("text", ["a"], before=-1),
        ValueError,
        ["before", "-1"],
    ),
    "snippet-after-float": (
        lambda: snippet_around("text", ["a"], after=1.5),
        TypeError,
        ["after", "1.5"],
    ),
}


@pytest.mark.parametrize(("call", "error", "words"), CASES.values(), ids=list(CASES))
def test_bad_input_names_argument_and_value(call, error, words):
    with pytest.raises(error) as raised:
        call()
    for word in words:
        assert word in str(raised.value)


def test_async_embed_fn_in_sync_chunk_is_refused_without_a_warning(recwarn):
    async def embed(sentences):
        return [[1.0]] * len(sentences)

    with pytest.raises(TypeError, match="achunk"):
        engine.chunk("A b. C d.", strategy="semantic", embed_fn=embed)
    assert not [w for w in recwarn if "never awaited" in str(w.message)]


def test_achunk_checks_vectors_too():
    async def embed(sentences):
        return [[1.0]]

    with pytest.raises(ValueError, match="1 vectors for 2 sentences"):
        asyncio.run(engine.achunk("A b. C d.", strategy="semantic", embed_fn=embed))


def test_a_good_call_after_a_bad_one_works():
    with pytest.raises(ValueError):
        engine.chunk("x", chunk_size=0)
    assert [c.content for c in engine.chunk("one two", chunk_size=4, chunk_overlap=0)] == [
        "one",
        "two",
    ]


def test_options_cannot_change_after_construction():
    # Checked once, at construction: target_size 0 set later would loop forever.
    chunker = SemanticChunker(target_size=50)
    with pytest.raises(AttributeError, match="target_size=0"):
        chunker.target_size = 0
    assert chunker.target_size == 50
    with pytest.raises(AttributeError, match="target_size"):
        del chunker.target_size
    again = pickle.loads(pickle.dumps(chunker))
    assert repr(again) == repr(chunker)
    assert again.chunk("word " * 40) == chunker.chunk("word " * 40)


class Tagged(SemanticChunker):
    """A subclass with a constructor of its own and an attribute of its own."""

    __slots__ = ("tag",)

    def __init__(self, tag: str, **options: int) -> None:
        super().__init__(**options)
        self.tag = tag


def test_a_subclass_keeps_its_options_through_a_copy():
    tagged = Tagged("docs", target_size=7, overlap=3)
    twin = copy.copy(tagged)
    assert type(twin) is Tagged and (twin.target_size, twin.overlap) == (7, 3)
    assert repr(twin).startswith("Tagged(target_size=7")


class Vector:
    """An array type that is not a Sequence but has `tolist()`, as NumPy's arrays."""

    def __init__(self, *numbers: float) -> None:
        self.numbers = numbers

    def tolist(self) -> list[float]:
        return list(self.numbers)


@pytest.mark.parametrize(
    "vectors",
    [
        [[1.0, 0.0], [0.0, 1.0]],
        [array.array("d", [1.0, 0.0]), array.array("d", [0.0, 1.0])],
        [Vector(1.0, 0.0), Vector(0.0, 1.0)],
        Vector([1, 0], [0, 1]),
    ],
    ids=["lists", "arrays", "tolist-vectors", "tolist-matrix"],
)
def test_embed_fn_may_answer_arrays(vectors):
    chunks = engine.chunk("A b. C d.", strategy="semantic", embed_fn=lambda s: vectors)
    assert [c.content for c in chunks] == ["A b.", "C d."]


def test_any_mapping_as_metadata_gives_json():
    chunks = SemanticChunker().chunk("Hello.", MappingProxyType({"source": "a.md"}))
    assert json.loads(json.dumps(chunks[0].to_dict()))["metadata"] == {"source": "a.md"}
