"""Every fixture case: the original's outputs (SemanticChunker, ChunkingEngine) and the rules'
(lexical_tokens, snippet_around, chunk_turns), one parametrized test per family."""

from __future__ import annotations

import asyncio
import json

import pytest
from support.fixture_cases import (
    SNIPPET_OPTIONS,
    TURN_OPTIONS,
    engine_answer,
    engine_arguments,
    params,
    semantic_chunker_answer,
    snake,
)

from chunker import ChunkingEngine, chunk_turns, lexical_tokens, snippet_around


@pytest.mark.parametrize("case", params("semantic_chunker.json"))
def test_semantic_chunker_matches_original(case):
    assert semantic_chunker_answer(case) == case["expected"]


@pytest.mark.parametrize("case", params("chunking_engine.json"))
def test_chunking_engine_matches_original(case):
    assert engine_answer(case) == case["expected"]


@pytest.mark.parametrize("case", params("chunking_engine.json")[::7])
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
