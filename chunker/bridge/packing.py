"""`SemanticChunker.chunk`'s result packed: where each chunk's text lies, for chunker.js.

Why packed: chunk texts are mostly ASCII or the input's own characters (the overlap and then
the chunk's own text). Joined ASCII texts cross as their bytes, which JavaScript decodes in
one call and slices, a slice of the input costs JavaScript nothing, and the spans go as ints,
read where they lie (an `Int32Array`); writing 1 MB of chunk texts as JSON in Pyodide and
parsing it back cost about as much as the chunking itself.

Offsets cross as Python counts them (code points), beside where the input's characters
outside the BMP are: chunker.js turns them into JavaScript indices (`toUtf16`, the rule of
utf16.py's `utf16_offsets`) in a loop over plain ints, where Python pays a bisection an
offset, which was most of the packing's own work on a text with an emoji.
"""

from __future__ import annotations

from typing import Any, Sequence, get_args

from ..records import BoundaryType, Chunk, DocumentChunk
from ..whitespace import JS_WHITESPACE
from .utf16 import astral_positions_of

__all__ = [
    "BOUNDARY_TYPES",
    "DOCUMENT_SECTIONS",
    "SECTIONS",
    "Packed",
    "pack_chunks",
    "pack_document_chunks",
]

# The packed reply's layout, defined here only: the sections of `Packed.ints`, in order, each
# with its name (as chunker.js and the tests read it) and its ints per entry. An entry is a
# chunk, except in "pieces": a chunk whose text is not in `ascii`. The result lists each
# section's name and length (`sections`), so a reader finds each by its name. To add one:
# its line here, its ints under its name in `pack_chunks`, and read it by name in chunker.js.
# Every offset counts code points; "astral" (an entry: a character) turns them into JavaScript
# indices: each character outside the BMP before an offset adds one.
SECTIONS: tuple[tuple[str, int], ...] = (
    ("offsets", 2),  # startOffset and endOffset
    ("spans", 4),  # span's and overlapSpan's start and end (-1 -1: none); asked for only
    ("boundaryIndex", 1),  # the index of the chunk's boundaryType in `boundaryTypes`
    ("asciiLength", 1),  # the length of the chunk's text in `ascii`, or -1: not there
    ("pieces", 4),  # leadFrom, leadTo, ownFrom, ownTo (all -1: the next of `texts`)
    ("astral", 1),  # where the input's characters outside the BMP are, in order
)

# The layout of `ChunkingEngine.chunk`'s packed reply, as `SECTIONS`; an entry is a chunk.
DOCUMENT_SECTIONS: tuple[tuple[str, int], ...] = (
    ("spans", 2),  # span's start and end
    # Where `content` is: >= 0, its length in `ascii`; -1: the input at the span, exactly;
    # -2: the next of `texts`.
    ("content", 1),
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
    chunks: Sequence[Chunk],
    astral: Sequence[int] | None = None,
    with_spans: bool = False,
) -> Packed:
    """`SemanticChunker` chunks of `text` as spans of it or ASCII, for chunker.js to cut out.

    `ints` holds the sections of `SECTIONS`, in its order, each in the chunks' order; the
    result lists their names and lengths (`sections`), and holds the chunks' `count`, the
    `boundaryTypes` and the `texts` that come whole as JSON. `with_spans`: each chunk's `span`
    and `overlap_span` cross as they are (else "spans" is empty: four ints a chunk that
    chunker.js would convert and drop).

    A chunk whose text is ASCII (most, in most documents) is the next that many characters
    of `ascii`, which joins those texts. Another is `text.slice(leadFrom, leadTo) +
    text.slice(ownFrom, ownTo)` when its text is the input's own characters there (see
    `_pieces`), else the next of `texts` (a merge joins its parts with a blank line, the
    last line gains a line feed). The index is the position and `metadata` the caller's own
    object. `astral` is as for `utf16_offsets`; it crosses as "astral".

    Why ASCII whole: in Pyodide writing a chunk's text as JSON reads it character by
    character, while joining ASCII texts and writing them out are copies of their bytes;
    chunker.js decodes them in one call. An ASCII text is as long in JavaScript as in
    Python, and `str.isascii` is free.

    Example (the first chunk is ASCII; the second, "o.\\n" where the first ended then
    "# B\\n\\nThree 🙂.\\n", is not; 🙂, character 26, is two units in JavaScript):
        >>> from chunker import SemanticChunker
        >>> text = "# A\\n\\nOne two.\\n\\n# B\\n\\nThree 🙂.\\n"
        >>> chunker = SemanticChunker(target_size=8, min_size=0, overlap=3)
        >>> packed = pack_chunks(text, chunker.chunk(text), with_spans=True)
        >>> packed.ints
        [0, 14, 15, 29, 0, 13, -1, -1, 15, 28, 11, 13, 0, 0, 14, -1, 11, 14, 15, 29, 26]
        >>> packed.ascii
        '# A\\n\\nOne two.\\n'
        >>> packed.result["count"], packed.result["texts"]
        (2, [])
        >>> packed.result["sections"][:2], packed.result["sections"][4:]
        ([['offsets', 4], ['spans', 8]], [['pieces', 4], ['astral', 1]])
    """
    offsets: list[int] = []  # startOffset and endOffset of each chunk
    spans: list[int] = []  # span and overlap span of each chunk
    lengths: list[int] = []
    ascii_texts: list[str] = []
    pieces: list[int] = []  # leadFrom, leadTo, ownFrom, ownTo of each chunk not in ascii
    texts: list[str] = []
    for chunk in chunks:
        whole, start, end = chunk.text, chunk.start_offset, chunk.end_offset
        offsets += (start, end)
        if with_spans:
            spans += chunk.span
            spans += chunk.overlap_span or _NO_SPAN
        if whole.isascii():
            lengths.append(len(whole))
            ascii_texts.append(whole)
        else:
            lengths.append(-1)
            found = _pieces(text, whole, end - start, chunk.span, chunk.overlap_span)
            pieces += found or _NO_PIECES
            if found is None:
                texts.append(whole)
    sections = {
        "offsets": offsets,
        "spans": spans,
        "boundaryIndex": [_BOUNDARY_INDEX[chunk.boundary_type] for chunk in chunks],
        "asciiLength": lengths,
        "pieces": pieces,
        "astral": astral_positions_of(text, astral),
    }
    ints, layout = _laid_out(sections, SECTIONS)
    result = {
        "count": len(chunks),
        "boundaryTypes": BOUNDARY_TYPES,
        "texts": texts,
        "sections": layout,
    }
    return Packed(ints, "".join(ascii_texts), result)


