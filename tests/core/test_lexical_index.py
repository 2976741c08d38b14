"""`LexicalIndex` and `match_spans`: the fixtures from the rules, bad input, and properties
(the index answers as BM25 computed straight from the rules, survives `to_json`, forgets a
removed document entirely)."""

from __future__ import annotations

import json
import math
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.bm25_reference import reference_search, reference_stats
from support.fixture_cases import load, params
from support.lexical_index_steps import ANSWERING, index_answers

import chunker
from chunker import LexicalHit, LexicalIndex, lexical_tokens, match_spans, snippet_around
from chunker.search.lexical import word_re


@pytest.mark.parametrize("case", params("lexical_index.json"))
def test_lexical_index_rules(case):
    answers = index_answers(case)
    for number, (step, answer) in enumerate(zip(case["steps"], answers)):
        if step["op"] in ANSWERING:
            assert answer == step["expected"], f"step {number}: {step}"


def test_the_fixtures_hold_every_kind_of_step():
    steps = [step for case in load("lexical_index.json") for step in case["steps"]]
    searches = [step for step in steps if step["op"] == "search"]
    assert {step.get("match", "any") for step in searches} == {"any", "all"}
    assert any(step.get("prefix") for step in searches)
    assert sum(1 for step in steps if step["op"] == "restore") >= 2
    assert any(step["expected"] is False for step in steps if step["op"] == "remove")
    assert sum(1 for step in searches if step["expected"]) > 50


@pytest.mark.parametrize("case", params("match_spans.json"))
def test_match_spans_rules(case):
    assert match_spans(case["text"], case["words"]) == [tuple(span) for span in case["expected"]]


def test_names_are_exported_lazily():
    for name in ("LexicalIndex", "LexicalHit", "LexicalIndexStats", "match_spans"):
        assert name in chunker.__all__ and getattr(chunker, name) is not None


def test_hit_to_dict_leaves_out_missing_metadata():
    assert LexicalHit("a", 1.5).to_dict() == {"id": "a", "score": 1.5}
    assert LexicalHit("a", 1.5, {}).to_dict() == {"id": "a", "score": 1.5, "metadata": {}}
    with pytest.raises(AttributeError):
        LexicalHit("a", 1.5).score = 2  # type: ignore[misc]


def test_stats_read_as_the_original_and_as_python():
    index = LexicalIndex()
    index.add_documents([{"id": "a", "text": "x y"}, {"id": "b", "text": "x y z w"}])
    stats = index.stats()
    assert (stats.document_count, stats.term_count, stats.average_length) == (2, 4, 3.0)
    assert stats["documentCount"] == 2 and stats.to_dict()["avgDocLength"] == 3.0
    assert len(index) == 2 and "a" in index and "c" not in index


def test_neither_caller_nor_hit_changes_the_stored_metadata():
    metadata = {"source": "a.md"}
    index = LexicalIndex()
    index.add_document("a", "word", metadata)
    metadata["source"] = "changed"
    hit = index.search("word")[0]
    hit.metadata["source"] = "changed too"
    assert index.search("word")[0].metadata == {"source": "a.md"}


def test_a_custom_tokenizer_is_used_for_documents_and_queries():
    index = LexicalIndex(tokenize=str.split)
    index.add_document("a", "Refund refund")
    assert [hit.id for hit in index.search("Refund")] == ["a"]
    assert index.search("REFUND") == [] and index.stats().term_count == 2
    again = LexicalIndex.from_json(index.to_json(), tokenize=str.split)
    assert again.search("Refund") == index.search("Refund")


def test_to_json_is_plain_json_with_a_version():
    index = LexicalIndex(k1=1.5, b=0.5)
    index.add_document("a", "x x y", {"n": 1})
    data = index.to_json()
    assert json.loads(json.dumps(data)) == data
    assert data == {
        "version": 1,
        "k1": 1.5,
        "b": 0.5,
        "documents": [{"id": "a", "terms": {"x": 2, "y": 1}, "metadata": {"n": 1}}],
    }
    again = LexicalIndex.from_json(data)
    assert (again.k1, again.b) == (1.5, 0.5)


@pytest.mark.parametrize("version", [0, 2, "1", None, True, 1.5])
def test_from_json_names_a_version_it_cannot_read(version):
    data = {**LexicalIndex().to_json(), "version": version}
    with pytest.raises(ValueError, match=f"version {version!r}"):
        LexicalIndex.from_json(data)


def test_from_json_without_a_version_says_so():
    with pytest.raises(ValueError, match="version None"):
        LexicalIndex.from_json({"documents": []})


