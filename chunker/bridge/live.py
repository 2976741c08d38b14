"""The facade's `LiveDocument` objects: each lives here, in the worker, under an id.

The page holds the text too (it edits its own copy as it sends each edit) and the chunks it
was last answered; so an edit's reply carries only what changed: the old indices of the
chunks removed, the chunks added (packed as chunks are, their offsets Python's) with their
indices, and how many
of the kept chunks lie before the edit (the rest are the old ones moved by its length).
chunker.js builds the new chunks from those, moving the kept ones in JavaScript: a 5 MB
text's thousands of chunks never cross again. Offsets cross in code points both ways;
chunker.js converts them (chunker-utf16.js), from the text it holds.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from chunker.base.validation import require_bool
from chunker.bridge.options import python_options
from chunker.bridge.packing import Packed, columns_of, pack_chunks, pack_document_chunks
from chunker.bridge.registry import Registry
from chunker.text.records import ChunkColumns

if TYPE_CHECKING:
    from chunker.bridge.calls import Arguments, Astral, Operation
    from chunker.live import LiveDocument
    from chunker.text.records import Chunk, DocumentChunk

__all__ = ["LIVE_OPERATIONS"]


@dataclass(slots=True)
class Live:
    """A document of the facade's, and how its chunks cross: `semantic` (`Chunk`s, else
    `DocumentChunk`s), `spans` (each chunk's spans asked for), `counted` (token counts)."""

    document: LiveDocument[Any]
    semantic: bool
    spans: bool
    counted: bool


_DOCUMENTS: Registry[Live] = Registry("LiveDocument", "document")


def _create(args: Arguments, astral: Astral) -> Packed:
    from chunker.live import LiveDocument

    options = python_options("LiveDocument", args.get("options"))
    strategy = options.pop("strategy", "semantic")
    spans = require_bool("spans", options.pop("spans", False))
    counted = options.get("max_tokens") is not None or options.get("tokenizer") is not None
    text = args.get("text")
    document: LiveDocument[Any] = LiveDocument(text, strategy, **options)
    live = Live(document, strategy == "semantic", spans, counted)
    _DOCUMENTS.add(live, args.get("document"))
    return _packed(live, text, document.chunks, astral, placed=True)


def _edit(args: Arguments, _astral: Astral) -> Packed:
    live = _DOCUMENTS.get(args.get("document"))
    start = args.get("start")
    change = live.document.edit(start, args.get("end"), args.get("replacement"))
    # The kept chunks before the edit are not moved; those after it start at or after its
    # start in the new text (a kept chunk cannot start inside what the edit replaced).
    unmoved = bisect_left(change.kept, start, key=_span_start)
    # Numbered from 0 as a reply's chunks are (its extras name them so); `indices` says
    # where each goes.
    added = [replace(chunk, index=number) for number, chunk in enumerate(change.added)]
    packed = _packed(live, "", added, (), placed=False)
    packed.result["indices"] = [chunk.index for chunk in change.added]
    packed.result["removed"] = [chunk.index for chunk in change.removed]
    packed.result["unmoved"] = unmoved
    return packed


def _span_start(chunk: Chunk | DocumentChunk) -> int:
    return chunk.span[0]


def _packed(
    live: Live,
    text: str,
    chunks: Sequence[Any],
    astral: Astral,
    *,
    placed: bool,
) -> Packed:
    """`chunks` packed as the facade's chunkers pack theirs: placed in `text` when `placed`
    (the whole text, which the page holds), else each crossing as text (an edit's few)."""
    if not live.semantic:
        return pack_document_chunks(text, chunks, astral)
    counts = [chunk.token_count or 0 for chunk in chunks] if live.counted else []
    columns = columns_of(text, chunks) if placed else _unplaced(chunks)
    return pack_chunks(text, columns, astral, live.spans, counts)


def _unplaced(chunks: Sequence[Chunk]) -> ChunkColumns:
    """`chunks` as columns whose texts all cross as text."""
    columns = ChunkColumns()
    for chunk in chunks:
        columns.offsets += (chunk.start_offset, chunk.end_offset)
        columns.boundaries.append(chunk.boundary_type)
        columns.spans += chunk.span
        columns.overlap_spans += chunk.overlap_span or (-1, -1)
        columns.places += (-1, -1, -1, -1)
        columns.texts.append(chunk.text)
    return columns


def _dispose(args: Arguments, _astral: Astral) -> bool:
    return _DOCUMENTS.dispose(args.get("document"))


LIVE_OPERATIONS: dict[str, Operation] = {
    "LiveDocument.create": _create,
    "LiveDocument.edit": _edit,
    "LiveDocument.dispose": _dispose,
}
