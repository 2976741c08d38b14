"""`api.evaluate` and `api.sweep` through web/chunker.js in Chromium: the figures Python gives,
spans as JavaScript indices (corpora with characters outside the BMP), a sweep's cells with
their errors and warnings, Stop between cells, and bad input named."""

from __future__ import annotations

import json
from typing import Any

import pytest
from support.offsets import utf16_offset
from support.paths import DATASETS

from chunker.evaluation import EvaluationSet, Question, evaluate, sweep

CHROMA = DATASETS / "chroma-general-evaluation"

# Corpora with emoji and other characters outside the BMP before and inside the excerpts, so
# every retrieved span and every excerpt needs its conversion.
EMOJI = {
    "pets": "# Pets 🐶\n\n"
    + "".join(
        f"Dog {n} 🐕 barks at the 𠀀 mail carrier. Cats {n} purr softly. 😀 Fish swim.\n\n"
        for n in range(40)
    ),
    "space": "# Space 🚀\n\n"
    + "".join(
        f"Rocket {n} 🚀 lifts off. Orbit {n} is stable. Mars 🪐 waits.\n\n" for n in range(30)
    ),
}


def emoji_set() -> EvaluationSet:
    questions = []
    for corpus_id, text in EMOJI.items():
        for word in ("barks", "purr", "Orbit", "Mars", "swim", "lifts"):
            at = text.find(word)
            if at >= 0:
                questions.append(Question(f"which {word}?", corpus_id, ((at, at + 40),)))
    return EvaluationSet(EMOJI, questions)


def as_js(data: EvaluationSet) -> dict[str, Any]:
    """The set as a page gives it: excerpts in JavaScript indices (the test's own oracle)."""
    shape = data.to_json()
    for question in shape["questions"]:
        text = data.corpora[question["corpusId"]]
        question["references"] = [
            [utf16_offset(text, s), utf16_offset(text, e)] for s, e in question["references"]
        ]
    return shape


def expected_report(data: EvaluationSet, report: dict[str, Any], settings: dict) -> dict:
    """Python's report as the facade answers it: spans as JavaScript indices, the settings
    under the original's names; without `seconds`, which no two runs share."""
    report = dict(report)
    report.pop("seconds")
    report["settings"] = settings
    for question in report["questions"]:
        for hit in question["retrieved"]:
            text = data.corpora[hit["corpusId"]]
            hit["start"], hit["end"] = (
                utf16_offset(text, hit["start"]),
                utf16_offset(text, hit["end"]),
            )
    return report


def without_seconds(report: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in report.items() if key != "seconds"}


def assert_same_report(got: dict[str, Any], expected: dict[str, Any]) -> None:
    """Equal, but for the retrieval scores to 1e-9 (Pyodide's `log` is not CPython's)."""
    got, expected = json.loads(json.dumps(without_seconds(got))), json.loads(json.dumps(expected))
    scores = [
        [hit.pop("score") for q in report["questions"] for hit in q["retrieved"]]
        for report in (got, expected)
    ]
    assert got == expected
    assert scores[0] == pytest.approx(scores[1], rel=1e-9)


EVALUATE = "async ([set, options]) => JSON.stringify(await api.evaluate(set, options))"


