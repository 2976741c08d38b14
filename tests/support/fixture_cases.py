"""Loading the JSON fixture families shared by the Python and the browser tests."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chunker import ChunkingEngine, SemanticChunker
from chunker.bridge import OPTION_NAMES

from .paths import FIXTURES

# The original's option names and ours: the bridge's one table, so a wrong name in it fails
# the fixtures of the original here too.
SEMANTIC_OPTIONS = OPTION_NAMES["SemanticChunker.chunk"]
ENGINE_OPTIONS = OPTION_NAMES["ChunkingEngine.chunk"]
TURN_OPTIONS = OPTION_NAMES["chunkTurns"]
SNIPPET_OPTIONS = OPTION_NAMES["snippetAround"]


def load(name: str) -> list[dict[str, Any]]:
    """The cases of fixture file `name`."""
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))["cases"]


def params(name: str) -> list[Any]:
    """The cases of `name` as pytest params with their ids."""
    return [pytest.param(case, id=case["id"]) for case in load(name)]


def snake(options: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """Options under the original's names turned into keyword arguments."""
    return {names[key]: value for key, value in options.items()}


def lookup_embed_fn(embeddings: list[list[Any]]):
    """An embed_fn answering the recorded vector of each sentence; unknown sentences fail."""
    table = dict(embeddings)

    def embed(sentences: list[str]) -> list[list[float]]:
        return [table[sentence] for sentence in sentences]

    return embed


def semantic_chunker_answer(case: dict[str, Any]) -> list[dict[str, Any]]:
    """What `SemanticChunker` answers to a case of semantic_chunker.json, as JSON."""
    chunker = SemanticChunker(**snake(case["config"], SEMANTIC_OPTIONS))
    return [chunk.to_dict() for chunk in chunker.chunk(case["text"], case["metadata"])]


def engine_arguments(case: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The content and keyword arguments of a case of chunking_engine.json."""
    options = snake(case["options"], ENGINE_OPTIONS)
    if case["embeddings"] is not None:
        options["embed_fn"] = lookup_embed_fn(case["embeddings"])
    return case["content"], options


def engine_answer(case: dict[str, Any]) -> list[dict[str, Any]]:
    """What `ChunkingEngine().chunk` answers to a case of chunking_engine.json, as JSON."""
    content, options = engine_arguments(case)
    return [chunk.to_dict() for chunk in ChunkingEngine().chunk(content, **options)]
