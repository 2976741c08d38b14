"""The original, run afresh with Node: the checked-in fixtures are what it answers today, and
we agree with it on a corpus drawn from other seeds, never checked in."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from support.fixture_cases import (
    ENGINE_OPTIONS,
    FIXTURES,
    engine_answer,
    has_leading_bom,
    lookup_embed_fn,
    one_later,
    semantic_chunker_answer,
    snake,
    text_of,
)

from chunker import ChunkingEngine

GENERATED = ("semantic_chunker.json", "chunking_engine.json", "engine_hangs.json")


def run_original(out: Path, *options: str) -> None:
    """Write the original's answers over the generator's corpus into `out`."""
    subprocess.run(
        ["node", str(FIXTURES / "generate.mjs"), "--out", str(out), *options],
        check=True,
        timeout=600,
        capture_output=True,
    )


def test_checked_in_fixtures_equal_a_fresh_run_of_the_original(tmp_path: Path):
    run_original(tmp_path)
    for name in GENERATED:
        fresh = (tmp_path / name).read_bytes()
        assert fresh == (FIXTURES / name).read_bytes(), f"{name} differs from a fresh run"


def cases_of(folder: Path, name: str) -> list[dict]:
    return json.loads((folder / name).read_text("utf-8"))["cases"]


def differing_after_the_mark(cases: list[dict], run_without: Path, name: str) -> list[str]:
    """The ids of `cases` (of `name`, each text starting with a byte-order mark) where we do
    not answer what the original answers for the text after the mark (in `run_without`, a run
    with `--without-bom`), offsets one later: the difference docs/differences.md states."""
    fresh = {case["id"]: case for case in cases_of(run_without, name)}
    # Where the original never ends on the text after the mark (ours ends: core/test_termination.py)
    hangs = {case["id"] for case in cases_of(run_without, "engine_hangs.json")}
    answer = semantic_chunker_answer if name == "semantic_chunker.json" else engine_answer
    key = "text" if name == "semantic_chunker.json" else "content"
    differing = []
    for case in cases:
        if case["id"] in hangs:
            continue
        after = fresh[case["id"]]
        assert text_of(after) == text_of(case)[1:], case["id"]
        # The original's case without the mark (the sentences it embedded too), with it.
        if answer({**after, key: text_of(case)}) != one_later(after["expected"]):
            differing.append(case["id"])
    return differing


def test_after_a_leading_bom_we_answer_what_the_original_answers_after_it(tmp_path: Path):
    run_original(tmp_path, "--without-bom")
    for name in GENERATED[:2]:
        marked = [case for case in cases_of(FIXTURES, name) if has_leading_bom(case)]
        assert len(marked) >= 20, name  # the generator leads some texts with one
        assert differing_after_the_mark(marked, tmp_path, name) == []


def unseen(out: Path, name: str) -> list[dict]:
    """The cases of `name` in `out` that are not, byte for byte, checked-in cases (the
    written-by-hand ones draw nothing from the seed)."""
    checked_in = json.loads((FIXTURES / name).read_text("utf-8"))["cases"]
    known = {json.dumps(case) for case in checked_in}
    cases = json.loads((out / name).read_text("utf-8"))["cases"]
    return [case for case in cases if json.dumps(case) not in known]


def test_we_agree_with_the_original_on_a_corpus_never_checked_in(tmp_path: Path):
    # Same families and option styles, every case drawn from another seed: a rule we fit
    # to the checked-in cases alone would show here. CHUNKER_ORACLE_SALT draws another.
    salt = os.environ.get("CHUNKER_ORACLE_SALT", "unseen-")
    run_original(tmp_path, "--salt", salt, "--scale", "2")
    semantic = unseen(tmp_path, "semantic_chunker.json")
    engine = unseen(tmp_path, "chunking_engine.json")
    assert len(semantic) > 1000 and len(engine) > 1000
    differing = [
        c["id"]
        for c in semantic
        if not has_leading_bom(c) and semantic_chunker_answer(c) != c["expected"]
    ]
    differing += [
        c["id"] for c in engine if not has_leading_bom(c) and engine_answer(c) != c["expected"]
    ]
    # Texts led by a byte-order mark: against the original's answers for the text after it.
    without = tmp_path / "without-bom"
    run_original(without, "--salt", salt, "--scale", "2", "--without-bom")
    for name, cases in (("semantic_chunker.json", semantic), ("chunking_engine.json", engine)):
        differing += differing_after_the_mark(
            [case for case in cases if has_leading_bom(case)], without, name
        )
    assert differing == []
    # Where the original never ends, ours does: every such input of this corpus finishes.
    hangs = json.loads((tmp_path / "engine_hangs.json").read_text("utf-8"))["cases"]
    assert hangs
    for case in hangs:
        options = snake(case["options"], ENGINE_OPTIONS)
        if case["embeddings"]:
            options["embed_fn"] = lookup_embed_fn(case["embeddings"])
        chunks = ChunkingEngine().chunk(case["content"], **options)
        assert [chunk.index for chunk in chunks] == list(range(len(chunks)))
