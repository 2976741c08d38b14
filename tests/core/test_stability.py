"""The stability figure (chunker.stability; docs/evaluation.md, "Stability under edits"): the
share of chunks kept under seeded random one-paragraph edits, against a computation written
here from the documented rule, through `evaluate`, `sweep` and `chunker evaluate`."""

from __future__ import annotations

import random
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.stability import DATA, GUIDE, NOTES, direct_shares, fixed, paragraphs, semantic_key

from chunker import SemanticChunker
from chunker.evaluation import evaluate, sweep
from chunker.stability import Edit, kept_count, kept_shares, pieces


def test_paragraphs_are_the_documented_rule():
    assert pieces(GUIDE, "paragraph") == paragraphs(GUIDE)
    assert pieces(NOTES, "paragraph") == paragraphs(NOTES)
    assert len(pieces(GUIDE, "paragraph")) == 80 and len(pieces(NOTES, "paragraph")) == 60


@pytest.mark.parametrize("boundaries", ["position", "content"])
def test_the_figure_is_the_direct_computation(boundaries):
    report = evaluate(
        DATA,
        strategy="fixed",
        chunk_size=200,
        chunk_overlap=20,
        boundaries=boundaries,
        edits=7,
        edit_seed=3,
    )
    shares = direct_shares(fixed(boundaries), [GUIDE, NOTES], 7, 3)
    assert len(shares) == 14
    assert report.stability == pytest.approx(statistics.fmean(shares), abs=1e-12)
    assert report.stability_std == pytest.approx(statistics.pstdev(shares), abs=1e-12)
    assert report.settings["edits"] == 7 and report.settings["edit_seed"] == 3
    assert report.to_dict()["stability"] == report.stability
    assert 0 < report.stability < 1


def test_content_windows_keep_more_than_position_windows_by_the_figure():
    figures = {
        b: evaluate(
            DATA, strategy="fixed", chunk_size=200, chunk_overlap=20, boundaries=b, edits=20
        ).stability
        for b in ("position", "content")
    }
    assert figures["content"] > figures["position"] + 0.1


def test_semantic_chunks_are_compared_by_their_text_and_range_overlap_included():
    chunker = SemanticChunker(target_size=150, overlap=30)
    report = evaluate(DATA, target_size=150, overlap=30, edits=5, edit_seed=1)
    shares = direct_shares(chunker.chunk, [GUIDE, NOTES], 5, 1, key=semantic_key)
    assert report.stability == pytest.approx(statistics.fmean(shares), abs=1e-12)


def test_no_edits_no_figure_and_the_same_edits_for_every_setting():
    assert evaluate(DATA, strategy="fixed").stability is None
    assert "edits" not in evaluate(DATA, strategy="fixed").settings
    a = evaluate(DATA, strategy="fixed", edits=3, edit_seed=9)
    b = evaluate(DATA, strategy="fixed", edits=3, edit_seed=9)
    assert a.stability == b.stability
    cells = sweep(DATA, {"chunk_size": [150, 300]}, strategy="fixed", edits=3).cells
    assert all(cell.report is not None and cell.report.stability is not None for cell in cells)


@given(st.integers(0, 2**32), st.sampled_from(["paragraph", "sentence"]))
def test_an_edit_replaces_one_piece_by_another_of_the_text(seed, kind):
    spans = pieces(GUIDE, kind)
    draw = random.Random(seed)
    shares = kept_shares(fixed("position"), [GUIDE], 1, seed, kind)
    replaced = draw.randrange(len(spans))
    other = draw.randrange(len(spans) - 1)
    other += other >= replaced
    edit = Edit(*spans[replaced], GUIDE[slice(*spans[other])])
    before, after = fixed("position")(GUIDE), fixed("position")(edit.apply(GUIDE))
    assert shares == [kept_count(before, after, edit) / len(before)]


@pytest.mark.parametrize(
    "options, field",
    [({"edits": -1}, "edits"), ({"edits": 1.5}, "edits"), ({"edit_seed": -2}, "edit_seed")],
)
def test_bad_edits_are_named(options, field):
    with pytest.raises((TypeError, ValueError)) as raised:
        evaluate(DATA, strategy="fixed", **options)
    assert raised.value.field == field


def test_given_chunks_cannot_be_edited():
    with pytest.raises(ValueError, match="edits 2 needs a chunker") as raised:
        evaluate(DATA, chunks={"guide": [(0, 5)], "notes": [(0, 5)]}, edits=2)
    assert raised.value.field == "edits"
