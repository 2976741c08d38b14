"""`LexicalIndex`: a keyword index over passages, ranked by Okapi BM25.

Scores are those of the original's `BM25Index` given the same words: for each word of the
query (a word given twice counts twice) and each document holding it,

    idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / average_length))
    idf(t) = log((N - n + 0.5) / (n + 0.5) + 1)        (Robertson-Walker; never negative)

where `tf` is how often the document holds the word, `length` its number of words, `N` the
number of documents and `n` the number holding the word. Equal scores keep the original's
order: the order in which the query's words, in turn, first reach each document, each word's
documents in the order they were (last) added.

With `prefix=True` a query word stands for every stored word it begins, and adds the sum of
their scores; the stored words are found by `bisect` in a sorted vocabulary.
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Literal, cast

from chunker.base.collector import collector_paused
from chunker.base.validation import (
    ArgumentTypeError,
    ArgumentValueError,
    require_bool,
    require_callable,
    require_choice,
    require_int,
    require_mapping,
    require_nonempty_text,
    require_number,
    require_sequence,
    require_text,
)
from chunker.search.lexical import lexical_tokens

__all__ = ["LexicalHit", "LexicalIndex", "LexicalIndexStats", "JSON_VERSION"]

JSON_VERSION = 1
"""The version `to_json` writes; `from_json` reads this one."""
MATCHES = ("any", "all")

Tokenize = Callable[[str], list[str]]


@dataclass(frozen=True, slots=True)
class LexicalHit:
    """A document that `LexicalIndex.search` found."""

    id: str
    """The document's id, as given to `add_document`."""
    score: float
    """Its BM25 score for the query: higher is better."""
    metadata: dict[str, Any] | None = None
    """A copy of the metadata it was added with, or None."""

    def to_dict(self) -> dict[str, Any]:
        """Return `{id, score, metadata}`, without `metadata` when there is none."""
        out: dict[str, Any] = {"id": self.id, "score": self.score}
        if self.metadata is not None:
            out["metadata"] = self.metadata
        return out


@dataclass(frozen=True, slots=True)
class LexicalIndexStats:
    """What `LexicalIndex.stats` answers; `stats()["documentCount"]` reads it as the original's."""

    document_count: int
    """How many documents the index holds."""
    term_count: int
    """How many distinct words they hold."""
    average_length: float
    """Their mean length in words (0 with no documents)."""

    def to_dict(self) -> dict[str, Any]:
        """Return the original's `getStats()` shape: `{documentCount, termCount, avgDocLength}`."""
        return {
            "documentCount": self.document_count,
            "termCount": self.term_count,
            "avgDocLength": self.average_length,
        }

    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]


@dataclass(slots=True, eq=False)  # eq=False: hashed by identity, as the postings hold them
class _Document:
    id: str
    terms: dict[str, int]
    """Each distinct word of the document and how often it holds it."""
    length: int
    metadata: dict[str, Any] | None
    removed: bool = False
    """Set when it is removed or replaced: the postings drop it lazily."""


