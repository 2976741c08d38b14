"""`LexicalIndex` against the original's BM25Index, run afresh with Node and given our words
through its `pipeline` option: on the checked-in fixtures, and on corpora drawn here from
several seeds, never checked in."""

from __future__ import annotations

import json
import random
import subprocess
from typing import Any

import pytest
from support.fixture_cases import load
from support.lexical_index_steps import ANSWERING, index_answers, texts_of
from support.paths import FIXTURES

from chunker import lexical_tokens


def original_answers(cases: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """The original's answer to each step of each case, by case id (None where it has none)."""
    given = [
        {**case, "words": {text: lexical_tokens(text) for text in texts_of(case)}} for case in cases
    ]
    done = subprocess.run(
        ["node", str(FIXTURES / "lexical_index_oracle.mjs")],
        input=json.dumps({"cases": given}),
        capture_output=True,
        check=True,
        text=True,
        timeout=300,
    )
    return {entry["id"]: entry["answers"] for entry in json.loads(done.stdout)["cases"]}


def assert_same(ours: Any, theirs: Any, where: str) -> None:
    """Equal answers, scores and mean lengths to 1e-9; ids, order and metadata exactly."""
    if isinstance(theirs, list):
        assert [hit["id"] for hit in ours] == [hit["id"] for hit in theirs], where
        for mine, original in zip(ours, theirs):
            assert mine["score"] == pytest.approx(original["score"], rel=1e-9, abs=1e-12), where
            assert mine.get("metadata") == original.get("metadata"), where
    elif isinstance(theirs, dict):
        assert ours["documentCount"] == theirs["documentCount"], where
        assert ours["termCount"] == theirs["termCount"], where
        assert ours["avgDocLength"] == pytest.approx(theirs["avgDocLength"], rel=1e-9), where
    else:
        assert ours == theirs, where


def compared_steps(cases: list[dict[str, Any]], ours: dict[str, list[Any]]) -> int:
    """Check every step the original answers; return how many it answered."""
    theirs = original_answers(cases)
    compared = 0
    for case in cases:
        for number, (step, answer) in enumerate(zip(case["steps"], theirs[case["id"]])):
            if step["op"] in ANSWERING and answer is not None:
                assert_same(ours[case["id"]][number], answer, f"{case['id']} step {number}")
                compared += 1
    return compared


def test_the_fixtures_are_what_the_original_answers():
    cases = load("lexical_index.json")
    expected = {case["id"]: [step.get("expected") for step in case["steps"]] for case in cases}
    assert compared_steps(cases, expected) > 60


def random_case(seed: int) -> dict[str, Any]:
    """A corpus with adds, replacements and removals, and plain searches between them."""
    rng = random.Random(seed)
    # Few distinct words, so documents share them and scores often tie.
    vocabulary = [rng.choice("abcdeé") * rng.randint(1, 3) for _ in range(12)]
    vocabulary += ["Refund", "refunds", "card", "Ωμέγα", "東京", "😀x", "9"]

    def text() -> str:
        words = rng.choices(vocabulary, k=rng.randint(0, 14))
        return " ".join(words) + rng.choice(["", ".", "!!!"]) or "—"

    ids = [f"doc-{n}" for n in range(rng.randint(3, 30))]
    steps: list[dict[str, Any]] = []
    for _ in range(rng.randint(10, 60)):
        roll = rng.random()
        if roll < 0.5:
            step: dict[str, Any] = {"op": "add", "id": rng.choice(ids), "text": text()}
            if rng.random() < 0.2:
                step["metadata"] = {"n": rng.randint(0, 9)}
            steps.append(step)
        elif roll < 0.6:
            steps.append({"op": "remove", "id": rng.choice(ids)})
        elif roll < 0.65:
            steps.append({"op": "restore"})
        elif roll < 0.7:
            steps.append({"op": "stats"})
        else:
            query = " ".join(rng.choices(vocabulary, k=rng.randint(0, 4)))
            steps.append({"op": "search", "query": query, "topK": rng.randint(1, 12)})
    options = rng.choice([{}, {"k1": 1.2, "b": 0.75}, {"k1": 2.0, "b": 0.3}, {"k1": 0.5, "b": 1.0}])
    return {"id": f"random-{seed}", "options": options, "steps": steps}


@pytest.mark.parametrize("first_seed", [1000, 2000, 3000])
def test_we_agree_with_the_original_on_random_corpora(first_seed: int):
    cases = [random_case(seed) for seed in range(first_seed, first_seed + 150)]
    ours = {case["id"]: index_answers(case) for case in cases}
    assert compared_steps(cases, ours) > 1500
