"""Replaying a case of lexical_index.json: on `LexicalIndex`, and on the rules alone.

A case is `{id, options: {k1?, b?}, steps}`; each step one of
`{op: "add", id, text, metadata?}`, `{op: "addDocuments", docs}`, `{op: "remove", id}`,
`{op: "search", query, topK?, match?, prefix?}`, `{op: "stats"}` and `{op: "restore"}` (the
index goes through `to_json`, JSON text and `from_json`). Steps that answer carry `expected`.
"""

from __future__ import annotations

import json
from typing import Any

from chunker import LexicalIndex, lexical_tokens
from support.bm25_reference import Document, reference_search, reference_stats

ANSWERING = {"remove", "search", "stats"}


def search_options(step: dict[str, Any]) -> dict[str, Any]:
    """A search step's keyword arguments for `LexicalIndex.search`."""
    return {
        "top_k": step.get("topK", 10),
        "match": step.get("match", "any"),
        "prefix": step.get("prefix", False),
    }


def index_answers(case: dict[str, Any]) -> list[Any]:
    """What `LexicalIndex` answers to each step (None for steps that answer nothing)."""
    index = LexicalIndex(**case["options"])
    answers: list[Any] = []
    for step in case["steps"]:
        op, answer = step["op"], None
        if op == "add":
            index.add_document(step["id"], step["text"], step.get("metadata"))
        elif op == "addDocuments":
            index.add_documents(step["docs"])
        elif op == "remove":
            answer = index.remove_document(step["id"])
        elif op == "search":
            hits = index.search(step["query"], **search_options(step))
            answer = [hit.to_dict() for hit in hits]
        elif op == "stats":
            answer = index.stats().to_dict()
        elif op == "restore":
            index = LexicalIndex.from_json(json.loads(json.dumps(index.to_json())))
        else:
            raise AssertionError(f"unknown step {op!r}")
        answers.append(answer)
    return answers


def reference_answers(case: dict[str, Any]) -> list[Any]:
    """What the rules answer to each step, from `bm25_reference`."""
    options = {"k1": 1.2, "b": 0.75, **case["options"]}
    documents: list[Document] = []

    def add(doc: dict[str, Any]) -> None:
        # A document added again is replaced, and counts as added last.
        documents[:] = [entry for entry in documents if entry[0] != doc["id"]]
        documents.append((doc["id"], lexical_tokens(doc["text"]), doc.get("metadata")))

    answers: list[Any] = []
    for step in case["steps"]:
        op, answer = step["op"], None
        if op == "add":
            add(step)
        elif op == "addDocuments":
            for doc in step["docs"]:
                add(doc)
        elif op == "remove":
            answer = any(id == step["id"] for id, _, _ in documents)
            documents[:] = [entry for entry in documents if entry[0] != step["id"]]
        elif op == "search":
            kwargs = search_options(step)
            answer = reference_search(
                documents,
                lexical_tokens(step["query"]),
                kwargs["top_k"],
                match=kwargs["match"],
                prefix=kwargs["prefix"],
                **options,
            )
        elif op == "stats":
            answer = reference_stats(documents)
        answers.append(answer)
    return answers


def texts_of(case: dict[str, Any]) -> list[str]:
    """Every text a case gives its index: documents' and queries'."""
    texts = []
    for step in case["steps"]:
        if step["op"] == "add":
            texts.append(step["text"])
        elif step["op"] == "addDocuments":
            texts.extend(doc["text"] for doc in step["docs"])
        elif step["op"] == "search":
            texts.append(step["query"])
    return texts
