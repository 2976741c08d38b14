"""The playground's Boundaries control for the engine in Chromium (issue 46): a menu of
Python's names with Python's default chosen; "content" cuts as Python does; a strategy that
has no content boundaries is refused at the field in the page's words; the Tune view scores
with it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from support.playground import (
    ROOT,
    choose,
    evaluated,
    open_playground,
    percent,
    sample_set,
    set_mode,
    set_settings,
    show_text,
    shown_chunks,
    type_over,
    wait_until,
)

from chunker import ChunkingEngine
from chunker.base.limits import BOUNDARIES
from chunker.evaluation import evaluate

GUIDE = (ROOT / "web/samples/indexer-guide.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def booted(browser, site_url):
    page, recorder, _ = open_playground(browser, site_url)
    yield SimpleNamespace(page=page, recorder=recorder, origin=site_url)
    assert recorder.problems() == []
    page.context.close()


def on_guide(page, **settings) -> None:
    set_mode(page, "engine")
    show_text(page, GUIDE, "guide")
    set_settings(page, strategy="fixed", chunkSize=300, chunkOverlap=30, **settings)


def test_the_menu_offers_pythons_names_with_its_default_chosen(page):
    set_mode(page, "engine")
    menu = "#setting-boundaries"
    assert page.evaluate(
        f"[...document.querySelector('{menu}').options].map((o) => o.value)"
    ) == list(BOUNDARIES)
    assert page.input_value(menu) == "position"
    assert page.text_content("label[for='setting-boundaries']") == "Boundaries"
    assert "an edit moves only the windows next to it" in page.text_content(
        "#setting-boundaries-help"
    )


@pytest.mark.parametrize("boundaries", BOUNDARIES)
def test_each_choice_cuts_as_python(page, boundaries):
    on_guide(page, boundaries=boundaries)
    chunks = ChunkingEngine().chunk(GUIDE, chunk_size=300, chunk_overlap=30, boundaries=boundaries)
    assert [c["content"] for c in shown_chunks(page)] == [c.content for c in chunks]


def test_a_strategy_without_content_boundaries_is_refused_at_the_field(page):
    on_guide(page, boundaries="content")
    try:
        choose(page, "#setting-strategy", "hierarchical")
        wait_until(page, "document.getElementById('setting-boundaries-error').textContent !== ''")
        assert page.text_content("#setting-boundaries-error") == (
            "Boundaries 'content' is for strategy 'fixed' only, not 'hierarchical' "
            "(use boundaries 'position')"
        )
        assert page.get_attribute("#setting-boundaries", "aria-invalid") == "true"
    finally:
        set_settings(page, strategy="fixed", boundaries="position")


def test_tune_scores_with_it(page):
    on_guide(page, boundaries="content")
    page.select_option("#tune-set", "sample")
    shown = evaluated(page)
    options = dict(strategy="fixed", chunk_size=300, chunk_overlap=30)
    report = evaluate(sample_set(), **options, boundaries="content")
    assert shown["precision"] == percent(report.precision)
    assert shown["precision"] != percent(evaluate(sample_set(), **options).precision)


def test_tune_shows_the_share_kept_under_edits_when_asked(page):
    on_guide(page, boundaries="content")
    page.select_option("#tune-set", "sample")
    options = dict(strategy="fixed", chunk_size=300, chunk_overlap=30, boundaries="content")
    try:
        assert "stability" not in evaluated(page)
        type_over(page, "#tune-edits", "4")
        shown = evaluated(page)
        report = evaluate(sample_set(), **options, edits=4)
        assert shown["stability"] == percent(report.stability)
        assert page.text_content("[data-figure='stability'] dt") == "kept under edits"
        # A bad count is said at its field, and nothing is sent.
        type_over(page, "#tune-edits", "-1")
        page.click("#tune-evaluate")
        wait_until(page, "document.getElementById('tune-edits-error').textContent !== ''")
        assert "Edits for stability" in page.text_content("#tune-edits-error")
        assert page.get_attribute("#tune-edits", "aria-invalid") == "true"
    finally:
        type_over(page, "#tune-edits", "0")
