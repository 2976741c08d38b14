"""The playground's Tune view in Chromium: the built-in questions scored as Python scores
them, questions added on the shown document by selecting their passage, Chroma's set opened
from its files, a sweep drawn as a heat map whose best cell is Python's and whose click
applies its settings, Stop between cells, and bad input said where it was made."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from support.paths import ROOT
from support.playground import (
    GUIDE,
    GUIDE_NAME,
    GUIDE_QUESTIONS,
    evaluated,
    on_the_guide,
    percent,
    runs,
    sample_set,
    set_mode,
    set_settings,
    settled,
    type_over,
    wait_until,
)

from chunker.evaluation import EvaluationSet, Question, evaluate, sweep

CHROMA = ROOT.parent / "shared" / "datasets" / "chroma-general-evaluation"


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
    assert page.locator(".tune-question").count() == len(GUIDE_QUESTIONS["questions"])


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


def swept(page: Any) -> None:
    """Click Sweep and wait until the page says the sweep is done."""
    page.eval_on_selector("#tune-status", "s => { s.textContent = ''; }")
    page.click("#tune-sweep")
    wait_until(page, "document.getElementById('tune-status').textContent.startsWith('Sweep done')")


# A figure a heat map cell shows: 12.3%, with its marks.
FIGURE_RE = re.compile(r"[0-9]+\.[0-9]%( !)?( ★)?")


def heat_map(page: Any) -> list[list[str]]:
    return page.evaluate(
        """() => [...document.querySelectorAll('#tune-heat tbody tr:not(.heat-notes)')].map((row) =>
             [...row.querySelectorAll('.heat-cell')].map((b) => b.textContent))"""
    )


def test_a_sweep_draws_pythons_heat_map_and_a_click_applies_the_best_cell(page):
    page.select_option("#tune-set", "sample")
    type_over(page, "#tune-rows", "300, 600, 1200")
    type_over(page, "#tune-columns", "0, 150")
    page.select_option("#tune-metric", "recall")
    swept(page)
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


def said_at(page: Any, field: str) -> str:
    """What the page says at the Tune field `field` (a selector), once it says something;
    the field is marked invalid then."""
    error = f"document.getElementById('{field[1:]}-error')"
    wait_until(page, f"{error}?.textContent", timeout=10)
    assert page.get_attribute(field, "aria-invalid") == "true"
    return page.evaluate(f"{error}.textContent")


# Each value of a grid as its setting's field checks it (settings.js), in the same words,
# every bad one said at once; none of them is sent.
GRID_CASES = {
    "a size of 0": ("#tune-rows", "0, 200", ["Target size must be at least 1, not 0."]),
    "a negative size": ("#tune-rows", "-5", ["Target size must be at least 1, not -5."]),
    "a negative overlap": ("#tune-columns", "-1, 100", ["Overlap must be at least 0, not -1."]),
    "past what JavaScript holds": (
        "#tune-rows",
        "99999999999999999999",
        [
            "Target size is too large: JavaScript holds whole numbers exactly only up to "
            "9,007,199,254,740,991."
        ],
    ),
    "a value twice": (
        "#tune-rows",
        "10, 400, 10",
        ["Target size 10 is given twice: each value is a row or column of its own."],
    ),
    "a fraction and a word": (
        "#tune-rows",
        "2.5, 400, lots",
        [
            "Target size must be a whole number, not 2.5.",
            'Target size must be a whole number, not "lots".',
        ],
    ),
    "nothing": ("#tune-columns", " , ", ["Overlap: give at least one value, commas between."]),
}


@pytest.mark.parametrize(("field", "typed", "said"), GRID_CASES.values(), ids=GRID_CASES)
def test_each_grid_value_is_checked_as_its_field_checks_it(page, field, typed, said):
    page.select_option("#tune-set", "sample")
    type_over(page, "#tune-rows", "300, 600")
    type_over(page, "#tune-columns", "0, 150")
    page.evaluate(
        "() => { window.heatBefore = document.getElementById('tune-heat').firstElementChild;"
        " document.getElementById('tune-status').textContent = ''; }"
    )
    type_over(page, field, typed)
    page.click("#tune-sweep")
    try:
        assert said_at(page, field).split("\n") == said
        # Nothing was sent: the heat map before stays, and no sweep ran. That nothing starts
        # is seen only by waiting, longer than a sweep takes to begin.
        page.wait_for_timeout(300)
        assert page.evaluate(
            "document.getElementById('tune-heat').firstElementChild === window.heatBefore"
        )
        assert page.text_content("#tune-status") == ""
    finally:
        type_over(page, field, "300, 600" if field == "#tune-rows" else "0, 150")
    # Put right, the message goes at the next sweep.
    swept(page)
    assert page.text_content(f"{field}-error") == ""
    assert page.get_attribute(field, "aria-invalid") is None


def notes_under(page: Any) -> dict[str, list[str]]:
    """The reasons written under each row of the heat map, by the row's value."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#tune-heat .heat-notes')]
             .map((notes) => [notes.previousElementSibling.querySelector('th').textContent,
                              [...notes.querySelectorAll('p')].map((p) => p.textContent)]))"""
    )


def test_why_a_cell_was_not_run_is_written_under_its_row_for_everyone(page):
    set_mode(page, "engine")
    try:
        set_settings(page, strategy="fixed", chunkSize=512, chunkOverlap=64)
        page.select_option("#tune-set", "sample")
        type_over(page, "#tune-rows", "100, 400")
        type_over(page, "#tune-columns", "0, 200")
        swept(page)
        # Chunk size 100 with an overlap of 200: the chunker refuses it, and says why.
        shown = [[bool(FIGURE_RE.fullmatch(cell)) for cell in row] for row in heat_map(page)]
        assert shown == [[True], [True, True]]
        assert notes_under(page) == {
            "100": [
                "Chunk overlap 200 must be less than chunk size 100 "
                "(or no window would move forward)"
            ]
        }
        # In words on the page, seen and read, not in a title only a mouse finds.
        note = page.locator("#tune-heat .heat-notes p")
        assert note.is_visible()
        assert page.locator("#tune-heat [title]").count() == 0
        refused = page.locator("#tune-heat .heat-refused")
        assert refused.count() == 1 and refused.is_visible()
    finally:
        set_mode(page, "semantic")


def test_settings_that_make_no_sense_are_flagged_with_every_reason_under_their_row(page):
    page.select_option("#tune-set", "sample")
    type_over(page, "#tune-rows", "400, 3000")
    type_over(page, "#tune-columns", "0, 2500")
    swept(page)
    max_size = int(page.input_value("#setting-maxSize"))
    assert max_size == 2000
    cells = heat_map(page)
    flagged = [[cell.removesuffix(" ★").endswith(" !") for cell in row] for row in cells]
    assert flagged == [[False, True], [True, True]]
    overlap = (
        "Overlap 2,500 must be less than max size 2,000, "
        "or each chunk repeats the whole chunk before it."
    )
    target = (
        "Target size 3,000 must not be more than max size 2,000, "
        "or parts are cut longer than the max."
    )
    # As the settings' fields say them, both at once where both hold.
    assert notes_under(page) == {"400": [overlap], "3,000": [target, overlap]}


def test_k_is_checked_as_a_field_in_the_pages_words_and_the_figures_stay(page):
    page.select_option("#tune-set", "sample")
    good = evaluated(page)
    for typed, said in (
        ("", "Chunks retrieved (k) needs a number."),
        ("0", "Chunks retrieved (k) must be at least 1, not 0."),
        ("2.5", "Chunks retrieved (k) must be a whole number, not 2.5."),
        ("99999999999999999999", "Chunks retrieved (k) is too large"),
    ):
        page.click("#tune-k")
        page.keyboard.press("Control+A")
        if typed:
            page.keyboard.type(typed)
        else:
            page.keyboard.press("Delete")
        page.click("#tune-evaluate")
        assert said_at(page, "#tune-k").startswith(said), typed
        assert page.text_content("#tune-error") == ""
        assert (
            page.evaluate(
                "document.querySelector('#tune-figures [data-figure=recall] dd')"
                ".firstChild.textContent"
            )
            == good["recall"]
        )
    type_over(page, "#tune-k", "5")
    assert evaluated(page) == good
    assert page.text_content("#tune-k-error") == ""


BAD_SETS = {
    "no references": (
        {"corpora": {"a": "Some text."}, "questions": [{"question": "Q?", "corpusId": "a"}]},
        'set.json: question 1 has no "references": the excerpts that answer it, each [start, end]',
    ),
    "no question text": (
        {"corpora": {"a": "Some text."}, "questions": [{"corpusId": "a", "references": [[0, 4]]}]},
        'set.json: question 1 has no "question": the question\'s text',
    ),
    "an excerpt not of whole numbers": (
        {
            "corpora": {"a": "Some text."},
            "questions": [{"question": "Q?", "corpusId": "a", "references": [[0, 2.5]]}],
        },
        "set.json: question 1 has the excerpt [0,2.5], empty, backwards or outside its corpus",
    ),
    "an empty excerpt": (
        {
            "corpora": {"a": "Some text."},
            "questions": [{"question": "Q?", "corpusId": "a", "references": [[4, 4]]}],
        },
        "set.json: question 1 has the excerpt [4,4], empty, backwards or outside its corpus",
    ),
    "a corpus that is no text": (
        {"corpora": {"a": 5}, "questions": []},
        'set.json: corpus "a" is not a text',
    ),
}


@pytest.mark.parametrize(("content", "said"), BAD_SETS.values(), ids=BAD_SETS)
def test_a_set_file_is_checked_whole_when_opened(page, tmp_path: Path, content, said):
    page.select_option("#tune-set", "sample")
    page.eval_on_selector("#tune-error", "e => { e.textContent = ''; }")
    broken = tmp_path / "set.json"
    broken.write_text(json.dumps(content))
    page.set_input_files("#tune-files", str(broken))
    wait_until(page, "document.getElementById('tune-error').textContent !== ''", timeout=10)
    assert page.text_content("#tune-error") == said
    assert page.input_value("#tune-set") == "sample"


def test_a_bad_file_is_refused_and_the_figures_stay(page, tmp_path: Path):
    page.select_option("#tune-set", "sample")
    good = evaluated(page)
    broken = tmp_path / "set.json"
    question = {"question": "Q?", "corpusId": "b", "references": [[0, 1]]}
    broken.write_text(json.dumps({"corpora": {"a": "text"}, "questions": [question]}))
    page.set_input_files("#tune-files", str(broken))
    wait_until(page, "document.getElementById('tune-error').textContent.includes('set.json')")
    assert "which the set has not" in page.text_content("#tune-error")
    assert page.input_value("#tune-set") == "sample"
    assert evaluated(page) == good


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
