"""BM25 straight from the rules, with no index: what `LexicalIndex` must answer.

Slow on purpose (every search reads every document), so that nothing of the index's
bookkeeping (postings, the sorted vocabulary, replacing, removing) is taken on trust. The
fixtures of `LexicalIndex` are written from it and the original agrees with it (see
oracle/test_original_lexical_index.py).
"""

from __future__ import annotations

import math
from typing import Any

Document = tuple[str, list[str], "dict[str, Any] | None"]


def reference_search(
    documents: list[Document],
    query: list[str],
    top_k: int,
    *,
    k1: float = 1.2,
    b: float = 0.75,
    match: str = "any",
    prefix: bool = False,
) -> list[dict[str, Any]]:
    """The hits' `to_dict()`s for the query's words over `documents` (id, words, metadata),
    listed in the order they were last added."""
    count = len(documents)
    if not count or not query:
        return []
    average = sum(len(words) for _, words, _ in documents) / count or 1
    vocabulary = sorted({word for _, words, _ in documents for word in words})

    def terms_of(word: str) -> list[str]:
        return [term for term in vocabulary if term.startswith(word)] if prefix else [word]

    scores: dict[str, float] = {}
    for word in query:
        for term in terms_of(word):
            holding = [(id, words) for id, words, _ in documents if term in words]
            if not holding:
                continue
            idf = math.log((count - len(holding) + 0.5) / (len(holding) + 0.5) + 1)
            for id, words in holding:
                tf = words.count(term)
                norm = k1 * (1 - b + b * (len(words) / average))
                scores[id] = scores.get(id, 0.0) + idf * (tf * (k1 + 1) / (tf + norm))
    if match == "all":
        held = {id: set(words) for id, words, _ in documents}
        scores = {
            id: score
            for id, score in scores.items()
            if all(any(term in held[id] for term in terms_of(word)) for word in query)
        }
    metadata = {id: meta for id, _, meta in documents}
    ranked = sorted(scores.items(), key=lambda item: -item[1])[:top_k]
    hits = []
    for id, score in ranked:
        hit: dict[str, Any] = {"id": id, "score": score}
        if metadata[id] is not None:
            hit["metadata"] = metadata[id]
        hits.append(hit)
    return hits


def reference_stats(documents: list[Document]) -> dict[str, Any]:
    """`stats().to_dict()` for `documents`."""
    count = len(documents)
    total = sum(len(words) for _, words, _ in documents)
    return {
        "documentCount": count,
        "termCount": len({word for _, words, _ in documents for word in words}),
        "avgDocLength": total / count if count else 0.0,
    }
