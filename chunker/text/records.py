"""The chunkers' typed results, and their JSON shape in the original's names.

Python field names are snake_case; `to_dict()` is the one place that turns them into the
original's camelCase keys, and it drops a field the original leaves `undefined` (as
`JSON.stringify` would), so `json.dumps(x.to_dict())` equals the original's JSON. The other
results follow the same rules beside the function that makes them (`Passage` and `TurnSpan`
in turns.py, `Snippet` in lexical.py): a dataclass compiles its methods as its module loads,
which Pyodide pays as it starts, so a page pays only for the records of what it calls
(tests/bench/browser.py: `loadChunker()` ready).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Any, Literal

__all__ = [
    "BoundaryType",
    "Chunk",
    "DocumentChunk",
    "ChunkRow",
    "ChunkRows",
    "records",
    "DocumentRow",
    "document_row",
    "document_records",
    "ChunkColumns",
    "add_rows",
    "chunk_texts",
]

BoundaryType = Literal["heading", "paragraph", "sentence", "code-block", "fixed"]


@dataclass(frozen=True, slots=True)
class Chunk:
    """One passage cut by `SemanticChunker`."""

    text: str
    """The chunk's text: the overlap taken from the chunk before, then its own text."""
    index: int
    """Position of the chunk in the answer, from 0."""
    start_offset: int
    """Where the chunk's own text starts in the input (after the overlap)."""
    end_offset: int
    """`start_offset` plus the length of the chunk's own text (see docs/method.md, "Offsets")."""
    boundary_type: BoundaryType
    """The structure or split that ended the chunk."""
    metadata: Mapping[str, Any] | None = None
    """The mapping passed to `chunk()`, the same object on every chunk."""
    span: tuple[int, int] = field(default=(0, 0), compare=False)
    """`(start, end)`: the range of the input holding the chunk's own text, without the white
    space at its ends (see docs/spans.md). Not compared, as `to_dict()` leaves it out."""
    overlap_span: tuple[int, int] | None = field(default=None, compare=False)
    """The range of the input the overlap came from, within the own span of the chunk before
    and ending where it ends (but after a code block left open: see docs/spans.md);
    None for the first chunk, `overlap=0`, or an overlap of white space alone."""
    token_count: int | None = field(default=None, repr=False)
    """The tokens in `text` when the chunker was given a tokenizer (`tokens.py`), else None.
    Not in the repr, which stays the one records had before budgets."""

    def to_dict(self, *, spans: bool = False) -> dict[str, Any]:
        """Return the original's JSON shape: `startOffset`, `endOffset`, `boundaryType`; with
        `spans`, also `span` and `overlapSpan` as `{"start": s, "end": e}` (or None)."""
        out: dict[str, Any] = {
            "text": self.text,
            "index": self.index,
            "startOffset": self.start_offset,
            "endOffset": self.end_offset,
            "boundaryType": self.boundary_type,
        }
        if self.metadata is not None:
            out["metadata"] = dict(self.metadata)  # any Mapping given; JSON takes dicts
        if self.token_count is not None:
            out["tokenCount"] = self.token_count
        if spans:
            out["span"] = span_dict(self.span)
            out["overlapSpan"] = None if self.overlap_span is None else span_dict(self.overlap_span)
        return out


