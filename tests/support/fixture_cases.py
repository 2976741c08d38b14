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


def params(name: str, *, leading_bom: bool | None = None) -> list[Any]:
    """The cases of `name` as pytest params with their ids; with `leading_bom`, only those
    whose text starts with a byte-order mark (True) or does not (False)."""
    return [
        pytest.param(case, id=case["id"])
        for case in load(name)
        if leading_bom is None or has_leading_bom(case) == leading_bom
    ]


BOM = "\ufeff"

# A leading byte-order mark is no part of the text to us, text to the original: on a case
# whose text starts with one, we answer what the original answers for the text after it, our
# offsets one later (docs/differences.md; tests/oracle/test_original_chunkers.py runs the original
# so). The cases below say what that means for a case.


def text_of(case: dict[str, Any]) -> str:
    """The text a case of semantic_chunker.json (`text`) or chunking_engine.json (`content`)
    cuts."""
    return case["text"] if "text" in case else case["content"]


def has_leading_bom(case: dict[str, Any]) -> bool:
    return text_of(case).startswith(BOM)


def embedded_after_the_mark(case: dict[str, Any]) -> dict[str, Any]:
    """The case with the sentences the original embedded as we embed them: the first without
    the text's leading mark (which the original reads as part of it)."""
    if not case.get("embeddings") or not has_leading_bom(case):
        return case
    sentences = [[sentence.removeprefix(BOM), vector] for sentence, vector in case["embeddings"]]
    return {**case, "embeddings": sentences}


def without_the_mark(case: dict[str, Any]) -> dict[str, Any]:
    """The case with its text's leading byte-order mark taken off (and its sentences')."""
    key = "text" if "text" in case else "content"
    return {**embedded_after_the_mark(case), key: text_of(case).removeprefix(BOM)}


def one_later(answer: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An answer's chunks (the original's JSON shape) with their offsets one later, as after a
    leading mark; `ChunkingEngine`'s hold none."""
    return [
        {**chunk, "startOffset": chunk["startOffset"] + 1, "endOffset": chunk["endOffset"] + 1}
        if "startOffset" in chunk
        else chunk
        for chunk in answer
    ]


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
