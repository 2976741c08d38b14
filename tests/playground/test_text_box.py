"""One text, in Chromium, as a person works: what the page
chunks is what its text box holds, and what its downloads and copied code reproduce.

- A file with Windows line endings is opened as the box holds it (line feeds), and the page
  says so: its offsets, its Tune questions and its copied Python agree with the box.
- A paste over a sample (Control+A, Control+V) makes the user's own text: the sample stays
  as it came, across a reload too, and nothing typed before is written over.
- A file too large for the box is refused before it is read, with its size and why, and the
  page never stalls (long tasks and long animation frames, see `support.playground.STALLS`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.offsets import js_length
from support.playground import (
    CLIPBOARD,
    GUIDE,
    ROOT,
    STALLS,
    booted_playground,
    copied,
    downloaded,
    evaluated,
    longest_stall,
    open_file,
    open_playground,
    paste_over,
    percent,
    quiet,
    run_python,
    runs,
    settled,
    stalls_seen,
    wait_until,
)

from chunker import SemanticChunker
from chunker.evaluation import EvaluationSet, Question, evaluate

# Real Markdown files: the project's README and docs, and the page's sample guide.
README = (ROOT / "README.md").read_text(encoding="utf-8")
PLAYGROUND_DOC = (ROOT / "docs/playground.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def booted(browser, site_url):
    with booted_playground(browser, site_url, permissions=CLIPBOARD, init_script=STALLS) as booted:
        yield booted


def with_crlf(tmp_path: Path, name: str, text: str) -> Path:
    """`text` saved as a Windows editor saves it, each line ending CR LF."""
    path = tmp_path / name
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    return path


def opened(page: Any, path: Path) -> None:
    """Open `path` with the file picker and wait for its chunks."""
    before = runs(page)
    open_file(page, path)
    settled(page, before)


def printed(text: str) -> list[str]:
    """What the copied Python prints for `text` at the page's default settings (Python's)."""
    return [
        f"{c.index} {c.boundary_type} {c.start_offset} {c.end_offset}"
        for c in SemanticChunker().chunk(text)
    ]


def first_range(page: Any) -> str:
    """The range the chunk list gives its first chunk, as "0", a dash and "1,222"."""
    return page.text_content("#chunk-row-0 .row-range")


def test_a_file_with_windows_line_endings_is_the_text_its_box_holds(page, tmp_path):
    assert js_length(README) == len(README)  # offsets in code points are JavaScript's too
    path = with_crlf(tmp_path, "readme-crlf.md", README)
    opened(page, path)
    assert page.input_value("#text") == README
    note = page.text_content("#text-converted")
    assert f"readme-crlf.md: its {README.count(chr(10))} Windows line endings (CR LF)" in note
    # The chunks and their spans are those of the text in the box, as Python cuts it.
    _, saved = downloaded(page)
    assert saved["chunks"] == [c.to_dict(spans=True) for c in SemanticChunker().chunk(README)]
    ranges = first_range(page)
    # A question on a passage selected with the keys (three lines) is found in the text.
    page.select_option("#tune-set", "own")
    page.click("#text")
    page.keyboard.press("Control+Home")
    for _ in range(3):
        page.keyboard.press("Shift+ArrowDown")
    start, end = page.evaluate(
        "[document.getElementById('text').selectionStart, "
        "document.getElementById('text').selectionEnd]"
    )
    assert "\n" in README[start:end]
    page.click("#tune-question")
    page.keyboard.type("What is this project?")
    page.click("#tune-add")
    shown = evaluated(page)
    assert page.text_content("#tune-error") == ""
    data = EvaluationSet(
        {"readme-crlf.md": README},
        [Question("What is this project?", "readme-crlf.md", ((start, end),))],
    )
    assert shown["recall"] == percent(evaluate(data).recall)
    # The copied Python cuts what the page cut.
    assert run_python(copied(page, "#copy-python"), tmp_path) == printed(README)
    # A key typed at the end moves no offset before it.
    page.click("#text")
    page.keyboard.press("Control+End")
    page.keyboard.type("!")
    quiet(page)
    assert page.input_value("#text") == README + "!"
    assert first_range(page) == ranges
    assert page.text_content("#tune-error") == ""


def test_copied_python_reads_a_long_file_with_windows_line_endings_as_the_page_did(page, tmp_path):
    # Too long to write into the code (snippets.js TEXT_IN_CODE): it reads the file.
    long = (README + "\n") * (100_000 // len(README) + 1)
    assert len(long) > 100_000
    path = with_crlf(tmp_path, "long-crlf.md", long)
    opened(page, path)
    assert page.input_value("#text") == long
    code = copied(page, "#copy-python")
    assert 'Path("long-crlf.md").read_text' in code
    status = page.text_content("#export-status")
    assert "save the text as long-crlf.md" in status
    start, end = SemanticChunker().chunk(long)[0].span
    assert first_range(page) == f"{start:,}\u2013{end:,}"
    # Run beside the file as it was opened, CR LF and all, it prints the page's chunks.
    _, saved = downloaded(page)
    shown = [
        f"{c['index']} {c['boundaryType']} {c['startOffset']} {c['endOffset']}"
        for c in saved["chunks"]
    ]
    assert run_python(code, tmp_path) == shown == printed(long)


def test_a_paste_over_a_sample_is_your_text_and_the_sample_stays_as_it_came(browser, site_url):
    page, recorder, _ = open_playground(browser, site_url, permissions=CLIPBOARD)
    try:
        menu = "document.getElementById('source').selectedOptions[0].textContent"
        assert page.input_value("#source") == "guide" and page.input_value("#text") == GUIDE
        before = runs(page)
        paste_over(page, "#text", README)
        settled(page, before)
        quiet(page)
        assert page.input_value("#source") == "own-document"
        assert page.evaluate(menu) == "Your text"
        assert page.input_value("#text") == README
        name, _ = downloaded(page)
        assert name == "document-chunks.json"
        assert page.text_content("#source option[value='guide']") == (
            "Sample: technical guide (Markdown, code, tables)"
        )
        # The sample again, as it came.
        page.select_option("#source", "guide")
        wait_until(page, "document.getElementById('text').value.startsWith('# Harbor')")
        assert page.input_value("#text") == GUIDE
        # A second paste over it writes nothing over the first: it is "Your text 2".
        before = runs(page)
        paste_over(page, "#text", PLAYGROUND_DOC)
        settled(page, before)
        quiet(page)
        assert page.evaluate(menu) == "Your text 2"
        # After a reload: the last text shown, the sample as it came, the first text kept.
        page.reload(wait_until="domcontentloaded")
        wait_until(page, "document.getElementById('loading').classList.contains('ready')", 120)
        settled(page, 0)
        assert page.evaluate(menu) == "Your text 2"
        assert page.input_value("#text") == PLAYGROUND_DOC
        page.select_option("#source", "guide")
        wait_until(page, "document.getElementById('text').value.startsWith('# Harbor')")
        assert page.input_value("#text") == GUIDE
        page.select_option("#source", "own-document")
        assert page.input_value("#text") == README
        assert recorder.problems() == []
    finally:
        page.context.close()


def test_a_file_too_large_for_the_text_box_is_refused_without_a_stall(page, tmp_path):
    before = page.input_value("#text")
    path = tmp_path / "huge.md"
    block = GUIDE.encode("utf-8")
    path.write_bytes(block * (50_000_000 // len(block) + 1))
    seen = stalls_seen(page)
    open_file(page, path)
    said = wait_until(page, "document.getElementById('file-error').textContent")
    assert said.startswith("huge.md is 50.0 MB, too large to open here")
    assert "up to 1.0 MB" in said and "chunker chunk huge.md" in said
    # Time passing is the point: the frames of the half second after it, none of them long.
    page.evaluate("new Promise((resolve) => setTimeout(resolve, 500))")
    assert longest_stall(page, seen) < 1000
    assert page.input_value("#text") == before
