"""`chunk_many`: texts or (id, text) pairs cut in order, over processes or not, with options
checked before any work and the input read only as fast as results are taken."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspan import ChunkedText, ChunkingEngine, SemanticChunker, chunk_many
from chunkspan.many import BATCH_ITEMS, BATCHES_AHEAD

TEXTS = [f"# Doc {n}\n\n" + f"Sentence {n} 😀 of the text. " * (n % 40 + 1) for n in range(300)]


def test_texts_come_back_in_order_with_their_positions_as_ids():
    results = list(chunk_many(TEXTS, jobs=1, target_size=80, overlap=10))
    assert [r.id for r in results] == list(range(len(TEXTS)))
    assert all(isinstance(r, ChunkedText) for r in results)
    chunker = SemanticChunker(target_size=80, overlap=10)
    assert [list(r.chunks) for r in results] == [chunker.chunk(t) for t in TEXTS]


@pytest.mark.parametrize("strategy", ["fixed", "hierarchical", "layout"])
def test_pairs_keep_their_ids_and_two_processes_answer_as_one(strategy):
    pairs = [(f"id-{n}", text) for n, text in enumerate(TEXTS)]
    one = list(chunk_many(pairs, jobs=1, strategy=strategy, chunk_size=60, chunk_overlap=6))
    two = list(chunk_many(iter(pairs), jobs=2, strategy=strategy, chunk_size=60, chunk_overlap=6))
    assert one == two
    assert [r.id for r in two] == [key for key, _ in pairs]
    engine = ChunkingEngine()
    assert [list(r.chunks) for r in two] == [
        engine.chunk(t, strategy, chunk_size=60, chunk_overlap=6) for _, t in pairs
    ]


def test_semantic_over_two_processes_gives_equal_records():
    assert list(chunk_many(TEXTS, jobs=2)) == list(chunk_many(TEXTS, jobs=1))


def test_bad_options_fail_before_any_text_is_read():
    taken = []

    def items():
        taken.append(1)
        yield "never read"

    for options, error, message in [
        ({"target_size": 0}, ValueError, "invalid target_size 0"),
        ({"chunk_size": 9}, TypeError, "unknown option 'chunk_size' for strategy 'semantic'"),
        ({"strategy": "fixed", "chunk_size": 5, "chunk_overlap": 5}, ValueError, "chunk_overlap 5"),
        ({"strategy": "sentences"}, ValueError, "unknown strategy 'sentences'"),
        ({"jobs": 0}, ValueError, "invalid jobs 0"),
        ({"jobs": 1.5}, TypeError, "jobs must be an integer"),
    ]:
        with pytest.raises(error, match=message):
            chunk_many(items(), **options)
    assert taken == []


def test_a_wrong_item_is_named_by_its_position():
    with pytest.raises(TypeError, match=r"items\[2\] must be a text or an \(id, text\) pair"):
        list(chunk_many(["a", ("b", "text"), ("c", 3)], jobs=1))
    with pytest.raises(TypeError, match=r"items\[0\]"):
        list(chunk_many([b"bytes"], jobs=2))


def test_the_input_is_read_only_as_fast_as_results_are_taken():
    pulled = 0

    def endless():
        nonlocal pulled
        for number in itertools.count():
            pulled += 1
            yield f"Text {number}."

    results = chunk_many(endless(), jobs=2)
    first = next(results)
    assert first.id == 0
    # What is in flight: a few batches per process, and the batch being gathered.
    assert pulled <= (2 * BATCHES_AHEAD + 2) * BATCH_ITEMS
    results.close()


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(alphabet="ab .\n#😀\r", max_size=300), max_size=40))
def test_any_texts_give_what_the_chunker_gives(texts):
    chunker = SemanticChunker(target_size=20, max_size=40, min_size=3, overlap=4)
    results = list(chunk_many(texts, jobs=1, target_size=20, max_size=40, min_size=3, overlap=4))
    assert [list(r.chunks) for r in results] == [chunker.chunk(t) for t in texts]
