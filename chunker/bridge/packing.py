"""`SemanticChunker.chunk`'s result packed: where each chunk's text lies, for chunker.js.

Why packed: chunk texts are mostly the input's own characters (the overlap and then the
chunk's own text), which the chunker places as it cuts them (`chunk_columns`). Those cross as
four ints, a slice of the input costs JavaScript nothing, and the rest cross as ASCII bytes
(joined, decoded in one call) or JSON; the spans go as ints, read where they lie (an
`Int32Array`). Writing chunk texts as JSON in Pyodide and parsing them back cost as much as
a large part of the chunking itself, and even as ASCII bytes they cost copies each way
(tests/bench/browser.py: the facade beside Python in the worker).

Offsets cross as Python counts them (code points), beside where the input's characters
outside the BMP are: chunker-utf16.js turns them into JavaScript indices (`toUtf16`) in a
loop over plain ints, where Python paid a bisection an offset, which was most of the
packing's own work on a text with an emoji.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, get_args

from chunker.bridge.utf16 import astral_positions_of
from chunker.text.records import BoundaryType, Chunk, ChunkColumns, DocumentChunk

__all__ = [
    "BOUNDARY_TYPES",
    "DOCUMENT_SECTIONS",
    "SECTIONS",
    "Packed",
    "columns_of",
    "pack_chunks",
    "pack_document_chunks",
]

# The packed reply's layout, defined here only: the sections of `Packed.ints`, in order, each
# with its name (as chunker.js and the tests read it) and its ints per entry. An entry is a
# chunk, except in "asciiLength": a chunk whose text crosses as text. The result lists each
# section's name and length (`sections`), so a reader finds each by its name. To add one:
# its line here, its ints under its name in `pack_chunks`, and read it by name in
# chunker-replies.js.
# Every offset counts code points; "astral" (an entry: a character) turns them into JavaScript
# indices: each character outside the BMP before an offset adds one.
# "offsets", "spans", "overlapSpans" and "places" are `ChunkColumns`' columns as they are.
SECTIONS: tuple[tuple[str, int], ...] = (
    ("offsets", 2),  # startOffset and endOffset
    ("spans", 2),  # asked for only
    ("overlapSpans", 2),  # asked for only
    ("boundaryIndex", 1),  # the index of the chunk's boundaryType in `boundaryTypes`
    ("places", 4),  # all -1: the chunk's text crosses as text
    ("asciiLength", 1),  # of a text that crosses: its length in `ascii`, or -1: in `texts`
    ("tokenCounts", 1),  # counted only (a tokenizer or a budget given): tokenCount
    ("astral", 1),  # where the input's characters outside the BMP are, in order
)

# The layout of `ChunkingEngine.chunk`'s packed reply, as `SECTIONS`; an entry is a chunk.
DOCUMENT_SECTIONS: tuple[tuple[str, int], ...] = (
    ("spans", 2),  # span's start and end
    # Where `content` is: >= 0, its length in `ascii`; -1: the input at the span, exactly;
    # -2: the next of `texts`.
    ("content", 1),
    ("tokenCounts", 1),  # as in `SECTIONS`
    ("astral", 1),  # as in `SECTIONS`
)
_AT_SPAN, _IN_TEXTS = -1, -2

# The boundary types a packed chunk names by their index here (chunker.js gets the list).
BOUNDARY_TYPES: tuple[str, ...] = get_args(BoundaryType)
_BOUNDARY_INDEX = {name: index for index, name in enumerate(BOUNDARY_TYPES)}


class Packed:
    """An operation's result in three parts, which chunker.js puts together: `ints` cross as
    32-bit ints and `ascii` as ASCII bytes, beside the JSON of `result`."""

    # Plain and slotted, as `JsString` (utf16.py says why).
    __slots__ = ("ints", "ascii", "result")

    def __init__(self, ints: Sequence[int], ascii: str, result: Any) -> None:
        self.ints = ints
        self.ascii = ascii
        self.result = result


def pack_chunks(
    text: str,
    columns: ChunkColumns,
    astral: Sequence[int] | None = None,
    with_spans: bool = False,
    token_counts: Sequence[int] = (),
) -> Packed:
    """`SemanticChunker` chunks of `text`, as `chunk_columns` gives them, packed for
    chunker.js: placed in the input, ASCII or JSON.

    `ints` holds the sections of `SECTIONS`, in its order, each in the chunks' order; the
    result lists their names and lengths (`sections`), and holds the chunks' `count`, the
    `boundaryTypes` and the `texts` that come whole as JSON. `with_spans`: each chunk's
    `span` and `overlap_span` cross (else those sections are empty: ints that chunker.js
    would convert and drop). `token_counts`, each chunk's `token_count` when they were
    counted (else none), crosses as "tokenCounts".

    Of the chunks not placed, an ASCII text is the next that many characters of `ascii`,
    which joins those texts, and another the next of `texts`. The index is the position and
    `metadata` the caller's own object. `astral`, where the characters outside the BMP are
    in `text` when the caller knows (`astral_positions_of`), crosses as "astral".

    Why ASCII apart: in Pyodide writing a text as JSON reads it character by character, while
    joining ASCII texts and writing them out are copies of their bytes; chunker.js decodes
    them in one call. An ASCII text is as long in JavaScript as in Python, and `str.isascii`
    is free.

    Example (the first chunk is placed; the second, "o.\\n" where the first ended then
    "# B\\n\\nThree 🙂." and the line feed the original adds, is not; 🙂, character 26, is
    two units in JavaScript):
        >>> from chunker import SemanticChunker
        >>> text = "# A\\n\\nOne two.\\n\\n# B\\n\\nThree 🙂."
        >>> chunker = SemanticChunker(target_size=8, min_size=0, overlap=3)
        >>> packed = pack_chunks(text, chunker.chunk_columns(text))
        >>> packed.ints
        [0, 14, 15, 29, 0, 0, 0, 0, 0, 14, -1, -1, -1, -1, -1, 26]
        >>> packed.ascii, packed.result["count"], packed.result["texts"]
        ('', 2, ['o.\\n# B\\n\\nThree 🙂.\\n'])
        >>> packed.result["sections"]  # doctest: +NORMALIZE_WHITESPACE
        [['offsets', 4], ['spans', 0], ['overlapSpans', 0], ['boundaryIndex', 2], ['places', 8],
         ['asciiLength', 1], ['tokenCounts', 0], ['astral', 1]]
    """
    crossing = columns.texts
    lengths = [len(whole) if whole.isascii() else -1 for whole in crossing]
    sections = {
        "offsets": columns.offsets,
        "spans": columns.spans if with_spans else [],
        "overlapSpans": columns.overlap_spans if with_spans else [],
        "boundaryIndex": [_BOUNDARY_INDEX[name] for name in columns.boundaries],
        "places": columns.places,
        "asciiLength": lengths,
        "tokenCounts": token_counts,
        "astral": astral_positions_of(text, astral),
    }
    ints, layout = _laid_out(sections, SECTIONS)
    result = {
        "count": len(columns),
        "boundaryTypes": BOUNDARY_TYPES,
        "texts": [whole for whole, length in zip(crossing, lengths) if length < 0],
        "sections": layout,
    }
    ascii = "".join([whole for whole, length in zip(crossing, lengths) if length >= 0])
    return Packed(ints, ascii, result)


def columns_of(text: str, chunks: Sequence[Chunk]) -> ChunkColumns:
    """`SemanticChunker` chunks of `text` as `chunk_columns` would give them, made from the
    records: for chunks cut again by a token budget (`budget.py`), which `chunk_columns` does
    not make. Each chunk's text is its overlap, then its own text, as long as its offsets say;
    it is placed when its own text is the input at its start offset and its overlap the input
    just before that, or just before its overlap span ends (else it crosses as text).

    Example (a chunk of 8 tokens cut in two by a budget of 5, each piece placed):
        >>> from chunker import SemanticChunker
        >>> text = "One two three. Four five six."
        >>> chunks = SemanticChunker(max_tokens=5).chunk(text)
        >>> columns = columns_of(text, chunks)
        >>> columns.places, columns.texts, [chunk.token_count for chunk in chunks]
        ([0, 0, 0, 14, 15, 15, 15, 29], [], [4, 4])
    """
    columns = ChunkColumns()
    for chunk in chunks:
        start, end = chunk.start_offset, chunk.end_offset
        columns.offsets += (start, end)
        columns.boundaries.append(chunk.boundary_type)
        columns.spans += chunk.span
        columns.overlap_spans += chunk.overlap_span or (-1, -1)
        lead_length = len(chunk.text) - (end - start)
        lead, own = chunk.text[:lead_length], chunk.text[lead_length:]
        lead_from = -1
        if lead_length >= 0 and text.startswith(own, start):
            if text.startswith(lead, start - lead_length) and start >= lead_length:
                lead_from = start - lead_length
            elif chunk.overlap_span is not None and text.startswith(
                lead, chunk.overlap_span[1] - lead_length
            ):
                lead_from = chunk.overlap_span[1] - lead_length
        if lead_from >= 0:
            columns.places += (lead_from, lead_from + lead_length, start, start + len(own))
        else:
            columns.places += (-1, -1, -1, -1)
            columns.texts.append(chunk.text)
    return columns


def pack_document_chunks(
    text: str, chunks: Sequence[DocumentChunk], astral: Sequence[int] | None = None
) -> Packed:
    """`ChunkingEngine` chunks of `text` packed as `pack_chunks` packs, by `DOCUMENT_SECTIONS`.

    A chunk's `content` is the input at its span (most `fixed` windows, sections and blocks:
    one comparison tells, where the span says), else ASCII in `ascii`, else the next of
    `texts`. The result's `extras` lists `[index, heading, metadata]` for the chunks that
    have a heading or metadata (heading None: none); the others are `{content, index}`.
    The spans always cross: they place the contents.

    Example:
        >>> from chunker import ChunkingEngine
        >>> text = "Aé b c d e f g"
        >>> packed = pack_document_chunks(text, ChunkingEngine().chunk(
        ...     text, strategy="fixed", chunk_size=6, chunk_overlap=0))
        >>> packed.ints, packed.result["texts"], packed.result["extras"]
        ([0, 6, 7, 12, 13, 14, -1, -1, -1], [], [])
        >>> packed.result["sections"]
        [['spans', 6], ['content', 3], ['tokenCounts', 0], ['astral', 0]]
    """
    spans: list[int] = []
    contents: list[int] = []
    ascii_texts: list[str] = []
    texts: list[str] = []
    extras: list[list[Any]] = []
    for chunk in chunks:
        content, (start, end) = chunk.content, chunk.span
        spans += (start, end)
        if end - start == len(content) and text.startswith(content, start):
            contents.append(_AT_SPAN)
        elif content.isascii():
            contents.append(len(content))
            ascii_texts.append(content)
        else:
            contents.append(_IN_TEXTS)
            texts.append(content)
        if chunk.heading is not None or chunk.metadata is not None:
            metadata = None if chunk.metadata is None else dict(chunk.metadata)
            extras.append([chunk.index, chunk.heading, metadata])
    # Counted, every chunk is (a tokenizer or a budget given); else none.
    counted = bool(chunks) and chunks[0].token_count is not None
    sections = {
        "spans": spans,
        "content": contents,
        "tokenCounts": [chunk.token_count or 0 for chunk in chunks] if counted else [],
        "astral": astral_positions_of(text, astral),
    }
    ints, layout = _laid_out(sections, DOCUMENT_SECTIONS)
    result = {"count": len(chunks), "texts": texts, "extras": extras, "sections": layout}
    return Packed(ints, "".join(ascii_texts), result)


def _laid_out(
    sections: Mapping[str, Sequence[int]], table: Sequence[tuple[str, int]]
) -> tuple[list[int], list[list[Any]]]:
    """The sections' ints joined in `table`'s order, and the `[name, length]` list that
    chunker.js reads them back by."""
    ints: list[int] = []
    for name, _ in table:
        ints += sections[name]
    return ints, [[name, len(sections[name])] for name, _ in table]
