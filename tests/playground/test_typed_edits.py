"""A key typed into a document is found where the text box's events say it was
(web/playground/typed-edits.js), the texts compared around there alone; what the events do
not say for sure (undo, an IME's composition) is found by comparing the whole texts. Either
way the chunks shown after the edit are a fresh chunking of the text the box holds."""

from __future__ import annotations

from typing import Any

import pytest
from support.playground import (
    CLIPBOARD,
    GUIDE,
    downloaded,
    open_playground,
    put_text,
    quiet,
    runs,
    settled,
    show_source,
    wait_until,
)

from chunker import SemanticChunker

# The guide three times over, with its emoji (two JavaScript units each).
TEXT = GUIDE * 3
EMOJI = next(char for char in GUIDE if ord(char) > 0xFFFF)


@pytest.fixture(scope="module")
def page(browser, site_url):
    page, recorder, _ = open_playground(browser, site_url, permissions=CLIPBOARD)
    show_source(page, "guide")
    yield page
    assert recorder.problems() == []
    page.context.close()


def js_index(text: str, at: int) -> int:
    return at + sum(1 for char in text[:at] if ord(char) > 0xFFFF)


def fresh_text(page: Any, text: str = TEXT) -> None:
    """The box holds `text`, its chunks drawn, the page's LiveDocument made (one key typed
    and taken back), so that the edits that follow go through it."""
    before = runs(page)
    put_text(page, text)
    settled(page, before)
    at = js_index(text, text.index("\n\n"))
    caret(page, at)
    page.keyboard.type("k")
    page.keyboard.press("Backspace")
    quiet(page)


def caret(page: Any, start: int, end: int | None = None) -> None:
    page.eval_on_selector(
        "#text",
        "(t, [s, e]) => { t.focus(); t.setSelectionRange(s, e); }",
        [start, start if end is None else end],
    )


def edited(page: Any, act: Any) -> None:
    """Do `act`, and wait until the edit's chunks are drawn."""
    before = runs(page)
    act()
    wait_until(page, f"Number(document.body.dataset.runs) > {before}")
    quiet(page)


def assert_fresh(page: Any, found: str) -> str:
    """The chunks shown are a fresh chunking of the box's text, the last edit found by
    `found` ('events' or 'texts'); answers the text."""
    text = page.input_value("#text")
    expected = SemanticChunker(target_size=1000, max_size=2000, min_size=200, overlap=100).chunk(
        text
    )
    _, saved = downloaded(page)
    assert [c["text"] for c in saved["chunks"]] == [c.text for c in expected]
    assert [c["startOffset"] for c in saved["chunks"]] == [
        js_index(text, c.start_offset) for c in expected
    ]
    assert page.evaluate("document.body.dataset.lastEditFound") == found
    page.focus("#text")  # back from the download button, the selection as it was
    return text


