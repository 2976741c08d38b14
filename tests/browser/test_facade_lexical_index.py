"""`api.LexicalIndex` and `api.matchSpans` through web/chunker.js in Chromium: every case of
lexical_index.json replayed step by step through the facade, many indexes at once,
dispose, bad input, and texts that cross joined (characters outside the BMP, lone
surrogates)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from support.fixture_cases import load
from support.lexical_index_steps import ANSWERING

from chunker import LexicalIndex, match_spans

# Replays a case of lexical_index.json (`c`) in the page; answers each step's answer.
REPLAY = """async (json) => {
  const answers = [];
  for (const c of JSON.parse(json)) {
    let index = new api.LexicalIndex(c.options);
    const got = [];
    for (const step of c.steps) {
      let answer = null;
      if (step.op === 'add') await index.addDocument(step.id, step.text, step.metadata);
      else if (step.op === 'addDocuments') await index.addDocuments(step.docs);
      else if (step.op === 'remove') answer = await index.removeDocument(step.id);
      else if (step.op === 'stats') answer = await index.stats();
      else if (step.op === 'search') {
        answer = await index.search(step.query, step.topK,
          { match: step.match, prefix: step.prefix });
      } else if (step.op === 'restore') {
        const saved = JSON.parse(JSON.stringify(await index.toJSON()));
        await index.dispose();
        index = await api.LexicalIndex.fromJSON(saved);
      }
      got.push(answer);
    }
    await index.dispose();
    answers.push(got);
  }
  return JSON.stringify(answers);
}"""


def assert_same_answer(got: Any, expected: Any, where: str) -> None:
    """Equal, but for scores and mean lengths to 1e-9 (Pyodide's `log` is not CPython's)."""
    if isinstance(expected, list):
        assert [hit["id"] for hit in got] == [hit["id"] for hit in expected], where
        for mine, theirs in zip(got, expected):
            assert mine["score"] == pytest.approx(theirs["score"], rel=1e-9), where
            assert mine.get("metadata") == theirs.get("metadata"), where
            assert set(mine) == set(theirs), where
    elif isinstance(expected, dict):
        assert got == pytest.approx(expected, rel=1e-9), where
    else:
        assert got == expected, where


def test_every_lexical_index_case_through_the_facade(chunker_page):
    cases = load("lexical_index.json")
    answers = json.loads(chunker_page.evaluate(REPLAY, json.dumps(cases)))
    compared = 0
    for case, got in zip(cases, answers, strict=True):
        for number, (step, answer) in enumerate(zip(case["steps"], got, strict=True)):
            if step["op"] in ANSWERING:
                assert_same_answer(answer, step["expected"], f"{case['id']} step {number}")
                compared += 1
    assert compared > 100


def test_many_indexes_live_at_once_and_dispose_frees_one(chunker_page):
    got = chunker_page.evaluate(
        """async () => {
          const a = new api.LexicalIndex(), b = new api.LexicalIndex({ k1: 2, b: 0 });
          await Promise.all([a.addDocument('x', 'apples and pears'),
                             b.addDocument('y', 'pears only')]);
          const before = [await a.search('pears'), await b.search('pears')];
          const freed = [await a.dispose(), await a.dispose()];
          let after;
          try { await a.search('pears'); } catch (e) { after = [e.constructor.name, e.message]; }
          const still = await b.search('pears');
          const stats = await b.stats();
          await b.dispose();
          return { before, freed, after, still, stats };
        }"""
    )
    assert [[hit["id"] for hit in hits] for hits in got["before"]] == [["x"], ["y"]]
    assert got["freed"] == [True, True]  # the same promise: freed once
    assert got["after"][0] == "Error" and "disposed" in got["after"][1]
    assert got["still"] == got["before"][1]
    assert got["stats"] == {"documentCount": 1, "termCount": 2, "avgDocLength": 2}


def test_a_call_in_flight_when_disposed_rejects_naming_the_index(chunker_page):
    got = chunker_page.evaluate(
        """async () => {
          const index = new api.LexicalIndex();
          const pending = index.addDocument('x', 'text');  // sent before dispose
          const disposed = index.dispose();
          const late = index.search('text').then(() => 'answered', (e) => e.message);
          return [await pending.then(() => 'added', (e) => e.message), await disposed,
                  await late];
        }"""
    )
    assert got[0] == "added" and got[1] is True and "disposed" in got[2]


# Each expression rejects; the error must be what Python raises for the same input.
BAD_INPUT = [
    ("new api.LexicalIndex({ k1: -1 }).search('x')", lambda: LexicalIndex(k1=-1)),
    ("new api.LexicalIndex({ b: 'x' }).stats()", lambda: LexicalIndex(b="x")),
    (
        "(async () => { const i = new api.LexicalIndex(); await i.addDocument('', 't'); })()",
        lambda: LexicalIndex().add_document("", "t"),
    ),
    (
        "(async () => { const i = new api.LexicalIndex(); await i.addDocument('a', 5); })()",
        lambda: LexicalIndex().add_document("a", 5),
    ),
    (
        "new api.LexicalIndex().addDocuments([{ id: 'a', text: 'ok' }, { id: 'b', text: 7 }])",
        lambda: LexicalIndex().add_documents([{"id": "a", "text": "ok"}, {"id": "b", "text": 7}]),
    ),
    (
        "new api.LexicalIndex().addDocuments([{ id: 'a', text: 'ok' }, { id: '', text: 'x' }])",
        lambda: LexicalIndex().add_documents([{"id": "a", "text": "ok"}, {"id": "", "text": "x"}]),
    ),
    ("new api.LexicalIndex().addDocuments('text')", lambda: LexicalIndex().add_documents("text")),
    ("new api.LexicalIndex().search(null)", lambda: LexicalIndex().search(None)),
    ("new api.LexicalIndex().search('x', 0)", lambda: LexicalIndex().search("x", 0)),
    (
        "new api.LexicalIndex().search('x', 10, { match: 'some' })",
        lambda: LexicalIndex().search("x", match="some"),
    ),
    (
        "new api.LexicalIndex().search('x', 10, { prefix: 'yes' })",
        lambda: LexicalIndex().search("x", prefix="yes"),
    ),
    (
        "api.LexicalIndex.fromJSON({ version: 2, k1: 1.2, b: 0.75, documents: [] })",
        lambda: LexicalIndex.from_json({"version": 2, "k1": 1.2, "b": 0.75, "documents": []}),
    ),
    ("api.matchSpans('text', 'word')", lambda: match_spans("text", "word")),
]


@pytest.mark.parametrize(("expression", "python"), BAD_INPUT, ids=range(len(BAD_INPUT)))
def test_bad_input_rejects_with_pythons_message(chunker_page, expression, python):
    with pytest.raises((ValueError, TypeError)) as raised:
        python()
    name, message, field = chunker_page.evaluate(
        f"{expression}.then(() => null, (e) => [e.constructor.name, e.message, e.field])"
    )
    assert name == ("RangeError" if isinstance(raised.value, ValueError) else "TypeError")
    assert message == str(raised.value)
    assert field == raised.value.field  # never missing: each error names its argument


def test_an_unknown_option_is_named(chunker_page):
    name, message = chunker_page.evaluate(
        "new api.LexicalIndex({ k2: 1 }).stats().then(() => null, (e) => [e.name, e.message])"
    )
    assert name == "TypeError" and "k2" in message and "k1" in message


ASTRAL_DOCS = [
    {"id": "emoji", "text": "😀 refund 😀 card"},
    {"id": "math", "text": "𝐀𝐁𝐂 refund"},
    {"id": "lone-high", "text": "refund \ud83d"},
    {"id": "lone-low", "text": "\ude00 card refund"},
    {"id": "plain", "text": "card"},
]


def test_texts_cross_joined_and_answer_as_in_cpython(chunker_page):
    # The lone surrogates would make one character if joined: chunker.js sends those apart.
    for docs in (ASTRAL_DOCS, [doc for doc in ASTRAL_DOCS if "lone" not in doc["id"]]):
        index = LexicalIndex()
        index.add_documents(docs)
        got = json.loads(
            chunker_page.evaluate(
                """async (docs) => {
                  const index = new api.LexicalIndex();
                  await index.addDocuments(docs);
                  const answer = [await index.search('refund card', 10),
                                  await index.search('𝐀', 10, { prefix: true }),
                                  await index.toJSON()];
                  await index.dispose();
                  return JSON.stringify(answer);
                }""",
                docs,
            )
        )
        assert [hit["id"] for hit in got[0]] == [h.id for h in index.search("refund card")]
        assert [hit["id"] for hit in got[1]] == [h.id for h in index.search("𝐀", prefix=True)]
        assert got[2] == json.loads(json.dumps(index.to_json()))


def test_match_spans_slice_the_words_in_javascript(chunker_page):
    text = "😀 Refund, 𝐀𝐁𝐂 refunds; e\u0301clair Éclairs"
    got = chunker_page.evaluate(
        """async (text) => {
          const spans = await api.matchSpans(text, ['refund', '𝐀', 'éclair']);
          return spans.map(({ start, end }) => text.slice(start, end));
        }""",
        text,
    )
    assert got == ["Refund", "𝐀𝐁𝐂", "refunds", "e\u0301clair", "Éclairs"]


def test_a_search_with_snippets_answers_what_snippet_around_and_match_spans_do(chunker_page):
    # One round trip for a hit's snippet and its marks: the same answers as the two calls.
    got = chunker_page.evaluate(
        """async (docs) => {
          const index = new api.LexicalIndex();
          await index.addDocuments(docs);
          const words = await api.lexicalTokens('refund 𝐀 card');
          const answers = [];
          for (const snippet of [true, { before: 2, after: 5 }]) {
            const hits = await index.search('refund 𝐀 card', 10, { prefix: true, snippet });
            const options = snippet === true ? undefined : snippet;
            for (const hit of hits) {
              const text = docs.find((doc) => doc.id === hit.id).text;
              const alone = await api.snippetAround(text, words, options);
              const spans = await api.matchSpans(alone.text, words);
              answers.push([hit.snippet, { ...alone, spans },
                            hit.snippet.spans.map(({ start, end }) =>
                              hit.snippet.text.slice(start, end))]);
            }
          }
          const plain = await index.search('refund 𝐀 card', 10, { prefix: true });
          await index.dispose();
          return { answers, plain };
        }""",
        ASTRAL_DOCS,
    )
    assert len(got["answers"]) == 2 * len(got["plain"]) >= 8
    for from_search, from_calls, marked in got["answers"]:
        assert from_search == from_calls
        assert marked and all(word.lower().startswith(("refund", "𝐀", "card")) for word in marked)
    assert all("snippet" not in hit for hit in got["plain"])


def test_calls_sent_before_the_index_is_made_reject_with_the_reason(chunker_page):
    # The page names its indexes, so calls go out at once; a bad option is still the answer.
    got = chunker_page.evaluate(
        """async () => {
          const bad = new api.LexicalIndex({ k1: -1 });
          const answers = await Promise.all([
            bad.addDocument('a', 'text'), bad.search('text'), bad.stats(),
          ].map((call) => call.then(() => 'answered', (e) => [e.constructor.name, e.message])));
          const good = new api.LexicalIndex();
          const added = good.addDocument('a', 'text');  // before it is made
          const hits = await good.search('text');
          return { answers, freed: [await bad.dispose(), await good.dispose()],
                   hits: hits.map((hit) => hit.id), added: await added.then(() => 'added') };
        }"""
    )
    with pytest.raises(ValueError) as raised:
        LexicalIndex(k1=-1)
    assert got["answers"] == [["RangeError", str(raised.value)]] * 3
    assert got["freed"] == [False, True]  # never made: nothing to free
    assert got["hits"] == ["a"] and got["added"] == "added"
