"""The playground's exports reproduce the text on screen, in Chromium.

A sample edited is the user's text: the menu says so, and the copied Python, the copied
JavaScript and the copied link give the chunks shown, not the sample's. A text too long for a
link or for the code says so. Copied JavaScript run again and again frees its worker each time.
The downloads hold the spans the page colours by and the settings, which give the command line
the same records; the code shown stays within the page. The copied JavaScript, pasted into the
page's console, gives the chunks shown, and fetches a sample from the page's own origin.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from support.offsets import js_length, utf16_offset
from support.playground import (
    OWN_TEXT,
    ROOT,
    command_line,
    copied,
    downloaded,
    open_playground,
    put_text,
    quiet,
    run_in_console,
    run_python,
    runs,
    set_mode,
    set_settings,
    settled,
    show_source,
    show_text,
    shown_chunks,
    wait_until,
)

SAMPLE_TEXTS = {
    "guide": (ROOT / "web/samples/indexer-guide.md").read_text(encoding="utf-8"),
    "meeting": (ROOT / "web/samples/meeting.json").read_text(encoding="utf-8"),
}


def pick(page: Any, source: str) -> None:
    if page.input_value("#source") != source:
        before = runs(page)
        page.select_option("#source", source)
        settled(page, before)


def menu_label(page: Any) -> str:
    return page.eval_on_selector("#source", "menu => menu.selectedOptions[0].textContent")


def shown_count(page: Any) -> int:
    return int(page.text_content('#stats [data-stat="count"] dd').replace(",", ""))


def python_prints(mode: str, raw: list[dict[str, Any]]) -> list[str]:
    """What the copied Python prints for the facade's answer `raw`, its offsets in JavaScript's
    units (see `in_javascript`)."""
    if mode == "semantic":
        return [
            f"{c['index']} {c['boundaryType']} {c['startOffset']} {c['endOffset']}" for c in raw
        ]
    if mode == "engine":
        return [f"{c['index']} {len(c['content'])} {c['heading']}" for c in raw]
    return [f"{p['index']} {p['firstSeq']} {p['lastSeq']} {tuple(p['itemIds'])}" for p in raw]


def in_javascript(mode: str, lines: list[str], text: str) -> list[str]:
    """The semantic chunker's lines of Python output with their offsets (code points) as
    JavaScript's indices into `text`; other modes print no offsets."""
    if mode != "semantic":
        return lines

    def convert(line: str) -> str:
        index, boundary, start, end = line.split()
        return f"{index} {boundary} {utf16_offset(text, int(start))} {utf16_offset(text, int(end))}"

    return [convert(line) for line in lines]


# Each edit as a person makes it: the keys pressed in the text area, after a click in it.
def cut_the_last_lines(page: Any) -> None:
    page.keyboard.press("Control+End")
    for _ in range(110):
        page.keyboard.press("Shift+ArrowUp")
    page.keyboard.press("Backspace")


def add_a_turn(page: Any) -> None:
    # After the last turn: the line before the closing "]" and the final line break.
    page.keyboard.press("Control+End")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("End")
    page.keyboard.type(
        ',\n  {"seq": 39, "itemId": "rec-3", "text": "Sam: One more thing, '
        'typed here: the rollout note goes out today.", "startMs": 280000, '
        '"endMs": 284000}'
    )


EDITS = {
    "semantic, the guide cut short": ("semantic", "guide", {}, cut_the_last_lines),
    "engine, the guide cut short": (
        "engine",
        "guide",
        {"strategy": "hierarchical", "chunkSize": 300},
        cut_the_last_lines,
    ),
    "turns, a turn added to the meeting": ("turns", "meeting", {"maxChars": 500}, add_a_turn),
}


