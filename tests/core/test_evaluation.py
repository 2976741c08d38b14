"""chunker.evaluation: the figures against a computation on character sets, hand cases,
retrieval equal to LexicalIndex.search, Chroma's set read, bad input named."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.paths import DATASETS

from chunker import LexicalIndex
from chunker.base.validation import ArgumentValueError
from chunker.evaluation import CorpusSpans, EvaluationSet, Question, evaluate, score, sweep

CHROMA = DATASETS / "chroma-general-evaluation"


def chars(spans):
    return {i for s, e in spans for i in range(s, e)}


def touches(a, b):
    return max(a[0], b[0]) <= min(a[1], b[1])


def oracle(question, retrieved, corpus_chunks):
    """docs/evaluation.md's definitions on sets of character positions."""
    excerpts = question.references
    own = [(s, e) for c, s, e in retrieved if c == question.corpus_id]
    found = chars(own) & chars(excerpts)
    rlen = sum(e - s for _, s, e in retrieved)
    elen = sum(e - s for s, e in excerpts)
    missed = sum(len(chars([x]) - chars(own)) for x in excerpts)
    touching = [c for c in corpus_chunks if any(touches(c, x) for x in excerpts)]
    top = len(chars(touching) & chars(excerpts))
    bottom = len(chars(touching) | chars(excerpts))
    div = lambda a, b: a / b if b else 0.0  # noqa: E731
    return (
        div(len(found), elen),
        div(len(found), rlen),
        div(len(found), rlen + missed),
        div(top, bottom),
    )


span = st.tuples(st.integers(0, 60), st.integers(0, 30)).map(lambda p: (p[0], p[0] + p[1]))


@settings(max_examples=300, deadline=None)
@given(
    excerpts=st.lists(span.filter(lambda s: s[0] < s[1]), min_size=1, max_size=4),
    chunks=st.lists(span, max_size=12),
    picks=st.lists(st.tuples(st.booleans(), st.integers(0, 11)), max_size=5),
)
def test_figures_equal_a_computation_on_character_sets(excerpts, chunks, picks):
    question = Question("q", "a", tuple(excerpts))
    # Chunks of the question's corpus by index, or one of another corpus at (0, 7).
    retrieved = [
        ("a", *chunks[i]) if own else ("b", 0, 7) for own, i in picks if i < len(chunks) or not own
    ]
    result = score(question, retrieved, chunks)
    got = (result.recall, result.precision, result.iou, result.precision_omega)
    assert got == pytest.approx(oracle(question, retrieved, chunks))


span = st.tuples(st.integers(0, 40), st.integers(0, 40))


@given(
    chunks=st.lists(span.map(sorted).map(tuple), max_size=12),  # any order, overlapping, empty
    ranges=st.lists(span, max_size=4),  # reversed ones too
)
def test_corpus_spans_finds_the_chunks_touching_as_a_visit_of_every_chunk_does(chunks, ranges):
    everyone = [c for c in chunks if any(s <= e and touches(c, (s, e)) for s, e in ranges)]
    assert CorpusSpans(chunks).touching(ranges) == everyone


def test_hand_cases():
    q = Question("q", "a", ((10, 20),))
    # A chunk touching the excerpt intersects with length 0: in precision_Omega's chunks.
    r = score(q, [("a", 0, 10)], [(0, 10), (10, 20)])
    assert (r.recall, r.precision, r.iou) == (0.0, 0.0, 0.0)
    assert r.precision_omega == pytest.approx(10 / 20)
    # Overlapping chunks count twice in precision; a chunk of another corpus counts in the sums.
    r = score(q, [("a", 10, 20), ("a", 15, 25), ("b", 10, 20)], [(10, 20), (15, 25)])
    assert r.recall == 1.0
    assert r.precision == pytest.approx(10 / 30)
    assert r.iou == pytest.approx(10 / 30)
    assert r.precision_omega == pytest.approx(10 / 15)
    # Nothing retrieved.
    r = score(q, [], [(12, 14)])
    assert (r.recall, r.precision, r.iou) == (0.0, 0.0, 0.0)
    assert r.precision_omega == pytest.approx(2 / 10)


def small_set():
    corpora = {"cats": "Cats purr softly. Cats sleep all day.", "dogs": "Dogs bark loudly."}
    return EvaluationSet(
        corpora,
        [Question("do cats sleep", "cats", ((18, 37),)), Question("bark", "dogs", ((0, 17),))],
    )