@pytest.mark.parametrize(
    ("options", "python", "settings"),
    [
        ({}, {}, {"strategy": "semantic", "k": 5}),
        (
            {"targetSize": 120, "overlap": 30, "k": 3},
            {"target_size": 120, "overlap": 30, "k": 3},
            {"strategy": "semantic", "targetSize": 120, "overlap": 30, "k": 3},
        ),
        (
            {"strategy": "fixed", "chunkSize": 90, "chunkOverlap": 10},
            {"strategy": "fixed", "chunk_size": 90, "chunk_overlap": 10},
            {"strategy": "fixed", "chunkSize": 90, "chunkOverlap": 10, "k": 5},
        ),
        (  # content-defined windows, and the share of chunks kept under edits
            {
                "strategy": "fixed",
                "chunkSize": 90,
                "chunkOverlap": 10,
                "boundaries": "content",
                "edits": 3,
                "editSeed": 2,
            },
            {
                "strategy": "fixed",
                "chunk_size": 90,
                "chunk_overlap": 10,
                "boundaries": "content",
                "edits": 3,
                "edit_seed": 2,
            },
            {
                "strategy": "fixed",
                "chunkSize": 90,
                "chunkOverlap": 10,
                "boundaries": "content",
                "k": 5,
                "edits": 3,
                "editSeed": 2,
            },
        ),
        (  # a token budget: the worker loads its tokenizer for it
            {"targetSize": 400, "maxTokens": 24},
            {"target_size": 400, "max_tokens": 24},
            {"strategy": "semantic", "targetSize": 400, "maxTokens": 24, "k": 5},
        ),
    ],
)
def test_evaluate_answers_pythons_figures_in_javascript_indices(
    chunker_page, options, python, settings
):
    data = emoji_set()
    got = json.loads(chunker_page.evaluate(EVALUATE, [as_js(data), options]))
    assert got["seconds"] >= 0
    expected = expected_report(data, evaluate(data, **python).to_dict(), settings)
    assert_same_report(got, expected)
    # The spans slice, in JavaScript, what they slice in Python.
    first = got["questions"][0]["retrieved"][0]
    sliced = chunker_page.evaluate(
        "([text, s, e]) => text.slice(s, e)",
        [EMOJI[first["corpusId"]], first["start"], first["end"]],
    )
    python_hit = evaluate(data, **python).questions[0].retrieved[0]
    assert sliced == data.corpora[python_hit[0]][python_hit[1] : python_hit[2]]


def test_evaluate_on_chromas_whole_set_gives_pythons_figures(chunker_page):
    if not CHROMA.is_dir():
        pytest.fail(f"Chroma's data set is not at {CHROMA} (../shared/datasets)")
    data = EvaluationSet.from_chroma(CHROMA)
    got = json.loads(chunker_page.evaluate(EVALUATE, [as_js(data), {"targetSize": 400}]))
    python = evaluate(data, target_size=400).to_dict()
    expected = expected_report(data, python, {"strategy": "semantic", "targetSize": 400, "k": 5})
    assert_same_report(got, expected)


SWEEP = """async ([set, grid, options]) => {
  const progress = [];
  const report = await api.sweep(set, grid, { ...options, onProgress: (p) => progress.push(p) });
  return JSON.stringify({ report, progress });
}"""


def test_a_sweep_gives_pythons_cells_errors_warnings_and_best(chunker_page):
    data = emoji_set()
    # target_size 0 is refused; overlap 400 with max_size 300 makes no sense but runs.
    grid_js = {"targetSize": [0, 80, 160], "overlap": [0, 400]}
    grid_py = {"target_size": [0, 80, 160], "overlap": [0, 400]}
    answer = json.loads(
        chunker_page.evaluate(SWEEP, [as_js(data), grid_js, {"maxSize": 300, "metric": "recall"}])
    )
    got = answer["report"]
    python = sweep(data, grid_py, max_size=300, metric="recall").to_dict()
    progress = answer["progress"]
    assert [(p["done"], p["total"]) for p in progress] == [(n, 6) for n in range(1, 7)]
    assert [p["cell"] for p in progress] == got["cells"]  # each cell as it is done
    assert got["metric"] == "recall" and got["best"] == python["best"]
    assert len(got["cells"]) == len(python["cells"]) == 6
    for mine, theirs in zip(got["cells"], python["cells"]):
        assert mine["error"] == theirs["error"]
        assert mine["field"] == theirs["field"]
        assert mine["warning"] == theirs["warning"]
        if theirs["report"] is None:
            assert mine["report"] is None
            continue
        settings = {"strategy": "semantic", "maxSize": 300, **mine["settings"], "k": 5}
        expected = expected_report(data, theirs["report"], settings)
        assert_same_report(mine["report"], expected)
    assert [c["error"] is not None for c in got["cells"]] == [
        True,
        True,
        False,
        False,
        False,
        False,
    ]
    assert [c["warning"] is not None for c in got["cells"]][2:] == [False, True, False, True]


