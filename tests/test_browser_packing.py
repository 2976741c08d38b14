"""The bridge's packed chunks, unpacked as web/chunker.js unpacks them, are the chunks exactly.

A fast check in CPython, for any text, of what the browser tests check on their fixtures:
`unpack_chunks` below mirrors chunker.js's `unpackChunks` over UTF-16 code units (what a
JavaScript string is), so slices, lone surrogates and astral characters count as there.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from support.offsets import utf16_offset
from support.paths import ROOT
from support.reply import read_reply
from hypothesis import assume, given
from hypothesis import strategies as st
from support.strategies import semantic_options, texts

from chunker import SemanticChunker
from chunker.bridge import OPTION_NAMES, JsString, astral_positions, handle
from chunker.bridge.packing import SECTIONS

JS_NAMES = {python: js for js, python in OPTION_NAMES["SemanticChunker.chunk"].items()}


def code_units(text: str) -> bytes:
    """`text` as JavaScript holds it: UTF-16LE code units, lone surrogates included."""
    return text.encode("utf-16-le", "surrogatepass")


def high_surrogates(units: bytes) -> bytes:
    """chunker.js's `highs`: which of `units` are high surrogates, as 32-bit ints."""
    highs = [at // 2 for at in range(1, len(units), 2) if 0xD8 <= units[at] <= 0xDB]
    return b"".join(unit.to_bytes(4, "little") for unit in highs)


def js_string(text: str) -> JsString:
    """`text` as the worker hands it to the bridge."""
    units = code_units(text)
    return JsString.from_utf16(units, high_surrogates(units))


# JavaScript strings: any code units, lone surrogates included.
js_texts = st.text(st.characters(exclude_categories=()), max_size=200)


def read_sections(ints: list[int], packed: dict[str, Any]) -> dict[str, list[tuple[int, ...]]]:
    """The packed ints by section, as entries of `SECTIONS`' widths, checking that the reply
    lists the sections of the table, in its order, and that they fill the ints exactly."""
    assert [name for name, _ in packed["sections"]] == [name for name, _ in SECTIONS]
    assert sum(length for _, length in packed["sections"]) == len(ints)
    named, at = {}, 0
    for (name, length), (_, width) in zip(packed["sections"], SECTIONS):
        assert length % width == 0, name
        section = ints[at : at + length]
        named[name] = [tuple(section[i : i + width]) for i in range(0, length, width)]
        at += length
    return named


def unpack_chunks(
    text: bytes, packed: dict[str, Any], ints: list[int], ascii: str
) -> list[dict[str, Any]]:
    """chunker.js's `unpackChunks`, with `text` and the chunk texts as UTF-16 code units."""
    sections = read_sections(ints, packed)
    count = packed["count"]
    assert all(len(sections[name]) == count for name, _ in SECTIONS if name != "leads")
    literals = iter(packed["texts"])
    leads = iter(sections["leads"])
    ascii_at = 0
    chunks = []
    for index in range(count):
        start, end = sections["offsets"][index]
        (type_index,), (length,) = sections["boundaryIndex"][index], sections["asciiLength"][index]
        if length >= 0:
            chunk_text = code_units(ascii[ascii_at : ascii_at + length])
            ascii_at += length
        else:
            lead_from, lead_to = next(leads)
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
                "boundaryType": packed["boundaryTypes"][type_index],
            }
        )
    assert next(leads, None) is None and next(literals, None) is None and ascii_at == len(ascii)
    return chunks


# Texts that take each way a chunk crosses: its overlap where it starts, its overlap where
# the chunk before ended, whole; with astral characters and a lone surrogate on the way.
EXAMPLES = [
    ("# A\n\nOne two.\n\n# B\n\nThree.\n", {"target_size": 8, "min_size": 0, "overlap": 3}),
    ("# A\n\nOne two.\n\n# B\n\nThree.", {"target_size": 8, "min_size": 0, "overlap": 3}),
    ("😀 one. 𝒜 two.\r\n\r\n# 🎉\n\nthree \ud83d four." * 5,
     {"target_size": 20, "overlap": 5}),
    ("\ud83d\ud83d\ude00 é.\n\n\ude00\ud83d x.\n\n# ok\n\nend \ud83d",
     {"target_size": 4, "min_size": 0, "overlap": 2}),
]


@given(js_texts)
def test_astral_positions_found_or_from_the_high_surrogates_chunker_js_notes(text):
    units = code_units(text)
    # As JavaScript holds it: a high then a low surrogate are one character.
    decoded = units.decode("utf-16-le", "surrogatepass")
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


@pytest.mark.parametrize("text, options", EXAMPLES, ids=[
    "headings-final-newline", "headings-no-final-newline", "astral-crlf-lone-high",
    "lone-surrogates",
])
def test_packed_chunks_unpack_to_the_chunks_in_each_way(text, options):
    assert_unpacks_to_the_chunks(text, options)


def assert_unpacks_to_the_chunks(text: str, options: dict[str, Any]) -> None:
    text = code_units(text).decode("utf-16-le", "surrogatepass")  # as JavaScript holds it
    chunks = SemanticChunker(**options).chunk(text)
    request = json.dumps({"config": {JS_NAMES[name]: value for name, value in options.items()}})
    reply = handle("SemanticChunker.chunk", request, "text", js_string(text))
    ints, ascii, packed = read_reply(reply)
    expected = [
        {
            **chunk.to_dict(),
            "text": code_units(chunk.text),
            "startOffset": utf16_offset(text, chunk.start_offset),
            "endOffset": utf16_offset(text, chunk.end_offset),
        }
        for chunk in chunks
    ]
    assert unpack_chunks(code_units(text), packed["result"], ints, ascii) == expected


@pytest.mark.parametrize("word", ["about", "über"])
def test_few_chunk_texts_of_markdown_cross_as_json(word):
    """The point of packing: on Markdown with overlap, the chunk texts that are ASCII cross
    as one ASCII text, and most others as slices of the input; few as JSON."""
    text = "# Guide\n\n" + "".join(
        f"## Part {n}\n\nSome words {word} part {n}, then more. " * 3 + "\n\n" for n in range(40)
    )
    request = json.dumps({"config": {"targetSize": 120, "overlap": 20}})
    reply = handle("SemanticChunker.chunk", request, "text", js_string(text))
    ints, ascii, packed = read_reply(reply)
    count = packed["result"]["count"]
    in_ascii = [length >= 0 for (length,) in read_sections(ints, packed["result"])["asciiLength"]]
    assert count > 20
    assert len(packed["result"]["texts"]) <= count // 10
    assert sum(in_ascii) == count if word.isascii() else sum(in_ascii) <= count // 10


def test_chunker_js_reads_every_section_by_name():
    """A section added to the table and not read in chunker.js fails here first (the
    browser tests show what it breaks)."""
    source = (ROOT / "web" / "chunker.js").read_text(encoding="utf-8")
    read = re.search(r"const \{([^}]*)\} = readSections\(", source)
    assert read is not None
    assert sorted(name.strip() for name in read.group(1).split(",")) == sorted(
        name for name, _ in SECTIONS
    )
