"""chunk_turns against tests/fixtures/turns_reference.mjs, the original's rules written plainly
in JavaScript and run with Node: the checked-in fixtures are what it writes today, and Python
answers as it does on random transcripts never checked in."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from support.fixture_cases import FIXTURES, TURN_OPTIONS, snake

from chunker import chunk_turns

REFERENCE = FIXTURES / "turns_reference.mjs"


# Pieces of turn texts: words, JavaScript's white space, characters that only look blank to
# Python or to the eye (U+0085, U+180E, U+200B, U+001F), astral characters, a lone surrogate.
PIECES = [
    "Hello.",
    "ok",
    "a",
    "refund",
    "caf\u00e9",
    "\u65e5\u672c\u8a9e",
    "\U0001f600",
    "\U0001d11e",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\x0b",
    "\x0c",
    "\u00a0",
    "\u1680",
    "\u2003",
    "\u2028",
    "\u202f",
    "\u3000",
    "\ufeff",
    "\u0085",
    "\u180e",
    "\u200b",
    "\x1f",
    "\ud800",
    "x" * 37,
]
BLANK_PIECES = [" ", "\t", "\n", "\u00a0", "\ufeff", "\u3000", "\u2029", ""]


def random_turn(rng: random.Random) -> dict[str, Any]:
    """A turn as callers send them: seqs repeated and out of order, fields sometimes missing."""
    pieces = BLANK_PIECES if rng.random() < 0.2 else PIECES
    turn: dict[str, Any] = {
        "seq": rng.randint(-2, 12),
        "text": "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8))),
    }
    if rng.random() < 0.7:
        turn["itemId"] = rng.choice(["a", "b", "m1", "\u00e9"])
    for key in ("startMs", "endMs"):
        if rng.random() < 0.7:
            turn[key] = rng.choice([rng.randint(0, 10**6), rng.randint(0, 4000) / 4])
    return turn


def random_case(rng: random.Random) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if rng.random() < 0.8:
        options["maxChars"] = rng.choice([1, 2, 5, 10, 20, 40, 80, 200, 1200])
    if rng.random() < 0.8:
        options["overlapTurns"] = rng.randint(0, 6)
    return {"turns": [random_turn(rng) for _ in range(rng.randint(0, 14))], "options": options}


def reference_answers(cases: list[dict[str, Any]]) -> list[Any]:
    done = subprocess.run(
        ["node", str(REFERENCE), "--answer"],
        input=json.dumps(cases),
        capture_output=True,
        check=True,
        text=True,
        encoding="utf-8",
        timeout=300,
    )
    return json.loads(done.stdout)


def test_checked_in_fixtures_equal_a_fresh_run_of_the_reference(tmp_path: Path):
    subprocess.run(["node", str(REFERENCE), "--out", str(tmp_path)], check=True, timeout=300)
    fresh = (tmp_path / "chunk_turns.json").read_bytes()
    assert fresh == (FIXTURES / "chunk_turns.json").read_bytes(), "regenerate chunk_turns.json"


@pytest.mark.parametrize("seed", range(4), ids=lambda seed: f"seed-{seed}")
def test_python_answers_as_the_reference_on_random_transcripts(seed: int):
    rng = random.Random(f"turns-{seed}")
    cases = [random_case(rng) for _ in range(500)]
    answers = reference_answers(cases)
    differ = []
    for number, (case, expected) in enumerate(zip(cases, answers, strict=True)):
        passages = chunk_turns(case["turns"], **snake(case["options"], TURN_OPTIONS))
        if [p.to_dict(spans=True) for p in passages] != expected:
            differ.append(number)
    assert not differ, f"{len(differ)} of {len(cases)} differ, first {cases[differ[0]]!r:.600}"
    # The cases reach every rule: blank turns, overlap kept and dropped, long turns.
    passages = [p for answer in answers for p in answer]
    assert any(p["repeatedTurns"] > 1 for p in passages)
    assert any(len(p["turns"]) > 2 for p in passages)
    assert any(None in p["itemIds"] for p in passages)
    assert any(p["startMs"] is None for p in passages)
    assert sum(1 for case, answer in zip(cases, answers) if case["turns"] and not answer) > 0