@dataclass(frozen=True, slots=True)
class DocumentChunk:
    """One passage cut by `ChunkingEngine`."""

    content: str
    """The chunk's text."""
    index: int
    """Position of the chunk in the answer, from 0."""
    heading: str | None = None
    """The heading of the section it came from (`hierarchical` only)."""
    metadata: Mapping[str, Any] | None = None
    """`headingLevel`/`ancestorHeadings` (`hierarchical`) or `type` (`layout`) when set."""
    span: tuple[int, int] = field(default=(0, 0), compare=False)
    """`(start, end)`: the range of the input `content` came from (for `hierarchical`, the
    section's body), without the white space at its ends. Not compared, as in `to_dict()`."""
    token_count: int | None = field(default=None, repr=False)
    """The tokens in `content` when the engine was given a tokenizer (`tokens.py`), else None."""

    def to_dict(self, *, spans: bool = False) -> dict[str, Any]:
        """Return the original's JSON shape, without the keys the original leaves unset; with
        `spans`, also `span` as `{"start": s, "end": e}`."""
        out: dict[str, Any] = {"content": self.content, "index": self.index}
        if self.heading is not None:
            out["heading"] = self.heading
        if self.metadata is not None:
            out["metadata"] = dict(self.metadata)
        if self.token_count is not None:
            out["tokenCount"] = self.token_count
        if spans:
            out["span"] = span_dict(self.span)
        return out


# The row a chunker writes for each `Chunk`, its fields as the record holds them (but its
# index, its place, and its metadata, the call's): where its text lies in the input,
# `lead_from, lead_to, own_from, own_to` (-1 four times when it is not one slice of the
# input: see `ChunkColumns.places`), `start_offset`, `end_offset`, `boundary_type`, `span`,
# `overlap_span`.
ChunkRow = tuple[
    int, int, int, int, int, int, BoundaryType, tuple[int, int], "tuple[int, int] | None"
]


# Plain and slotted, not dataclasses (the module docstring says why): one is made a call.
class ChunkRows:
    """`SemanticChunker`'s chunks as it writes them, a `ChunkRow` each, in order (`rows`),
    and the texts of those whose text is not one slice of the input, in order (`texts`):
    what `records` makes records of, and `add_rows` the facade's columns of."""

    __slots__ = ("rows", "texts")

    def __init__(self) -> None:
        self.rows: list[ChunkRow] = []
        self.texts: list[str] = []

    def chunk_texts(self, text: str) -> list[str]:
        """Every chunk's text, in order, from `text` (the input these rows were cut from), as
        `records` cuts them."""
        unplaced = iter(self.texts)
        return [
            next(unplaced)
            if lead_from < 0
            else text[lead_from:own_to]
            if lead_to == own_from
            else text[lead_from:lead_to] + text[own_from:own_to]
            for lead_from, lead_to, own_from, own_to, *_ in self.rows
        ]

    def shift(self, by: int) -> None:
        """Move every place in the input `by` characters later: the chunks of a text that
        stands in the input after `by` characters that are no part of it (a byte-order mark:
        whitespace.bom_length)."""
        moved: list[ChunkRow] = []
        for lead_from, lead_to, own_from, own_to, start, end, boundary, span, overlap in self.rows:
            # Placed, the four are places; else -1 each, which stay.
            placed = by if lead_from >= 0 else 0
            moved.append(
                (
                    lead_from + placed,
                    lead_to + placed,
                    own_from + placed,
                    own_to + placed,
                    start + by,
                    end + by,
                    boundary,
                    (span[0] + by, span[1] + by),
                    None if overlap is None else (overlap[0] + by, overlap[1] + by),
                )
            )
        self.rows = moved


