"""The typed results every function answers, and their JSON shape in the original's names.

Python field names are snake_case; `to_dict()` is the one place that turns them into the
original's camelCase keys, and it drops a field the original leaves `undefined` (as
`JSON.stringify` would), so `json.dumps(x.to_dict())` equals the original's JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

__all__ = [
    "BoundaryType",
    "Chunk",
    "DocumentChunk",
    "TurnSpan",
    "Passage",
    "Snippet",
    "ChunkDraft",
    "DocumentChunkDraft",
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
    """`start_offset` plus the length of the chunk's own text (see the README on offsets)."""
    boundary_type: BoundaryType
    """The structure or split that ended the chunk."""
    metadata: Mapping[str, Any] | None = None
    """The mapping passed to `chunk()`, the same object on every chunk."""

    def to_dict(self) -> dict[str, Any]:
        """Return the original's JSON shape: `startOffset`, `endOffset`, `boundaryType`."""
        out: dict[str, Any] = {
            "text": self.text,
            "index": self.index,
            "startOffset": self.start_offset,
            "endOffset": self.end_offset,
            "boundaryType": self.boundary_type,
        }
        if self.metadata is not None:
            out["metadata"] = dict(self.metadata)  # any Mapping given; JSON takes dicts
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

    def to_dict(self) -> dict[str, Any]:
        """Return the original's JSON shape, without the keys the original leaves unset."""
        out: dict[str, Any] = {"content": self.content, "index": self.index}
        if self.heading is not None:
            out["heading"] = self.heading
        if self.metadata is not None:
            out["metadata"] = dict(self.metadata)
        return out


@dataclass(frozen=True, slots=True)
class TurnSpan:
    """Where one turn sits in a passage's text."""

    seq: int
    """The turn's `seq`."""
    item_id: str | None
    """The turn's `itemId`, when it has one."""
    start: int
    """Offset of the turn's first character in the passage text."""
    end: int
    """Offset just past the turn's last character in the passage text."""

    def to_dict(self) -> dict[str, Any]:
        """Return `{seq, itemId, start, end}` (`itemId` only when set)."""
        out: dict[str, Any] = {"seq": self.seq}
        if self.item_id is not None:
            out["itemId"] = self.item_id
        out["start"] = self.start
        out["end"] = self.end
        return out


@dataclass(frozen=True, slots=True)
class Passage:
    """Whole turns of a transcript joined by line feeds, cut by `chunk_turns`."""

    text: str
    """The turns' texts joined by `\\n`."""
    index: int
    """Position of the passage in the answer, from 0."""
    first_seq: int
    """`seq` of the passage's first turn."""
    last_seq: int
    """`seq` of the passage's last turn."""
    item_ids: tuple[str, ...]
    """The turns' distinct `itemId`s, in order of first appearance."""
    start_ms: float | None
    """The earliest `startMs` of its turns, or None when no turn has one."""
    end_ms: float | None
    """The latest `endMs` of its turns, or None when no turn has one."""
    turns: tuple[TurnSpan, ...] = field(default=())
    """Where each turn sits in `text`, in order."""

    def to_dict(self) -> dict[str, Any]:
        """Return `{text, index, firstSeq, lastSeq, itemIds, startMs?, endMs?, turns}`."""
        out: dict[str, Any] = {
            "text": self.text,
            "index": self.index,
            "firstSeq": self.first_seq,
            "lastSeq": self.last_seq,
            "itemIds": list(self.item_ids),
        }
        if self.start_ms is not None:
            out["startMs"] = self.start_ms
        if self.end_ms is not None:
            out["endMs"] = self.end_ms
        out["turns"] = [span.to_dict() for span in self.turns]
        return out


@dataclass(frozen=True, slots=True)
class Snippet:
    """What `snippet_around` answers."""

    at: int
    """Where the matching word starts in the text as given, or -1 when no word matches."""
    text: str
    """The whole words around it, white space collapsed."""

    def to_dict(self) -> dict[str, Any]:
        """Return `{at, text}`."""
        return {"at": self.at, "text": self.text}


# Chunkers make tens of thousands of records from a large text, and a frozen dataclass's
# `__init__` sets each field through `object.__setattr__`, which then dominates. A draft is a
# plain twin with the same slots in the same order: a hot loop fills one with ordinary
# attribute stores, then assigns `__class__`, which turns it into the frozen record in place
# (Python allows it because the layouts are the same). About a third of the cost of `__init__`.


class ChunkDraft:
    """A `Chunk` being built; `draft.__class__ = Chunk` makes it one."""

    __slots__ = ("text", "index", "start_offset", "end_offset", "boundary_type", "metadata")


class DocumentChunkDraft:
    """A `DocumentChunk` being built; `draft.__class__ = DocumentChunk` makes it one."""

    __slots__ = ("content", "index", "heading", "metadata")


def _check_twins(record: type, draft: type) -> None:
    # A field added to a record but not to its draft would otherwise fail only at run time.
    if tuple(record.__slots__) != draft.__slots__:
        raise AssertionError(f"{draft.__name__} must have the slots of {record.__name__}")


_check_twins(Chunk, ChunkDraft)
_check_twins(DocumentChunk, DocumentChunkDraft)
