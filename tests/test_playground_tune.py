"""The playground's Tune view in Chromium: the built-in questions scored as Python scores
them, questions added on the shown document by selecting their passage, Chroma's set opened
from its files, a sweep drawn as a heat map whose best cell is Python's and whose click
applies its settings, Stop between cells, and bad input said where it was made."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.paths import ROOT
from support.playground import (
    evaluated,
    on_the_guide,
    percent,
    runs,
    set_mode,
    set_settings,
    settled,
    type_over,
    wait_until,
)

from chunker.evaluation import EvaluationSet, Question, evaluate, sweep

GUIDE_NAME = "indexer-guide.md"
GUIDE = (ROOT / "web/samples" / GUIDE_NAME).read_text(encoding="utf-8")
QUESTIONS = json.loads((ROOT / "web/samples/guide-questions.json").read_text(encoding="utf-8"))
CHROMA = ROOT.parent / "shared" / "datasets" / "chroma-general-evaluation"


def sample_set() -> EvaluationSet:
    questions = []
    for entry in QUESTIONS["questions"]:
        start = GUIDE.find(entry["excerpt"])
        questions.append(
            Question(entry["question"], GUIDE_NAME, ((start, start + len(entry["excerpt"])),))
        )
    return EvaluationSet({GUIDE_NAME: GUIDE}, questions)


@pytest.fixture(scope="module")
def page(browser, site_url):
    with on_the_guide(browser, site_url) as page:
        yield page


def test_the_built_in_questions_score_as_python_scores_them(page):
    page.select_option("#tune-set", "sample")
    shown = evaluated(page)
    report = evaluate(sample_set())  # the page's defaults are Python's
    assert shown == {
        "recall": percent(report.recall),
        "precision": percent(report.precision),
        "iou": percent(report.iou),
        "precisionOmega": percent(report.precision_omega),
    }
    # Each question's excerpt is drawn, its characters covered or missed as retrieved.
    first = report.questions[0]
    ((start, end),) = sample_set().questions[0].references
    hits = [(s, e) for _, s, e in first.retrieved]
    covered = "".join(GUIDE[i] for i in range(start, end) if any(s <= i < e for s, e in hits))
    drawn = page.evaluate(
        """() => [...document.querySelectorAll('.tune-question')[0]
             .querySelectorAll('mark.tune-covered')].map((m) => m.textContent).join('')"""
    )
    assert drawn == covered
    assert page.locator(".tune-question").count() == len(QUESTIONS["questions"])


def test_a_question_added_on_the_document_by_selecting_its_passage(page):
    page.select_option("#tune-set", "own")
    passage = "Every process exports Prometheus metrics on port 9464."
    start = GUIDE.index(passage)
    page.eval_on_selector(
        "#text",
        "(area, [s, e]) => { area.focus(); area.setSelectionRange(s, e); }",
        [start, start + len(passage)],
    )
    page.click("#tune-question")
    page.keyboard.type("Which port has the metrics?")
    page.click("#tune-add")
    assert page.locator("#tune-own-list li").count() == 1
    shown = evaluated(page)
    data = EvaluationSet(
        {GUIDE_NAME: GUIDE},
        [Question("Which port has the metrics?", GUIDE_NAME, ((start, start + len(passage)),))],
    )
    assert shown["recall"] == percent(evaluate(data).recall)
    # With nothing selected, the page says what to do and keeps the list.
    page.eval_on_selector("#text", "(area) => area.setSelectionRange(0, 0)")
    page.click("#tune-question")
    page.keyboard.type("Another?")
    page.click("#tune-add")
    assert "Select the passage" in page.text_content("#tune-error")
    assert page.locator("#tune-own-list li").count() == 1


def heat_map(page: Any) -> list[list[str]]:
    return page.evaluate(
        """() => [...document.querySelectorAll('#tune-heat tbody tr')].map((row) =>
             [...row.querySelectorAll('.heat-cell')].map((b) => b.textContent))"""
    )


def test_a_sweep_draws_pythons_heat_map_and_a_click_applies_the_best_cell(page):
    page.select_option("#tune-set", "sample")
    type_over(page, "#tune-rows", "300, 600, 1200")
    type_over(page, "#tune-columns", "0, 150")
    page.select_option("#tune-metric", "recall")
    page.click("#tune-sweep")
    wait_until(page, "document.getElementById('tune-status').textContent.startsWith('Sweep done')")
    python = sweep(
        sample_set(), {"target_size": [300, 600, 1200], "overlap": [0, 150]}, metric="recall"
    )
    expected = [percent(cell.report.recall) for cell in python.cells]  # type: ignore[union-attr]
    shown = [cell.removesuffix(" ★") for row in heat_map(page) for cell in row]
    assert shown == expected
    best = page.locator(".heat-cell.best")
    assert best.count() == 1
    cells = page.locator(".heat-cell")
    assert cells.nth(python.best).evaluate("b => b.classList.contains('best')")
    before = runs(page)
    best.click()
    settled(page, before)
    settings = python.cells[python.best].settings
    assert page.input_value("#setting-targetSize") == str(settings["target_size"])
    assert page.input_value("#setting-overlap") == str(settings["overlap"])
    # The link follows, after its pause (main.js).
    wait_until(page, f"location.search.includes('targetSize={settings['target_size']}&')")


def test_chromas_set_opens_from_its_files_and_stop_ends_a_sweep_between_cells(page):
    if not CHROMA.is_dir():
        pytest.fail(f"Chroma's data set is not at {CHROMA} (../shared/datasets)")
    files = [CHROMA / "questions_df.csv", *sorted((CHROMA / "corpora").glob("*.md"))]
    page.set_input_files("#tune-files", [str(f) for f in files])
    wait_until(page, "document.getElementById('tune-set').value === 'files'")
    assert "472 questions on 5 corpora" in page.text_content("#tune-set option[value='files']")
    type_over(page, "#tune-rows", "200, 400, 800, 1600")
    type_over(page, "#tune-columns", "0, 100, 200")
    page.select_option("#tune-metric", "iou")
    page.click("#tune-sweep")
    wait_until(page, "/Sweep: 1 of 12/.test(document.getElementById('tune-status').textContent)")
    page.click("#tune-stop")
    wait_until(page, "document.getElementById('tune-status').textContent.startsWith('Stopped')")
    done = [cell for row in heat_map(page) for cell in row if cell not in ("…", "—")]
    assert 1 <= len(done) < 12
    assert page.is_enabled("#tune-sweep") and not page.is_enabled("#tune-stop")
    # The first cell is Python's on the whole set.
    data = EvaluationSet.from_chroma(CHROMA)
    first = evaluate(data, target_size=200, overlap=0)
    assert done[0].removesuffix(" ★") == percent(first.iou)


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("#tune-rows", "200, lots", 'Target size: "lots" is not a whole number.'),
        ("#tune-columns", " , ", "Overlap: give at least one value"),
    ],
)
def test_a_bad_grid_is_said_at_the_tune_view(page, field, value, said):
    page.select_option("#tune-set", "sample")
    type_over(page, field, value)
    page.click("#tune-sweep")
    wait_until(page, "document.getElementById('tune-error').textContent !== ''")
    assert said in page.text_content("#tune-error")
    type_over(page, field, "0, 100" if "columns" in field else "400, 800")


def test_a_bad_k_and_a_bad_file_are_refused_and_the_figures_stay(page, tmp_path: Path):
    page.select_option("#tune-set", "sample")
    good = evaluated(page)
    type_over(page, "#tune-k", "0")
    page.click("#tune-evaluate")
    wait_until(page, "document.getElementById('tune-error').textContent !== ''")
    assert "invalid k 0" in page.text_content("#tune-error")
    assert (
        page.evaluate(
            "document.querySelector('#tune-figures [data-figure=recall] dd').firstChild.textContent"
        )
        == good["recall"]
    )
    type_over(page, "#tune-k", "5")
    broken = tmp_path / "set.json"
    broken.write_text('{"corpora": {"a": "text"}, "questions": [{"corpusId": "b"}]}')
    page.set_input_files("#tune-files", str(broken))
    wait_until(page, "document.getElementById('tune-error').textContent.includes('set.json')")
    assert "which the set has not" in page.text_content("#tune-error")
    assert page.input_value("#tune-set") == "sample"


def test_the_engine_is_tuned_by_its_own_sizes_and_its_embedding_strategy_is_said_not_to_be(page):
    set_mode(page, "engine")
    try:
        assert page.text_content("#tune-rows-label") == "Rows: Chunk size"
        assert page.text_content("#tune-columns-label") == "Columns: Chunk overlap"
        set_settings(page, strategy="fixed", chunkSize=300, chunkOverlap=30)
        page.select_option("#tune-set", "sample")
        shown = evaluated(page)
        report = evaluate(sample_set(), strategy="fixed", chunk_size=300, chunk_overlap=30)
        assert shown["iou"] == percent(report.iou)
        set_settings(page, strategy="semantic")  # the engine's own, which embeds
        page.click("#tune-evaluate")
        wait_until(page, "document.getElementById('tune-error').textContent !== ''")
        assert "fixed, hierarchical and layout" in page.text_content("#tune-error")
    finally:
        set_settings(page, strategy="fixed")
        set_mode(page, "semantic")
    assert page.text_content("#tune-rows-label") == "Rows: Target size"


def test_a_budget_applied_in_the_tokens_panel_cuts_the_chunks_scored(page):
    from support.playground import quiet

    page.select_option("#tune-set", "sample")
    page.focus("#token-tokenizer")
    before = runs(page)
    page.keyboard.press("ArrowDown")  # "cl100k_base", the first tokenizer after "none"
    settled(page, before)
    assert page.input_value("#token-tokenizer") == "cl100k_base"
    type_over(page, "#token-budget", "64")
    if not page.is_checked("#token-apply"):
        page.click("#token-apply")
    quiet(page)
    try:
        shown = evaluated(page)
        # The settings an earlier test's click may have left in the fields.
        sizes = {
            python: int(page.input_value(f"#setting-{js}"))
            for js, python in (
                ("targetSize", "target_size"),
                ("maxSize", "max_size"),
                ("minSize", "min_size"),
                ("overlap", "overlap"),
            )
        }
        report = evaluate(sample_set(), max_tokens=64, tokenizer="cl100k_base", **sizes)
        assert shown["precision"] == percent(report.precision)
        assert report.precision != evaluate(sample_set(), **sizes).precision  # the budget told
    finally:
        if page.is_checked("#token-apply"):
            page.click("#token-apply")
        page.focus("#token-tokenizer")
        page.keyboard.press("ArrowUp")
        quiet(page)
