"""The playground's Overlap boundary control in Chromium: a menu of Python's names,
Python's default chosen; each choice re-cuts the text as Python does, its stripes at the
overlaps Python gives; the URL, a link, the copied Python and JavaScript and the Tune view
carry it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from support.painting import read_document, semantic_painting
from support.playground import (
    CLIPBOARD,
    ROOT,
    booted_playground,
    copied,
    evaluated,
    open_playground,
    percent,
    run_in_console,
    sample_set,
    set_mode,
    set_settings,
    show_text,
    shown_chunks,
    wait_until,
)

from chunker import SemanticChunker
from chunker.base.limits import OVERLAP_BOUNDARIES
from chunker.evaluation import evaluate

TEXT = "\n\n".join(
    [
        "# Support",
        "We fixed the fault. Officially supported options follow here, and more of them. "
        "Each one is listed below! Is it clear? It should be.",
        "Another paragraph with words that run on and on, so that the overlap lands inside "
        "one of them; then a sentence ends. Then another starts 😀 here.",
    ]
)
SETTINGS = dict(targetSize=60, maxSize=90, minSize=0, overlap=25, respectHeadings=True)
PYTHON = dict(target_size=60, max_size=90, min_size=0, overlap=25)


@pytest.fixture(scope="module")
def booted(browser, site_url):
    with booted_playground(browser, site_url, permissions=CLIPBOARD) as booted:
        yield booted
        assert booted.recorder.problems() == []


def on_text(page, boundary: str) -> None:
    set_mode(page, "semantic")
    show_text(page, TEXT)
    set_settings(page, **SETTINGS, overlapBoundary=boundary)


def test_the_menu_offers_pythons_names_with_its_default_chosen(page):
    set_mode(page, "semantic")
    menu = "#setting-overlapBoundary"
    assert page.evaluate(
        f"[...document.querySelector('{menu}').options].map((o) => o.value)"
    ) == list(OVERLAP_BOUNDARIES)
    assert page.input_value(menu) == SemanticChunker().overlap_boundary == "chars"
    assert page.text_content("label[for='setting-overlapBoundary']") == "Overlap boundary"
    assert "word or sentence" in page.text_content("#setting-overlapBoundary-help")


@pytest.mark.parametrize("boundary", OVERLAP_BOUNDARIES)
def test_each_choice_cuts_and_stripes_as_python(page, boundary):
    on_text(page, boundary)
    chunks = SemanticChunker(**PYTHON, overlap_boundary=boundary).chunk(TEXT)
    own, lead = semantic_painting(TEXT, chunks)
    shown = read_document(page)
    assert shown["own"] == own and shown["lead"] == lead
    assert [c["text"] for c in shown_chunks(page)] == [c.text for c in chunks]
    if boundary != "chars":  # the overlaps Python shortens or leaves out, not the original's
        _, original = semantic_painting(TEXT, SemanticChunker(**PYTHON).chunk(TEXT))
        assert lead != original


def test_the_link_and_the_copied_code_carry_it(page, booted, browser, tmp_path):
    on_text(page, "word")
    wait_until(page, "new URLSearchParams(location.search).get('overlapBoundary') === 'word'")
    shown = shown_chunks(page)
    # Copy as Python: it names the option, and prints what Python cuts.
    code = copied(page, "#copy-python")
    assert 'overlap_boundary="word",' in code
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    printed = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert printed.returncode == 0, printed.stderr
    chunks = SemanticChunker(**PYTHON, overlap_boundary="word").chunk(TEXT)
    assert printed.stdout.splitlines() == [
        f"{c.index} {c.boundary_type} {c.start_offset} {c.end_offset}" for c in chunks
    ]
    assert len(chunks) == len(shown)
    # Copy as JavaScript, run in this page's console: the chunks shown.
    code = copied(page, "#copy-js")
    assert 'overlapBoundary: "word",' in code
    assert run_in_console(page, code, "chunks") == shown
    # The link opens a page with the same choice and chunks.
    link = copied(page, "#copy-link")
    other, recorder, _ = open_playground(browser, booted.origin, link[len(booted.origin) + 1 :])
    try:
        assert other.input_value("#setting-overlapBoundary") == "word"
        assert shown_chunks(other) == shown
        assert recorder.problems() == []
    finally:
        other.context.close()


def test_tune_scores_with_it(page):
    # The sample questions are on the guide, cut at Python's defaults but the boundary.
    set_mode(page, "semantic")
    show_text(page, (ROOT / "web/samples/indexer-guide.md").read_text(encoding="utf-8"), "guide")
    set_settings(
        page, targetSize=1000, maxSize=2000, minSize=200, overlap=100, overlapBoundary="sentence"
    )
    page.select_option("#tune-set", "sample")
    shown = evaluated(page)
    report = evaluate(sample_set(), overlap_boundary="sentence")
    assert shown["precision"] == percent(report.precision)
    assert shown["precision"] != percent(evaluate(sample_set()).precision)