@pytest.mark.parametrize(("mode", "sample", "values", "edit"), EDITS.values(), ids=EDITS)
def test_an_edited_sample_is_the_users_text_and_every_copy_gives_the_chunks_shown(
    page, booted, browser, tmp_path, mode, sample, values, edit
):
    set_mode(page, mode)
    pick(page, sample)
    set_settings(page, **values)
    assert menu_label(page).startswith("Sample: ")
    as_sampled = shown_chunks(page)
    page.click("#text")
    edit(page)
    quiet(page)
    shown = shown_chunks(page)
    assert shown != as_sampled and len(shown) == shown_count(page)
    assert menu_label(page).startswith(("Your text", "Your transcript"))
    # Copy as JavaScript, run in this page's console.
    result = "passages" if mode == "turns" else "chunks"
    assert run_in_console(page, copied(page, "#copy-js"), result) == shown
    # Copy as Python, run where there is no file of the sample's.
    printed = run_python(copied(page, "#copy-python"), tmp_path)
    assert in_javascript(mode, printed, page.input_value("#text")) == python_prints(mode, shown)
    # The link opens a page with the same text, and so the same chunks.
    link = copied(page, "#copy-link")
    assert link.startswith(booted.origin + "/") and "sample=" not in link
    other, recorder, _ = open_playground(browser, booted.origin, link[len(booted.origin) + 1 :])
    try:
        assert other.input_value("#text") == page.input_value("#text")
        assert menu_label(other) == (
            "Transcript from a link" if mode == "turns" else "Text from a link"
        )
        assert shown_chunks(other) == shown
        # The address bar holds the settings only: the text stays out of the history.
        assert "#" not in other.evaluate("location.href")
        assert recorder.problems() == []
    finally:
        other.context.close()
    # The sample was not edited: it is there as it came, for the next case.
    pick(page, sample)
    assert menu_label(page).startswith("Sample: ")
    assert page.input_value("#text") == SAMPLE_TEXTS[sample]
    assert shown_chunks(page) == as_sampled


def test_an_edited_sample_stays_as_it_came_and_its_link_names_it(page, booted):
    set_mode(page, "semantic")
    pick(page, "handbook")
    sample = page.input_value("#text")
    page.click("#text")
    page.keyboard.press("Control+End")
    page.keyboard.type(" Mine.")
    quiet(page)
    assert menu_label(page).startswith("Your text")
    assert page.input_value("#text") == sample + " Mine."
    pick(page, "handbook")
    assert page.input_value("#text") == sample
    assert "sample=handbook" in copied(page, "#copy-link")


def test_a_link_cut_short_says_so(page, booted, browser):
    set_mode(page, "semantic")
    pick(page, "own-document")
    page.click("#text")
    page.keyboard.press("Control+A")
    page.keyboard.type("# Cut\n\nA link pasted in part only carries part of this text.")
    quiet(page)
    link = copied(page, "#copy-link")
    assert "#text=" in link
    cut = link[: link.index("#text=") + 12]
    other, recorder, _ = open_playground(browser, booted.origin, cut[len(booted.origin) + 1 :])
    try:
        note = other.text_content("#text-kept")
        assert "could not be read" in note and "cut short" in note
        assert "#" not in other.evaluate("location.href")
        assert recorder.problems() == []
    finally:
        other.context.close()


