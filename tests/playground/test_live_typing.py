"""Typing into a large document in the playground goes through a LiveDocument: after keys
typed in the middle, the chunks shown are a fresh chunking of the text; the document view
made again only the block the edit touched (the others are the very nodes they were); the
search's index was edited, not made again, and finds a word just typed."""

from __future__ import annotations

from typing import Any

import pytest
from support.painting import read_document, semantic_painting
from support.playground import (
    GUIDE,
    downloaded,
    on_the_guide,
    put_text,
    quiet,
    runs,
    settled,
    wait_until,
)

from chunker import SemanticChunker

# About 600 KB: the guide again and again, with its emoji (two JavaScript units each).
LARGE = GUIDE * 40
TYPED = " Zanzibarquux parcels."


@pytest.fixture(scope="module")
def page(browser, site_url):
    with on_the_guide(browser, site_url) as page:
        yield page


def js_index(text: str, at: int) -> int:
    return at + sum(1 for char in text[:at] if ord(char) > 0xFFFF)


def test_typing_into_a_large_document_recuts_and_redraws_only_the_edit(page: Any):
    before = runs(page)
    put_text(page, LARGE)
    settled(page, before, timeout=120)
    # The index made now, as when the search box takes the focus; then a sentinel where a
    # new index would write its time.
    page.focus("#query")
    wait_until(page, "document.body.dataset.indexMs !== undefined", timeout=120)
    page.evaluate("document.body.dataset.indexMs = 'not made again'")
    # The document's top blocks and the list's first rows, as drawn now; and every block
    # added to or taken from the document view from here on.
    page.evaluate(
        """() => {
          window.topBlocks = [...document.querySelectorAll('#document .block')].slice(0, 3);
          window.topPieces = window.topBlocks.map((b) => [...b.childNodes]);
          window.firstRow = document.getElementById('chunk-row-0');
          window.blockChanges = 0;
          new MutationObserver((records) => {
            for (const r of records) window.blockChanges += r.addedNodes.length + r.removedNodes.length;
          }).observe(document.getElementById('document'), { childList: true });
        }"""
    )
    middle = LARGE.index("\n\n", len(LARGE) // 2)
    at = js_index(LARGE, middle)
    page.eval_on_selector("#text", f"(t) => {{ t.focus(); t.setSelectionRange({at}, {at}); }}")
    runs_before = runs(page)
    page.keyboard.type(TYPED, delay=20)
    text = LARGE[:middle] + TYPED + LARGE[middle:]
    assert page.input_value("#text") == text
    expected = SemanticChunker(target_size=1000, max_size=2000, min_size=200, overlap=100).chunk(
        text
    )
    count = f"{len(expected):,}"
    wait_until(
        page,
        f"document.querySelector('#stats [data-stat=\"count\"] dd')?.textContent === '{count}'"
        f" && Number(document.body.dataset.runs) > {runs_before}",
    )
    # The keys drew results as they came (none waited for a pause in typing; keys typed while
    # an edit was on its way go together), the last one the text as typed.
    assert runs(page) >= runs_before + 3
    _, saved = downloaded(page)
    assert [c["text"] for c in saved["chunks"]] == [c.text for c in expected]
    assert [c["startOffset"] for c in saved["chunks"]] == [
        js_index(text, c.start_offset) for c in expected
    ]
    # Redrawn where the edit is only: a block or two made a key, none of the others.
    got = page.evaluate(
        """() => ({
          changes: window.blockChanges,
          blocks: document.querySelectorAll('#document .block').length,
          topKept: window.topBlocks.every((b, i) => b.isConnected
            && [...b.childNodes].every((n, j) => n === window.topPieces[i][j])),
          rowKept: window.firstRow === document.getElementById('chunk-row-0'),
        })"""
    )
    assert got["topKept"] and got["rowKept"], got
    assert 0 < got["changes"] <= 4 * len(TYPED) < got["blocks"], got
    # The index was edited at each key, never made again, and finds the word typed.
    page.fill("#query", "zanzibarquux")
    wait_until(page, "document.querySelectorAll('#search-results .hit').length > 0")
    hit = page.evaluate("Number(document.querySelector('#search-results .hit').dataset.index)")
    assert "Zanzibarquux" in expected[hit].text
    assert page.evaluate("document.body.dataset.indexMs") == "not made again"
    assert int(page.evaluate("document.body.dataset.indexEdits")) >= 3
    page.fill("#query", "")
    before = runs(page)
    put_text(page, GUIDE)
    settled(page, before)


def test_a_key_redraws_the_blocks_drawn_only_and_colours_them_by_the_new_chunks(page: Any):
    text = GUIDE * 12
    before = runs(page)
    put_text(page, text)
    settled(page, before, timeout=120)
    # Every write of a block's place from here on.
    page.evaluate(
        """() => {
          window.placeWrites = 0;
          new MutationObserver((records) => { window.placeWrites += records.length; })
            .observe(document.getElementById('document'),
              { subtree: true, attributes: true, attributeFilter: ['data-start', 'data-end'] });
        }"""
    )
    middle = text.index("\n\n", len(text) // 2)
    page.eval_on_selector(
        "#text",
        f"(t) => {{ t.focus(); t.setSelectionRange({js_index(text, middle)}, "
        f"{js_index(text, middle)}); }}",
    )
    runs_before = runs(page)
    page.keyboard.type("\n\nA new paragraph, typed.", delay=20)
    page.keyboard.press("Backspace")
    wait_until(page, f"Number(document.body.dataset.runs) > {runs_before}")
    quiet(page)
    got = page.evaluate(
        """() => ({writes: window.placeWrites,
                   blocks: document.querySelectorAll('#document .block').length,
                   drawn: document.querySelectorAll('#document .block[data-painted="yes"]').length})"""
    )
    # The blocks after the edit moved without a write each (some twenty): only those drawn
    # were written, as each result drew them again.
    draws = runs(page) - runs_before
    assert got["writes"] <= 2 * got["drawn"] * draws, (got, draws)
    assert 4 * got["drawn"] < got["blocks"], got
    edited = text[:middle] + "\n\nA new paragraph, typed" + text[middle:]
    assert page.input_value("#text") == edited
    chunks = SemanticChunker(target_size=1000, max_size=2000, min_size=200, overlap=100).chunk(
        edited
    )
    shown = read_document(page)
    own, lead = semantic_painting(edited, chunks)
    assert shown["own"] == own
    assert shown["lead"] == lead
