"""The bridge's packed chunks, unpacked as web/chunker.js unpacks them, are the chunks exactly.

A fast check in CPython, for any text, of what the browser tests check on their fixtures:
`unpack_chunks` below mirrors chunker.js's `unpackChunks` over UTF-16 code units (what a
JavaScript string is), so slices, lone surrogates and astral characters count as there.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import utf16_offset
from hypothesis import assume, given, settings
from strategies import semantic_options, texts

from chunker import SemanticChunker
from chunker.bridge import OPTION_NAMES, handle

JS_NAMES = {python: js for js, python in OPTION_NAMES["SemanticChunker.chunk"].items()}


def code_units(text: str) -> bytes:
    """`text` as JavaScript holds it: UTF-16LE code units, lone surrogates included."""
    return text.encode("utf-16-le", "surrogatepass")


def unpack_chunks(text: bytes, packed: dict[str, Any]) -> list[dict[str, Any]]:
    """chunker.js's `unpackChunks`, with `text` and the chunk texts as UTF-16 code units."""
    spans, literals = packed["spans"], iter(packed["texts"])
    chunks = []
    for index, boundary_type in enumerate(packed["boundaries"]):
        start, end, lead_from, lead_to = spans[4 * index : 4 * index + 4]
        if lead_from < 0:
            chunk_text = code_units(next(literals))
        else:
            chunk_text = text[2 * lead_from : 2 * lead_to] + text[2 * start : 2 * end]
        chunks.append(
            {
                "text": chunk_text,
                "index": index,
                "startOffset": start,
                "endOffset": end,
                "boundaryType": boundary_type,
            }
        )
    return chunks


# Texts that take each way a chunk crosses: its overlap where it starts, its overlap where
# the chunk before ended, whole; with astral characters and a lone surrogate on the way.
EXAMPLES = [
    ("# A\n\nOne two.\n\n# B\n\nThree.\n", {"target_size": 8, "min_size": 0, "overlap": 3}),
    ("# A\n\nOne two.\n\n# B\n\nThree.", {"target_size": 8, "min_size": 0, "overlap": 3}),
    ("😀 one. 𝒜 two.\r\n\r\n# 🎉\n\nthree \ud83d four." * 5,
     {"target_size": 20, "overlap": 5}),
]


@settings(max_examples=300, deadline=None)
@given(texts, semantic_options)
def test_packed_chunks_unpack_to_the_chunks(text, options):
    try:
        SemanticChunker(**options)
    except ValueError:
        assume(False)  # options that contradict each other
    assert_unpacks_to_the_chunks(text, options)


@pytest.mark.parametrize("text, options", EXAMPLES)
def test_packed_chunks_unpack_to_the_chunks_in_each_way(text, options):
    assert_unpacks_to_the_chunks(text, options)


def assert_unpacks_to_the_chunks(text: str, options: dict[str, Any]) -> None:
    chunks = SemanticChunker(**options).chunk(text)
    request = json.dumps({"config": {JS_NAMES[name]: value for name, value in options.items()}})
    reply = json.loads(handle("SemanticChunker.chunk", request, "text", code_units(text)))
    expected = [
        {
            **chunk.to_dict(),
            "text": code_units(chunk.text),
            "startOffset": utf16_offset(text, chunk.start_offset),
            "endOffset": utf16_offset(text, chunk.end_offset),
        }
        for chunk in chunks
    ]
    assert unpack_chunks(code_units(text), reply["result"]) == expected


def test_most_chunks_of_markdown_cross_as_slices():
    """The point of packing: on Markdown with overlap, few chunk texts cross whole."""
    text = "# Guide\n\n" + "".join(
        f"## Part {n}\n\nSome words about part {n}, then more. " * 3 + "\n\n" for n in range(40)
    )
    request = json.dumps({"config": {"targetSize": 120, "overlap": 20}})
    packed = json.loads(handle("SemanticChunker.chunk", request, "text", code_units(text)))
    result = packed["result"]
    assert len(result["boundaries"]) > 20
    assert len(result["texts"]) <= len(result["boundaries"]) // 10
