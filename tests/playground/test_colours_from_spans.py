"""The playground colours every chunk from its span, with one facade call per redraw.

On a document where `startOffset` drifts from the text (short paragraphs merged, long runs
of white space between sentences and paragraphs), what the document view colours is read
from the DOM and compared with each chunk's span (and overlap span, striped) from Python,
for `SemanticChunker` and each engine strategy. The facade's calls are counted where they
leave the page: as messages to the worker.
"""

from __future__ import annotations

import pytest
from support.offsets import utf16_offset
from support.painting import engine_painting, read_document, semantic_painting
from support.playground import (
    GUIDE,
    booted_playground,
    quiet,
    runs,
    set_mode,
    set_settings,
    settled,
    show_text,
)

from chunker import ChunkingEngine, SemanticChunker

# Merges (a short paragraph joins the one before after a blank line the input lacks), splits
# at sentence ends followed by several spaces, blank runs of spaces and tabs, emoji.
DRIFTING = "".join(
    f"# Part {n} 😀\n\nShort {n}.\n\n\n\n   \n\nTiny.\n\n"
    + "Sentence one is here.      Sentence two  follows   it 🚀. " * 6
    + "\n\n\t\n\n\n"
    for n in range(6)
)
# The guide sample repeated to 1 MB: a slider step on it once took seconds.
MEGABYTE = (GUIDE * (1_000_000 // len(GUIDE) + 1))[:1_000_000]
SEMANTIC = {
    "target_size": 120,
    "max_size": 200,
    "min_size": 40,
    "overlap": 15,
    "preserve_code_blocks": True,
    "respect_headings": True,
}

# The page's settings that SEMANTIC holds, by their JavaScript names.
SEMANTIC_FIELDS = {
    "targetSize": 120,
    "maxSize": 200,
    "minSize": 40,
    "overlap": 15,
    "preserveCodeBlocks": True,
    "respectHeadings": True,
}

# The nodes a redraw makes (the document's coloured pieces, the list's rows, the histogram's
# bars), noted, then which of those shown now were among them.
DRAWN = "#document .block > span, #chunk-list .row, #histogram rect"
NOTE_DRAWN = f"() => {{ window.drawnBefore = new Set(document.querySelectorAll('{DRAWN}')); }}"
KEPT = f"() => [...document.querySelectorAll('{DRAWN}')].map((n) => window.drawnBefore.has(n))"
ROWS = """() => [...document.querySelectorAll('#chunk-list .row')]
  .map((row) => [Number(row.dataset.index), row.querySelector('.row-meta').textContent])"""

# Counts the calls the facade sends to its worker (the page's only way to reach Python).
COUNT_CALLS = """(() => {
  window.facadeCalls = 0;
  const send = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message?.type === 'call') window.facadeCalls += 1;
    return send.call(this, message, ...rest);
  };
})();"""


@pytest.fixture(scope="module")
def booted(browser, site_url):
    with booted_playground(browser, site_url, init_script=COUNT_CALLS) as booted:
        yield booted


def test_the_document_drifts_from_its_offsets():
    """The point of the document: colouring from startOffset/endOffset would be wrong."""
    chunks = SemanticChunker(**SEMANTIC).chunk(DRIFTING)
    drifted = [
        c
        for c in chunks
        if DRIFTING[c.start_offset : c.end_offset].strip() != DRIFTING[c.span[0] : c.span[1]]
    ]
    assert len(drifted) > len(chunks) // 2


def test_semantic_chunks_are_coloured_from_their_spans(page):
    set_mode(page, "semantic")
    show_text(page, DRIFTING)
    set_settings(page, **SEMANTIC_FIELDS)
    own, lead = semantic_painting(DRIFTING, SemanticChunker(**SEMANTIC).chunk(DRIFTING))
    shown = read_document(page)
    assert shown["text"] == DRIFTING
    assert shown["own"] == own
    assert shown["lead"] == lead and lead  # the overlaps are striped where they came from


@pytest.mark.parametrize("strategy", ["fixed", "hierarchical", "layout"])
def test_engine_chunks_are_coloured_from_their_spans(page, strategy):
    set_mode(page, "engine")
    show_text(page, DRIFTING)
    set_settings(page, strategy=strategy, chunkSize=150, chunkOverlap=30)
    chunks = ChunkingEngine().chunk(DRIFTING, strategy=strategy, chunk_size=150, chunk_overlap=30)
    own, lead = engine_painting(DRIFTING, chunks)
    shown = read_document(page)
    assert shown["own"] == own and len(own) > 5
    assert shown["lead"] == lead


@pytest.mark.parametrize(
    "mode, setting, values",
    [
        ("semantic", "targetSize", [300, 310, 320]),
        ("engine", "chunkSize", [200, 210, 220]),
    ],
)
def test_a_redraw_makes_exactly_one_facade_call(page, mode, setting, values):
    set_mode(page, mode)
    show_text(page, DRIFTING)
    for value in values:
        quiet(page)
        calls, before = page.evaluate("window.facadeCalls"), runs(page)
        page.fill(f"#setting-{setting}", str(value))
        settled(page, before)
        quiet(page)
        assert runs(page) == before + 1
        assert page.evaluate("window.facadeCalls") == calls + 1


def test_slider_steps_on_a_megabyte_make_one_call_a_redraw(page):
    """A step of the slider by keyboard on 1 MB: one facade call, one redraw. Steps that come
    while a call is going replace each other: that call's answer is dropped, the last step's
    call runs, and only its result is drawn."""
    set_mode(page, "semantic")
    show_text(page, MEGABYTE)
    set_settings(
        page,
        **{**SEMANTIC_FIELDS, "targetSize": 1000, "maxSize": 2000, "minSize": 200, "overlap": 100},
    )
    page.focus("#setting-targetSize-slider")
    for key in ["ArrowLeft", "ArrowLeft", "ArrowRight"]:
        quiet(page)
        calls, before = page.evaluate("window.facadeCalls"), runs(page)
        page.keyboard.press(key)
        settled(page, before)
        quiet(page)
        assert runs(page) == before + 1
        assert page.evaluate("window.facadeCalls") == calls + 1
    assert page.input_value("#setting-targetSize") == "999"
    calls, before = page.evaluate("window.facadeCalls"), runs(page)
    page.eval_on_selector(
        "#setting-targetSize-slider",
        """(slider) => {
      for (let step = 0; step < 10; step += 1) {
        slider.stepDown();
        slider.dispatchEvent(new Event('input', {bubbles: true}));
      }
    }""",
    )
    settled(page, before)
    quiet(page)
    assert runs(page) == before + 1
    assert page.evaluate("window.facadeCalls") == calls + 2  # the one going, and the last
    assert page.input_value("#setting-targetSize") == "989"
    options = {**SEMANTIC, "target_size": 989, "max_size": 2000, "min_size": 200, "overlap": 100}
    count = len(SemanticChunker(**options).chunk(MEGABYTE))
    assert page.text_content('#stats [data-stat="count"] dd') == f"{count:,}"


def test_a_redraw_keeps_what_shows_the_same_and_draws_the_rest_anew(page):
    """Targets 110 and 120 cut DRIFTING alike; 130 and 102 do not. A step between the first
    two leaves every coloured piece, row and bar as it was drawn; the others draw anew, and
    each time the document, the list and the stats show the chunker's own chunks."""
    set_mode(page, "semantic")
    show_text(page, DRIFTING)
    set_settings(page, **SEMANTIC_FIELDS)
    same = SemanticChunker(**SEMANTIC).chunk(DRIFTING)
    assert SemanticChunker(**{**SEMANTIC, "target_size": 110}).chunk(DRIFTING) == same
    read_document(page)  # every block painted, so that every block is compared
    for target, alike in [(110, True), (130, False), (102, False), (120, False)]:
        page.evaluate(NOTE_DRAWN)
        set_settings(page, targetSize=target)
        chunks = SemanticChunker(**{**SEMANTIC, "target_size": target}).chunk(DRIFTING)
        kept = page.evaluate(KEPT)
        assert all(kept) if alike else not all(kept)
        own, lead = semantic_painting(DRIFTING, chunks)
        shown = read_document(page)
        assert (shown["own"], shown["lead"]) == (own, lead)
        rows = page.evaluate(ROWS)
        assert rows and rows == [
            [
                i,
                f"{len(chunks[i].text):,} chars · {utf16_offset(DRIFTING, chunks[i].span[0]):,}"
                f"–{utf16_offset(DRIFTING, chunks[i].span[1]):,}",
            ]
            for i, _ in rows
        ]
        assert page.text_content('#stats [data-stat="count"] dd') == str(len(chunks))


# Three frames: the scroll event's, the list's redraw it asks for, and one to spare.
NEXT_FRAMES = """() => new Promise((resolve) => requestAnimationFrame(
  () => requestAnimationFrame(() => requestAnimationFrame(resolve))))"""
ROWS_IN_VIEW = """() => {
  const list = document.getElementById('chunk-list');
  const box = list.getBoundingClientRect();
  return [...list.querySelectorAll('.row')].filter((row) => {
    const at = row.getBoundingClientRect();
    return at.bottom > box.top && at.top < box.bottom;
  }).map((row) => Number(row.dataset.index)).sort((a, b) => a - b);
}"""


def test_the_list_scrolled_a_few_rows_at_a_time_shows_every_row_in_view(page):
    """Each step moves the list by fewer rows than it keeps drawn: the rows that stay are
    kept, the others drawn, and every row in view is there (the fixture fails on an error)."""
    set_mode(page, "semantic")
    show_text(page, GUIDE)
    set_settings(page, **{**SEMANTIC_FIELDS, "targetSize": 100, "minSize": 20, "overlap": 0})
    height = page.eval_on_selector(
        "#chunk-list", "(list) => list.querySelector('.row').offsetHeight"
    )
    view = page.eval_on_selector("#chunk-list", "(list) => list.clientHeight")
    for step in range(1, 16):
        top = 2 * step * height
        page.eval_on_selector("#chunk-list", "(list, top) => { list.scrollTop = top; }", top)
        page.evaluate(NEXT_FRAMES)  # the list redraws at the next frame
        shown = page.evaluate(ROWS_IN_VIEW)
        # A row cut by the list's top edge counts as in view.
        assert shown and shown[0] <= 2 * step and shown == list(range(shown[0], shown[-1] + 1))
        assert (shown[-1] + 1) * height >= top + view, shown
