"""The facade's `LexicalIndex` objects: each lives here, in the worker, under an id.

An index's documents never cross back to the page: the facade holds the id, each call names
it, and `LexicalIndex.dispose` frees it. Many may live at once. The one registry below is
the worker's state between calls; nothing else in the bridge keeps any.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Any, Callable

from .options import python_options

if TYPE_CHECKING:
    from ..lexical_index import LexicalIndex
    from .operations import Astral

__all__ = ["INDEX_OPERATIONS", "IndexRegistry"]


class IndexRegistry:
    """Indexes by id: ids count up from 1 and are never given twice."""

    __slots__ = ("_indexes", "_last")

    def __init__(self) -> None:
        self._indexes: dict[int, LexicalIndex] = {}
        self._last = 0

    def __len__(self) -> int:
        return len(self._indexes)

    def add(self, index: LexicalIndex) -> int:
        """Keep `index`; answer its id."""
        self._last += 1
        self._indexes[self._last] = index
        return self._last

    def get(self, id: Any) -> LexicalIndex:
        """The index `id`; a `ValueError` when there is none (disposed, or never made)."""
        index = self._indexes.get(id) if isinstance(id, int) else None
        if index is None:
            raise ValueError(
                f"no LexicalIndex {id!r:.40} in this worker: it was disposed, or never made"
            )
        return index

    def dispose(self, id: Any) -> bool:
        """Forget the index `id`; answer whether there was one."""
        return self._indexes.pop(id, None) is not None if isinstance(id, int) else False


_INDEXES = IndexRegistry()


def _create(args: dict[str, Any], _astral: Astral) -> int:
    from ..lexical_index import LexicalIndex

    options = python_options("LexicalIndex", args.get("options"))
    return _INDEXES.add(LexicalIndex(**options))


def _from_json(args: dict[str, Any], _astral: Astral) -> int:
    from ..lexical_index import LexicalIndex

    return _INDEXES.add(LexicalIndex.from_json(args.get("data")))


def _add_documents(args: dict[str, Any], astral: Astral) -> None:
    index = _INDEXES.get(args.get("index"))
    docs = args.get("docs")
    if args.get("lengths") is not None:
        docs = _joined(docs, args["lengths"], args.get("text"), astral)
    index.add_documents(docs)


def _joined(
    docs: list[dict[str, Any]], lengths: list[int], text: str, astral: Astral
) -> list[dict[str, Any]]:
    """`docs` with their texts cut out of `text`, which joins them, by their JavaScript
    `lengths` (chunker.js sends many texts so: as one text they cross far faster)."""
    # The JavaScript index of each character outside the BMP, to count those before a cut.
    units = [position + number for number, position in enumerate(astral or ())]
    out, start, unit = [], 0, 0
    for doc, length in zip(docs, lengths, strict=True):
        unit += length
        end = unit - bisect_left(units, unit)
        out.append({**doc, "text": text[start:end]})
        start = end
    if start != len(text):
        raise ValueError(f"lengths add up to {unit}, not to the joined texts' length")
    return out


def _add_document(args: dict[str, Any], _astral: Astral) -> None:
    index = _INDEXES.get(args.get("index"))
    index.add_document(args.get("id"), args.get("text"), args.get("metadata"))


def _remove_document(args: dict[str, Any], _astral: Astral) -> bool:
    return _INDEXES.get(args.get("index")).remove_document(args.get("id"))


def _search(args: dict[str, Any], _astral: Astral) -> list[dict[str, Any]]:
    index = _INDEXES.get(args.get("index"))
    options = python_options("LexicalIndex.search", args.get("options"))
    if args.get("topK") is not None:  # as the original's `topK = 10`
        options["top_k"] = args["topK"]
    return [hit.to_dict() for hit in index.search(args.get("query"), **options)]


def _stats(args: dict[str, Any], _astral: Astral) -> dict[str, Any]:
    return _INDEXES.get(args.get("index")).stats().to_dict()


def _to_json(args: dict[str, Any], _astral: Astral) -> dict[str, Any]:
    return _INDEXES.get(args.get("index")).to_json()


def _dispose(args: dict[str, Any], _astral: Astral) -> bool:
    return _INDEXES.dispose(args.get("index"))


INDEX_OPERATIONS: dict[str, Callable[[dict[str, Any], Astral], Any]] = {
    "LexicalIndex.create": _create,
    "LexicalIndex.fromJSON": _from_json,
    "LexicalIndex.addDocuments": _add_documents,
    "LexicalIndex.addDocument": _add_document,
    "LexicalIndex.removeDocument": _remove_document,
    "LexicalIndex.search": _search,
    "LexicalIndex.stats": _stats,
    "LexicalIndex.toJSON": _to_json,
    "LexicalIndex.dispose": _dispose,
}
