"""`boundaries: 'content'` through the facade in Chromium: Pyodide's windows are CPython's,
on text with characters outside the BMP (spans in JavaScript indices), and a bad value
rejects naming the field, with Python's message."""

from __future__ import annotations

import pytest
from support.facade import call
from support.offsets import utf16_offset

from chunker import ChunkingEngine

# Prose with emoji and astral letters in its words, long enough for many windows.
TEXT = " ".join(
    f"{word}{'😀' if n % 11 == 0 else ''}{'.' if n % 9 == 0 else ''}"
    for n, word in enumerate(
        ("𝒜lpha beta gamma delta epsilon 🎉 zeta eta theta iota kappa lambda mu " * 60).split()
    )
)


@pytest.mark.parametrize("size, overlap", [(120, 0), (300, 40), (512, 64)])
def test_content_windows_are_cpythons(chunker_page, size, overlap):
    chunker_page.evaluate("(text) => { window.prose = text; }", TEXT)
    got = call(
        chunker_page,
        f"new api.ChunkingEngine().chunk(prose, {{strategy: 'fixed', chunkSize: {size}, "
        f"chunkOverlap: {overlap}, boundaries: 'content', spans: true}})",
    )
    chunks = ChunkingEngine().chunk(
        TEXT, chunk_size=size, chunk_overlap=overlap, boundaries="content"
    )
    assert [c["content"] for c in got] == [c.content for c in chunks]
    assert [(c["span"]["start"], c["span"]["end"]) for c in got] == [
        (utf16_offset(TEXT, c.span[0]), utf16_offset(TEXT, c.span[1])) for c in chunks
    ]
    position = ChunkingEngine().chunk(TEXT, chunk_size=size, chunk_overlap=overlap)
    assert [c.content for c in chunks] != [c.content for c in position]


@pytest.mark.parametrize(
    "options, python",
    [
        ("{boundaries: 'words'}", {"boundaries": "words"}),
        ("{boundaries: 2}", {"boundaries": 2}),
        (
            "{strategy: 'layout', boundaries: 'content'}",
            {"strategy": "layout", "boundaries": "content"},
        ),
    ],
)
def test_a_bad_boundaries_rejects_naming_it(chunker_page, options, python):
    with pytest.raises((TypeError, ValueError)) as raised:
        ChunkingEngine().chunk("x y", **python)
    name = "RangeError" if isinstance(raised.value, ValueError) else "TypeError"
    expression = f"new api.ChunkingEngine().chunk('x y', {options})"
    assert call(chunker_page, expression) == {"error": [name, str(raised.value)]}
    assert call(chunker_page, f"{expression}.catch((e) => e.field)") == "boundaries"
