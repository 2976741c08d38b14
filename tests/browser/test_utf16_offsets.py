"""web/chunker-utf16.js, the one conversion between Python's offsets and JavaScript's, in
Node, against the suite's oracle (support/offsets.py: encode and count) on random texts of
the characters where offsets go wrong, lone surrogates among them."""

from __future__ import annotations

import json
import random
import subprocess

from support.offsets import as_javascript, js_length, utf16_offset
from support.paths import ROOT

MODULE = ROOT / "web" / "chunker-utf16.js"
PIECES = ["a", " ", "é", "東", "😀", "𝐀", "\ud83d", "\ude00", "\ud83d😀", "\r\n", "\u2028"]

# Reads cases as JSON lines on stdin, answers one JSON line each. The texts go as JSON's
# \u escapes, which carry lone surrogates as they are in JavaScript.
RUNNER = """
import { createInterface } from 'node:readline';
const m = await import(process.argv[1]);
for await (const line of createInterface({ input: process.stdin })) {
  const { text, codePoints, units } = JSON.parse(line);
  const astral = Array.from(m.astralOf(text));
  let between = [];
  for (const unit of units) {
    try { m.toCodePoints([unit], text, 'questions', 'here'); }
    catch (error) { between.push([unit, error.name, error.field, error.message]); }
  }
  const inside = units.filter((unit) => !between.some(([u]) => u === unit));
  console.log(JSON.stringify({
    astral,
    utf16: Array.from(m.toUtf16(codePoints, m.astralOf(text))),
    one: codePoints.map((offset) => m.offsetToUtf16(offset, astral.filter((p) => p < offset).length)),
    codePoints: Array.from(m.toCodePoints(inside, text, 'questions', 'here')),
    inside,
    between,
    length: m.codePointLength(text),
  }));
}
"""


def random_texts(count: int) -> list[str]:
    pick = random.Random(20261203)
    return [
        "".join(pick.choice(PIECES) for _ in range(pick.randrange(0, 12))) for _ in range(count)
    ]


def test_offsets_convert_both_ways_as_the_oracle_counts():
    texts = random_texts(400)
    cases = []
    for text in texts:
        read = as_javascript(text)  # as the worker reads it: a pair of halves is one character
        code_points = [*range(len(read) + 2), -1]  # past the end too; -1 means "none"
        cases.append(
            {"text": text, "codePoints": code_points, "units": [*range(js_length(text) + 1)]}
        )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", RUNNER, MODULE.as_uri()],
        input="".join(json.dumps(case) + "\n" for case in cases),
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="surrogatepass",
        timeout=120,
        check=True,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(cases)
    for text, case, got in zip(texts, cases, answers, strict=True):
        read = as_javascript(text)
        assert got["astral"] == [at for at, char in enumerate(read) if ord(char) > 0xFFFF]
        expected = [
            utf16_offset(read, offset) if offset >= 0 else -1 for offset in case["codePoints"]
        ]
        assert got["utf16"] == expected, text
        assert got["one"] == expected, text
        assert got["length"] == len(read)
        # Every unit index is a code-point offset's, or falls inside a pair and is named.
        units_of = {utf16_offset(read, offset): offset for offset in range(len(read) + 1)}
        assert got["inside"] == sorted(units_of), text
        assert got["codePoints"] == [units_of[unit] for unit in got["inside"]]
        for unit, name, field, message in got["between"]:
            assert (name, field) == ("RangeError", "questions")
            assert message == (
                f"here: offset {unit} falls between the two UTF-16 units of a character "
                "outside the BMP"
            )
