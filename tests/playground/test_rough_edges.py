"""The playground's rough edges (issue 14, point 5), each as a person found it, in Chromium.

Speed is not measured here (see tests/bench/playground.py for paste and typing): these tests
prove what must hold whatever the speed: nothing typed is lost, the copied JavaScript runs in
the page's console and gives the chunks shown, rows do not clip, a narrow screen reaches the
chunks with one tap, and every chunk colour keeps text readable in both colour schemes.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from support.colours import contrast, gradient_stops, luminance, over, parse_colour
from support.playground import (
    GUIDE,
    ROOT,
    choose,
    copied,
    open_playground,
    put_text,
    quiet,
    run_in_console,
    runs,
    settled,
    show_text,
    shown_chunks,
    wait_until,
)

MEETING = (ROOT / "web/samples/meeting.json").read_text(encoding="utf-8")
OWN_TEXT = "\n\n".join(
    f"Part {i}. Sentences about topic {i % 3} follow. Another sentence on it. Then more words."
    for i in range(30)
)


@pytest.fixture(scope="module")
def booted(browser, site_url):
    page, recorder, _ = open_playground(
        browser, site_url, permissions=["clipboard-read", "clipboard-write"]
    )
    yield SimpleNamespace(page=page, recorder=recorder, origin=site_url)
    page.context.close()


def set_mode(page, mode):
    if page.is_checked(f'input[name="mode"][value="{mode}"]'):
        return
    before = runs(page)
    page.click(f'label:has(> input[name="mode"][value="{mode}"])')
    settled(page, before)


def show(page, source, text=None):
    """Show `source` (with `text` typed over it, when given) and wait for its result."""
    if page.input_value("#source") != source:
        before = runs(page)
        page.select_option("#source", source)
        settled(page, before)
    if text is not None and page.input_value("#text") != text:
        before = runs(page)
        put_text(page, text)
        settled(page, before)


def settings(page, **values):
    for name, value in values.items():
        before = runs(page)
        choose(page, f"#setting-{name}", value)
        settled(page, before)


# --- Copy as JavaScript: runs as pasted into this page's console -------------------------


CONSOLE_CASES = {
    "semantic on a sample": (
        "semantic",
        "guide",
        None,
        dict(targetSize=700, overlap=40, respectHeadings=False),
        "chunks",
    ),
    "engine hierarchical on a sample": (
        "engine",
        "guide",
        None,
        dict(strategy="hierarchical", chunkSize=300, chunkOverlap=30),
        "chunks",
    ),
    "engine semantic on typed text": (
        "engine",
        "own-document",
        OWN_TEXT,
        dict(strategy="semantic", chunkSize=400, chunkOverlap=0),
        "chunks",
    ),
    "semantic on typed text": (
        "semantic",
        "own-document",
        OWN_TEXT,
        dict(targetSize=300, maxSize=600, minSize=50, overlap=20),
        "chunks",
    ),
    "transcript sample": ("turns", "meeting", None, dict(maxChars=500, overlapTurns=2), "passages"),
}


@pytest.mark.parametrize(
    ("mode", "source", "text", "values", "result"), CONSOLE_CASES.values(), ids=CONSOLE_CASES
)
def test_copied_javascript_runs_in_the_console_and_gives_the_chunks_shown(
    page, mode, source, text, values, result
):
    set_mode(page, mode)
    show(page, source, text)
    settings(page, **values)
    code = copied(page, "#copy-js")
    assert "indexer-guide.md'" not in code and '"indexer-guide.md"' not in code
    got = run_in_console(page, code, result)
    assert got == shown_chunks(page)
    assert len(got) == int(page.text_content('#stats [data-stat="count"] dd').replace(",", ""))


def test_the_copied_samples_url_is_the_pages_own(page, booted):
    set_mode(page, "semantic")
    show(page, "guide")
    code = copied(page, "#copy-js")
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    run_in_console(page, code, "chunks")
    assert f"{booted.origin}/samples/indexer-guide.md" in asked
    assert not [url for url in asked if not url.startswith(booted.origin)]


# --- Chunk rows and the status line --------------------------------------------------------


def test_one_chunk_is_one_chunk(page):
    set_mode(page, "semantic")
    show(page, "own-document", "Just one short paragraph.")
    assert re.fullmatch(r"1 chunk in [0-9,]+ ms", page.text_content("#run-status"))
    show(page, "own-document", OWN_TEXT)
    settings(page, targetSize=300, maxSize=600, minSize=50, overlap=20)
    assert re.fullmatch(r"[0-9,]+ chunks in [0-9,]+ ms", page.text_content("#run-status"))


ROWS_CLIPPED = """() => [...document.querySelectorAll('#chunk-list .row')].flatMap((row) => {
  const box = row.getBoundingClientRect();
  const style = getComputedStyle(row);
  const inner = box.bottom - parseFloat(style.borderBottomWidth);
  const head = row.querySelector('.row-head');
  const preview = row.querySelector('.row-preview');
  const line = parseFloat(getComputedStyle(head).lineHeight);
  const problems = [];
  if (head.getBoundingClientRect().height > line * 1.5) problems.push('head wraps');
  if (preview.getBoundingClientRect().bottom > inner + 0.5) problems.push('preview cut');
  if (preview.scrollHeight > preview.clientHeight + 1) problems.push('descenders cut');
  return problems.map((p) => `${row.id}: ${p}`);
})"""


@pytest.mark.parametrize("width", [360, 480, 1280])
def test_rows_never_clip_their_preview(page, width):
    set_mode(page, "engine")
    show(page, "guide")
    # Long titles and meta: hierarchical sections, with offsets in the hundreds of thousands.
    put_text(page, (GUIDE + "\n\n") * 40)
    quiet(page)
    settings(page, strategy="hierarchical", chunkSize=300, chunkOverlap=30)
    page.set_viewport_size({"width": width, "height": 900})
    if width < 960:
        page.click("#tab-chunks")
    try:
        page.eval_on_selector("#chunk-list", "list => { list.scrollTop = list.scrollHeight; }")
        page.wait_for_timeout(100)
        assert page.evaluate("document.querySelectorAll('#chunk-list .row').length") > 3
        assert page.evaluate(ROWS_CLIPPED) == []
    finally:
        page.click("#tab-text") if width < 960 else None
        page.set_viewport_size({"width": 1280, "height": 900})
        show(page, "guide", GUIDE)


# --- Colours: readable in both schemes ----------------------------------------------------

# Every chunk colour, and each overlap stripe (a chunk's tint striped with the next one's),
# plain and selected, with the text drawn over it; colours read from computed styles.
READ_COLOURS = """() => {
  const view = document.getElementById('document');
  const probe = (classes) => {
    const span = document.createElement('span');
    span.className = classes;
    span.textContent = 'probe';
    view.append(span);
    const style = getComputedStyle(span);
    const out = {text: style.color, back: style.backgroundColor, image: style.backgroundImage};
    span.remove();
    return out;
  };
  const out = {page: getComputedStyle(view).backgroundColor, chunks: [], overlaps: []};
  for (let c = 0; c < 6; c += 1) {
    const next = (c + 1) % 6;
    out.chunks.push([`c${c}`, probe(`chunk c${c}`)]);
    out.chunks.push([`c${c} selected`, probe(`chunk c${c} selected`)]);
    // A chunk's tail repeated by the next (as drawn), and the other way round, each plain,
    // with the next chunk selected, and with this one selected.
    for (const [own, lead] of [[c, next], [next, c]]) {
      for (const state of ['', 'selected-lead', 'selected']) {
        out.overlaps.push([`c${own} under l${lead} ${state}`,
          probe(`chunk overlap c${own} l${lead} ${state}`)]);
      }
    }
  }
  return out;
}"""


# Overlap stripes must show against the chunk's own tint: this is the least ratio between the
# two, well above what an eye tells apart on a screen.
STRIPE_CONTRAST = 1.25


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_over_every_chunk_colour_and_overlap_meets_wcag_aa(page, scheme):
    page.emulate_media(color_scheme=scheme)
    try:
        colours = page.evaluate(READ_COLOURS)
    finally:
        page.emulate_media(color_scheme="light")  # the context's own default
    ground = parse_colour(colours["page"])
    failures = []
    for name, style in colours["chunks"]:
        back = over(parse_colour(style["back"]), ground)
        ratio = contrast(parse_colour(style["text"]), back)
        if ratio < 4.5:
            failures.append(f"{name}: text {ratio:.2f}:1")
    for name, style in colours["overlaps"]:
        stops = gradient_stops(style["image"])
        assert len(stops) >= 2, style["image"]
        stripes = [over(stop, ground) for stop in stops]
        for stripe in stripes:
            ratio = contrast(parse_colour(style["text"]), stripe)
            if ratio < 4.5:
                failures.append(f"{name}: text {ratio:.2f}:1 on a stripe")
        seen = contrast(stripes[0], stripes[-1])
        if seen < STRIPE_CONTRAST:
            failures.append(f"{name}: stripes {seen:.2f}:1, barely visible")
    assert failures == [], f"{scheme}: {failures}"


def test_the_dark_scheme_really_is_dark(page):
    # The emulation must reach the page's styles, or the test above proves nothing.
    page.emulate_media(color_scheme="dark")
    try:
        dark = page.evaluate(READ_COLOURS)
    finally:
        page.emulate_media(color_scheme="light")  # the context's own default
    light = page.evaluate(READ_COLOURS)
    assert luminance(parse_colour(dark["page"])) < 0.05 < luminance(parse_colour(light["page"]))


# --- A narrow screen: the chunks one tap away ---------------------------------------------

IN_VIEW = """(selector) => {
  const element = document.querySelector(selector);
  if (!element) return false;
  const box = element.getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight && box.top < innerHeight;
}"""


@pytest.fixture(scope="module")
def phone(browser, site_url):
    page, recorder, _ = open_playground(
        browser, site_url, width=360, height=740, has_touch=True, is_mobile=True
    )
    yield SimpleNamespace(page=page, recorder=recorder)
    page.context.close()


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


# --- Editing a large text: nothing typed is lost ------------------------------------------


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