def records(
    text: str,
    written: ChunkRows,
    metadata: Mapping[str, Any] | None = None,
    token_counts: list[int] | None = None,
) -> list[Chunk]:
    """The records of the chunks a chunker `written` of `text`, numbered from 0: the one place
    `Chunk`s are made. Each one's text is cut from `text` where its row places it, and its
    metadata is `metadata` (the same object on every chunk). With `token_counts` (a budget
    counted them), each chunk's `token_count`; else None.

    Chunkers make tens of thousands of records from a large text, and a frozen dataclass's
    `__init__` sets each field through `object.__setattr__`, which then dominates. A record is
    made here as a draft instead (`_ChunkDraft`): a subclass of its record that adds no slot
    and lets attributes be set, filled with ordinary attribute stores, then turned into the
    frozen record in place by assigning `__class__`. Python allows it because the layouts are
    the same, and as the draft adds nothing to its record's layout it checks that without
    comparing the slots' names, which a plain twin with the same slots made it do
    (tests/bench/core.py, every chunker). The draft takes both `object.__setattr__` and
    `object.__delattr__`: they share one C slot, and with the record's frozen `__delattr__`
    left in place every store went through Python. `token_count` is stored only when
    counted (`_UnsetIsNone`), after the loop that fills the drafts: a check a record in it
    made it measurably slower.
    """
    chunks: list[Any] = []
    # Sealed as records at once, or, with counts to set, after them.
    sealed = Chunk if token_counts is None else _ChunkDraft
    unplaced = iter(written.texts)
    for index, (
        lead_from,
        lead_to,
        own_from,
        own_to,
        start,
        end,
        boundary,
        span,
        overlap,
    ) in enumerate(written.rows):
        chunk = _ChunkDraft()
        if lead_from < 0:
            chunk.text = next(unplaced)
        elif lead_to == own_from:  # the overlap just before its own text: one slice
            chunk.text = text[lead_from:own_to]
        else:
            chunk.text = text[lead_from:lead_to] + text[own_from:own_to]
        chunk.index = index
        chunk.start_offset = start
        chunk.end_offset = end
        chunk.boundary_type = boundary
        chunk.metadata = metadata
        chunk.span = span
        chunk.overlap_span = overlap
        chunk.__class__ = sealed
        chunks.append(chunk)
    if token_counts is not None:
        for chunk, count in zip(chunks, token_counts):
            chunk.token_count = count
            chunk.__class__ = Chunk
    return chunks


class _UnsetIsNone:
    """A slot read as None until set: `token_count`, which `records` and `document_records`
    leave unset unless a budget counted the tokens, so that their loops store nothing more."""

    __slots__ = ("slot",)

    def __init__(self, slot: Any) -> None:
        self.slot = slot

    def __get__(self, record: object, owner: type | None = None) -> Any:
        if record is None:
            return self
        try:
            return self.slot.__get__(record, owner)
        except AttributeError:
            return None

    def __set__(self, record: object, value: Any) -> None:
        self.slot.__set__(record, value)

    def __delete__(self, record: object) -> None:
        self.slot.__delete__(record)


for _record in (Chunk, DocumentChunk):
    setattr(_record, "token_count", _UnsetIsNone(_record.__dict__["token_count"]))  # noqa: B010


class _ChunkDraft(Chunk):
    """A `Chunk` being made by `records`."""

    __slots__ = ()
    __init__ = object.__init__
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__


class DocumentRow(DocumentChunk):
    """A `DocumentChunk` as a strategy of `ChunkingEngine` writes it: a row of the record's
    fields, set one by one (`row.content = ...`; all but `index` and `token_count`), which
    `document_records` makes the record in place."""

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__
    if TYPE_CHECKING:
        # For the checker, the fields a strategy sets, settable on a row.
        content: str
        heading: str | None
        metadata: Mapping[str, Any] | None
        span: tuple[int, int]

        def __init__(self) -> None: ...

    else:
        __init__ = object.__init__


def document_row(
    content: str,
    heading: str | None,
    metadata: Mapping[str, Any] | None,
    span: tuple[int, int],
) -> DocumentRow:
    """A row from its fields, for the places that write a row or two rather than one a
    window."""
    row = DocumentRow()
    row.content = content
    row.heading = heading
    row.metadata = metadata
    row.span = span
    return row


def document_records(
    rows: list[DocumentRow], token_counts: list[int] | None = None
) -> list[DocumentChunk]:
    """The records of the chunks `rows` describe, numbered from 0, each with its count from
    `token_counts` when given (a budget counted them): the one place `DocumentChunk`s are
    made. The rows become the records, in place, and the list holding them is the answer.

    A row is a draft, as `records` makes each `Chunk` (its docstring says why): a subclass
    of its record that adds no slot and lets attributes be set, turned into the frozen
    record by assigning `__class__`. The strategies fill the rows as they cut, rather than
    write the fields elsewhere (tuples, columns) for a loop here to copy into drafts: that
    second store of every field, and the pass over them, cost more than the record's own
    stores (tests/bench/core.py, fixed).
    """
    drafts: list[Any] = rows  # the checker's view: rows, then records
    sealed = DocumentChunk
    if token_counts is None:
        for index, row in enumerate(drafts):
            row.index = index
            row.__class__ = sealed
    else:
        for index, (row, tokens) in enumerate(zip(drafts, token_counts)):
            row.index = index
            row.token_count = tokens
            row.__class__ = sealed
    return drafts