GOOD = {"version": 1, "k1": 1.2, "b": 0.75}
BAD_JSON = [
    ([], TypeError, "data must be"),
    ({"version": 1}, ValueError, "'k1'"),
    ({**GOOD, "documents": {}}, TypeError, r"data\['documents'\]"),
    ({**GOOD, "documents": [3]}, TypeError, r"data\['documents'\]\[0\] must be a mapping"),
    ({**GOOD, "documents": [{"id": "", "terms": {}}]}, ValueError, r"\[0\]\['id'\]"),
    (
        {**GOOD, "documents": [{"id": "a", "terms": {}}, {"id": "a", "terms": {}}]},
        ValueError,
        r"\[1\]\['id'\]",
    ),
    ({**GOOD, "documents": [{"id": "a", "terms": {"x": 0}}]}, ValueError, "counts >= 1"),
    ({**GOOD, "documents": [{"id": "a", "terms": {"x": True}}]}, ValueError, "counts >= 1"),
    ({**GOOD, "documents": [{"id": "a", "terms": {}, "metadata": 3}]}, TypeError, "metadata"),
    ({**GOOD, "documents": [{"id": 5, "terms": {}}]}, TypeError, r"\[0\]\['id'\] must be a string"),
    ({**GOOD, "documents": [{"id": "a", "terms": 3}]}, TypeError, r"\['terms'\] must be a mapping"),
    ({**GOOD, "k1": -1, "documents": []}, ValueError, "k1 -1"),
]


@pytest.mark.parametrize(("data", "error", "pattern"), BAD_JSON, ids=range(len(BAD_JSON)))
def test_from_json_names_what_is_wrong(data, error, pattern):
    with pytest.raises(error, match=pattern) as raised:
        LexicalIndex.from_json(data)
    assert raised.value.field == "data"  # the one argument, whichever part of it is wrong


def _index() -> LexicalIndex:
    index = LexicalIndex()
    index.add_document("a", "some words")
    return index


BAD_INPUT = [
    (lambda: LexicalIndex(k1=-0.1), ValueError, ["k1", "-0.1"]),
    (lambda: LexicalIndex(k1=math.nan), ValueError, ["k1", "nan"]),
    (lambda: LexicalIndex(k1="1"), TypeError, ["k1", "str"]),
    (lambda: LexicalIndex(b=1.5), ValueError, ["b", "1.5"]),
    (lambda: LexicalIndex(b=True), TypeError, ["b", "True"]),
    (lambda: LexicalIndex(tokenize="words"), TypeError, ["tokenize", "str"]),
    (
        lambda: LexicalIndex(tokenize=lambda text: "x").add_document("a", "t"),
        TypeError,
        ["tokenize", "text"],
    ),
    (lambda: _index().add_document("", "text"), ValueError, ["id", "empty"]),
    (lambda: _index().add_document(3, "text"), TypeError, ["id", "int", "3"]),
    (lambda: _index().add_document(None, "text"), TypeError, ["id", "None"]),
    (lambda: _index().add_document("b", None), TypeError, ["text", "None"]),
    (lambda: _index().add_document("b", b"text"), TypeError, ["text", "bytes"]),
    (lambda: _index().add_document("b", ""), ValueError, ["text", "empty"]),
    (lambda: _index().add_document("b", "t", ["x"]), TypeError, ["metadata", "list"]),
    (lambda: _index().add_documents("text"), TypeError, ["docs", "str"]),
    (lambda: _index().add_documents({"id": "a", "text": "t"}), TypeError, ["docs", "dict"]),
    (lambda: _index().add_documents([{"id": "b"}]), ValueError, ["docs[0]", "'text'"]),
    (lambda: _index().add_documents([{"id": "b", "text": "t"}, 5]), TypeError, ["docs[1]", "5"]),
    (lambda: _index().add_documents([{"id": "", "text": "t"}]), ValueError, ["docs[0]['id']"]),
    (lambda: _index().add_documents([{"id": "b", "text": 7}]), TypeError, ["docs[0]['text']", "7"]),
    (lambda: _index().remove_document(None), TypeError, ["id", "None"]),
    (lambda: _index().search(None), TypeError, ["query", "None"]),
    (lambda: _index().search(["words"]), TypeError, ["query", "list"]),
    (lambda: _index().search("words", 0), ValueError, ["top_k", "0"]),
    (lambda: _index().search("words", -3), ValueError, ["top_k", "-3"]),
    (lambda: _index().search("words", 2.5), TypeError, ["top_k", "2.5"]),
    (lambda: _index().search("words", True), TypeError, ["top_k", "True"]),
    (lambda: _index().search("words", match="some"), ValueError, ["match", "'some'"]),
    (lambda: _index().search("words", match=None), ValueError, ["match", "None"]),
    (lambda: _index().search("words", prefix="yes"), TypeError, ["prefix", "'yes'"]),
    (lambda: match_spans(None, ["a"]), TypeError, ["text", "None"]),
    (lambda: match_spans("text", "a"), TypeError, ["words", "str"]),
    (lambda: match_spans("text", ["a", 3]), TypeError, ["words[1]", "3"]),
]


@pytest.mark.parametrize(("call", "error", "words"), BAD_INPUT, ids=range(len(BAD_INPUT)))
def test_bad_input_names_argument_and_value(call, error, words):
    with pytest.raises(error) as raised:
        call()
    for word in words:
        assert word in str(raised.value)


def test_a_bad_document_in_a_batch_adds_none_of_it():
    index = _index()
    before = index.to_json()
    with pytest.raises(TypeError):
        index.add_documents([{"id": "a", "text": "replaced"}, {"id": "b", "text": None}])
    assert index.to_json() == before


