"""`ChunkingEngine.chunk` through the bridge: `handle` and `handle_async` run the one
operation, so they answer alike, an embedding function aside."""

from __future__ import annotations

import asyncio
import json

import pytest
from support.reply import read_reply

from chunker import ChunkingEngine
from chunker.bridge import handle, handle_async
from chunker.bridge.packing import pack_document_chunks

TEXT = "# Title\n\nOne sentence here. Another one 😀 there.\n\n| a | b |\n|---|---|\n\nLast."


def vectors(sentences: list[str]) -> list[list[float]]:
    """A stand-in embedding: one vector a sentence, from its length and first letter."""
    return [[float(len(s)), float(ord(s[0]) % 7) + 1.0] for s in sentences]


async def embed(sentences_json: str) -> bytes:
    """As the worker's: the sentences as JSON in, a promise of the vectors as UTF-8 JSON."""
    return json.dumps(vectors(json.loads(sentences_json))).encode()


def request(**options: object) -> str:
    return json.dumps({"content": TEXT, "options": {"spans": True, **options}})


@pytest.mark.parametrize("strategy", ["fixed", "hierarchical", "layout"])
def test_with_no_embedding_needed_both_paths_answer_the_same_bytes(strategy):
    options = {"strategy": strategy, "chunkSize": 20, "chunkOverlap": 4}
    sync = handle("ChunkingEngine.chunk", request(**options))
    assert read_reply(sync)[2]["result"]["count"] > 1
    assert asyncio.run(handle_async("ChunkingEngine.chunk", request(**options), embed)) == sync


def test_the_async_path_chunks_with_the_embedding_it_is_given():
    reply = asyncio.run(handle_async("ChunkingEngine.chunk", request(strategy="semantic"), embed))
    ints, ascii, answer = read_reply(reply)
    chunks = ChunkingEngine().chunk(TEXT, strategy="semantic", embed_fn=vectors)
    expected = pack_document_chunks(TEXT, chunks)
    assert (ints, ascii, answer) == (
        list(expected.ints),
        expected.ascii,
        {"result": expected.result},
    )


def test_errors_come_back_alike_on_both_paths():
    bad = request(strategy="words")
    sync = read_reply(handle("ChunkingEngine.chunk", bad))[2]
    assert read_reply(asyncio.run(handle_async("ChunkingEngine.chunk", bad, embed)))[2] == sync
    assert sync["error"]["field"] == "strategy"