def test_retrieval_is_lexical_index_search_over_the_pool():
    data = small_set()
    chunks = {"cats": ["Cats purr softly.", "Cats sleep all day."], "dogs": ["Dogs bark loudly."]}
    report = evaluate(data, chunks=chunks, k=2)
    pool = [("cats", 0, 17), ("cats", 18, 37), ("dogs", 0, 17)]
    index = LexicalIndex()
    for i, (c, s, e) in enumerate(pool):
        index.add_document(str(i), data.corpora[c][s:e])
    for question, result in zip(data.questions, report.questions):
        hits = index.search(question.text, 2)
        assert result.retrieved == tuple(pool[int(h.id)] for h in hits)
        assert result.scores == tuple(h.score for h in hits)  # the retriever's own
    assert report.chunk_count == 3 and report.max_chunk_length == 19
    assert report.to_dict()["questions"][1]["retrieved"][0] == {
        "corpusId": "dogs",
        "start": 0,
        "end": 17,
        "score": report.questions[1].scores[0],
    }


def test_json_round_trip_and_records():
    data = small_set()
    assert EvaluationSet.from_json(data.to_json()) == data
    by_records = evaluate(data, strategy="fixed", chunk_size=20, chunk_overlap=0)
    from chunker.recipe import Recipe

    recipe = Recipe("fixed", {"chunk_size": 20, "chunk_overlap": 0})
    given = {cid: recipe.cut(text) for cid, text in data.corpora.items()}
    assert evaluate(data, chunks=given).questions == by_records.questions


def test_cosine_retrieval_ties_by_position():
    data = small_set()
    report = evaluate(
        data,
        chunks={"cats": [(0, 17), (18, 37)], "dogs": [(0, 17)]},
        k=3,
        embed_fn=lambda texts: [[1.0, 0.0] for _ in texts],
    )
    assert [c for c, _, _ in report.questions[0].retrieved] == ["cats", "cats", "dogs"]
    assert report.questions[0].scores == (1.0, 1.0, 1.0)  # the cosine of each


@pytest.mark.parametrize(
    "make, where",
    [
        (lambda: EvaluationSet({"a": "text"}, []), "at least one question"),
        (lambda: EvaluationSet({"a": "text"}, [Question("q", "b", ((0, 1),))]), "'b'"),
        (lambda: EvaluationSet({"a": "text"}, [Question("q", "a", ((3, 2),))]), "(3, 2)"),
        (lambda: EvaluationSet({"a": "text"}, [Question("q", "a", ((0, 9),))]), "(0, 9)"),
        (lambda: evaluate(small_set(), chunks={"cats": []}), "'dogs'"),
        (lambda: evaluate(small_set(), chunks={"cats": ["Zebras"], "dogs": []}), "['cats'][0]"),
    ],
)
def test_bad_input_names_the_place(make, where):
    with pytest.raises(ArgumentValueError) as caught:
        make()
    assert where in str(caught.value)


