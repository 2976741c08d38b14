"""One codec for chunk data. `SemanticChunker` writes rows (`records.ChunkRows`), and
`records.records` alone makes `Chunk`s of them, for `chunk()`, the token budget's pass and
`chunk_many`'s parent alike; the facade's columns are read off the same rows. The engine's
strategies write a `records.DocumentRow` a chunk, and `records.document_records` alone makes
`DocumentChunk`s of them, for `chunk()`, the budget and `chunk_many` alike."""

from __future__ import annotations

import re
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

from chunker import SemanticChunker
from chunker.text.records import (
    Chunk,
    ChunkColumns,
    ChunkRows,
    DocumentChunk,
    add_rows,
    document_records,
    document_row,
    records,
)

PACKAGE = Path(__file__).resolve().parents[2] / "chunker"


def test_no_module_but_records_swaps_a_class_or_defines_a_draft():
    # A draft lets attributes be set on a frozen record's subclass; a swap makes it the record.
    tricks = re.compile(r"__class__\s*=(?!=)|__setattr__\s*=\s*object\.__setattr__")
    found = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).as_posix() != "text/records.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if tricks.search(line)
    ]
    assert found == []


def test_records_cut_each_text_where_its_row_places_it():
    text = "# A\n\nOne two.\n\n# B\n\nThree."
    written = ChunkRows()
    written.rows += [
        (0, 0, 0, 15, 0, 15, "heading", (0, 13), None),  # no overlap
        (9, 15, 15, 26, 15, 26, "heading", (15, 26), (9, 13)),  # the overlap just before
        (9, 12, 15, 18, 26, 29, "paragraph", (15, 18), (9, 12)),  # two slices
        (-1, -1, -1, -1, 29, 31, "fixed", (24, 26), None),  # not placed: the next text
    ]
    written.texts.append("e.\n")
    metadata = {"source": "a"}
    chunks = records(text, written, metadata)
    assert [chunk.text for chunk in chunks] == [
        "# A\n\nOne two.\n\n",
        "two.\n\n# B\n\nThree.",
        "two# B",
        "e.\n",
    ]
    assert [chunk.index for chunk in chunks] == [0, 1, 2, 3]
    assert all(type(chunk) is Chunk and chunk.metadata is metadata for chunk in chunks)
    assert [chunk.overlap_span for chunk in chunks] == [None, (9, 13), (9, 12), None]
    assert [chunk.token_count for chunk in chunks] == [None] * 4
    counted = records(text, written, None, [4, 5, 6, 7])
    assert [chunk.token_count for chunk in counted] == [4, 5, 6, 7]
    assert all(type(chunk) is Chunk for chunk in counted)


def test_the_records_and_the_columns_are_read_off_the_same_rows():
    text = "\ufeff# A\n\nOne two three.\n\n# B\n\nFour five six seven.\n\n# C"
    chunker = SemanticChunker(min_size=0, overlap=6)
    written = chunker._rows(text, None)
    columns = ChunkColumns()
    add_rows(columns, written)
    assert records(text, written) == chunker.chunk(text)
    assert written.chunk_texts(text) == columns.chunk_texts(text)
    assert columns.chunk_texts(text) == [chunk.text for chunk in chunker.chunk(text)]


def test_document_records_number_the_rows_and_make_them_the_records():
    metadata = {"headingLevel": 1}
    rows = [
        document_row("One.", None, None, (0, 4)),
        document_row("Two.", "A", metadata, (9, 13)),
    ]
    chunks = document_records(rows)
    assert chunks == [
        DocumentChunk("One.", 0, span=(0, 4)),
        DocumentChunk("Two.", 1, "A", metadata, span=(9, 13)),
    ]
    assert [chunk.span for chunk in chunks] == [(0, 4), (9, 13)]  # not compared by ==
    assert all(type(chunk) is DocumentChunk for chunk in chunks)
    assert chunks[1].metadata is metadata
    assert [chunk.token_count for chunk in chunks] == [None, None]
    with pytest.raises(FrozenInstanceError):
        chunks[0].content = "Three."  # type: ignore[misc]
    counted = document_records([document_row("One.", None, None, (0, 4))], [2])
    assert counted == [DocumentChunk("One.", 0, span=(0, 4), token_count=2)]
    assert type(counted[0]) is DocumentChunk
