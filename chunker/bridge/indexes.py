"""The facade's `LexicalIndex` objects: each lives here, in the worker, under an id.

An index's documents never cross back to the page: the facade holds the id, each call names
it, and `LexicalIndex.dispose` frees it. Many may live at once. Beside each index the worker
keeps its documents' texts, so that a search can answer each hit with its snippet and the
spans of its matching words: one round trip for what a page draws of a hit, not one a hit.
Its registry (registry.py) and the evaluation sets' are the worker's state between calls;
nothing else in the bridge keeps any.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from chunker.base.validation import ArgumentTypeError, ArgumentValueError
from chunker.bridge.options import python_options
from chunker.bridge.registry import Registry
from chunker.bridge.utf16 import astral_positions_of

if TYPE_CHECKING:
    from chunker.bridge.calls import Arguments, Astral, Operation
    from chunker.search.lexical_index import LexicalIndex

__all__ = ["INDEX_OPERATIONS"]


@dataclass(slots=True)
class Indexed:
    """An index of the facade's, and the text of each document it was given (none for the
    documents of an index restored from JSON, which keeps no texts)."""

    index: LexicalIndex
    texts: dict[str, str] = field(default_factory=dict)


_INDEXES: Registry[Indexed] = Registry("LexicalIndex", "index")


def _create(args: Arguments, _astral: Astral) -> int:
    from chunker.search.lexical_index import LexicalIndex

    options = python_options("LexicalIndex", args.get("options"))
    return _INDEXES.add(Indexed(LexicalIndex(**options)), args.get("index"))


def _from_json(args: Arguments, _astral: Astral) -> int:
    from chunker.search.lexical_index import LexicalIndex

    return _INDEXES.add(Indexed(LexicalIndex.from_json(args.get("data"))), args.get("index"))


def _add_documents(args: Arguments, _astral: Astral) -> None:
    indexed = _INDEXES.get(args.get("index"))
    docs = args.get("docs")
    if args.get("lengths") is not None:
        docs = _joined(docs, args["lengths"], args.get("text"))
    indexed.index.add_documents(docs)
    # Checked and added: each is a mapping whose id and text are non-empty strings.
    indexed.texts.update((doc["id"], doc["text"]) for doc in docs)


def _joined(docs: list[dict[str, Any]], lengths: list[int], text: str) -> list[dict[str, Any]]:
    """`docs` with their texts cut out of `text`, which joins them, by their `lengths` in
    characters (chunker.js sends many texts so: as one text they cross far faster)."""
    out, start = [], 0
    for doc, length in zip(docs, lengths, strict=True):
        out.append({**doc, "text": text[start : start + length]})
        start += length
    if start != len(text):
        # The facade's own arguments (chunker.js joins the texts): said of what they carry.
        raise ArgumentValueError(
            "docs", f"lengths add up to {start}, not to the joined texts' length"
        )
    return out


def _add_document(args: Arguments, _astral: Astral) -> None:
    indexed = _INDEXES.get(args.get("index"))
    id, text = args.get("id"), args.get("text")
    indexed.index.add_document(id, text, args.get("metadata"))
    indexed.texts[id] = text


def _remove_document(args: Arguments, _astral: Astral) -> bool:
    indexed = _INDEXES.get(args.get("index"))
    id = args.get("id")
    removed = indexed.index.remove_document(id)
    indexed.texts.pop(id, None)
    return removed


def _search(args: Arguments, _astral: Astral) -> list[dict[str, Any]]:
    indexed = _INDEXES.get(args.get("index"))
    options = python_options("LexicalIndex.search", args.get("options"))
    if args.get("topK") is not None:  # as the original's `topK = 10`
        options["top_k"] = args["topK"]
    around = _snippet_options(options.pop("snippet", False))
    query = args.get("query")
    hits = [hit.to_dict() for hit in indexed.index.search(query, **options)]
    if around is not None:
        from chunker.search.lexical import lexical_tokens

        words = lexical_tokens(query)
        for hit in hits:
            text = indexed.texts.get(hit["id"])
            hit["snippet"] = None if text is None else _snippet(text, words, around)
    return hits


def _snippet_options(given: Any) -> dict[str, Any] | None:
    """The `snippetAround` options that search's `snippet` option asks for (true: the
    defaults), or None for no snippets."""
    if given is False:
        return None
    if given is True:
        return {}
    if isinstance(given, Mapping):
        try:
            return python_options("snippetAround", dict(given))
        except TypeError as error:  # an unknown option: said of `snippet`, where it was
            raise ArgumentTypeError("snippet", f"snippet: {error}") from None
    raise ArgumentTypeError(
        "snippet",
        f"snippet must be true, false or {{before, after}}, got "
        f"{type(given).__name__} {given!r:.80}",
    )


def _snippet(text: str, words: list[str], around: dict[str, Any]) -> dict[str, Any]:
    """`snippetAround(text, words)` with the `matchSpans` of its words inside its text, as
    `{at, text, spans, astralBefore}`: what a page draws of a hit. The page holds the
    snippet's text but not the document's, so beside `at` goes the count of characters
    outside the BMP before it, which chunker.js converts `at` by (chunker-utf16.js)."""
    from chunker.search.lexical import match_spans, snippet_around

    snippet = snippet_around(text, words, **around)
    spans = match_spans(snippet.text, words)
    return {
        "at": snippet.at,
        "text": snippet.text,
        "spans": [{"start": start, "end": end} for start, end in spans],
        "astralBefore": len(astral_positions_of(text[: max(snippet.at, 0)])),
    }


def _stats(args: Arguments, _astral: Astral) -> dict[str, Any]:
    return _INDEXES.get(args.get("index")).index.stats().to_dict()


def _to_json(args: Arguments, _astral: Astral) -> dict[str, Any]:
    return _INDEXES.get(args.get("index")).index.to_json()


def _dispose(args: Arguments, _astral: Astral) -> bool:
    return _INDEXES.dispose(args.get("index"))


INDEX_OPERATIONS: dict[str, Operation] = {
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
