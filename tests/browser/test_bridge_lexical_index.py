"""The bridge's index operations in CPython, as the worker calls them: indexes by id, texts
that come joined with their lengths, dispose, and the offsets of matchSpans and of search's
snippets, in Python's units (chunker-utf16.js converts them: the browser tests check that)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.offsets import as_javascript, js_length, utf16le
from support.reply import read_reply

from chunker import LexicalIndex, lexical_tokens, match_spans, snippet_around
from chunker.bridge import JsString, handle


def call(operation: str, args: dict[str, Any], text: str | None = None, key: str = "text") -> Any:
    """What the facade gets: the result, or raises the error reply as (name, message)."""
    given, text_key = None, None
    if text is not None:
        given = JsString.from_utf16(utf16le(text))
        text_key = key
    reply = read_reply(handle(operation, json.dumps(args), text_key, given))
    if "error" in reply[2]:
        error = reply[2]["error"]
        # Every error the facade is sent names its argument (browser/test_bridge_error_fields.py).
        assert isinstance(error["field"], str), error
        raise LookupError(error["name"], error["message"])
    return reply[2]["result"]


def joined(docs: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
    """The arguments chunker.js sends for `addDocuments(docs)`, and the text beside them:
    each length in characters as the worker reads the text (a pair of surrogates one)."""
    lengths = [len(as_javascript(doc["text"])) for doc in docs]
    rest = [{key: value for key, value in doc.items() if key != "text"} for doc in docs]
    return {"docs": rest, "lengths": lengths}, "".join(doc["text"] for doc in docs)


def test_indexes_live_by_id_until_disposed():
    first = call("LexicalIndex.create", {"options": {"k1": 2.0, "b": 0.5}})
    second = call("LexicalIndex.create", {})
    assert first != second
    call("LexicalIndex.addDocument", {"index": first, "id": "a", "metadata": {"n": 1}}, "x y")
    assert call("LexicalIndex.stats", {"index": second})["documentCount"] == 0
    saved = call("LexicalIndex.toJSON", {"index": first})
    assert saved["k1"] == 2.0 and saved["documents"][0]["metadata"] == {"n": 1}
    restored = call("LexicalIndex.fromJSON", {"data": saved})
    query = {"query": "x", "topK": 3, "options": {"match": "all", "prefix": None}}
    assert call("LexicalIndex.search", {"index": restored, **query}) == call(
        "LexicalIndex.search", {"index": first, **query}
    )
    assert call("LexicalIndex.removeDocument", {"index": first, "id": "a"}) is True
    for index in (first, second, restored):
        assert call("LexicalIndex.dispose", {"index": index}) is True
        assert call("LexicalIndex.dispose", {"index": index}) is False
        with pytest.raises(LookupError) as raised:
            call("LexicalIndex.search", {"index": index, "query": "x"})
        name, message = raised.value.args
        assert name == "RangeError" and f"no LexicalIndex {index}" in message


@pytest.mark.parametrize("index", [None, "1", 1.5, True, -1])
def test_an_index_that_is_not_one_is_named(index):
    with pytest.raises(LookupError, match="no LexicalIndex"):
        call("LexicalIndex.stats", {"index": index})


PIECES = ["a", "b", " ", "😀", "𝐀", "é", "e\u0301", "\ud83d", "\ude00", "東"]
texts = st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map("".join)


@settings(deadline=None)  # the first call reads Unicode's marks: slow under a loaded machine
@given(st.lists(texts, min_size=1, max_size=6))
def test_texts_joined_with_their_lengths_come_apart_whole(parts):
    # chunker.js joins texts only when none ends in a high surrogate, which the next text's
    # first unit could complete; the bridge must then find each text exactly.
    parts = [part for part in parts if not "\ud800" <= part[-1] <= "\udbff"] or ["a"]
    docs = [{"id": f"d{number}", "text": part} for number, part in enumerate(parts)]
    args, text = joined(docs)
    index = call("LexicalIndex.create", {})
    call("LexicalIndex.addDocuments", {"index": index, **args}, text)
    expected = LexicalIndex()
    expected.add_documents(docs)
    assert call("LexicalIndex.toJSON", {"index": index}) == expected.to_json()
    call("LexicalIndex.dispose", {"index": index})


def test_joined_texts_that_do_not_add_up_are_refused():
    index = call("LexicalIndex.create", {})
    with pytest.raises(LookupError, match="lengths"):
        call(
            "LexicalIndex.addDocuments",
            {"index": index, "docs": [{"id": "a"}], "lengths": [2]},
            "abc",
        )
    assert call("LexicalIndex.stats", {"index": index})["documentCount"] == 0


def test_a_joined_batch_with_a_bad_document_names_it_and_adds_none():
    index = call("LexicalIndex.create", {})
    args, text = joined([{"id": "a", "text": "ok"}, {"id": "", "text": "no"}])
    with pytest.raises(LookupError, match=r"docs\[1\]\['id'\]"):
        call("LexicalIndex.addDocuments", {"index": index, **args}, text)
    assert call("LexicalIndex.stats", {"index": index})["documentCount"] == 0


@settings(deadline=None)
@given(texts, st.lists(st.sampled_from(["a", "😀", "𝐀", "é", "東", "b"]), max_size=3))
def test_match_spans_in_python_offsets(text, words):
    got = call("matchSpans", {"words": words}, text)
    read = as_javascript(text)
    assert got == [{"start": start, "end": end} for start, end in match_spans(read, words)]


def expected_snippet(text: str, words: list[str], **around: int) -> dict[str, Any]:
    """What search's `snippet` option should answer for a hit on `text`, from the Python
    functions themselves: Python's offsets, and the characters outside the BMP before `at`
    (the UTF-16 units before it, less its code points)."""
    snippet = snippet_around(text, words, **around)
    before = text[: max(snippet.at, 0)]
    return {
        "at": snippet.at,
        "text": snippet.text,
        "spans": [{"start": start, "end": end} for start, end in match_spans(snippet.text, words)],
        "astralBefore": js_length(before) - len(before),
    }


@settings(deadline=None)
@given(
    st.lists(texts, min_size=1, max_size=6),
    st.lists(st.sampled_from(["a", "b", "😀", "𝐀", "é", "東", "ab"]), min_size=1, max_size=3),
    st.sampled_from([True, {"before": 1, "after": 2}, {"after": 0}]),
    st.booleans(),
)
def test_a_search_with_snippets_answers_each_hit_with_its_snippet_and_spans(
    parts, words, snippet, prefix
):
    parts = [part for part in parts if not "\ud800" <= part[-1] <= "\udbff"] or ["a"]
    docs = [{"id": f"d{number}", "text": part} for number, part in enumerate(parts)]
    args, text = joined(docs)
    index = call("LexicalIndex.create", {})
    call("LexicalIndex.addDocuments", {"index": index, **args}, text)
    query = " ".join(words)
    plain = {"index": index, "query": query, "topK": 10, "options": {"prefix": prefix}}
    hits = call("LexicalIndex.search", plain)
    with_snippets = call(
        "LexicalIndex.search", {**plain, "options": {"prefix": prefix, "snippet": snippet}}
    )
    # The same hits, each with the snippet of its text.
    assert [{k: v for k, v in hit.items() if k != "snippet"} for hit in with_snippets] == hits
    around = {} if snippet is True else snippet
    # As the worker reads each text: two halves of a pair, side by side, are one character.
    by_id = {doc["id"]: as_javascript(doc["text"]) for doc in docs}
    for hit in with_snippets:
        expected = expected_snippet(by_id[hit["id"]], lexical_tokens(query), **around)
        assert hit["snippet"] == expected
    call("LexicalIndex.dispose", {"index": index})


def test_snippets_follow_the_documents_as_they_are_replaced_removed_and_restored():
    index = call("LexicalIndex.create", {})
    call(
        "LexicalIndex.addDocument",
        {"index": index, "id": "a", "metadata": {"n": 1}},
        "old refund text",
    )
    call(
        "LexicalIndex.addDocuments",
        {
            "index": index,
            "docs": [{"id": "a", "text": "a new 😀 refund"}, {"id": "b", "text": "refund b"}],
        },
    )
    assert call("LexicalIndex.removeDocument", {"index": index, "id": "b"}) is True
    query = {"query": "refund", "options": {"snippet": True}}
    [hit] = call("LexicalIndex.search", {"index": index, **query})
    assert hit["snippet"] == expected_snippet("a new 😀 refund", ["refund"])
    assert hit["snippet"]["spans"] == [{"start": 8, "end": 14}]
    # The word is at 8, after one emoji: 9 in JavaScript, which chunker.js works out.
    assert (hit["snippet"]["at"], hit["snippet"]["astralBefore"]) == (8, 1)
    # A restored index keeps no texts: its hits say they have no snippet.
    saved = call("LexicalIndex.toJSON", {"index": index})
    restored = call("LexicalIndex.fromJSON", {"data": saved})
    [hit] = call("LexicalIndex.search", {"index": restored, **query})
    assert hit == {"id": "a", "score": hit["score"], "snippet": None}
    call("LexicalIndex.addDocument", {"index": restored, "id": "c"}, "refund c")
    hits = call("LexicalIndex.search", {"index": restored, **query})
    assert {h["id"]: h["snippet"] is not None for h in hits} == {"a": False, "c": True}


@pytest.mark.parametrize(
    ("snippet", "error", "words"),
    [
        (3, "TypeError", ["snippet must be true, false or {before, after}", "int 3"]),
        ("yes", "TypeError", ["snippet must be", "'yes'"]),
        ({"around": 1}, "TypeError", ["snippet", "around", "before, after"]),
        ({"before": -1}, "RangeError", ["invalid before -1"]),
        ({"after": 1.5}, "TypeError", ["after"]),
    ],
)
def test_a_bad_snippet_option_is_named(snippet, error, words):
    index = call("LexicalIndex.create", {})
    call("LexicalIndex.addDocument", {"index": index, "id": "a"}, "a refund")
    with pytest.raises(LookupError) as raised:
        call(
            "LexicalIndex.search",
            {"index": index, "query": "refund", "options": {"snippet": snippet}},
        )
    name, message = raised.value.args
    assert name == error and all(word in message for word in words), message


def test_the_facade_names_its_indexes_counting_up():
    last = call("LexicalIndex.create", {})
    assert call("LexicalIndex.create", {"index": last + 5}) == last + 5
    assert call("LexicalIndex.create", {}) == last + 6
    for taken in (last + 6, last, 0, -3, True, "9", 2.5):
        with pytest.raises(LookupError) as raised:
            call("LexicalIndex.create", {"index": taken})
        name, message = raised.value.args
        assert name in ("RangeError", "TypeError") and "invalid index" in message, message
    restored = call(
        "LexicalIndex.fromJSON",
        {"index": last + 9, "data": {"version": 1, "k1": 1.2, "b": 0.75, "documents": []}},
    )
    assert restored == last + 9
    for index in (last, last + 5, last + 6, last + 9):
        call("LexicalIndex.dispose", {"index": index})
