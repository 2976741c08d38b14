"""The playground's Compare view in Chromium: the shown text chunked with a second
setting, B (another setting, strategy or token budget), beside the page's own, A. Each
column marks every cut of its side once, and those only its side makes apart: exactly the
symmetric difference of the two sides' cuts, as Python's chunks make them. The differences
are gone through one by one, both columns at the same place; each side's counts, histogram
and scores are Python's; B's bad values are said at B's fields; a copied link opened in a new
page restores the comparison; it is made with keys alone; at 360 px it stacks without
scrolling sideways; and in both colour schemes every text of it meets WCAG AA.

The wide page is booted once for the module (A is its defaults, Python's, on the guide); the
narrow one once for the keyboard and the narrow screen. Every test fails if a page logged an
error or threw.
"""

from __future__ import annotations

import re
import statistics
from types import SimpleNamespace
from typing import Any

import pytest
from support.colours import contrast, gradient_stops, over, parse_colour
from support.comparing import (
    act,
    compare_on,
    compared,
    comparisons,
    cuts_of,
    marked_cuts,
    set_b,
    set_b_tokens,
)
from support.playground import (
    CLIPBOARD,
    GUIDE,
    GUIDE_QUESTIONS,
    booted_playground,
    copied,
    open_playground,
    runs,
    sample_set,
    settled,
    show_source,
    show_text,
    wait_until,
)
from support.reading import EVERY_TEXT, hard_to_read

from chunker import ChunkingEngine, DocumentChunk, SemanticChunker
from chunker.evaluation import evaluate

# B's semantic settings as a page opens (Python's defaults, which A keeps throughout).
SEMANTIC = {
    "targetSize": 1000,
    "maxSize": 2000,
    "minSize": 200,
    "overlap": 100,
    "preserveCodeBlocks": True,
    "respectHeadings": True,
}

# What B differs from A by: B's chunker, settings and applied token budget as set on the
# page, and Python's chunks of a text for them.
CASES: dict[str, tuple[tuple[str, dict[str, Any], int | None], Any]] = {
    "a setting": (
        ("semantic", {"targetSize": 600}, None),
        lambda text: SemanticChunker(target_size=600).chunk(text),
    ),
    "a strategy": (
        ("engine", {"strategy": "hierarchical", "chunkSize": 700, "chunkOverlap": 50}, None),
        lambda text: ChunkingEngine().chunk(
            text, strategy="hierarchical", chunk_size=700, chunk_overlap=50
        ),
    ),
    "a token budget": (
        ("semantic", {}, 120),
        lambda text: SemanticChunker(max_tokens=120, tokenizer="cl100k_base").chunk(text),
    ),
}


@pytest.fixture(scope="module")
def booted(browser, site_url):
    with booted_playground(browser, site_url, permissions=CLIPBOARD) as booted:
        show_source(booted.page, "guide")
        yield booted


def put_b(page: Any, mode: str, values: dict[str, Any], budget: int | None) -> None:
    """Compare, with B set to `mode` and `values` (the rest of a semantic B at its defaults)
    and `budget` applied with cl100k_base, or no tokenizer."""
    compare_on(page)
    if budget is None:
        if page.is_checked("#compare-token-apply"):
            act(page, lambda: page.click("#compare-token-apply"))
        if page.input_value("#compare-token-tokenizer") != "":
            act(page, lambda: page.select_option("#compare-token-tokenizer", ""))
    set_b(page, mode, **({**SEMANTIC, **values} if mode == "semantic" else values))
    if budget is not None:
        set_b_tokens(page, "cl100k_base", budget)


def text_of(chunk: Any) -> str:
    return chunk.content if isinstance(chunk, DocumentChunk) else chunk.text


