"""The playground colours every chunk from its span, with one facade call per redraw.

On a document where `startOffset` drifts from the text (short paragraphs merged, long runs
of white space between sentences and paragraphs), what the document view colours is read
from the DOM and compared with each chunk's span (and overlap span, striped) from Python,
for `SemanticChunker` and each engine strategy. The facade's calls are counted where they
leave the page: as messages to the worker.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from support.painting import engine_painting, read_document, semantic_painting
from support.playground import (
    open_playground,
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
SEMANTIC = {"target_size": 120, "max_size": 200, "min_size": 40, "overlap": 15,
            "preserve_code_blocks": True, "respect_headings": True}

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
    page, recorder, _ = open_playground(browser, site_url, init_script=COUNT_CALLS)
    yield SimpleNamespace(page=page, recorder=recorder)
    page.context.close()


def test_the_document_drifts_from_its_offsets():
    """The point of the document: colouring from startOffset/endOffset would be wrong."""
    chunks = SemanticChunker(**SEMANTIC).chunk(DRIFTING)
    drifted = [
        c for c in chunks
        if DRIFTING[c.start_offset : c.end_offset].strip() != DRIFTING[c.span[0] : c.span[1]]
    ]
    assert len(drifted) > len(chunks) // 2


def test_semantic_chunks_are_coloured_from_their_spans(page):
    set_mode(page, "semantic")
    show_text(page, DRIFTING)
    set_settings(page, targetSize=120, maxSize=200, minSize=40, overlap=15,
                 preserveCodeBlocks=True, respectHeadings=True)
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
    chunks = ChunkingEngine().chunk(DRIFTING, strategy=strategy, chunk_size=150,
                                    chunk_overlap=30)
    own, lead = engine_painting(DRIFTING, chunks)
    shown = read_document(page)
    assert shown["own"] == own and len(own) > 5
    assert shown["lead"] == lead


@pytest.mark.parametrize("mode, setting, values", [
    ("semantic", "targetSize", [300, 310, 320]),
    ("engine", "chunkSize", [200, 210, 220]),
])
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