def middle_of(text: str) -> int:
    return text.index("\n\n", len(text) // 2)


def test_keys_typed_are_found_from_the_events(page):
    fresh_text(page)
    at = middle_of(TEXT)
    caret(page, js_index(TEXT, at))
    # Typed one by one, and a burst whose keys come while an edit is on its way (they go
    # together as one edit).
    edited(page, lambda: page.keyboard.type(" Zanzibar", delay=30))
    edited(page, lambda: page.keyboard.type(" quux parcels", delay=0))
    edited(page, lambda: page.keyboard.press("Enter"))
    text = assert_fresh(page, "events")
    assert text == TEXT[:at] + " Zanzibar quux parcels\n" + TEXT[at:]


def test_backspace_delete_and_a_word_deleted_are_found_from_the_events(page):
    fresh_text(page)
    at = middle_of(TEXT)
    caret(page, js_index(TEXT, at))
    edited(page, lambda: page.keyboard.press("Backspace"))
    assert_fresh(page, "events")
    edited(page, lambda: page.keyboard.press("Delete"))
    assert_fresh(page, "events")
    edited(page, lambda: page.keyboard.press("Control+Backspace"))
    text = assert_fresh(page, "events")
    assert len(text) < len(TEXT) - 3
    # A delete that joins two paragraphs (the blank line between them goes).
    blank = text.index("\n\n", len(text) // 3)
    caret(page, js_index(text, blank))
    edited(page, lambda: page.keyboard.press("Delete"))
    edited(page, lambda: page.keyboard.press("Delete"))
    after = assert_fresh(page, "events")
    assert after == text[:blank] + text[blank + 2 :]


def test_a_selection_typed_over_or_pasted_over_is_found_from_the_events(page):
    fresh_text(page)
    at = middle_of(TEXT)
    # Typed over: the selection (a heading's line break and the blank line after it) goes.
    caret(page, js_index(TEXT, at - 30), js_index(TEXT, at + 40))
    edited(page, lambda: page.keyboard.type("Q"))
    text = assert_fresh(page, "events")
    assert text == TEXT[: at - 30] + "Q" + TEXT[at + 40 :]
    # Pasted over, a text of paragraphs of its own.
    pasted = "\n\n# Pasted heading\n\nA pasted paragraph of words.\n\nAnother one.\n\n"
    page.evaluate("(text) => navigator.clipboard.writeText(text)", pasted)
    caret(page, js_index(text, 100), js_index(text, 5000))
    edited(page, lambda: page.keyboard.press("Control+V"))
    after = assert_fresh(page, "events")
    assert after == text[:100] + pasted + text[5000:]
    # Cut.
    caret(page, js_index(after, 2000), js_index(after, 2600))
    edited(page, lambda: page.keyboard.press("Control+X"))
    assert assert_fresh(page, "events") == after[:2000] + after[2600:]


def test_an_emoji_typed_over_or_deleted_is_found_from_the_events(page):
    fresh_text(page)
    at = TEXT.index(EMOJI, len(TEXT) // 2)
    # The emoji selected (its two units) and typed over.
    caret(page, js_index(TEXT, at), js_index(TEXT, at) + 2)
    edited(page, lambda: page.keyboard.type("e"))
    text = assert_fresh(page, "events")
    assert text == TEXT[:at] + "e" + TEXT[at + 1 :]
    # An emoji typed, then taken back with one Backspace (both its units).
    caret(page, js_index(text, at + 1))
    edited(page, lambda: page.keyboard.insert_text(EMOJI))
    assert assert_fresh(page, "events") == text[: at + 1] + EMOJI + text[at + 1 :]
    edited(page, lambda: page.keyboard.press("Backspace"))
    assert assert_fresh(page, "events") == text


def test_undo_and_an_ime_composition_are_found_by_comparing_the_texts(page):
    fresh_text(page)
    at = middle_of(TEXT)
    caret(page, js_index(TEXT, at))
    edited(page, lambda: page.keyboard.type("undone", delay=30))
    typed = page.input_value("#text")
    edited(page, lambda: page.keyboard.press("Control+Z"))
    undone = assert_fresh(page, "texts")
    assert len(undone) < len(typed) and TEXT.startswith(undone[:at])
    # An IME composing a word, then committing it over a range of its own (as a phone's
    # keyboard replaces the word before the caret), not the selection.
    session = page.context.new_cdp_session(page)
    caret(page, js_index(TEXT, at))
    edited(
        page,
        lambda: session.send(
            "Input.imeSetComposition", {"text": "wor", "selectionStart": 3, "selectionEnd": 3}
        ),
    )
    edited(
        page,
        lambda: session.send(
            "Input.imeSetComposition",
            {
                "text": "words",
                "selectionStart": 5,
                "selectionEnd": 5,
                "replacementStart": js_index(TEXT, at) - 6,
                "replacementEnd": js_index(TEXT, at) + 3,
            },
        ),
    )
    edited(page, lambda: session.send("Input.insertText", {"text": "words"}))
    text = assert_fresh(page, "texts")
    assert "words" in text[at - 10 : at + 10]