# Plain and slotted, not a dataclass (the module docstring says why): made once a call.
class ChunkColumns:
    """`SemanticChunker` chunks as columns, each a flat list of the chunks' fields in order,
    and each chunk's text placed in the input where it can be, not copied: what the facade
    sends (`SemanticChunker.chunk_columns`). No record is made.

    - `offsets`: `start_offset, end_offset`, two ints a chunk;
    - `boundaries`: `boundary_type`, one a chunk;
    - `spans`: `span`, two ints a chunk; `overlap_spans`: `overlap_span`, two ints a chunk,
      -1 -1 for None;
    - `places`: `lead_from, lead_to, own_from, own_to`, four ints a chunk, when its text is
      `text[lead_from:lead_to] + text[own_from:own_to]` (its overlap, then its own text),
      else -1 four times: its text, or its overlap, is not one slice of the input (parts
      joined with a blank line or a space, the line feed the original adds after the last
      line);
    - `texts`: the texts of the chunks not placed, in order.
    """

    __slots__ = ("offsets", "boundaries", "spans", "overlap_spans", "places", "texts")

    def __init__(self) -> None:
        self.offsets: list[int] = []
        self.boundaries: list[BoundaryType] = []
        self.spans: list[int] = []
        self.overlap_spans: list[int] = []
        self.places: list[int] = []
        self.texts: list[str] = []

    def __len__(self) -> int:
        return len(self.boundaries)

    def chunk_texts(self, text: str) -> list[str]:
        """Every chunk's text, in order, from `text` (the input these columns were cut from)."""
        return chunk_texts(text, self.places, self.texts)

    def __repr__(self) -> str:
        return f"<ChunkColumns: {len(self)} chunks, {len(self.texts)} not placed>"


# `ChunkColumns.overlap_spans` of a chunk with no overlap.
_NO_SPAN = (-1, -1)


def add_rows(columns: ChunkColumns, written: ChunkRows) -> None:
    """Add the chunks `written` to `columns`, after those they hold: each column read off the
    rows at once (`zip` turns them into columns, `chain` flattens the pairs and fours)."""
    if not written.rows:
        return
    lead_from, lead_to, own_from, own_to, starts, ends, boundaries, spans, overlaps = zip(
        *written.rows
    )
    columns.offsets += chain.from_iterable(zip(starts, ends))
    columns.boundaries += boundaries
    columns.spans += chain.from_iterable(spans)
    columns.overlap_spans += chain.from_iterable(
        [_NO_SPAN if overlap is None else overlap for overlap in overlaps]
    )
    columns.places += chain.from_iterable(zip(lead_from, lead_to, own_from, own_to))
    columns.texts += written.texts


def chunk_texts(text: str, places: list[int], unplaced: list[str]) -> list[str]:
    """The chunks' texts that `ChunkColumns`' `places` and `texts` describe in `text`: where
    a chunk's text lies in it, its two slices joined; else the next text not placed (the
    facade's worker sends them, and the JavaScript side reads them in chunker-replies.js)."""
    rest = iter(unplaced)
    return [
        next(rest)
        if places[four] < 0
        else text[places[four] : places[four + 1]] + text[places[four + 2] : places[four + 3]]
        for four in range(0, len(places), 4)
    ]


def span_dict(span: tuple[int, int]) -> dict[str, int]:
    """A span in JSON: `{"start": s, "end": e}`."""
    return {"start": span[0], "end": span[1]}
