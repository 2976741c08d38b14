"""The bridge's packed chunks, unpacked as web/chunker.js unpacks them, are the chunks exactly.

A fast check in CPython, for any text, of what the browser tests check on their fixtures:
`unpack_chunks` below mirrors chunker.js's `unpackChunks` over UTF-16 code units (what a
JavaScript string is), so slices, lone surrogates and astral characters count as there.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from support.offsets import as_javascript, utf16_offset, utf16le
from support.paths import ROOT
from support.reply import read_reply
from support.strategies import semantic_options, texts

from chunker import ChunkingEngine, SemanticChunker
from chunker.bridge import OPTION_NAMES, JsString, astral_positions, handle
from chunker.bridge.packing import DOCUMENT_SECTIONS, SECTIONS

JS_NAMES = {python: js for js, python in OPTION_NAMES["SemanticChunker.chunk"].items()}


def high_surrogates(units: bytes) -> bytes:
    """chunker.js's `highs`: which of `units` are high surrogates, as 32-bit ints."""
    highs = [at // 2 for at in range(1, len(units), 2) if 0xD8 <= units[at] <= 0xDB]
    return b"".join(unit.to_bytes(4, "little") for unit in highs)


def js_string(text: str) -> JsString:
    """`text` as the worker hands it to the bridge."""
    units = utf16le(text)
    return JsString.from_utf16(units, high_surrogates(units))


# JavaScript strings: any code units, lone surrogates included.
js_texts = st.text(st.characters(exclude_categories=()), max_size=200)


def read_sections(
    ints: list[int], packed: dict[str, Any], table: tuple[tuple[str, int], ...] = SECTIONS
) -> dict[str, list[tuple[int, ...]]]:
    """The packed ints by section, as entries of `table`'s widths, checking that the reply
    lists the sections of the table, in its order, and that they fill the ints exactly."""
    assert [name for name, _ in packed["sections"]] == [name for name, _ in table]
    assert sum(length for _, length in packed["sections"]) == len(ints)
    named, at = {}, 0
    for (name, length), (_, width) in zip(packed["sections"], table):
        assert length % width == 0, name
        section = ints[at : at + length]
        named[name] = [tuple(section[i : i + width]) for i in range(0, length, width)]
        at += length
    return named


def span_dict(start: int, end: int) -> dict[str, int] | None:
    return None if start < 0 else {"start": start, "end": end}


def to_utf16(entries: list[tuple[int, ...]], astral: list[tuple[int]]) -> list[tuple[int, ...]]:
    """chunker.js's `toUtf16` over a section's entries: code points to JavaScript indices, by
    the characters outside the BMP (`astral`) before each; a negative one stays."""
    positions = [at for (at,) in astral]
    assert positions == sorted(set(positions))
    return [
        tuple(o if o < 0 else o + bisect_left(positions, o) for o in entry) for entry in entries
    ]


def unpack_chunks(
    text: bytes, packed: dict[str, Any], ints: list[int], ascii: str
) -> list[dict[str, Any]]:
    """chunker.js's `unpackChunks` with spans, `text` and the chunk texts as UTF-16 units."""
    sections = read_sections(ints, packed)
    count = packed["count"]
    per_chunk = [name for name, _ in SECTIONS if name not in ("asciiLength", "astral")]
    counted = bool(sections["tokenCounts"])
    assert all(
        len(sections[name]) == count for name in per_chunk if counted or name != "tokenCounts"
    )
    for name in ("offsets", "spans", "overlapSpans", "places"):
        sections[name] = to_utf16(sections[name], sections["astral"])
    literals = iter(packed["texts"])
    lengths = iter(sections["asciiLength"])
    ascii_at = 0
    chunks = []
    for index in range(count):
        start, end = sections["offsets"][index]
        own_start, own_end = sections["spans"][index]
        lead_start, lead_end = sections["overlapSpans"][index]
        (type_index,) = sections["boundaryIndex"][index]
        lead_from, lead_to, own_from, own_to = sections["places"][index]
        if lead_from >= 0:
            chunk_text = text[2 * lead_from : 2 * lead_to] + text[2 * own_from : 2 * own_to]
        else:
            assert (lead_to, own_from, own_to) == (-1, -1, -1)
            (length,) = next(lengths)
            if length >= 0:
                chunk_text = utf16le(ascii[ascii_at : ascii_at + length])
                ascii_at += length
            else:
                chunk_text = utf16le(next(literals))
        chunk = {
            "text": chunk_text,
            "index": index,
            "startOffset": start,
            "endOffset": end,
            "boundaryType": packed["boundaryTypes"][type_index],
        }
        if counted:
            (chunk["tokenCount"],) = sections["tokenCounts"][index]
        chunk["span"] = span_dict(own_start, own_end)
        chunk["overlapSpan"] = span_dict(lead_start, lead_end)
        chunks.append(chunk)
    assert next(lengths, None) is None and next(literals, None) is None
    assert ascii_at == len(ascii)
    return chunks


def unpack_document_chunks(
    text: bytes, packed: dict[str, Any], ints: list[int], ascii: str
) -> list[dict[str, Any]]:
    """chunker.js's `unpackDocumentChunks` with spans, over UTF-16 code units."""
    sections = read_sections(ints, packed, DOCUMENT_SECTIONS)
    sections["spans"] = to_utf16(sections["spans"], sections["astral"])
    literals = iter(packed["texts"])
    extras = {index: (heading, metadata) for index, heading, metadata in packed["extras"]}
    ascii_at = 0
    chunks = []
    for index in range(packed["count"]):
        (start, end), (where,) = sections["spans"][index], sections["content"][index]
        if where >= 0:
            content = utf16le(ascii[ascii_at : ascii_at + where])
            ascii_at += where
        elif where == -1:
            content = text[2 * start : 2 * end]
        else:
            assert where == -2
            content = utf16le(next(literals))
        chunk: dict[str, Any] = {"content": content, "index": index}
        heading, metadata = extras.pop(index, (None, None))
        if heading is not None:
            chunk["heading"] = heading
        if metadata is not None:
            chunk["metadata"] = metadata
        if sections["tokenCounts"]:
            (chunk["tokenCount"],) = sections["tokenCounts"][index]
        chunk["span"] = {"start": start, "end": end}
        chunks.append(chunk)
    assert next(literals, None) is None and ascii_at == len(ascii) and not extras
    return chunks


def js_span(text: str, span: tuple[int, int] | None) -> dict[str, int] | None:
    if span is None:
        return None
    return {"start": utf16_offset(text, span[0]), "end": utf16_offset(text, span[1])}


# Texts that take each way a chunk crosses: its overlap where it starts, its overlap where
# the chunk before ended, whole; with astral characters and a lone surrogate on the way.
EXAMPLES = [
    ("# A\n\nOne two.\n\n# B\n\nThree.\n", {"target_size": 8, "min_size": 0, "overlap": 3}),
    ("# A\n\nOne two.\n\n# B\n\nThree.", {"target_size": 8, "min_size": 0, "overlap": 3}),
    ("😀 one. 𝒜 two.\r\n\r\n# 🎉\n\nthree \ud83d four." * 5, {"target_size": 20, "overlap": 5}),
    (
        "\ud83d\ud83d\ude00 é.\n\n\ude00\ud83d x.\n\n# ok\n\nend \ud83d",
        {"target_size": 4, "min_size": 0, "overlap": 2},
    ),
]


@given(js_texts)
def test_astral_positions_found_or_from_the_high_surrogates_chunker_js_notes(text):
    units = utf16le(text)
    decoded = as_javascript(text)
    expected = [at for at, character in enumerate(decoded) if ord(character) > 0xFFFF]
    assert astral_positions(units) == expected
    assert JsString.from_utf16(units, high_surrogates(units)).astral == tuple(expected)
    assert JsString.from_utf16(units).astral == tuple(expected)


@given(st.one_of(texts, js_texts), semantic_options)
def test_packed_chunks_unpack_to_the_chunks(text, options):
    try:
        SemanticChunker(**options)
    except ValueError:
        assume(False)  # options that contradict each other
    assert_unpacks_to_the_chunks(text, options)


@pytest.mark.parametrize(
    "text, options",
    EXAMPLES,
    ids=[
        "headings-final-newline",
        "headings-no-final-newline",
        "astral-crlf-lone-high",
        "lone-surrogates",
    ],
)
def test_packed_chunks_unpack_to_the_chunks_in_each_way(text, options):
    assert_unpacks_to_the_chunks(text, options)


@given(st.one_of(texts, js_texts), semantic_options, st.integers(1, 40), st.booleans())
def test_chunks_cut_by_a_budget_unpack_to_the_chunks(text, options, max_tokens, o200k):
    """With a budget the chunks are records cut again (`columns_of` packs them), each with
    its `tokenCount`."""
    options = {**options, "max_tokens": max_tokens}
    if o200k:
        options["tokenizer"] = "o200k_base"
    try:
        SemanticChunker(**options).chunk(as_javascript(text))
    except ValueError:
        assume(False)  # options at odds, or a character over the budget alone
    assert_unpacks_to_the_chunks(text, options)


def assert_unpacks_to_the_chunks(text: str, options: dict[str, Any]) -> None:
    text = as_javascript(text)  # as JavaScript holds it
    chunks = SemanticChunker(**options).chunk(text)
    config = {JS_NAMES[name]: value for name, value in options.items()}
    request = json.dumps({"config": {**config, "spans": True}})
    reply = handle("SemanticChunker.chunk", request, "text", js_string(text))
    ints, ascii, packed = read_reply(reply)
    # Not asked for, the spans do not cross; the rest is the same.
    plain = read_reply(
        handle("SemanticChunker.chunk", json.dumps({"config": config}), "text", js_string(text))
    )
    plain_sizes = dict(plain[2]["result"]["sections"])
    assert plain_sizes["spans"] == plain_sizes["overlapSpans"] == 0
    assert plain[1] == ascii and plain[2]["result"]["texts"] == packed["result"]["texts"]
    counted = "max_tokens" in options or "tokenizer" in options
    assert bool(dict(packed["result"]["sections"])["tokenCounts"]) == (counted and bool(chunks))
    expected = [
        {
            **chunk.to_dict(),
            "text": utf16le(chunk.text),
            "startOffset": utf16_offset(text, chunk.start_offset),
            "endOffset": utf16_offset(text, chunk.end_offset),
            "span": js_span(text, chunk.span),
            "overlapSpan": js_span(text, chunk.overlap_span),
        }
        for chunk in chunks
    ]
    assert unpack_chunks(utf16le(text), packed["result"], ints, ascii) == expected


STRATEGIES = ["fixed", "hierarchical", "layout", "semantic"]


@given(
    st.one_of(texts, js_texts),
    st.sampled_from(STRATEGIES),
    st.integers(1, 300),
    st.integers(0, 60),
    st.none() | st.integers(1, 40),
)
def test_packed_document_chunks_unpack_to_the_chunks(text, strategy, size, overlap, max_tokens):
    text = as_javascript(text)
    options = {"strategy": strategy, "chunk_size": size, "chunk_overlap": overlap}
    js_options = {"strategy": strategy, "chunkSize": size, "chunkOverlap": overlap}
    if max_tokens is not None:
        options["max_tokens"] = js_options["maxTokens"] = max_tokens
    try:
        chunks = ChunkingEngine().chunk(text, **options)
    except ValueError:
        assume(False)  # an overlap not less than the size, or a character over the budget
    request = json.dumps({"options": {**js_options, "spans": True}})
    reply = handle("ChunkingEngine.chunk", request, "content", js_string(text))
    ints, ascii, packed = read_reply(reply)
    expected = [
        {**chunk.to_dict(), "content": utf16le(chunk.content), "span": js_span(text, chunk.span)}
        for chunk in chunks
    ]
    assert unpack_document_chunks(utf16le(text), packed["result"], ints, ascii) == expected


def test_most_fixed_windows_cross_as_slices_of_the_input():
    text = "Ünïcode words in a row, " * 400
    request = json.dumps({"options": {"strategy": "fixed", "chunkSize": 200, "chunkOverlap": 20}})
    reply = handle("ChunkingEngine.chunk", request, "content", js_string(text))
    ints, _, packed = read_reply(reply)
    sections = read_sections(ints, packed["result"], DOCUMENT_SECTIONS)
    at_span = sum(where == -1 for (where,) in sections["content"])
    assert packed["result"]["count"] > 40 and at_span == packed["result"]["count"]
    assert packed["result"]["texts"] == []


@pytest.mark.parametrize(
    "operation, key, options",
    [
        ("SemanticChunker.chunk", "config", {"spans": 1}),
        ("ChunkingEngine.chunk", "options", {"strategy": "fixed", "spans": "yes"}),
    ],
    ids=["semantic", "engine"],
)
def test_spans_option_other_than_a_boolean_is_refused_by_name(operation, key, options):
    text_key = "text" if operation == "SemanticChunker.chunk" else "content"
    reply = handle(operation, json.dumps({key: options}), text_key, js_string("Some text."))
    error = read_reply(reply)[2]["error"]
    assert error["name"] == "TypeError" and error["message"].startswith("spans must be")


@pytest.mark.parametrize("word", ["about", "über"])
def test_few_chunk_texts_of_markdown_cross_as_text(word):
    """The point of packing: on Markdown with overlap, most chunk texts are the input's own
    characters, placed where the chunker cut them, and cross as four ints each; of the few
    others, those that are ASCII cross as one ASCII text, the rest as JSON."""
    text = "# Guide\n\n" + "".join(
        f"## Part {n}\n\nSome words {word} part {n}, then more. " * 3 + "\n\n" for n in range(40)
    )
    request = json.dumps({"config": {"targetSize": 120, "overlap": 20}})
    reply = handle("SemanticChunker.chunk", request, "text", js_string(text))
    ints, ascii, packed = read_reply(reply)
    count = packed["result"]["count"]
    sections = read_sections(ints, packed["result"])
    placed = sum(lead_from >= 0 for lead_from, *_ in sections["places"])
    crossing = [length for (length,) in sections["asciiLength"]]
    assert count > 20 and placed >= count - count // 10
    assert len(crossing) == count - placed
    assert len(packed["result"]["texts"]) == (0 if word.isascii() else len(crossing))
    assert len(ascii) == sum(length for length in crossing if length >= 0)


def test_chunker_js_reads_every_section_by_name():
    """A section added to a table and not read in chunker.js (its replies module) fails here
    first (the browser tests show what it breaks): SemanticChunker's layout, then the
    engine's."""
    source = (ROOT / "web" / "chunker-replies.js").read_text(encoding="utf-8")
    read = re.findall(r"const \{([^}]*)\}\s*=\s*readSections\(", source)
    named = [[name.strip() for name in names.split(",") if name.strip()] for names in read]
    assert [sorted(names) for names in named] == [
        sorted(name for name, _ in table) for table in (SECTIONS, DOCUMENT_SECTIONS)
    ]