def number(value: float) -> str:
    """A figure as the page writes it (Intl's en-US): 1,234 or 482.5."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,}"


def shown_stats(page: Any, side: str) -> dict[str, str]:
    return page.evaluate(
        """(side) => Object.fromEntries([...document.querySelectorAll(
             `#compare-${side}-stats [data-stat]`)].map((s) => [s.dataset.stat,
             s.querySelector('dd').textContent]))""",
        side,
    )


@pytest.mark.parametrize("case", list(CASES))
def test_each_side_marks_its_cuts_and_those_only_it_makes_are_the_symmetric_difference(page, case):
    setup, python = CASES[case]
    put_b(page, *setup)
    a_chunks, b_chunks = SemanticChunker().chunk(GUIDE), python(GUIDE)
    a_cuts, b_cuts = cuts_of(GUIDE, a_chunks), cuts_of(GUIDE, b_chunks)
    assert a_cuts ^ b_cuts, "the case must cut the guide differently from A"
    marked = {side: marked_cuts(page, side) for side in "ab"}
    for side, own, other in (("a", a_cuts, b_cuts), ("b", b_cuts, a_cuts)):
        # Every cut of the side marked, once, in order; as its own where the other lacks it.
        assert [at for at, _ in marked[side]] == sorted(own), side
        assert {at for at, how in marked[side] if how == "only"} == own - other, side
    assert {at for side in "ab" for at, how in marked[side] if how == "only"} == a_cuts ^ b_cuts
    assert page.text_content("#compare-status") == (
        f"A: {len(a_chunks)} chunks, B: {len(b_chunks)} chunks. Cuts: {len(a_cuts & b_cuts):,}"
        f" in both, {len(a_cuts - b_cuts):,} only in A, {len(b_cuts - a_cuts):,} only in B."
    )
    for side, chunks in (("a", a_chunks), ("b", b_chunks)):
        lengths = [len(text_of(chunk)) for chunk in chunks]
        assert shown_stats(page, side) == {
            "count": number(len(lengths)),
            "min": number(min(lengths)),
            "median": number(statistics.median(lengths)),
            "max": number(max(lengths)),
        }
        label = page.get_attribute(f"#compare-{side}-histogram svg", "aria-label")
        assert label.startswith(
            f"Histogram of {len(lengths)} chunk lengths from {min(lengths):,} "
            f"to {max(lengths):,} characters"
        ), label


# The cut side `side` marks as the one gone to: its offset, whether its line shows in its
# column, and whether the other side marks one too.
CURRENT = """(side) => {
  const own = document.getElementById(`compare-${side}-document`);
  const other = document.getElementById(`compare-${side === 'a' ? 'b' : 'a'}-document`);
  const node = own.querySelector('[data-current]');
  if (!node) return {at: null};
  const block = node.closest('.block');
  let at = Number(block.dataset.start);
  for (const child of block.childNodes) {
    if (child === node) break;
    at += child.textContent.length;
  }
  const end = node.dataset.current === 'end';
  if (end) at += node.textContent.length;
  const lines = node.getClientRects();
  const line = lines[end ? lines.length - 1 : 0];
  const box = own.getBoundingClientRect();
  return {at, shown: line.top >= box.top && line.bottom <= box.bottom,
          otherMarks: other.querySelector('[data-current]') !== null};
}"""

SAME_PLACE = """Math.abs(document.getElementById('compare-a-document').scrollTop
  - document.getElementById('compare-b-document').scrollTop) < 1"""

DIFFERENCE_RE = re.compile(
    r"Difference ([\d,]+) of ([\d,]+): at character ([\d,]+), a cut only ([AB]) makes\."
)


def test_the_differences_are_gone_through_in_order_both_columns_at_each(page):
    put_b(page, *CASES["a setting"][0])
    a_cuts = cuts_of(GUIDE, SemanticChunker().chunk(GUIDE))
    b_cuts = cuts_of(GUIDE, CASES["a setting"][1](GUIDE))
    expected = sorted([(at, "A") for at in a_cuts - b_cuts] + [(at, "B") for at in b_cuts - a_cuts])
    assert page.text_content("#compare-at") == (
        f"{len(expected)} cuts only one side makes: Next difference goes to the first."
    )
    assert page.is_disabled("#compare-previous")
    seen = []
    while not page.is_disabled("#compare-next"):
        page.click("#compare-next")
        said = DIFFERENCE_RE.fullmatch(page.text_content("#compare-at"))
        assert said, page.text_content("#compare-at")
        at, side = int(said[3].replace(",", "")), said[4]
        assert int(said[1]) == len(seen) + 1 and int(said[2]) == len(expected)
        seen.append((at, side))
        current = page.evaluate(CURRENT, side.lower())
        assert current == {"at": at, "shown": True, "otherMarks": False}, (at, side)
        wait_until(page, SAME_PLACE, 5)  # the other column follows
    assert seen == expected
    page.click("#compare-previous")
    assert page.text_content("#compare-at").startswith(f"Difference {len(expected) - 1} of ")
    assert page.evaluate(CURRENT, expected[-2][1].lower())["at"] == expected[-2][0]


def test_a_scroll_of_either_column_scrolls_the_other_to_the_same_place(page):
    put_b(page, *CASES["a setting"][0])
    for side in "ab":
        for step in (600, -300):
            place = f"document.getElementById('compare-{side}-document').scrollTop"
            was = page.evaluate(place)
            page.hover(f"#compare-{side}-document")
            page.mouse.wheel(0, step)
            wait_until(page, f"{place} !== {was}", 5)
            wait_until(page, SAME_PLACE, 5)


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def change(a: float, b: float) -> str:
    points = f"{100 * (b - a):.1f}"
    if float(points) == 0:
        return "0.0"
    return points.replace("-", "\u2212") if points.startswith("-") else f"+{points}"


SCORES = """() => Object.fromEntries([...document.querySelectorAll('#compare-scores tbody tr')]
  .map((row) => [row.dataset.figure, [...row.querySelectorAll('td')].map((td) => td.textContent)]))"""

FIGURES = {
    "recall": "recall",
    "precision": "precision",
    "iou": "iou",
    "precisionOmega": "precision_omega",
}


def test_both_sides_are_scored_as_python_scores_them_on_the_tune_views_questions(page):
    page.select_option("#tune-set", "sample")
    put_b(page, "engine", {"strategy": "fixed", "chunkSize": 700, "chunkOverlap": 50}, None)
    act(page, lambda: page.check("#compare-score"))
    a = evaluate(sample_set())  # the page's defaults are Python's; k is the Tune view's 5
    b = evaluate(sample_set(), strategy="fixed", chunk_size=700, chunk_overlap=50)
    assert page.evaluate(SCORES) == {
        key: [
            percent(getattr(a, name)),
            percent(getattr(b, name)),
            change(getattr(a, name), getattr(b, name)),
        ]
        for key, name in FIGURES.items()
    }
    assert page.text_content("#compare-scores caption") == (
        f"On {len(GUIDE_QUESTIONS['questions'])} questions, the 5 best chunks each (the Tune view\u2019s);"
        " B \u2212 A in percentage points"
    )
    # The engine's semantic strategy is not scored: said, its figures left out; A's stay.
    set_b(page, strategy="semantic")
    shown = page.evaluate(SCORES)
    assert shown["recall"] == [percent(a.recall), "\u2014", "\u2014"]
    assert page.text_content("#compare-score-notes").startswith("B: Not scored: the engine")
    act(page, lambda: page.uncheck("#compare-score"))
    assert page.is_hidden("#compare-scores")


def test_bad_values_of_b_are_said_at_bs_field_and_the_last_comparison_stays(page):
    put_b(page, *CASES["a setting"][0])
    status = page.text_content("#compare-status")
    page.fill("#compare-setting-maxSize", "")
    wait_until(
        page,
        "document.getElementById('compare-setting-maxSize-error').textContent"
        " === 'Max size needs a number.'",
        10,
    )
    assert page.get_attribute("#compare-setting-maxSize", "aria-invalid") == "true"
    assert page.text_content("#setting-maxSize-error") == ""  # A's field says nothing
    assert page.evaluate("document.getElementById('compare').classList.contains('stale')")
    page.fill("#compare-setting-maxSize", "0")
    wait_until(
        page,
        "document.getElementById('compare-setting-maxSize-error').textContent"
        " === 'Max size must be at least 1, not 0.'",
        30,
    )
    assert page.text_content("#compare-status").startswith("Showing the last good comparison")
    act(page, lambda: page.fill("#compare-setting-maxSize", "2000"))
    assert page.text_content("#compare-status") == status
    assert page.text_content("#compare-setting-maxSize-error") == ""


def test_transcripts_are_not_compared_and_say_so(page):
    compare_on(page)
    before = runs(page)
    page.click('label:has(> input[name="mode"][value="turns"])')
    settled(page, before)
    assert page.is_visible("#compare-unavailable")
    assert "Transcripts place passages by turn" in page.text_content("#compare-unavailable")
    assert page.is_hidden(".compare-results")
    before, drawn = runs(page), comparisons(page)
    page.click('label:has(> input[name="mode"][value="semantic"])')
    settled(page, before)
    compared(page, drawn)
    assert page.is_hidden("#compare-unavailable") and page.is_visible(".compare-results")


# Each cut bar the columns draw (a piece's ::before or ::after): how it is marked, its
# colour (or its gradient's), and its halo (the box shadow that parts it from the tints).
READ_CUT_BARS = """() => [...document.querySelectorAll('.compare-document .block > span')]
  .flatMap((node) => [['cutStart', '::before'], ['cutEnd', '::after']]
    .filter(([key]) => node.dataset[key]).map(([key, pseudo]) => {
      const style = getComputedStyle(node, pseudo);
      return {how: node.dataset[key], color: style.backgroundColor,
              image: style.backgroundImage, halo: style.boxShadow};
    }))"""


def text_failures(page: Any) -> list[str]:
    """Each text of the page, the Compare view open, under 4.5:1 against what can show
    behind it."""
    texts = page.evaluate(EVERY_TEXT)
    assert sum("compare" in seen for text in texts for seen in text["seen"]) > 15
    return hard_to_read(texts)


def bar_failures(page: Any) -> list[str]:
    """Each cut bar under 3:1 (WCAG's non-text contrast) against what is beside it: its
    opaque halo, drawn round it whatever tint or stripe it crosses (a dashed bar's gaps are
    the halo's colour too)."""
    bars = page.evaluate(READ_CUT_BARS)
    assert {bar["how"] for bar in bars} == {"both", "only"}
    failures = set()
    for bar in bars:
        halo = gradient_stops(bar["halo"])[0]  # the colour of `rgb(…) 0px 0px 0px 1px`
        assert halo[3] == 1 and bar["halo"].endswith("0px 0px 0px 1px"), bar["halo"]
        stops = gradient_stops(bar["image"]) if bar["image"] != "none" else []
        colour = stops[0] if stops else parse_colour(bar["color"])
        assert all(stop in (colour, halo) for stop in stops), bar["image"]
        ratio = contrast(over(colour, halo), halo)
        if ratio < 3:
            failures.add(f"{bar['how']}: {ratio:.2f}:1")
    return sorted(failures)


def pick_chunks(page: Any) -> None:
    """Click a chunk in each column, so that a selected one and what it picked show too."""
    for side in "ab":
        page.click(f"#compare-{side}-document .block > span.chunk >> nth=3")
        assert page.text_content(f"#compare-{side}-picked").startswith(f"{side.upper()}: chunk ")


@pytest.mark.parametrize("scheme", ["light", "dark"], indirect=True)
def test_every_text_meets_wcag_aa_and_the_sides_stand_side_by_side_at_1280(page, scheme):
    put_b(page, *CASES["a setting"][0])
    page.click("#compare-next")
    pick_chunks(page)
    a, b = (page.locator(f".compare-side[data-side='{side}']").bounding_box() for side in "ab")
    assert a and b and a["x"] + a["width"] <= b["x"] and abs(a["y"] - b["y"]) < 1
    assert text_failures(page) == [], scheme
    assert bar_failures(page) == [], scheme


B_LINKED = {"strategy": "fixed", "chunkSize": 400, "chunkOverlap": 40}


def test_a_link_opened_in_a_new_page_restores_the_comparison(page, browser, site_url):
    # A text of one's own, which the link carries, with characters outside the BMP.
    text = GUIDE[:6000] + "\n\n## Parcels \U0001f4e6\n\n" + "Parcels \U0001f69a wait. " * 40
    show_text(page, text)
    put_b(page, "engine", B_LINKED, None)
    wait_until(page, "location.search.includes('b.chunkSize=400')", 5)  # the address too
    status = page.text_content("#compare-status")
    href = copied(page, "#copy-link")
    assert href.startswith(f"{site_url}/?") and "b.mode=engine" in href
    new, recorder, _ = open_playground(
        browser, site_url, href.removeprefix(f"{site_url}/"), width=360, height=800
    )
    try:
        compared(new, 0)
        # A narrow screen opens on the Compare view, comparing.
        assert new.evaluate("document.body.dataset.view") == "compare"
        assert new.get_attribute("#compare-toggle", "aria-expanded") == "true"
        assert new.is_checked('input[name="compare-mode"][value="engine"]')
        shown = {name: new.input_value(f"#compare-setting-{name}") for name in B_LINKED}
        assert shown == {name: str(value) for name, value in B_LINKED.items()}
        assert new.input_value("#text") == text
        assert new.text_content("#compare-status") == status
        a_cuts = cuts_of(text, SemanticChunker().chunk(text))
        b_cuts = cuts_of(
            text, ChunkingEngine().chunk(text, strategy="fixed", chunk_size=400, chunk_overlap=40)
        )
        only = {at for side in "ab" for at, how in marked_cuts(new, side) if how == "only"}
        assert only == a_cuts ^ b_cuts
        assert recorder.problems() == []
    finally:
        new.context.close()
    # Comparing no more: the address drops it.
    page.click("#compare-toggle")
    wait_until(page, "!location.search.includes('b.')", 5)
    before = runs(page)
    page.select_option("#source", "guide")
    settled(page, before)


# --- a narrow screen, and keys alone ---------------------------------------------------------


@pytest.fixture(scope="module")
def narrow(browser, site_url):
    page, recorder, _ = open_playground(browser, site_url, width=360, height=800)
    yield SimpleNamespace(page=page, recorder=recorder)
    page.context.close()


@pytest.fixture
def small(narrow):
    seen = len(narrow.recorder.problems())
    yield narrow.page
    assert narrow.recorder.problems()[seen:] == [], "the page reported problems"


def focused(page: Any) -> str:
    return page.evaluate("document.activeElement.id")


def tab_to(page: Any, element_id: str, limit: int = 80) -> None:
    """Press Tab until the element `element_id` has the focus."""
    for _ in range(limit):
        if focused(page) == element_id:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached #{element_id}; the focus is on #{focused(page)}")


def test_a_comparison_is_made_and_gone_through_with_keys_alone(small):
    page = small
    # The tabs: the first of them, then the arrow keys round to the last, Compare.
    page.keyboard.press("Tab")
    assert focused(page) == "tab-text"
    page.keyboard.press("ArrowLeft")
    assert focused(page) == "tab-compare"
    assert page.evaluate("document.body.dataset.view") == "compare"
    tab_to(page, "compare-toggle")
    before = comparisons(page)
    page.keyboard.press("Enter")
    compared(page, before)
    assert page.get_attribute("#compare-toggle", "aria-expanded") == "true"
    assert page.text_content("#compare-at") == "A and B cut this text at the same places."
    tab_to(page, "compare-setting-targetSize")
    before = comparisons(page)
    page.keyboard.press("Control+A")
    page.keyboard.type("600")
    wait_until(page, "document.getElementById('compare-setting-targetSize').value === '600'", 5)
    compared(page, before)
    tab_to(page, "compare-next")
    page.keyboard.press("Enter")
    assert page.text_content("#compare-at").startswith("Difference 1 of ")
    page.keyboard.press("Enter")
    assert page.text_content("#compare-at").startswith("Difference 2 of ")
    # Into A's column, and down it: B's column follows.
    tab_to(page, "compare-a-document")
    start = page.evaluate("document.getElementById('compare-a-document').scrollTop")
    page.keyboard.press("PageDown")
    wait_until(page, f"document.getElementById('compare-a-document').scrollTop > {start}", 5)
    wait_until(page, SAME_PLACE, 5)
    tab_to(page, "compare-score")
    before = comparisons(page)
    page.keyboard.press("Space")
    compared(page, before)
    assert page.is_checked("#compare-score") and page.is_visible("#compare-scores")


@pytest.mark.parametrize("colours", ["light", "dark"])
def test_at_360_px_the_sides_stack_nothing_scrolls_sideways_and_every_text_meets_wcag_aa(
    small, colours
):
    page = small
    page.emulate_media(color_scheme=colours)
    try:
        compare_on(page)
        set_b(page, "semantic", targetSize=700)
        page.click("#compare-next")
        pick_chunks(page)
        sizes = page.evaluate("({scroll: document.documentElement.scrollWidth, width: innerWidth})")
        assert sizes["scroll"] <= sizes["width"] == 360, sizes
        # Nor does anything stick out of the comparison's own box (into the panel's margin).
        assert page.evaluate(
            "(() => { const box = document.querySelector('.compare-main');"
            " return box.scrollWidth <= box.clientWidth; })()"
        )
        a, b = (page.locator(f".compare-side[data-side='{side}']").bounding_box() for side in "ab")
        assert a and b and a["y"] + a["height"] <= b["y"] and abs(a["x"] - b["x"]) < 1
        # Every tab shows whole, in one row, on the screen.
        tabs = [page.locator(f"#tab-{view}").bounding_box() for view in ("text", "compare")]
        assert tabs[0] and tabs[1] and tabs[1]["x"] + tabs[1]["width"] <= 360
        assert abs(tabs[0]["y"] - tabs[1]["y"]) < 1
        assert text_failures(page) == [], colours
        assert bar_failures(page) == [], colours
    finally:
        page.emulate_media(color_scheme="light")
