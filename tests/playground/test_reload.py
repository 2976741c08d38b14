"""Work in progress survives a reload, and goes in a link, in Chromium, as a person works:
their own Tune questions and passages, a question half typed, the Questions menu, k, the
sweep's rows, columns and metric, and the search with its switches; and keys typed into a
large text just before a reload are kept.
"""

from __future__ import annotations

from typing import Any

from support.playground import (
    CLIPBOARD,
    GUIDE,
    GUIDE_NAME,
    copied,
    evaluated,
    open_playground,
    percent,
    settled,
    show_text,
    type_over,
    wait_until,
)

from chunker.evaluation import EvaluationSet, Question, evaluate

PASSAGE = "Every process exports Prometheus metrics on port 9464."
FIELDS = """() => Object.fromEntries(['tune-set', 'tune-question', 'tune-k', 'tune-rows',
  'tune-columns', 'tune-metric', 'query'].map((id) => [id, document.getElementById(id).value])
  .concat([['query-all', document.getElementById('query-all').checked]]))"""
TYPED = {
    "tune-set": "own",
    "tune-question": "And how often",
    "tune-k": "3",
    "tune-rows": "300, 600",
    "tune-columns": "0, 50",
    "tune-metric": "recall",
    "query": "metrics port",
    "query-all": True,
}


def select_passage(page: Any, passage: str) -> None:
    """Select `passage` in the text box as a person does: a click at its start, then Shift and
    the right arrow to its end."""
    start = GUIDE.index(passage)
    page.eval_on_selector(
        "#text", "(area, at) => { area.focus(); area.setSelectionRange(at, at); }", start
    )
    for _ in passage:
        page.keyboard.press("Shift+ArrowRight")


def work_as_typed(page: Any) -> None:
    """A question added on a passage, another half typed, the sweep's fields, a search."""
    page.select_option("#tune-set", "own")
    select_passage(page, PASSAGE)
    page.click("#tune-question")
    page.keyboard.type("Which port has the metrics?")
    page.click("#tune-add")
    page.click("#tune-question")
    page.keyboard.type(TYPED["tune-question"])
    type_over(page, "#tune-k", TYPED["tune-k"])
    type_over(page, "#tune-rows", TYPED["tune-rows"])
    type_over(page, "#tune-columns", TYPED["tune-columns"])
    page.select_option("#tune-metric", TYPED["tune-metric"])
    page.click("#query")
    page.keyboard.type(TYPED["query"])
    page.click("label:has(> #query-all)")


def as_typed(page: Any) -> None:
    """The work of `work_as_typed` is on the page: the fields, the question listed, the
    search's hits drawn, and Evaluate scoring the question kept."""
    assert page.evaluate(FIELDS) == TYPED
    assert page.is_visible("#tune-own")
    assert page.text_content("#tune-own-list li strong") == "Which port has the metrics?"
    wait_until(page, "document.querySelectorAll('#search-results .hit').length > 0")
    start = GUIDE.index(PASSAGE)
    data = EvaluationSet(
        {GUIDE_NAME: GUIDE},
        [Question("Which port has the metrics?", GUIDE_NAME, ((start, start + len(PASSAGE)),))],
    )
    shown = evaluated(page)
    assert page.text_content("#tune-error") == ""
    assert shown["recall"] == percent(evaluate(data, k=3).recall)


def test_work_in_progress_survives_a_reload_and_goes_in_a_link(browser, site_url):
    page, recorder, _ = open_playground(browser, site_url, permissions=CLIPBOARD)
    try:
        assert page.input_value("#source") == "guide"
        work_as_typed(page)
        page.reload(wait_until="domcontentloaded")
        wait_until(page, "document.getElementById('loading').classList.contains('ready')", 120)
        settled(page, 0)
        as_typed(page)
        link = copied(page, "#copy-link")
        assert "sample=guide" in link and "#work=" in link
        assert "search and Tune view" in page.text_content("#export-status")
        assert recorder.problems() == []
    finally:
        page.context.close()
    # The link opens the same work in a page of its own (a tab with nothing kept).
    origin = site_url + "/"
    other, recorder, _ = open_playground(browser, site_url, link[len(origin) :])
    try:
        as_typed(other)
        assert "#" not in other.evaluate("location.href")
        assert recorder.problems() == []
    finally:
        other.context.close()


def test_keys_typed_just_before_a_reload_are_kept(browser, site_url):
    page, recorder, _ = open_playground(browser, site_url)
    try:
        big = (GUIDE * (600_000 // len(GUIDE) + 1))[:600_000]  # long enough to wait to be kept
        # The own text's result first, then the big one's: counted from before the first,
        # `settled` could take the empty text's result for the big one's.
        show_text(page, big, "own-document", timeout=120)
        page.focus("#text")
        page.keyboard.press("Control+End")
        page.keyboard.type("kept?")
        # At once: the pause before keeping has not passed, only the page being left. As
        # long as the waits here: on a loaded machine, the page and its 600 KB take a while.
        page.reload(wait_until="domcontentloaded", timeout=120_000)
        wait_until(page, "document.getElementById('text').value.length > 0", timeout=120)
        assert page.input_value("#text") == big + "kept?"
        assert page.input_value("#source") == "own-document"
        assert recorder.problems() == []
    finally:
        page.context.close()