STOPPED = """async ([set]) => {
  const stop = new AbortController();
  const done = [];
  let reason = null;
  try {
    await api.sweep(set, { targetSize: [60, 90, 120, 150, 180] }, {
      signal: stop.signal,
      onProgress: (p) => { done.push(p.done); if (p.done === 2) stop.abort(); },
    });
  } catch (error) {
    reason = error.name;
  }
  // The worker goes on: the next call answers.
  const after = (await api.evaluate(set, { targetSize: 60 })).chunkCount;
  return { done, reason, after };
}"""


def test_stop_ends_a_sweep_between_cells_and_the_worker_goes_on(chunker_page):
    data = emoji_set()
    got = chunker_page.evaluate(STOPPED, [as_js(data)])
    assert got["done"] == [1, 2]
    assert got["reason"] == "AbortError"
    assert got["after"] == evaluate(data, target_size=60).chunk_count


BAD = """async ([set, options, grid]) => {
  try {
    if (grid) await api.sweep(set, grid, options);
    else await api.evaluate(set, options);
    return null;
  } catch (error) {
    return { name: error.name, message: error.message, field: error.field ?? null };
  }
}"""


@pytest.mark.parametrize(
    ("change", "options", "grid", "name", "field", "message"),
    [
        (
            lambda s: s["questions"][0].update(references=[[8, 12]]),
            {},
            None,
            "RangeError",
            "questions",
            "questions[0].references: offset 8 falls between the two UTF-16 units",
        ),
        (
            lambda s: s["questions"][0].update(corpusId="nowhere"),
            {},
            None,
            "RangeError",
            "questions",
            "questions[0] is on corpus 'nowhere', which the set has not",
        ),
        (lambda s: s.update(questions=[]), {}, None, "RangeError", "questions", "at least one"),
        # Checked in Python as the set is made: no offset turned into an
        # int, no empty excerpt or question, no corpus that is not a text.
        (
            lambda s: s["questions"][0].update(references=[["0", "4"]]),
            {},
            None,
            "TypeError",
            "questions",
            "questions[0].references[0] must be a (start, end) pair of integers",
        ),
        (
            lambda s: s["questions"][0].update(references=[[3, 3]]),
            {},
            None,
            "RangeError",
            "questions",
            "invalid questions[0].references[0] (3, 3) (must be 0 <= start < end",
        ),
        (
            lambda s: s["questions"][0].update(question=""),
            {},
            None,
            "RangeError",
            "questions",
            "invalid questions[0].question ''",
        ),
        (
            lambda s: s["corpora"].update(pets=5),
            {},
            None,
            "TypeError",
            "corpora",
            "corpora['pets'] must be a string, got int 5",
        ),
        (None, {"bogus": 1}, None, "TypeError", "options", "unknown option bogus"),
        (None, {"k": 0}, None, "RangeError", "k", "invalid k 0"),
        (None, {"metric": "f1"}, {"overlap": [0]}, "RangeError", "metric", "unknown metric"),
        (None, {}, {"overlap": []}, "TypeError", "grid", "grid.overlap must be a non-empty"),
    ],
)
def test_bad_input_rejects_naming_the_argument(
    chunker_page, change, options, grid, name, field, message
):
    shape = as_js(emoji_set())
    # "# Pets 🐶": the dog is at 7, so JavaScript's index 8 is between its two units.
    assert shape["corpora"]["pets"][7] == "🐶"
    if change is not None:
        change(shape)
    got = chunker_page.evaluate(BAD, [shape, options, grid])
    assert got is not None, "no error"
    assert (got["name"], got["field"]) == (name, field), got
    assert message in got["message"]
