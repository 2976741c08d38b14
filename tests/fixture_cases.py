"""Loading the JSON fixture families shared by the Python and the browser tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"

# The original's option names, and ours.
SEMANTIC_OPTIONS = {
    "targetSize": "target_size",
    "maxSize": "max_size",
    "minSize": "min_size",
    "overlap": "overlap",
    "preserveCodeBlocks": "preserve_code_blocks",
    "respectHeadings": "respect_headings",
}
ENGINE_OPTIONS = {
    "strategy": "strategy",
    "chunkSize": "chunk_size",
    "chunkOverlap": "chunk_overlap",
}
TURN_OPTIONS = {"maxChars": "max_chars", "overlapTurns": "overlap_turns"}
SNIPPET_OPTIONS = {"before": "before", "after": "after"}


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
    table = {sentence: vector for sentence, vector in embeddings}

    def embed(sentences: list[str]) -> list[list[float]]:
        return [table[sentence] for sentence in sentences]

    return embed
