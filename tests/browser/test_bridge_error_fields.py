"""Every error the facade is sent names its argument: the reply's `field`
is the Python name of the argument the message is about, never null, for every operation."""

from __future__ import annotations

import json
from typing import Any

import pytest
from support.reply import read_reply

from chunker.bridge import handle

GOOD_JSON = {"version": 1, "k1": 1.2, "b": 0.75, "documents": []}
QUESTION = {"question": "q", "corpusId": "a", "references": [[0, 2]]}


def index_call(operation: str, args: dict[str, Any]) -> dict[str, Any]:
    """The error reply of `operation` on a fresh index holding one document."""
    index = read_reply(handle("LexicalIndex.create", "{}"))[2]["result"]
    handle("LexicalIndex.addDocument", json.dumps({"index": index, "id": "a", "text": "a b"}))
    try:
        return error_of(operation, {"index": index, **args})
    finally:
        handle("LexicalIndex.dispose", json.dumps({"index": index}))


def error_of(operation: str, args: dict[str, Any]) -> dict[str, Any]:
    reply = read_reply(handle(operation, json.dumps(args)))[2]
    assert "error" in reply, reply
    return dict(reply["error"])


CASES: dict[str, tuple[str, dict[str, Any], str]] = {
    "config not an object": ("SemanticChunker.chunk", {"text": "a", "config": 3}, "config"),
    "unknown config": ("SemanticChunker.chunk", {"text": "a", "config": {"size": 3}}, "config"),
    "targetSize zero": (
        "SemanticChunker.chunk",
        {"text": "a", "config": {"targetSize": 0}},
        "target_size",
    ),
    "engine strategy": (
        "ChunkingEngine.chunk",
        {"content": "a", "options": {"strategy": "x"}},
        "strategy",
    ),
    "engine options list": ("ChunkingEngine.chunk", {"content": "a", "options": []}, "options"),
    "turns not a list": ("chunkTurns", {"turns": "a"}, "turns"),
    "words not a list": ("matchSpans", {"text": "a", "words": "a"}, "words"),
    "words an object": ("matchSpans", {"text": "a", "words": {"a": 1}}, "words"),
    "contents entry": ("locateChunks", {"text": "a", "contents": [1]}, "contents"),
    "index options": ("LexicalIndex.create", {"options": {"k1": -1}}, "k1"),
    "index unknown option": ("LexicalIndex.create", {"options": {"k2": 1}}, "options"),
    "index id taken": ("LexicalIndex.create", {"index": 0}, "index"),
    "fromJSON version": ("LexicalIndex.fromJSON", {"data": {**GOOD_JSON, "version": 2}}, "data"),
    "fromJSON k1": ("LexicalIndex.fromJSON", {"data": {**GOOD_JSON, "k1": -1}}, "data"),
    "fromJSON entry": ("LexicalIndex.fromJSON", {"data": {**GOOD_JSON, "documents": [3]}}, "data"),
    "no such index": ("LexicalIndex.search", {"index": 10**6, "query": "a"}, "index"),
    "evaluation excerpt empty": (
        "EvaluationSet.create",
        {"data": {"corpora": {"a": "text"}, "questions": [QUESTION | {"references": [[1, 1]]}]}},
        "questions",
    ),
    "evaluation question empty": (
        "EvaluationSet.create",
        {"data": {"corpora": {"a": "text"}, "questions": [QUESTION | {"question": ""}]}},
        "questions",
    ),
    "evaluation corpus not text": (
        "EvaluationSet.create",
        {"data": {"corpora": {"a": ["text"]}, "questions": [QUESTION]}},
        "corpora",
    ),
}
INDEX_CASES: dict[str, tuple[str, dict[str, Any], str]] = {
    "empty id": ("LexicalIndex.addDocument", {"id": "", "text": "t"}, "id"),
    "text not a string": ("LexicalIndex.addDocument", {"id": "b", "text": 5}, "text"),
    "metadata a list": (
        "LexicalIndex.addDocument",
        {"id": "b", "text": "t", "metadata": [1]},
        "metadata",
    ),
    "docs not a list": ("LexicalIndex.addDocuments", {"docs": "t"}, "docs"),
    "docs entry without text": ("LexicalIndex.addDocuments", {"docs": [{"id": "b"}]}, "docs"),
    "docs entry empty id": (
        "LexicalIndex.addDocuments",
        {"docs": [{"id": "", "text": "t"}]},
        "docs",
    ),
    "joined lengths": (
        "LexicalIndex.addDocuments",
        {"docs": [{"id": "b"}], "lengths": [3], "text": "ab"},
        "docs",
    ),
    "remove id": ("LexicalIndex.removeDocument", {"id": None}, "id"),
    "query": ("LexicalIndex.search", {"query": 3}, "query"),
    "topK": ("LexicalIndex.search", {"query": "a", "topK": 0}, "top_k"),
    "match": ("LexicalIndex.search", {"query": "a", "options": {"match": "some"}}, "match"),
    "prefix": ("LexicalIndex.search", {"query": "a", "options": {"prefix": 1}}, "prefix"),
    "snippet": ("LexicalIndex.search", {"query": "a", "options": {"snippet": 3}}, "snippet"),
}


@pytest.mark.parametrize(("operation", "args", "field"), CASES.values(), ids=CASES.keys())
def test_each_error_names_its_argument(operation, args, field):
    error = error_of(operation, args)
    assert error["field"] == field, error
    assert error["name"] in ("RangeError", "TypeError")


@pytest.mark.parametrize(
    ("operation", "args", "field"), INDEX_CASES.values(), ids=INDEX_CASES.keys()
)
def test_each_index_error_names_its_argument(operation, args, field):
    error = index_call(operation, args)
    assert error["field"] == field, error
