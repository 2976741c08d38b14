"""The playground read whole, in Chromium, with something in every
part: a document chunked, a search's hits, a Tune evaluation and a sweep's heat map. At 1280
and at 360 px (each view tab), in the light and the dark scheme: every text the page shows
reads at WCAG AA (4.5:1, measured from the computed colours of the rendered page), the page
never scrolls sideways, the histogram's labels keep a readable size, and a search hit tapped
on a phone shows its chunk. The pictures are kept in test-artifacts/ to be looked at.
"""

from __future__ import annotations

import pytest
from support.playground import ARTIFACTS, booted_playground, wait_until
from support.reading import EVERY_TEXT, hard_to_read

VIEWS = ["text", "chunks", "search", "tune"]


@pytest.fixture(scope="module")
def booted(browser, site_url):
    ARTIFACTS.mkdir(exist_ok=True)
    with booted_playground(browser, site_url, has_touch=True) as booted:
        page = booted.page
        # Something in every part, as a person puts it there: the guide is chunked at load.
        page.click("#query")
        page.keyboard.type("index chunk")
        wait_until(page, "document.querySelectorAll('#search-results .hit').length > 0")
        page.click("#tune-evaluate")
        wait_until(
            page,
            "/questions, .* chunks, in/.test(document.getElementById('tune-status').textContent)",
        )
        # A row past the max size (2,000): its cells flagged, and why written under it.
        page.click("#tune-rows")
        page.keyboard.press("Control+A")
        page.keyboard.type("200, 800, 2400")
        page.click("#tune-sweep")
        wait_until(
            page, "document.getElementById('tune-status').textContent.startsWith('Sweep done')", 300
        )
        yield booted


@pytest.fixture
def seen_as(page, request):
    """The page at the width and in the scheme of `request.param` (width, scheme); back to
    1280 px, light and the Text view afterwards."""
    width, scheme = request.param
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size({"width": width, "height": 900})
    yield width, scheme
    if width < 960:
        page.tap("#tab-text")
    page.emulate_media(color_scheme="light")
    page.set_viewport_size({"width": 1280, "height": 900})


def views_at(width):
    """The views a person can switch to at `width`: each tab's on a narrow screen, else one."""
    return VIEWS if width < 960 else ["all"]


def show_view(page, view):
    if view != "all":
        page.tap(f"#tab-{view}")
        wait_until(page, f"document.body.dataset.view === '{view}'")
    page.evaluate("new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)))")


SEEN = [(width, scheme) for width in (1280, 360) for scheme in ("light", "dark")]


@pytest.mark.parametrize("seen_as", SEEN, indirect=True, ids=[f"{w}-{s}" for w, s in SEEN])
def test_every_text_reads_at_aa_in_every_view(page, seen_as):
    width, scheme = seen_as
    problems = {}
    texts = []
    for view in views_at(width):
        show_view(page, view)
        read = page.evaluate(EVERY_TEXT)
        texts += read
        if hard := hard_to_read(read):
            problems[view] = hard
        page.screenshot(
            path=str(ARTIFACTS / f"legible-{width}-{scheme}-{view}.png"), full_page=True
        )
    # What matters most was among the texts read: the heat map's cells, its best one too.
    read = [what for text in texts for what in text["seen"]]
    read_from = {what.split(":")[0] for what in read}
    assert {"button.heat-cell", "button.heat-cell.best", "text.tick"} <= read_from, read_from
    assert any(what.startswith('p: "Target size 2,400') for what in read)  # under its row
    assert problems == {}, scheme


def test_no_view_scrolls_sideways_on_a_phone(page):
    width = 360
    page.set_viewport_size({"width": width, "height": 800})
    try:
        for view in VIEWS:
            show_view(page, view)
            widths = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
            assert widths[0] <= widths[1], view
        # The Tune view whole on screen: its menu of questions, and the default grid's
        # heat map, every column (a wider grid scrolls in its own box).
        right = page.evaluate(
            """() => Math.max(...[document.getElementById('tune-set'),
                 ...document.querySelectorAll('#tune-heat th, #tune-heat td')]
                 .map((node) => node.getBoundingClientRect().right))"""
        )
        assert right <= width
    finally:
        page.tap("#tab-text")
        page.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.parametrize("width", [360, 1280])
def test_the_histograms_labels_read_at_12_px(page, width):
    page.set_viewport_size({"width": width, "height": 900})
    try:
        if width < 960:
            show_view(page, "chunks")
        wait_until(
            page, "document.querySelector('#histogram svg').getBoundingClientRect().width > 0"
        )
        page.evaluate("new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)))")
        sizes = page.evaluate(
            """() => [...document.querySelectorAll('#histogram text')].map((text) =>
                 [text.textContent,
                  parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a])"""
        )
        assert len(sizes) >= 5  # three ticks, two markers
        assert [label for label, size in sizes if size < 12 - 0.01] == [], sizes
    finally:
        if width < 960:
            page.tap("#tab-text")
        page.set_viewport_size({"width": 1280, "height": 900})


def test_a_search_hit_tapped_on_a_phone_shows_its_chunk(page):
    page.set_viewport_size({"width": 360, "height": 740})
    try:
        show_view(page, "search")
        hits = page.locator("#search-results .hit")
        chosen = int(hits.last.get_attribute("data-index"))
        hits.last.tap()
        wait_until(page, "document.body.dataset.view === 'chunks'")
        assert page.get_attribute("#tab-chunks", "aria-selected") == "true"
        # The chunk is on screen, under the tabs, in the document's box, and selected.
        box = page.evaluate(
            f"""() => {{
              const span = document.querySelector('#document [data-c~="{chosen}"]');
              const pane = document.getElementById('document').getBoundingClientRect();
              const tabs = document.querySelector('.view-tabs').getBoundingClientRect();
              const at = span.getBoundingClientRect();
              return {{top: at.top, bottom: at.bottom, paneTop: pane.top,
                       paneBottom: pane.bottom, under: tabs.bottom, height: innerHeight,
                       selected: span.classList.contains('selected')}};
            }}"""
        )
        assert box["selected"]
        assert max(box["under"], box["paneTop"]) <= box["top"] < min(box["paneBottom"], 740), box
        assert page.get_attribute(f"#chunk-row-{chosen}", "aria-selected") == "true"
        # What was tapped is hidden now: the focus is on the document, not lost.
        assert page.evaluate("document.activeElement.id") == "document"
    finally:
        page.tap("#tab-text")
        page.set_viewport_size({"width": 1280, "height": 900})
