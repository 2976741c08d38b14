"""The playground on a narrow screen, in Chromium: on a phone the chunks are one tap away and
on screen, the tabs stay at hand and go by arrow keys; on a wide screen there are no tabs and
every part shows.
"""

from __future__ import annotations

import pytest
from support.playground import booted_playground

IN_VIEW = """(selector) => {
  const element = document.querySelector(selector);
  if (!element) return false;
  const box = element.getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight && box.top < innerHeight;
}"""


@pytest.fixture(scope="module")
def phone(browser, site_url):
    with booted_playground(
        browser, site_url, width=360, height=740, has_touch=True, is_mobile=True
    ) as booted:
        yield booted


def test_on_a_phone_the_chunks_are_one_tap_away_and_on_screen(phone):
    page = phone.page
    assert page.evaluate("window.scrollY") == 0
    # First the text, as before: the chunks are not on the first screen.
    assert page.evaluate(IN_VIEW, "#text")
    assert not page.evaluate(IN_VIEW, "#results-heading")
    page.tap("#tab-chunks")
    assert page.get_attribute("#tab-chunks", "aria-selected") == "true"
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate(IN_VIEW, "#results-heading")
    assert page.evaluate(IN_VIEW, "#stats")
    # The first chunk itself, coloured in the document, is on screen without scrolling.
    first = page.evaluate("""() => {
      const chunk = document.querySelector('#document .chunk');
      const box = chunk.getBoundingClientRect();
      return {top: box.top, bottom: box.bottom, height: innerHeight};
    }""")
    assert 0 <= first["top"] < first["height"], first
    assert not page.evaluate(IN_VIEW, "#text")
    assert not page.evaluate(IN_VIEW, "#setting-targetSize")
    page.tap("#tab-search")
    assert page.evaluate(IN_VIEW, "#query")
    assert not page.evaluate(IN_VIEW, "#results-heading")
    page.tap("#tab-text")
    assert page.evaluate(IN_VIEW, "#text")
    assert phone.recorder.problems() == []


def test_on_a_phone_the_tabs_stay_at_hand_and_go_by_arrow_keys(phone):
    page = phone.page
    page.tap("#tab-text")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate(IN_VIEW, ".view-tabs")  # sticky: reachable from the bottom too
    page.tap("#tab-chunks")
    assert page.evaluate("window.scrollY") == 0
    page.focus("#tab-chunks")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-search"
    assert page.evaluate("document.body.dataset.view") == "search"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.body.dataset.view") == "text"


def test_on_a_wide_screen_there_are_no_tabs_and_every_part_shows(page):
    assert not page.is_visible(".view-tabs")
    for selector in ("#text", "#results-heading", "#query"):
        assert page.is_visible(selector), selector
