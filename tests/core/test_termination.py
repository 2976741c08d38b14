"""Inputs on which the original ChunkingEngine never ends: ours ends, and loses nothing."""

from __future__ import annotations

import pytest
from support.fixture_cases import ENGINE_OPTIONS, lookup_embed_fn, params, snake
from support.invariants import is_subsequence, visible

from chunker import ChunkingEngine


@pytest.mark.parametrize("case", params("engine_hangs.json"))
def test_ends_where_the_original_loops_forever(case):
    options = snake(case["options"], ENGINE_OPTIONS)
    if case["embeddings"]:
        options["embed_fn"] = lookup_embed_fn(case["embeddings"])
    chunks = ChunkingEngine().chunk(case["content"], **options)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    produced = "".join((c.heading or "") + c.content for c in chunks)
    assert is_subsequence(visible(case["content"], "#"), visible(produced, "#"))


def test_url_longer_than_the_window_is_cut_hard_after_the_overlap():
    # The original cuts "word ... word" at index 149, steps back 64 characters, finds no white
    # space past 149 within 512 and walks back to 149 again, forever. Ours cuts hard at 85 + 512.
    content = "word " * 30 + "u" * 600 + " end"
    chunks = ChunkingEngine().chunk(content)  # defaults: fixed, 512, 64
    assert [c.content for c in chunks] == [
        "word " * 29 + "word",
        "word " * 13 + "u" * 447,
        "u" * 217 + " end",
    ]