class LexicalIndex:
    """Documents by id, searched by their words (`lexical_tokens` unless told otherwise).

    Adding costs time linear in the document's words; removing, in its distinct words
    (amortized). A search touches only the postings of the query's words (with `prefix`, of
    the stored words they begin, found in log time in a sorted vocabulary that the first
    prefix search after a change sorts again), then sorts the documents it reached.

    A word's postings are one list of the documents holding it and how often, in turn
    (`[document, count, document, count, ...]`), in the order they were added: appending to
    a list costs less than filing an id into a dict per word, and reading it back is faster
    too (tests/bench/search.py: indexing). A removed document is marked, counted against each
    of its words, and dropped from a word's list when a search reads it, or once half the
    list is removed ones: each entry is dropped once.

    Example:
        >>> index = LexicalIndex()
        >>> index.add_documents([
        ...     {"id": "refunds", "text": "Refunds go back to the card that paid."},
        ...     {"id": "shipping", "text": "Orders ship within two days of payment."},
        ... ])
        >>> [hit.id for hit in index.search("card refund", prefix=True)]
        ['refunds']
    """

    __slots__ = (
        "_k1",
        "_b",
        "_tokenize",
        "_documents",
        "_postings",
        "_removed",
        "_total_length",
        "_sorted",
        "_weights",
    )

    def __init__(
        self, k1: float = 1.2, b: float = 0.75, tokenize: Tokenize = lexical_tokens
    ) -> None:
        self._k1 = require_number("k1", k1, minimum=0)
        self._b = require_number("b", b, minimum=0, maximum=1)
        require_callable("tokenize", tokenize, rule="a function from a text to its words")
        self._tokenize = tokenize
        # Both in the order documents were (last) added: the original's order for ties.
        self._documents: dict[str, _Document] = {}
        self._postings: dict[str, list[_Document | int]] = {}
        # For each word whose postings still list removed documents, how many.
        self._removed: dict[str, int] = {}
        self._total_length = 0
        # The vocabulary sorted, for prefix search; None once a word comes or goes.
        self._sorted: list[str] | None = None
        # Each searched word's BM25 weight in each document holding it (a document, then its
        # weight, in turn), until a document comes or goes (which changes them all). Many
        # searches on one index share words ("what", "how"): computed once, each is summed
        # per search (tests/bench/evaluation.py, 472 questions on one index).
        self._weights: dict[str, list[Any]] = {}

    @property
    def k1(self) -> float:
        """How soon repeating a word stops adding to a score."""
        return self._k1

    @property
    def b(self) -> float:
        """How much a long document's score is lowered (0: not at all, 1: fully)."""
        return self._b

    def __len__(self) -> int:
        return len(self._documents)

    def __contains__(self, id: object) -> bool:
        return id in self._documents

    def __repr__(self) -> str:
        return f"LexicalIndex(k1={self._k1!r}, b={self._b!r}) with {len(self)} documents"

    def add_document(self, id: str, text: str, metadata: Mapping[str, Any] | None = None) -> None:
        """Index `text` under `id`, replacing any document already there.

        Raises `ValueError` for an empty id or text (as the original), `TypeError` for an id
        or text that is not a string or metadata that is not a mapping.
        """
        self._insert(*self._prepared("id", "text", "metadata", "", id, text, metadata))

    def add_documents(self, docs: Iterable[Mapping[str, Any]]) -> None:
        """Index each mapping of `docs` (`id`, `text`, optionally `metadata`), in order.

        All are checked before any is added, so a bad one leaves the index as it was.
        """
        prepared = []
        for number, doc in enumerate(require_sequence("docs", docs, of="mappings")):
            where = f"docs[{number}]"
            require_mapping(where, doc, field="docs", holding="with 'id' and 'text'")
            for key in ("id", "text"):
                if key not in doc:
                    raise ArgumentValueError(
                        "docs", f"{where} has no {key!r}: got the keys {sorted(doc)!r:.80}"
                    )
            prepared.append(
                self._prepared(
                    f"{where}['id']",
                    f"{where}['text']",
                    f"{where}['metadata']",
                    "docs",
                    doc["id"],
                    doc["text"],
                    doc.get("metadata"),
                )
            )
        with collector_paused():  # tests/bench/search.py: indexing, as the chunkers
            for args in prepared:
                self._insert(*args)

    def remove_document(self, id: str) -> bool:
        """Forget the document `id`; answer whether there was one."""
        document = self._documents.pop(require_text("id", id), None)
        if document is None:
            return False
        document.removed = True
        self._weights.clear()  # as in _insert
        removed = self._removed
        for term in document.terms:
            holding = len(self._postings[term]) // 2
            count = removed[term] = removed.get(term, 0) + 1
            if count == holding:  # no document holds it any more
                del self._postings[term], removed[term]
                self._sorted = None
            elif 2 * count > holding:
                self._live(term)
        self._total_length -= document.length
        return True

    def search(
        self,
        query: str,
        top_k: int = 10,
        *,
        match: Literal["any", "all"] = "any",
        prefix: bool = False,
    ) -> list[LexicalHit]:
        """The `top_k` best documents for the words of `query`, best first.

        `match="any"` finds the documents holding at least one word of the query, `"all"` only
        those holding every one (same scores, same order). With `prefix=True` a stored word
        that begins with a query word counts as it: "ref" finds "refund" and "refunds", and
        adds the score of each. A query without words finds nothing.

        Example:
            >>> index = LexicalIndex()
            >>> index.add_document("a", "red apples and green apples")
            >>> index.add_document("b", "green pears")
            >>> [(hit.id, round(hit.score, 3)) for hit in index.search("green apples")]
            [('a', 1.006), ('b', 0.221)]
        """
        require_text("query", query)
        require_int("top_k", top_k, minimum=1)
        require_choice("match", match, MATCHES)
        require_bool("prefix", prefix)
        words = self._words("query", query)
        if not words or not self._documents:
            return []
        scores: dict[_Document, float] = {}
        holders: dict[str, set[_Document]] = {}
        for word in words:
            terms = self._beginning_with(word) if prefix else (word,)
            self._add_scores(scores, terms)
            if match == "all" and word not in holders:
                holders[word] = set().union(
                    *(_documents(self._postings.get(term, [])) for term in terms)
                )
        if match == "all":
            kept = set.intersection(*holders.values())
            scores = {doc: score for doc, score in scores.items() if doc in kept}
        best = heapq.nlargest(top_k, scores.items(), key=itemgetter(1))
        return [LexicalHit(doc.id, score, _copy(doc.metadata)) for doc, score in best]

    def stats(self) -> LexicalIndexStats:
        """How many documents and distinct words the index holds, and their mean length."""
        count = len(self._documents)
        return LexicalIndexStats(
            count, len(self._postings), self._total_length / count if count else 0.0
        )

    def to_json(self) -> dict[str, Any]:
        """The index as plain JSON-safe data (given JSON-safe metadata), for `from_json`.

        `{"version": 1, "k1", "b", "documents": [{"id", "terms": {word: count},
        "metadata"?}]}`, documents in the order they were added (which ties keep). The texts
        are not kept, nor the tokenizer: give `from_json` the same one.
        """
        documents = []
        for id, document in self._documents.items():
            entry: dict[str, Any] = {"id": id, "terms": dict(document.terms)}
            if document.metadata is not None:
                entry["metadata"] = dict(document.metadata)
            documents.append(entry)
        return {"version": JSON_VERSION, "k1": self._k1, "b": self._b, "documents": documents}

    @classmethod
    def from_json(
        cls, data: Mapping[str, Any], tokenize: Tokenize = lexical_tokens
    ) -> LexicalIndex:
        """An index answering as the one whose `to_json()` gave `data`.

        Raises `ValueError` naming the version when `data` is of a version this cannot read,
        and naming the field when `data` is not what `to_json` writes.
        """
        require_mapping("data", data, holding="as LexicalIndex.to_json() answers")
        version = data.get("version")
        if isinstance(version, bool) or version != JSON_VERSION:
            raise ArgumentValueError(
                "data",
                f"cannot read a LexicalIndex of version {version!r} "
                f"(this chunker reads version {JSON_VERSION})",
            )
        for key in ("k1", "b", "documents"):
            if key not in data:
                raise ArgumentValueError(
                    "data", f"data has no {key!r}: not what LexicalIndex.to_json() writes"
                )
        try:
            index = cls(data["k1"], data["b"], tokenize)
        except (ArgumentTypeError, ArgumentValueError) as error:
            if error.field == "tokenize":
                raise
            # Said of `data`, which holds them: "invalid k1 -1 (must be >= 0)".
            raise type(error)("data", str(error)) from None
        documents = data["documents"]
        if not isinstance(documents, list):
            raise ArgumentTypeError(
                "data", f"data['documents'] must be a list, got {type(documents).__name__}"
            )
        for number, entry in enumerate(documents):
            index._restore(f"data['documents'][{number}]", entry)
        return index

    def _prepared(
        self,
        id_name: str,
        text_name: str,
        metadata_name: str,
        field: str,
        id: Any,
        text: Any,
        metadata: Any,
    ) -> tuple[str, dict[str, int], int, dict[str, Any] | None]:
        """Check one document and count its words: what `_insert` takes. `field` is the
        argument that holds the document ("docs"), or "" when each is an argument."""
        require_nonempty_text(id_name, id, field=field)
        require_nonempty_text(text_name, text, field=field)
        if metadata is not None:
            require_mapping(metadata_name, metadata, field=field, optional=True)
        words = self._words(text_name, text)
        return id, Counter(words), len(words), _copy(metadata)

    def _insert(
        self, id: str, terms: dict[str, int], length: int, metadata: dict[str, Any] | None
    ) -> None:
        # Removed first, so a replaced document moves to the end, as in the original.
        if id in self._documents:
            self.remove_document(id)
        self._weights.clear()  # a new document changes every weight
        document = self._documents[id] = _Document(id, terms, length, metadata)
        self._total_length += length
        postings = self._postings
        for term, count in terms.items():
            try:
                held = postings[term]
                held.append(document)
                held.append(count)
            except KeyError:  # a new word
                postings[term] = [document, count]
                self._sorted = None

    def _restore(self, where: str, entry: Any) -> None:
        """Add one document of `to_json`'s list, checking it as `add_document` would."""
        require_mapping(where, entry, field="data", holding="with 'id' and 'terms'")
        id = require_nonempty_text(f"{where}['id']", entry.get("id"), field="data")
        if id in self._documents:
            raise ArgumentValueError(
                "data", f"invalid {where}['id'] {id!r:.80} (an earlier document has it)"
            )
        terms = dict(require_mapping(f"{where}['terms']", entry.get("terms"), field="data"))
        for term, count in terms.items():
            if (
                not isinstance(term, str)
                or isinstance(count, bool)
                or not isinstance(count, int)
                or count < 1
            ):
                raise ArgumentValueError(
                    "data",
                    f"{where}['terms'] must map words to counts >= 1, got {term!r:.40}: "
                    f"{count!r:.40}",
                )
        metadata = entry.get("metadata")
        require_mapping(f"{where}['metadata']", metadata, field="data", optional=True)
        self._insert(id, terms, sum(terms.values()), _copy(metadata))

    def _words(self, name: str, text: str) -> list[str]:
        words = self._tokenize(text)
        if self._tokenize is not lexical_tokens and (
            not isinstance(words, list) or not all(isinstance(word, str) for word in words)
        ):
            raise ArgumentTypeError(
                "tokenize", f"tokenize must answer a list of strings for {name}, got {words!r:.80}"
            )
        return words

    def _beginning_with(self, word: str) -> list[str]:
        """The stored words that begin with `word`, in code point order."""
        if self._sorted is None:
            self._sorted = sorted(self._postings)
        vocabulary = self._sorted
        end = start = bisect_left(vocabulary, word)
        while end < len(vocabulary) and vocabulary[end].startswith(word):
            end += 1
        return vocabulary[start:end]

    def _add_scores(self, scores: dict[_Document, float], terms: Iterable[str]) -> None:
        """Add to `scores` each document's BM25 score for each of `terms`."""
        known = self._weights
        get = scores.get
        for term in terms:
            weights = known.get(term)
            if weights is None:
                if term not in self._postings:
                    continue
                weights = known[term] = self._weighted(term)
            pairs: Iterator[Any] = iter(weights)  # a document, then its weight, in turn
            for doc, weight in zip(pairs, pairs):
                scores[doc] = get(doc, 0.0) + weight

    def _weighted(self, term: str) -> list[Any]:
        """`term`'s BM25 weight in each document holding it: a document, then its weight."""
        postings = self._live(term) if term in self._removed else self._postings[term]
        count = len(self._documents)
        # As the original: an index whose documents hold no words divides by 1, not 0.
        average = self._total_length / count or 1
        k1, b = self._k1, self._b
        holding = len(postings) // 2
        idf = math.log((count - holding + 0.5) / (holding + 0.5) + 1)
        pairs: Iterator[Any] = iter(postings)  # a document, then its count, in turn
        weights: list[Any] = []
        # Each step in the original's order of operations, so ties come out equal.
        for doc, tf in zip(pairs, pairs):
            norm = k1 * (1 - b + b * (doc.length / average))
            weights += (doc, idf * (tf * (k1 + 1) / (tf + norm)))
        return weights

    def _live(self, term: str) -> list[_Document | int]:
        """The postings of `term` without the removed documents it still listed."""
        pairs: Iterator[Any] = iter(self._postings[term])  # a document, then its count
        postings = self._postings[term] = [
            item for doc, tf in zip(pairs, pairs) if not doc.removed for item in (doc, tf)
        ]
        del self._removed[term]
        return postings


def _documents(postings: list[_Document | int]) -> list[_Document]:
    """The documents that `postings` lists (each is followed by its count)."""
    return cast("list[_Document]", postings[::2])


def _copy(metadata: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A shallow copy, so that neither the caller nor a hit changes what the index holds."""
    return None if metadata is None else dict(metadata)