# ─── properties ───

WORDS = [
    "a",
    "ab",
    "abc",
    "b",
    "ba",
    "Résumé",
    "re\u0301sume\u0301s",
    "ΟΔΟΣ",
    "οδοσ",
    "東京",
    "😀x",
]
texts = st.lists(st.sampled_from([*WORDS, "!", " ", "'", "_"]), max_size=12).map("".join)
document_texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=10).map(" ".join) | texts
ids = st.sampled_from(["a", "b", "c", "d", "e", "f"])
docs = st.lists(st.tuples(ids, document_texts.filter(bool)), max_size=12)
queries = st.lists(st.sampled_from([*WORDS, "z", "Re", "ο", "東"]), max_size=4).map(" ".join)
search_options = st.fixed_dictionaries(
    {
        "top_k": st.integers(1, 8),
        "match": st.sampled_from(["any", "all"]),
        "prefix": st.booleans(),
    }
)
parameters = st.fixed_dictionaries(
    {"k1": st.sampled_from([0.0, 0.5, 1.2, 3.0]), "b": st.sampled_from([0.0, 0.3, 0.75, 1.0])}
)


def built(added: list[tuple[str, str]], **parameters: float) -> LexicalIndex:
    index = LexicalIndex(**parameters)
    for id, text in added:
        index.add_document(id, text, {"id": id} if id in "ace" else None)
    return index


def answers(index: LexicalIndex, query: str, options: dict) -> list[dict]:
    return [hit.to_dict() for hit in index.search(query, **options)]


@settings(max_examples=300, deadline=None)
@given(docs, queries, search_options, parameters)
def test_the_index_answers_as_bm25_from_the_rules(added, query, options, params_):
    index = built(added, **params_)
    documents: list = []
    for id, text in added:
        documents = [entry for entry in documents if entry[0] != id]
        documents.append((id, lexical_tokens(text), {"id": id} if id in "ace" else None))
    expected = reference_search(
        documents,
        lexical_tokens(query),
        options["top_k"],
        match=options["match"],
        prefix=options["prefix"],
        **params_,
    )
    assert answers(index, query, options) == expected
    assert index.stats().to_dict() == reference_stats(documents)


@settings(max_examples=200, deadline=None)
@given(docs, queries, search_options, parameters)
def test_from_json_of_to_json_answers_the_same(added, query, options, params_):
    index = built(added, **params_)
    again = LexicalIndex.from_json(json.loads(json.dumps(index.to_json())))
    assert answers(again, query, options) == answers(index, query, options)
    assert again.stats() == index.stats() and again.to_json() == index.to_json()
    # And it goes on as the index would: a document added to both ties the same way.
    index.add_document("new", "ab b 東京")
    again.add_document("new", "ab b 東京")
    assert answers(again, query, options) == answers(index, query, options)


@settings(max_examples=200, deadline=None)
@given(docs, st.data(), queries, search_options)
def test_removing_a_document_leaves_no_trace(added, data, query, options):
    index = built(added)
    present = list(dict.fromkeys(id for id, _ in added))
    removed = data.draw(st.sampled_from([*present, "never-added"]))
    assert index.remove_document(removed) is (removed in present)
    without = built([(id, text) for id, text in added if id != removed])
    assert index.to_json() == without.to_json()
    assert index.stats() == without.stats() and len(index) == len(without)
    assert answers(index, query, options) == answers(without, query, options)
    assert index.search(query, prefix=True) == without.search(query, prefix=True)


@settings(max_examples=200, deadline=None)
@given(docs, ids, document_texts.filter(bool), queries, search_options)
def test_adding_again_replaces(added, id, text, query, options):
    index = built(added)
    index.add_document(id, text)
    replaced = built([entry for entry in added if entry[0] != id] + [(id, text)])
    replaced.add_document(id, text)  # its metadata is None, as the one added above
    assert index.to_json() == replaced.to_json()
    assert answers(index, query, options) == answers(replaced, query, options)


@settings(deadline=None)
@given(texts, st.lists(st.sampled_from([*WORDS, "", "Ο", "RE", "x"]), max_size=3))
def test_match_spans_are_the_words_snippet_around_would_find(text, words):
    spans = match_spans(text, words)
    starts = {match.start(): match.end() for match in word_re().finditer(text)}
    prefixes = [unicodedata.normalize("NFC", w).lower() for w in words if w]
    for start, end in spans:
        assert starts.get(start) == end, "a whole word"
        folded = unicodedata.normalize("NFC", text[start:end]).lower()
        assert folded.startswith(tuple(prefixes))
    expected = [
        (start, end)
        for start, end in starts.items()
        if unicodedata.normalize("NFC", text[start:end]).lower().startswith(tuple(prefixes))
    ]
    assert spans == expected, "every matching word, in order"
    assert snippet_around(text, words).at == (spans[0][0] if spans else -1)


@given(st.text(st.characters(max_codepoint=127)))
def test_ascii_texts_read_the_same_words_by_the_fast_path(text):
    assert lexical_tokens(text) == word_re().findall(text.lower())