_NO_SPAN = (-1, -1)
_NO_PIECES = (-1, -1, -1, -1)


def _pieces(
    text: str,
    whole: str,
    own_length: int,
    span: tuple[int, int],
    overlap_span: tuple[int, int] | None,
) -> tuple[int, int, int, int] | None:
    """Where the overlap and the own text of the chunk `whole` lie in `text`, placed from
    the spans the chunker took, when they are the input's own characters there; else None.

    A chunk's text is its overlap (its first `len(whole) - own_length` characters) then its
    own text, each cut from the input at its span less the white space before its first
    character, unless merged or given a line feed. The rule is exact because it is checked:
    one comparison a piece, at one place, no search.
    """
    lead = len(whole) - own_length
    own_from = span[0] - _space_before_text(whole, lead)
    if own_from < 0 or not text.startswith(whole[lead:] if lead else whole, own_from):
        return None
    own_to = own_from + own_length
    if not lead:
        return own_from, own_from, own_from, own_to
    if overlap_span is None:  # an overlap of white space alone: not placed
        return None
    lead_from = overlap_span[0] - _space_before_text(whole, 0)
    if lead_from < 0 or not text.startswith(whole[:lead], lead_from):
        return None
    return lead_from, lead_from + lead, own_from, own_to


def _space_before_text(whole: str, at: int) -> int:
    """How many white space characters `whole` has from `at` to its next other character
    (0 when none follows: a span of white space alone starts where the white space does).
    `str.lstrip`, not a search: it runs once a chunk that is not ASCII, as a copy and a scan
    of the white space alone (tests/bench/browser.py)."""
    rest = whole[at:] if at else whole
    text_on = rest.lstrip(JS_WHITESPACE)
    return len(rest) - len(text_on) if text_on else 0


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
        [['spans', 6], ['content', 3], ['astral', 0]]
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
    sections = {"spans": spans, "content": contents, "astral": astral_positions_of(text, astral)}
    ints, layout = _laid_out(sections, DOCUMENT_SECTIONS)
    result = {"count": len(chunks), "texts": texts, "extras": extras, "sections": layout}
    return Packed(ints, "".join(ascii_texts), result)


def _laid_out(
    sections: dict[str, list[int]], table: Sequence[tuple[str, int]]
) -> tuple[list[int], list[list[Any]]]:
    """The sections' ints joined in `table`'s order, and the `[name, length]` list that
    chunker.js reads them back by."""
    ints: list[int] = []
    for name, _ in table:
        ints += sections[name]
    return ints, [[name, len(sections[name])] for name, _ in table]