def test_sweep_reports_senseless_cells():
    seen = []
    result = sweep(
        small_set(),
        {"chunk_size": [10, 40], "chunk_overlap": [0, 20]},
        strategy="fixed",
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert [c.settings for c in result.cells][1] == {"chunk_size": 10, "chunk_overlap": 20}
    assert result.cells[1].report is None and result.cells[1].field == "chunk_overlap"
    ran = [c.report.iou for c in result.cells if c.report]
    assert result.cells[result.best].report.iou == max(ran)


def test_chroma_set_reads_whole():
    data = EvaluationSet.from_chroma(CHROMA)
    first_seen = list(dict.fromkeys(q.corpus_id for q in data.questions))
    assert list(data.corpora) == first_seen
    assert sorted(data.corpora) == [
        "chatlogs",
        "finance",
        "pubmed",
        "state_of_the_union",
        "wikitexts",
    ]
    assert len(data.questions) == 472
    assert sum(len(q.references) for q in data.questions) == 790


def test_sweep_flags_settings_that_make_no_sense():
    result = sweep(small_set(), {"overlap": [0, 3000]}, target_size=100, max_size=2000)
    assert result.cells[0].warning is None and result.cells[0].report is not None
    flagged = result.cells[1]
    assert flagged.report is not None and flagged.field == "overlap"
    assert flagged.warning.startswith("overlap 3000 must be less than max_size 2000")


def write_chroma(folder, content, corpus_text="Cats purr."):
    (folder / "corpora").mkdir()
    (folder / "corpora" / "cats.md").write_text(corpus_text, encoding="utf-8")
    references = '[{""content"": ""' + content + '"", ""start_index"": 0, ""end_index"": 4}]'
    table = f'question,references,corpus_id\nwho purrs,"{references}",cats\n'
    (folder / "questions_df.csv").write_text(table, encoding="utf-8")


def test_from_chroma_reads_and_names_bad_rows(tmp_path):
    good, bad, missing = tmp_path / "good", tmp_path / "bad", tmp_path / "missing"
    for folder in (good, bad, missing):
        folder.mkdir()
    write_chroma(good, "Cats")
    assert EvaluationSet.from_chroma(good).questions == (Question("who purrs", "cats", ((0, 4),)),)
    write_chroma(bad, "Dogs")
    with pytest.raises(ArgumentValueError, match=r"row 2: the excerpt \(0, 4\) is not its content"):
        EvaluationSet.from_chroma(bad)
    write_chroma(missing, "Cats")
    (missing / "corpora" / "cats.md").unlink()
    with pytest.raises(ArgumentValueError, match="corpus 'cats' has no file"):
        EvaluationSet.from_chroma(missing)


def json_set(**question):
    """A set in `to_json`'s shape, its one question changed as given."""
    entry = {"question": "who purrs", "corpusId": "cats", "references": [[0, 4]], **question}
    return {"corpora": {"cats": "Cats purr."}, "questions": [entry]}


PAIR = "must be a (start, end) pair of integers"
# Each bad input, refused as it is made (a set, a question) or called, naming its argument as
# `field`: before, each was turned into an int, accepted, or failed later
# inside with a message naming nothing.
BAD_INPUT = {
    "JSON offsets as strings": (
        lambda: EvaluationSet.from_json(json_set(references=[["0", "4"]])),
        TypeError,
        "questions",
        f"questions[0].references[0] {PAIR}, got list ['0', '4']",
    ),
    "JSON offset a float": (
        lambda: EvaluationSet.from_json(json_set(references=[[0.5, 4]])),
        TypeError,
        "questions",
        f"questions[0].references[0] {PAIR}",
    ),
    "JSON offset a bool": (
        lambda: EvaluationSet.from_json(json_set(references=[[True, 4]])),
        TypeError,
        "questions",
        f"questions[0].references[0] {PAIR}",
    ),
    "JSON empty excerpt": (
        lambda: EvaluationSet.from_json(json_set(references=[[2, 2]])),
        ValueError,
        "questions",
        "invalid questions[0].references[0] (2, 2) (must be 0 <= start < end",
    ),
    "JSON no excerpt": (
        lambda: EvaluationSet.from_json(json_set(references=[])),
        ValueError,
        "questions",
        "questions[0].references holds no excerpt",
    ),
    "JSON question not text": (
        lambda: EvaluationSet.from_json(json_set(question=None)),
        TypeError,
        "questions",
        "questions[0].question must be a string, got NoneType None",
    ),
    "JSON empty question": (
        lambda: EvaluationSet.from_json(json_set(question="")),
        ValueError,
        "questions",
        "invalid questions[0].question ''",
    ),
    "JSON corpus id a number": (
        lambda: EvaluationSet.from_json(json_set(corpusId=7)),
        TypeError,
        "questions",
        "questions[0].corpusId must be a string",
    ),
    "JSON question without references": (
        lambda: EvaluationSet.from_json({"corpora": {}, "questions": [{"question": "q"}]}),
        ValueError,
        "questions",
        "questions[0] has no 'corpusId', 'references'",
    ),
    "JSON question not an object": (
        lambda: EvaluationSet.from_json({"corpora": {}, "questions": ["q"]}),
        TypeError,
        "questions",
        "questions[0] must be a mapping with 'question', 'corpusId' and 'references'",
    ),
    "JSON questions not a list": (
        lambda: EvaluationSet.from_json({"corpora": {}, "questions": 5}),
        TypeError,
        "questions",
        "questions must be a list of questions, got int 5",
    ),
    "float offsets": (
        lambda: Question("q", "a", ((0.5, 5.5),)),
        TypeError,
        "references",
        f"references[0] {PAIR}, got tuple (0.5, 5.5)",
    ),
    "one pair not in a tuple": (
        lambda: Question("q", "a", (0, 5)),
        TypeError,
        "references",
        f"references[0] {PAIR}, got int 0",
    ),
    "empty excerpt": (
        lambda: Question("q", "a", ((2, 2),)),
        ValueError,
        "references",
        "invalid references[0] (2, 2)",
    ),
    "negative start": (
        lambda: Question("q", "a", ((-1, 2),)),
        ValueError,
        "references",
        "invalid references[0] (-1, 2)",
    ),
    "no excerpt": (lambda: Question("q", "a", ()), ValueError, "references", "no excerpt"),
    "empty question": (lambda: Question("", "a", ((0, 1),)), ValueError, "text", "text ''"),
    "question None": (
        lambda: Question(None, "a", ((0, 1),)),
        TypeError,
        "text",
        "text must be a string, got NoneType None",
    ),
    "corpus id None": (lambda: Question("q", None, ((0, 1),)), TypeError, "corpus_id", "corpus_id"),
    "corpus not text": (
        lambda: EvaluationSet({"a": 5}, [Question("q", "a", ((0, 1),))]),
        TypeError,
        "corpora",
        "corpora['a'] must be a string, got int 5",
    ),
    "corpus id not text": (
        lambda: EvaluationSet({1: "text"}, [Question("q", "a", ((0, 1),))]),
        TypeError,
        "corpora",
        "corpora's ids must be a string, got int 1",
    ),
    "questions not a list": (
        lambda: EvaluationSet({"a": "text"}, 5),
        TypeError,
        "questions",
        "questions must be a list of Questions",
    ),
    "grid of one value": (
        lambda: sweep(small_set(), {"target_size": 5}),
        TypeError,
        "grid",
        "grid['target_size'] must be a list of values, got int 5",
    ),
    "grid None": (
        lambda: sweep(small_set(), None),
        TypeError,
        "grid",
        "grid must be a mapping of option names to lists, got NoneType None",
    ),
    "grid of a string": (
        lambda: sweep(small_set(), {"target_size": "400"}),
        TypeError,
        "grid",
        "grid['target_size'] must be a list of values, got str '400'",
    ),
    "grid of no value": (
        lambda: sweep(small_set(), {"target_size": []}),
        ValueError,
        "grid",
        "grid['target_size'] holds no value",
    ),
    "sweep over no set": (
        lambda: sweep({"cats": "Cats."}, {"target_size": [400]}),
        TypeError,
        "data",
        "data must be an EvaluationSet",
    ),
    "progress not callable": (
        lambda: sweep(small_set(), {"target_size": [400]}, progress=5),
        TypeError,
        "progress",
        "progress must be a function of (done, total)",
    ),
    "embed_fn not callable": (
        lambda: evaluate(small_set(), embed_fn="vectors"),
        TypeError,
        "embed_fn",
        "embed_fn must be a function from texts to their vectors",
    ),
    "chunks None for a corpus": (
        lambda: evaluate(small_set(), chunks={"cats": None, "dogs": []}),
        TypeError,
        "chunks",
        "chunks['cats'] must be a list of spans, texts or chunks, got NoneType None",
    ),
    "chunks one text for a corpus": (
        lambda: evaluate(small_set(), chunks={"cats": "Cats purr softly.", "dogs": []}),
        TypeError,
        "chunks",
        "chunks['cats'] must be a list of spans, texts or chunks, got str",
    ),
    "chunks not a mapping": (
        lambda: evaluate(small_set(), chunks=[(0, 17)]),
        TypeError,
        "chunks",
        "chunks must be a mapping of corpus ids to their chunks",
    ),
    "chunk span of a bool": (
        lambda: evaluate(small_set(), chunks={"cats": [(True, 17)], "dogs": []}),
        ValueError,
        "chunks",
        "chunks['cats'][0] is not a span (start, end) of its corpus: (True, 17)",
    ),
}


@pytest.mark.parametrize(
    ("make", "kind", "field", "message"), BAD_INPUT.values(), ids=BAD_INPUT.keys()
)
def test_bad_input_is_refused_when_made_naming_its_argument(make, kind, field, message):
    with pytest.raises(kind) as caught:
        make()
    assert caught.value.field == field
    assert message in str(caught.value)


def test_questions_are_kept_as_given_in_tuples():
    # A list of lists (JSON's shape) is kept as a tuple of pairs; questions from a generator
    # are all kept (they were read twice, the second time empty).
    question = Question("q", "a", [[0, 2], [3, 4]])
    assert question.references == ((0, 2), (3, 4)) and question == Question(
        "q", "a", ((0, 2), (3, 4))
    )
    assert EvaluationSet({"a": "text"}, iter([question])).questions == (question,)


def test_from_chroma_names_a_row_with_offsets_that_are_not_integers(tmp_path):
    (tmp_path / "corpora").mkdir()
    (tmp_path / "corpora" / "cats.md").write_text("Cats purr.", encoding="utf-8")
    references = '[{""content"": ""Cats"", ""start_index"": 0.0, ""end_index"": 4}]'
    table = f'question,references,corpus_id\nwho purrs,"{references}",cats\n'
    (tmp_path / "questions_df.csv").write_text(table, encoding="utf-8")
    with pytest.raises(TypeError) as caught:
        EvaluationSet.from_chroma(tmp_path)
    assert caught.value.field == "folder"
    assert f"questions_df.csv, row 2: references[0] {PAIR}, got tuple (0.0, 4)" in str(caught.value)
