"""Every fixture case of tests/fixtures/*.json, run through web/chunker.js in Chromium.

The fixtures count offsets in code points (Python's view); the facade answers JavaScript
string indices, so expected offsets are turned into UTF-16 here before comparing. Cases go
to the page in batches, all calls of a batch in flight at once, answers back as one JSON
string: 1,800 cases take seconds, not minutes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from support.fixture_cases import (
    embedded_after_the_mark,
    engine_answer,
    has_leading_bom,
    semantic_chunker_answer,
)
from support.offsets import utf16_offset
from support.paths import FIXTURES

from chunker import ChunkingEngine

BATCH = 100

# Runs one case in the page (`c` is the case); answers the result or {error: [name, message]}.
RUN_CASE = {
    "semantic_chunker": "new api.SemanticChunker(c.config).chunk(c.text, c.metadata ?? undefined)",
    "chunking_engine": "new api.ChunkingEngine().chunk(c.content, engineOptions(c, i))",
    "engine_hangs": "new api.ChunkingEngine().chunk(c.content, engineOptions(c, i))",
    "chunk_turns": "api.chunkTurns(c.turns, c.options)",
    "lexical_tokens": "api.lexicalTokens(c.text)",
    "snippet_around": "api.snippetAround(c.text, c.words, c.options)",
    "match_spans": "api.matchSpans(c.text, c.words)",
}
# Families run through the facade by another file, step by step.
RUN_ELSEWHERE = {"lexical_index": "browser/test_facade_lexical_index.py"}

RUN_BATCH = """async ([family, json]) => {
  // The recorded vector of each sentence; every other case answers asynchronously.
  const engineOptions = (c, i) => {
    if (c.embeddings === null) return c.options;
    const table = new Map(c.embeddings);
    const lookup = (sentences) => sentences.map((s) => table.get(s));
    const embedFn = i % 2 ? async (s) => lookup(s) : lookup;
    return { ...c.options, embedFn };
  };
  const run = {
    RUNNERS
  }[family];
  const answers = await Promise.all(JSON.parse(json).map(async (c, i) => {
    try { return await run(c, i); }
    catch (e) { return { error: [e.constructor.name, e.message] }; }
  }));
  return JSON.stringify(answers);
}""".replace(
    "RUNNERS", ",\n    ".join(f"{family}: (c, i) => {code}" for family, code in RUN_CASE.items())
)


def utf16(text: str) -> Callable[[int], int]:
    """Turns Python offsets into `text` into JavaScript ones."""
    return lambda offset: utf16_offset(text, offset)


def expected_in_javascript(family: str, case: dict[str, Any]) -> Any:
    """The case's expected answer with its offsets as JavaScript indices."""
    if family == "engine_hangs":
        # The original never ends on these; ours must end, in the browser as in CPython.
        options = {
            "chunk_size": case["options"].get("chunkSize", 512),
            "chunk_overlap": case["options"].get("chunkOverlap", 64),
            "strategy": case["options"]["strategy"],
        }
        if case["embeddings"] is not None:
            table = dict(case["embeddings"])
            options["embed_fn"] = lambda sentences: [table[s] for s in sentences]
        return [c.to_dict() for c in ChunkingEngine().chunk(case["content"], **options)]
    if family == "semantic_chunker" and has_leading_bom(case):
        # The original reads a leading byte-order mark as text, we do not: CPython's answer
        # (core/test_fixtures.py and oracle/test_original_chunkers.py say which), the facade's too.
        expected = semantic_chunker_answer(case)
    elif family == "chunking_engine" and has_leading_bom(case):
        expected = engine_answer(case)
    else:
        expected = json.loads(json.dumps(case["expected"]))  # a copy to convert in place
    if family == "semantic_chunker":
        at = utf16(case["text"])
        for chunk in expected:
            chunk["startOffset"] = at(chunk["startOffset"])
            chunk["endOffset"] = at(chunk["endOffset"])
    elif family == "snippet_around" and expected["at"] >= 0:
        expected["at"] = utf16(case["text"])(expected["at"])
    elif family == "match_spans":
        at = utf16(case["text"])
        expected = [{"start": at(start), "end": at(end)} for start, end in expected]
    elif family == "chunk_turns":
        for passage in expected:
            at = utf16(passage["text"])
            for span in passage["turns"]:
                span["start"], span["end"] = at(span["start"]), at(span["end"])
    return expected


def test_every_fixture_file_is_run_here():
    """A new fixture family must be added to RUN_CASE, not skipped silently."""
    assert {path.stem for path in FIXTURES.glob("*.json")} <= {*RUN_CASE, *RUN_ELSEWHERE}


@pytest.mark.parametrize("family", [f for f in RUN_CASE if (FIXTURES / f"{f}.json").exists()])
def test_fixture_family_in_the_browser(chunker_page, family):
    cases = json.loads((FIXTURES / f"{family}.json").read_text(encoding="utf-8"))["cases"]
    # After a leading mark, the sentences the original embedded as we embed them.
    cases = [embedded_after_the_mark(case) for case in cases]
    mismatches = []
    for start in range(0, len(cases), BATCH):
        batch = cases[start : start + BATCH]
        answers = json.loads(chunker_page.evaluate(RUN_BATCH, [family, json.dumps(batch)]))
        for case, answer in zip(batch, answers, strict=True):
            expected = expected_in_javascript(family, case)
            if answer != expected:
                mismatches.append((case["id"], answer, expected))
    ids = [case_id for case_id, _, _ in mismatches]
    if mismatches:
        case_id, answer, expected = mismatches[0]
        detail = f"first, {case_id}:\n got      {answer!r:.600}\n expected {expected!r:.600}"
    else:
        detail = ""
    assert not ids, f"{len(ids)} of {len(cases)} {family} cases differ: {ids[:30]}\n{detail}"
    assert len(cases) > 0