def incompressible_words(length: int) -> str:
    """Random letters in words and paragraphs: a text no compression makes much shorter."""
    rng = random.Random(23)
    words: list[str] = []
    while sum(map(len, words)) + len(words) < length:
        words.append("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6)))
        if rng.random() < 0.05:
            words[-1] += ".\n\n"
    return " ".join(words)[:length]


def test_a_text_too_long_for_a_link_or_the_code_says_so(page, booted, tmp_path):
    set_mode(page, "semantic")
    pick(page, "guide")
    long_text = incompressible_words(150_000)
    page.evaluate("(text) => navigator.clipboard.writeText(text)", long_text)
    page.click("#text")
    page.keyboard.press("Control+A")
    page.keyboard.press("Control+V")
    wait_until(page, f"document.getElementById('text').value.length === {len(long_text)}")
    quiet(page)
    assert menu_label(page).startswith(("Your text", "Your transcript"))
    shown = shown_chunks(page)
    # The link: the settings only, and the page says so; never the sample's.
    link = copied(page, "#copy-link")
    assert "sample=" not in link and "#" not in link
    status = page.text_content("#export-status")
    assert "settings only" in status and "too long for a link" in status
    # The code reads the text from where the page says to put it.
    code = copied(page, "#copy-python")
    status = page.text_content("#export-status")
    name = "document.md"  # the user's own text's, not the sample's
    assert f"save the text as {name}" in status
    text = page.input_value("#text")
    (tmp_path / name).write_text(text, encoding="utf-8")
    assert in_javascript("semantic", run_python(code, tmp_path), text) == python_prints(
        "semantic", shown
    )
    assert run_in_console(page, copied(page, "#copy-js"), "chunks") == shown


def workers_left(page: Any, calm: float = 5.0) -> int:
    """How many workers the page has once those closed are reported gone (Playwright hears of
    a closed worker a moment after it closed)."""
    deadline = time.monotonic() + calm
    while len(page.workers) > 1 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    return len(page.workers)


def test_copied_javascript_run_again_and_again_frees_its_worker(page, booted):
    set_mode(page, "semantic")
    pick(page, "own-document")
    page.click("#text")
    page.keyboard.press("Control+A")
    page.keyboard.type("# Notes\n\nA few words of my own. Then some more of them.")
    quiet(page)
    code = copied(page, "#copy-js")
    started: list[Any] = []
    # A lambda, not `started.append`: Playwright marks the handler with an attribute, which a
    # built-in method cannot take.
    page.on("worker", lambda worker: started.append(worker))  # noqa: PLW0108
    asked = len(booted.recorder.requests)
    left = []
    for _ in range(3):
        assert run_in_console(page, code, "chunks") == shown_chunks(page)
        left.append(workers_left(page))
    # One worker a run, closed when the run is done: the page's own is the only one left.
    assert len(started) == 3
    assert left == [1, 1, 1]
    loads = [url.rsplit("/", 1)[-1] for url in booted.recorder.requests[asked:]]
    assert loads.count("worker.js") == 3


# --- What the downloads hold ----------------------------------------------------------------------

README = (ROOT / "README.md").read_text(encoding="utf-8")
SETTINGS = {
    "semantic": {"targetSize": 600, "overlap": 40, "respectHeadings": False},
    "engine": {"strategy": "hierarchical", "chunkSize": 300},
}


@pytest.mark.parametrize("mode", SETTINGS)
def test_the_downloads_hold_the_spans_and_settings_that_give_the_command_line_the_same(
    page, tmp_path, mode
):
    assert js_length(README) == len(README)  # JavaScript's offsets and Python's agree
    set_mode(page, mode)
    pick(page, "own-document")
    put_text(page, README)
    set_settings(page, **SETTINGS[mode])
    quiet(page)
    name, saved = downloaded(page)
    assert name == "document-chunks.json"
    assert saved.keys() == {"source", "settings", "chunks"}
    assert saved["source"] == "document.md"
    settings = saved["settings"]
    assert settings["mode"] == mode and SETTINGS[mode].items() <= settings.items()
    _, lines = downloaded(page, "#download-jsonl")
    assert all(line.pop("settings") == settings for line in lines)
    # The command line, given the file and the settings, writes the same records: the same
    # chunks, with the spans the page colours by.
    (tmp_path / "document.md").write_text(README, encoding="utf-8")
    records = command_line(settings, "document.md", tmp_path)
    assert lines == records
    assert saved["chunks"] == [{k: v for k, v in r.items() if k != "source"} for r in records]


def test_the_code_shown_for_a_long_text_stays_within_the_page(page):
    set_mode(page, "semantic")
    pick(page, "own-document")
    put_text(page, (README + "\n") * 4)  # under 100,000 characters: written into the code
    quiet(page)
    folded = page.evaluate("document.documentElement.scrollHeight")
    page.click("#show-code")
    code = page.text_content("#code-python")
    assert README.splitlines()[0].replace('"', '\\"') in code  # the text is in it, in full
    boxes = page.evaluate(
        """() => ['code-python', 'code-js'].map((id) => {
             const box = document.getElementById(id);
             return [box.clientHeight, box.scrollHeight];
           })"""
    )
    for shown, whole in boxes:
        assert shown < 600 < whole  # each scrolls in a box of its own
    # The page grows by the two boxes (and their headings), not by the code's length.
    grown = page.evaluate("document.documentElement.scrollHeight") - folded
    assert grown < sum(shown for shown, _ in boxes) + 300
    page.click("#show-code")


# --- Copy as JavaScript: runs as pasted into this page's console ----------------------------------


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
    show_source(page, source)
    if text is not None:
        show_text(page, text, source)
    set_settings(page, **values)
    code = copied(page, "#copy-js")
    assert "indexer-guide.md'" not in code and '"indexer-guide.md"' not in code
    got = run_in_console(page, code, result)
    assert got == shown_chunks(page)
    assert len(got) == int(page.text_content('#stats [data-stat="count"] dd').replace(",", ""))


def test_the_copied_samples_url_is_the_pages_own(page, booted):
    set_mode(page, "semantic")
    show_source(page, "guide")
    code = copied(page, "#copy-js")
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    run_in_console(page, code, "chunks")
    assert f"{booted.origin}/samples/indexer-guide.md" in asked
    assert not [url for url in asked if not url.startswith(booted.origin)]
