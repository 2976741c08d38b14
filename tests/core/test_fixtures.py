"""Every fixture case: the original's outputs (SemanticChunker, ChunkingEngine) and the rules'
(lexical_tokens, snippet_around, chunk_turns), one parametrized test per family."""

from __future__ import annotations

import asyncio
import json

import pytest
from support.fixture_cases import (
    SEMANTIC_OPTIONS,
    SNIPPET_OPTIONS,
    TURN_OPTIONS,
    embedded_after_the_mark,
    engine_answer,
    engine_arguments,
    one_later,
    params,
    semantic_chunker_answer,
    snake,
    without_the_mark,
)

from chunker import ChunkingEngine, SemanticChunker, chunk_turns, lexical_tokens, snippet_around


@pytest.mark.parametrize("case", params("semantic_chunker.json", leading_bom=False))
def test_semantic_chunker_matches_original(case):
    assert semantic_chunker_answer(case) == case["expected"]


@pytest.mark.parametrize("case", params("chunking_engine.json", leading_bom=False))
def test_chunking_engine_matches_original(case):
    assert engine_answer(case) == case["expected"]


# The cases whose text starts with a byte-order mark: the original reads it as text, we cut
# the text after it (docs/differences.md). Ours, against our answer for that text here; the
# original's answer for it, in tests/oracle/test_original_chunkers.py.
def one_later_spans(chunks):
    return [(start + 1, end + 1) for start, end in (chunk.span for chunk in chunks)]


@pytest.mark.parametrize("case", params("semantic_chunker.json", leading_bom=True))
def test_after_a_leading_bom_semantic_chunker_cuts_the_text_after_it(case):
    chunker = SemanticChunker(**snake(case["config"], SEMANTIC_OPTIONS))
    ours = chunker.chunk(case["text"], case["metadata"])
    rest = chunker.chunk(case["text"][1:], case["metadata"])
    assert [c.to_dict() for c in ours] == one_later([c.to_dict() for c in rest])
    assert [c.span for c in ours] == one_later_spans(rest)
    assert [c.overlap_span for c in ours] == [
        None if c.overlap_span is None else (c.overlap_span[0] + 1, c.overlap_span[1] + 1)
        for c in rest
    ]


@pytest.mark.parametrize("case", params("chunking_engine.json", leading_bom=True))
def test_after_a_leading_bom_the_engine_cuts_the_text_after_it(case):
    content, options = engine_arguments(embedded_after_the_mark(case))
    rest, _ = engine_arguments(without_the_mark(case))
    ours = ChunkingEngine().chunk(content, **options)
    assert [c.to_dict() for c in ours] == engine_answer(without_the_mark(case))
    assert [c.span for c in ours] == one_later_spans(ChunkingEngine().chunk(rest, **options))


@pytest.mark.parametrize("case", params("chunking_engine.json", leading_bom=False)[::7])
def test_achunk_awaits_an_async_embed_fn(case):
    content, options = engine_arguments(case)
    if "embed_fn" in options:
        sync_fn = options["embed_fn"]

        async def embed(sentences):
            await asyncio.sleep(0)
            return sync_fn(sentences)

        options["embed_fn"] = embed
    chunks = asyncio.run(ChunkingEngine().achunk(content, **options))
    assert [c.to_dict() for c in chunks] == case["expected"]


@pytest.mark.parametrize("case", params("lexical_tokens.json"))
def test_lexical_tokens_rules(case):
    assert lexical_tokens(case["text"]) == case["expected"]


@pytest.mark.parametrize("case", params("snippet_around.json"))
def test_snippet_around_rules(case):
    snippet = snippet_around(case["text"], case["words"], **snake(case["options"], SNIPPET_OPTIONS))
    assert snippet.to_dict() == case["expected"]


@pytest.mark.parametrize("case", params("chunk_turns.json"))
def test_chunk_turns_rules(case):
    passages = chunk_turns(case["turns"], **snake(case["options"], TURN_OPTIONS))
    assert [p.to_dict() for p in passages] == case["expected"]
    assert [p.repeated_turns for p in passages] == case["repeatedTurns"]
    # The JSON shape survives a round trip.
    assert json.loads(json.dumps(case["expected"])) == [p.to_dict() for p in passages]
