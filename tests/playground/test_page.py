"""The playground page in real Chromium, as a person first meets it: loading, input (typing,
pasting, opening and dropping files), the modes and the chunks coloured in place, live
re-chunking, search, what can be taken away (downloads, copied code, links), errors at their
field, use by keyboard and at every width, and safety (user text shown as text, a strict CSP).

The page is booted once for the module (Pyodide takes seconds); each test sets the mode, the
text and the settings it needs, and every test fails if the page logged an error, threw, or
asked for anything outside its origin. What the page colours is compared with what the
Python package answers for the same text and settings, offsets turned into JavaScript's.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from statistics import median
from urllib.parse import urlsplit

import pytest
from support.painting import engine_painting, read_document, semantic_painting
from support.playground import (
    ARTIFACTS,
    GUIDE,
    ROOT,
    downloaded,
    open_playground,
    put_text,
    quiet,
    runs,
    set_mode,
    set_settings,
    settled,
    show_text,
    wait_until,
)

from chunker import (
    ChunkingEngine,
    LexicalIndex,
    SemanticChunker,
    chunk_turns,
    lexical_tokens,
    match_spans,
    snippet_around,
)

MEETING_TEXT = (ROOT / "web/samples/meeting.json").read_text(encoding="utf-8")
MEETING = json.loads(MEETING_TEXT)
SEMANTIC_DEFAULTS = dict(
    target_size=1000,
    max_size=2000,
    min_size=200,
    overlap=100,
    preserve_code_blocks=True,
    respect_headings=True,
)
ENGINE_DEFAULTS = dict(strategy="fixed", chunk_size=512, chunk_overlap=64)

# Characters outside the BMP take two JavaScript units: the offsets must still line up.
EMOJI_DOC = "\n\n".join(
    [
        "# Émojis 😀 and friends",
        "Rockets 🚀 go up. Snakes 🐍 go sideways. Ideas 💡 come and go, quickly or slowly.",
        "```python\nprint('🎉')\n```",
        "## Ünïcödé",
        " ".join(f"Word{i} 🌍 sentence {i}." for i in range(60)),
        "Tail paragraph with 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 letters.",
    ]
)


# --- fixtures (the site and Chromium are tests/conftest.py's) --------------------------------


@pytest.fixture(scope="module")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


# --- driving the page ----------------------------------------------------------------------


def semantic_settings(page, **python_values):
    options = {**SEMANTIC_DEFAULTS, **python_values}
    set_settings(
        page,
        targetSize=options["target_size"],
        maxSize=options["max_size"],
        minSize=options["min_size"],
        overlap=options["overlap"],
        preserveCodeBlocks=options["preserve_code_blocks"],
        respectHeadings=options["respect_headings"],
    )
    return options


def list_rows(page):
    """The chunk list's rows that exist (it is virtual): their text, by index."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#chunk-list [data-index]')]
             .map((row) => [row.dataset.index, row.innerText]))"""
    )


# --- what the page should show, from the Python package --------------------------------------


def js_offsets(text):
    """Code-point offset -> JavaScript offset in `text` (and past its end, one for one)."""
    prefix = [0]
    for ch in text:
        prefix.append(prefix[-1] + (2 if ord(ch) > 0xFFFF else 1))

    def convert(offset):
        return prefix[min(offset, len(text))] + max(0, offset - len(text))

    return convert


def expected_semantic(text, options):
    chunks = SemanticChunker(**options).chunk(text)
    return (chunks, *semantic_painting(text, chunks))


def expected_engine(text, options):
    chunks = ChunkingEngine().chunk(text, **options)
    return (chunks, *engine_painting(text, chunks))


def stats_text(lengths):
    mid = median(lengths)
    mid = int(mid) if mid == int(mid) else mid
    return [f"{len(lengths):,}", f"{min(lengths):,}", f"{mid:,}", f"{max(lengths):,}"]


def shown_stats(page):
    return page.evaluate("[...document.querySelectorAll('#stats dd')].map((dd) => dd.textContent)")


# --- Loading --------------------------------------------------------------------------------------


def test_loading_shows_stages_and_time_and_enables_controls(page, booted):
    assert booted.seen["before"] == {"disabled": True, "hasBar": True}
    stages = booted.seen["stages"]
    assert len(stages) >= 2 and stages[-1] == "Ready", stages
    assert re.fullmatch(r"in \d+\.\d s", page.text_content("#load-time"))
    assert page.evaluate("document.getElementById('app').disabled") is False
    assert page.is_enabled("#setting-targetSize") and page.is_enabled("#text")
    facade = page.evaluate(
        "window.chunkerReady.then((api) => [typeof api.SemanticChunker, typeof api.chunkTurns])"
    )
    assert facade == ["function", "function"]


# --- Input ----------------------------------------------------------------------------------------


def test_typing_rechunks_as_you_type(page):
    set_mode(page, "semantic")
    semantic_settings(page, overlap=0)
    show_text(page, "", "own-document")
    before = runs(page)
    page.click("#text")
    page.keyboard.type("# Refunds\n\nThey take five days.\n\n# Shipping\n\nTwo days.")
    settled(page, before)
    quiet(page)
    text = page.input_value("#text")
    chunks, own, _ = expected_semantic(text, {**SEMANTIC_DEFAULTS, "overlap": 0})
    assert [c.boundary_type for c in chunks] == ["heading", "heading"]
    assert read_document(page)["own"] == own


def test_paste_from_the_clipboard(page):
    set_mode(page, "semantic")
    show_text(page, "", "own-document")
    page.evaluate("navigator.clipboard.writeText('# Pasted\\n\\nFrom the clipboard.')")
    before = runs(page)
    page.focus("#text")
    page.keyboard.press("Control+V")
    settled(page, before)
    assert page.input_value("#text") == "# Pasted\n\nFrom the clipboard."
    assert "0 · heading" in list_rows(page)["0"]


def test_open_file_with_the_picker(page):
    content = "# Notes\n\nOpened from disk. 😀 Two sentences here."
    before = runs(page)
    page.set_input_files(
        "#file-input",
        files=[{"name": "notes.md", "mimeType": "text/markdown", "buffer": content.encode()}],
    )
    settled(page, before)
    assert page.input_value("#text") == content
    assert page.eval_on_selector("#source", "s => s.selectedOptions[0].textContent") == (
        "File: notes.md"
    )
    assert page.is_checked('input[name="mode"][value="semantic"]')


DROP = """async ({name, type, content}) => {
  const data = new DataTransfer();
  data.items.add(new File([content], name, {type}));
  const target = document.getElementById('text');
  for (const kind of ['dragenter', 'dragover', 'drop']) {
    target.dispatchEvent(new DragEvent(kind, {bubbles: true, cancelable: true, dataTransfer: data}));
  }
}"""


def test_drop_a_transcript_file(page):
    turns = MEETING[:6]
    before = runs(page)
    page.evaluate(
        DROP, {"name": "call.json", "type": "application/json", "content": json.dumps(turns)}
    )
    settled(page, before)
    assert page.is_checked('input[name="mode"][value="turns"]')
    assert page.eval_on_selector("#source", "s => s.selectedOptions[0].textContent") == (
        "File: call.json"
    )
    passages = chunk_turns(turns)
    assert page.evaluate("document.querySelectorAll('#transcript .turn').length") == len(turns)
    assert len(list_rows(page)) == len(passages)


def test_switching_samples_and_modes_keeps_typed_text(page):
    set_mode(page, "semantic")
    show_text(page, "My own words, typed here.", "own-document")
    show_text(page, GUIDE, "guide")
    before = runs(page)
    put_text(page, GUIDE + "\nAn edit of the sample.")  # the user's own text, a new one
    settled(page, before)
    edited = page.input_value("#source")
    assert edited not in ("guide", "own-document")
    page.select_option("#source", "handbook")
    wait_until(page, "document.getElementById('text').value.startsWith('# Refunds')")
    set_mode(page, "turns")
    assert page.input_value("#text").lstrip().startswith("[")
    set_mode(page, "engine")
    page.select_option("#source", "own-document")
    assert page.input_value("#text") == "My own words, typed here."
    page.select_option("#source", edited)
    assert page.input_value("#text").endswith("An edit of the sample.")
    page.select_option("#source", "guide")
    assert page.input_value("#text") == GUIDE


# --- The modes, and the chunks coloured in place --------------------------------------------------


SEMANTIC_CASES = {
    "defaults": {},
    "no-overlap": {"overlap": 0},
    "small-sizes": {"target_size": 300, "max_size": 500, "min_size": 50, "overlap": 40},
    "fixed-splits": {"target_size": 120, "max_size": 150, "min_size": 0, "overlap": 10},
    "no-structure": {"preserve_code_blocks": False, "respect_headings": False},
}


# A fence left open: the chunk gathered before it comes out twice, over the same span.
OPEN_FENCE = "# Title\n\nIntro paragraph here, long enough.\n\n```python\nprint(1)\n\nmore code\n"
DOCS = {
    "guide": (GUIDE, "guide"),
    "emoji": (EMOJI_DOC, "own-document"),
    "open-fence": (OPEN_FENCE, "own-document"),
}


@pytest.mark.parametrize("case", SEMANTIC_CASES, ids=list(SEMANTIC_CASES))
@pytest.mark.parametrize("doc", DOCS)
def test_semantic_spans_match_the_chunker(page, case, doc):
    set_mode(page, "semantic")
    show_text(page, *DOCS[doc])
    text = page.input_value("#text")
    options = semantic_settings(page, **SEMANTIC_CASES[case])
    chunks, own, lead = expected_semantic(text, options)
    shown = read_document(page)
    assert shown["text"] == text
    assert shown["own"] == own
    assert shown["lead"] == lead
    # One badge per chunk at its start, saying its index and boundary type.
    badges = dict(shown["badges"])
    for chunk in chunks:
        if chunk.index in own:
            assert f"{chunk.index} · {chunk.boundary_type}" in badges[own[chunk.index][0][0]]
    assert page.evaluate("document.querySelectorAll('#chunk-list [data-index]').length") > 0
    assert shown_stats(page) == stats_text([len(c.text) for c in chunks])


@pytest.mark.parametrize("strategy", ["fixed", "hierarchical", "layout"])
def test_engine_spans_match_the_engine(page, strategy):
    set_mode(page, "engine")
    show_text(page, GUIDE, "guide")
    set_settings(page, strategy=strategy, chunkSize=400, chunkOverlap=50)
    options = {"strategy": strategy, "chunk_size": 400, "chunk_overlap": 50}
    chunks, own, lead = expected_engine(GUIDE, options)
    shown = read_document(page)
    assert shown["own"] == own
    assert shown["lead"] == lead
    assert shown_stats(page) == stats_text([len(c.content) for c in chunks])
    assert page.is_hidden("#demo-embedding")


def test_engine_semantic_uses_the_labelled_demo_embedding(page):
    set_mode(page, "engine")
    show_text(page, GUIDE, "guide")
    set_settings(page, strategy="semantic", chunkSize=512, chunkOverlap=64)
    note = page.text_content("#demo-embedding")
    assert page.is_visible("#demo-embedding") and note.startswith("Demonstration embedding.")
    count = int(page.text_content('#stats [data-stat="count"] dd'))
    fixed = ChunkingEngine().chunk(GUIDE, strategy="fixed")
    assert count > 1 and count != len(fixed)  # cut by similarity, not by size
    shown = read_document(page)
    assert len(shown["own"]) == count  # every chunk found in the text and coloured


def test_transcript_passages_and_turns(page):
    set_mode(page, "turns")
    show_text(page, MEETING_TEXT, "meeting")
    set_settings(page, maxChars=700, overlapTurns=2)
    passages = chunk_turns(MEETING, max_chars=700, overlap_turns=2)
    rows = list_rows(page)
    first = passages[0]
    assert f"0 · seq {first.first_seq}–{first.last_seq}" in rows["0"]
    assert ", ".join(dict.fromkeys(first.item_ids)) in rows["0"]  # each distinct id once
    assert re.search(r"\d+:\d\d\.\d–\d+:\d\d\.\d", rows["0"])
    # Each turn is coloured by the passage that brings it, striped by the ones that repeat it.
    index_of = {turn["seq"]: i for i, turn in enumerate(MEETING)}
    owner, repeated, seen = {}, {}, set()
    for passage in passages:
        for span in passage.turns:
            i = index_of[span.seq]
            if i in seen:
                repeated.setdefault(i, []).append(passage.index)
            else:
                owner[i] = [passage.index]
                seen.add(i)
    shown = page.evaluate(
        """() => [...document.querySelectorAll('#transcript .turn')].map((row) => [
             (row.dataset.c || '').split(' ').filter(Boolean).map(Number),
             (row.dataset.l || '').split(' ').filter(Boolean).map(Number)])"""
    )
    assert [own for own, _ in shown] == [owner[i] for i in range(len(MEETING))]
    assert [lead for _, lead in shown] == [repeated.get(i, []) for i in range(len(MEETING))]
    assert shown_stats(page) == stats_text([len(p.text) for p in passages])


def test_list_and_document_select_each_other(page):
    set_mode(page, "semantic")
    show_text(page, GUIDE, "guide")
    semantic_settings(page)
    # The list: a click scrolls the document to the chunk and marks it.
    page.eval_on_selector("#chunk-list", "list => { list.scrollTop = 20 * 68; }")
    wait_until(page, "!!document.getElementById('chunk-row-20')")
    page.click("#chunk-row-20")
    _chunks, _own, _ = expected_semantic(GUIDE, SEMANTIC_DEFAULTS)
    wait_until(page, "document.querySelectorAll('#document .selected').length > 0")
    visible = page.evaluate(
        """() => {
          const view = document.getElementById('document').getBoundingClientRect();
          const first = document.querySelector('#document .selected').getBoundingClientRect();
          return first.top >= view.top && first.top < view.bottom;
        }"""
    )
    assert visible
    assert page.get_attribute("#chunk-row-20", "aria-selected") == "true"
    # And back: a click in the document selects its chunk in the list, scrolled into view.
    page.eval_on_selector("#chunk-list", "list => { list.scrollTop = 0; }")
    span = page.locator('#document [data-c~="3"]').first
    span.scroll_into_view_if_needed()
    span.click()
    wait_until(
        page, "document.getElementById('chunk-row-3')?.getAttribute('aria-selected') === 'true'"
    )
    assert page.get_attribute("#chunk-list", "aria-activedescendant") == "chunk-row-3"
    row = page.locator("#chunk-row-3").bounding_box()
    box = page.locator("#chunk-list").bounding_box()
    assert box["y"] <= row["y"] < box["y"] + box["height"]


def test_histogram_marks_target_and_max(page):
    set_mode(page, "semantic")
    show_text(page, GUIDE, "guide")
    semantic_settings(page, target_size=700, max_size=1500)
    chunks = SemanticChunker(**{**SEMANTIC_DEFAULTS, "target_size": 700, "max_size": 1500}).chunk(
        GUIDE
    )
    titles = page.evaluate(
        "[...document.querySelectorAll('#histogram rect title')].map((t) => t.textContent)"
    )
    counted = sum(int(re.search(r": (\d+) chunk", t).group(1)) for t in titles)
    assert counted == len(chunks)
    labels = page.evaluate(
        "[...document.querySelectorAll('#histogram .marker-label')].map((t) => t.textContent)"
    )
    assert labels == ["target 700", "max 1,500"]
    assert page.get_attribute("#histogram svg", "role") == "img"


# --- Live -----------------------------------------------------------------------------------------


def test_slider_by_keyboard_and_drag_rechunks_without_a_button(page):
    set_mode(page, "semantic")
    show_text(page, GUIDE, "guide")
    semantic_settings(page)
    before = runs(page)
    page.focus("#setting-targetSize-slider")
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    settled(page, before)
    assert page.input_value("#setting-targetSize") == "995"
    _, own, _ = expected_semantic(GUIDE, {**SEMANTIC_DEFAULTS, "target_size": 995})
    assert read_document(page)["own"] == own
    # Dragging: press on the thumb's track near its left end and let go.
    box = page.locator("#setting-maxSize-slider").bounding_box()
    before = runs(page)
    page.mouse.move(box["x"] + box["width"] * 0.25, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.1, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()
    settled(page, before)
    max_size = int(page.input_value("#setting-maxSize"))
    assert max_size < 2000
    options = {**SEMANTIC_DEFAULTS, "target_size": 995, "max_size": max_size}
    _, own, _ = expected_semantic(GUIDE, options)
    assert read_document(page)["own"] == own


def test_quick_changes_leave_only_the_last_result(page):
    set_mode(page, "semantic")
    big = GUIDE * 80  # ~1.1 MB
    show_text(page, big, "own-document")
    semantic_settings(page)
    before = runs(page)
    # Ten edits in one go, as a person typing faster than a run: the first starts a run, each
    # later one replaces the one waiting. (Edits one by one from here would each come after
    # the run before ended on a busy machine, leaving nothing to drop.)
    page.eval_on_selector(
        "#setting-targetSize",
        """(field) => {
      for (let size = 600; size < 1000; size += 40) {
        field.value = String(size);
        field.dispatchEvent(new Event('input', {bubbles: true}));
      }
    }""",
    )
    final = settled(page, before)
    assert final - before == 1  # the run that was going when the rest came is dropped
    chunks = SemanticChunker(**{**SEMANTIC_DEFAULTS, "target_size": 960}).chunk(big)
    assert page.text_content('#stats [data-stat="count"] dd') == f"{len(chunks):,}"


def test_five_megabytes_still_work(page):
    set_mode(page, "semantic")
    semantic_settings(page)
    huge = GUIDE * 350  # 5 MB, pasted: a file this large is refused (playground/test_text_box.py)
    show_text(page, huge, "own-document", timeout=300)
    count = len(SemanticChunker().chunk(huge))
    assert page.text_content('#stats [data-stat="count"] dd') == f"{count:,}"
    # Only what is near the viewport is built: a few blocks painted, a screenful of rows.
    painted = page.evaluate(
        "document.querySelectorAll('#document .block[data-painted=\"yes\"]').length"
    )
    assert painted < 10
    assert page.evaluate("document.querySelectorAll('#chunk-list [data-index]').length") < 60
    # The last chunk is reachable from the keyboard, and the document follows.
    page.focus("#chunk-list")
    page.keyboard.press("End")
    wait_until(
        page,
        f"document.getElementById('chunk-row-{count - 1}')?.getAttribute('aria-selected') === 'true'",
    )
    wait_until(page, f"document.querySelectorAll('#document [data-c~=\"{count - 1}\"]').length > 0")
    show_text(page, "", "own-document")  # leave the big text behind for the next tests
    show_text(page, GUIDE, "guide")


# --- Search ---------------------------------------------------------------------------------------


GREEK = "# Α\n\nΗ ΟΔΟΣ'S είναι μακριά.\n\n# Β\n\nΜια οδός εδώ.\n\n# Γ\n\nΚαι η ΟΔΟΣ εκεί."
SEARCHES = {
    "guide": (GUIDE, "guide", "Refunds’ CHUNK"),
    "greek": (GREEK, "own-document", "οδος οδός"),
}


@pytest.mark.parametrize("case", SEARCHES)
def test_search_lists_snippets_with_matched_words(page, case):
    text, source, query = SEARCHES[case]
    set_mode(page, "semantic")
    show_text(page, text, source)
    semantic_settings(page, min_size=0, overlap=0)
    page.fill("#query", query)
    tokens = lexical_tokens(query)
    # The query's own words: the last test's may still show while this one's wait to be read.
    wait_until(
        page,
        "[...document.querySelectorAll('#query-tokens .token')].map((t) => t.textContent)"
        f".join(' ') === {json.dumps(' '.join(tokens))}",
    )
    assert (
        page.evaluate(
            "[...document.querySelectorAll('#query-tokens .token')].map((t) => t.textContent)"
        )
        == tokens
    )
    # Ranked as LexicalIndex ranks the chunks, the best 20; the snippet's words marked.
    chunks = SemanticChunker(**{**SEMANTIC_DEFAULTS, "min_size": 0, "overlap": 0}).chunk(text)
    index = LexicalIndex()
    index.add_documents({"id": str(chunk.index), "text": chunk.text} for chunk in chunks)
    expected = []
    for hit in index.search(query, 20):
        snippet = snippet_around(chunks[int(hit.id)].text, tokens, before=60, after=140)
        marks = [snippet.text[start:end] for start, end in match_spans(snippet.text, tokens)]
        expected.append((int(hit.id), snippet.text, marks))
    assert len(expected) > 1
    wait_until(page, "document.querySelectorAll('#search-results .hit').length > 0")
    hits = page.evaluate(
        """() => [...document.querySelectorAll('#search-results .hit')].map((hit) => [
             Number(hit.dataset.index), hit.querySelector('.hit-snippet').textContent,
             [...hit.querySelectorAll('mark')].map((m) => m.textContent)])"""
    )
    assert [tuple(hit) for hit in hits] == expected
    assert all(marks for _, _, marks in expected)
    page.click("#search-results .hit >> nth=1")
    chosen = hits[1][0]
    wait_until(
        page,
        f"document.getElementById('chunk-row-{chosen}')?.getAttribute('aria-selected') === 'true'",
    )
    page.fill("#query", "")


def test_search_without_words_says_so(page):
    page.fill("#query", "?!")
    wait_until(page, "document.getElementById('query-tokens').textContent.includes('No words')")
    page.fill("#query", "")


# --- Take it away ---------------------------------------------------------------------------------


def test_download_json_and_jsonl_hold_the_chunks_with_their_spans_and_the_settings(page):
    set_mode(page, "semantic")
    show_text(page, EMOJI_DOC, "own-document")
    options = semantic_settings(page, target_size=200, max_size=400, min_size=20, overlap=30)
    to_js = js_offsets(EMOJI_DOC)

    def in_js(span):
        return None if span is None else {"start": to_js(span["start"]), "end": to_js(span["end"])}

    expected = []
    for chunk in SemanticChunker(**options).chunk(EMOJI_DOC):
        record = chunk.to_dict(spans=True)
        record["startOffset"], record["endOffset"] = (
            to_js(chunk.start_offset),
            to_js(chunk.end_offset),
        )
        record["span"], record["overlapSpan"] = in_js(record["span"]), in_js(record["overlapSpan"])
        expected.append(record)
    settings = {
        "mode": "semantic",
        "targetSize": 200,
        "maxSize": 400,
        "minSize": 20,
        "overlap": 30,
        "preserveCodeBlocks": True,
        "respectHeadings": True,
        "overlapBoundary": "chars",
    }
    name, saved = downloaded(page)
    assert name == "document-chunks.json"
    assert saved == {"source": "document.md", "settings": settings, "chunks": expected}
    name, lines = downloaded(page, "#download-jsonl")
    assert name == "document-chunks.jsonl"
    assert lines == [
        {"source": "document.md", **record, "settings": settings} for record in expected
    ]


def copied(page, button):
    """Click a copy button and answer what reached the clipboard."""
    page.eval_on_selector("#export-status", "status => { status.textContent = ''; }")
    page.click(button)
    wait_until(page, "document.getElementById('export-status').textContent.includes('copied')")
    return page.evaluate("navigator.clipboard.readText()")


def python_expectations(mode):
    """The page's settings for `mode`, the source to show, and what the copied Python prints."""
    if mode == "semantic":
        options = {
            **SEMANTIC_DEFAULTS,
            "target_size": 800,
            "overlap": 50,
            "respect_headings": False,
        }
        lines = [
            f"{c.index} {c.boundary_type} {c.start_offset} {c.end_offset}"
            for c in SemanticChunker(**options).chunk(GUIDE)
        ]
        settings = dict(
            targetSize=800,
            maxSize=2000,
            minSize=200,
            overlap=50,
            preserveCodeBlocks=True,
            respectHeadings=False,
        )
        return settings, ("guide", GUIDE, "indexer-guide.md"), lines
    if mode == "engine":
        chunks = ChunkingEngine().chunk(
            GUIDE, strategy="hierarchical", chunk_size=300, chunk_overlap=30
        )
        lines = [f"{c.index} {len(c.content)} {c.heading}" for c in chunks]
        settings = dict(strategy="hierarchical", chunkSize=300, chunkOverlap=30)
        return settings, ("guide", GUIDE, "indexer-guide.md"), lines
    passages = chunk_turns(MEETING, max_chars=500, overlap_turns=2)
    lines = [f"{p.index} {p.first_seq} {p.last_seq} {p.item_ids}" for p in passages]
    return dict(maxChars=500, overlapTurns=2), ("meeting", MEETING_TEXT, "meeting.json"), lines


@pytest.mark.parametrize("mode", ["semantic", "engine", "turns"])
def test_copied_python_snippet_runs_and_agrees(page, tmp_path, mode):
    settings, (source, text, name), expected = python_expectations(mode)
    set_mode(page, mode)
    show_text(page, text, source)
    set_settings(page, **settings)
    code = copied(page, "#copy-python")
    (tmp_path / name).write_text(text, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.splitlines() == expected


@pytest.mark.parametrize("mode", ["semantic", "engine", "turns"])
def test_copied_javascript_snippet_names_every_setting(page, mode, tmp_path):
    set_mode(page, mode)
    code = copied(page, "#copy-js")
    assert "loadChunker" in code
    names = page.evaluate(
        "[...document.querySelectorAll('.mode-settings:not([hidden]) [id^=\"setting-\"]')]"
        ".map((e) => e.id.slice(8)).filter((id) => !id.includes('-'))"
    )
    for name in names:
        assert re.search(rf"\b{name}: ", code), name
    if shutil.which("node"):
        script = tmp_path / "snippet.mjs"
        script.write_text(code, encoding="utf-8")
        subprocess.run(["node", "--check", str(script)], check=True)


def test_settings_live_in_the_url_and_a_link_reproduces_them(page, browser, booted):
    set_mode(page, "semantic")
    show_text(page, GUIDE, "guide")
    semantic_settings(page, target_size=640, overlap=0, preserve_code_blocks=False)
    # The URL follows a pause in the changes, which may come between two of them: wait for
    # the one that holds them all (respectHeadings may be the last, back to its default).
    wanted = {
        "targetSize": "640",
        "overlap": "0",
        "preserveCodeBlocks": "false",
        "respectHeadings": "true",
    }
    wait_until(
        page,
        f"Object.entries({json.dumps(wanted)}).every(([name, value]) => "
        "new URLSearchParams(location.search).get(name) === value)",
    )
    query = page.evaluate("location.search")
    assert copied(page, "#copy-link") == f"{booted.origin}/{query}"
    assert "overlap=0" in query and "preserveCodeBlocks=false" in query
    assert "Harbor" not in query and "text=" not in query  # the text stays out of the URL
    other, recorder, _ = open_playground(browser, booted.origin, query)
    try:
        assert other.input_value("#setting-targetSize") == "640"
        assert not other.is_checked("#setting-preserveCodeBlocks")
        assert shown_stats(other) == shown_stats(page)
        assert recorder.problems() == []
    finally:
        other.context.close()


# --- Errors ---------------------------------------------------------------------------------------


def test_settings_that_would_make_too_many_chunks_are_refused_at_the_field(page):
    # Chunk size 1 on 300,000 characters: up to 600,000 windows would keep the worker busy
    # for seconds and the page drawing; the field says so at once and nothing runs.
    text = "word " * 60_000
    set_mode(page, "engine")
    set_settings(page, strategy="fixed", chunkSize=512, chunkOverlap=0)
    show_text(page, text, "own-document")
    before = runs(page)
    page.fill("#setting-chunkSize", "1")
    wait_until(page, "document.getElementById('setting-chunkSize-error').textContent !== ''")
    message = page.text_content("#setting-chunkSize-error")
    assert "Chunk size 1" in message and "600,000 chunks" in message and "at least 6" in message
    assert page.evaluate("document.getElementById('results').classList.contains('stale')")
    # That no run starts is seen only by waiting: longer than the page's pause before a run.
    time.sleep(0.5)
    assert runs(page) == before and page.evaluate("document.body.dataset.busy") == "false"
    page.fill("#setting-chunkSize", "512")
    settled(page, before)
    assert page.text_content("#setting-chunkSize-error") == ""
    set_settings(page, chunkOverlap=64)
    # SemanticChunker cuts an oversized part every target size.
    set_mode(page, "semantic")
    page.fill("#setting-targetSize", "2")
    wait_until(page, "document.getElementById('setting-targetSize-error').textContent !== ''")
    assert "Target size 2" in page.text_content("#setting-targetSize-error")
    before = runs(page)
    page.fill("#setting-targetSize", "1000")
    settled(page, before)


def test_a_refused_setting_drops_the_run_still_going_for_the_one_before(page):
    # Its result must not come back drawn as if it were for the refused settings.
    got = page.evaluate(
        """async () => {
          const { createScheduler } = await import('/playground/scheduler.js');
          const drawn = [];
          const finish = [];
          const work = (job) => new Promise((resolve) => finish.push(() => resolve(job)));
          const scheduler = createScheduler(work,
            { onResult: (result) => drawn.push(result), onError: () => {}, onBusy: () => {} });
          scheduler.request('settings before');
          scheduler.cancel();
          finish[0]();
          // A task later: every promise the scheduler chained on the answer has settled.
          await new Promise((resolve) => setTimeout(resolve));
          scheduler.request('settings after');
          finish[1]();
          await new Promise((resolve) => setTimeout(resolve));
          return drawn;
        }"""
    )
    assert got == ["settings after"]


def test_invalid_setting_is_reported_at_the_field_and_keeps_the_result(page):
    set_mode(page, "semantic")
    show_text(page, GUIDE, "guide")
    semantic_settings(page)
    stats = shown_stats(page)
    page.fill("#setting-targetSize", "0")
    wait_until(page, "document.getElementById('setting-targetSize-error').textContent !== ''")
    message = page.text_content("#setting-targetSize-error")
    assert message == "Target size must be at least 1, not 0."
    assert page.get_attribute("#setting-targetSize", "aria-invalid") == "true"
    assert shown_stats(page) == stats
    assert page.evaluate("document.getElementById('results').classList.contains('stale')")
    page.fill("#setting-targetSize", "")
    wait_until(
        page,
        "document.getElementById('setting-targetSize-error').textContent.includes('needs a number')",
    )
    before = runs(page)
    page.fill("#setting-targetSize", "1000")
    settled(page, before)
    assert page.text_content("#setting-targetSize-error") == ""
    assert page.get_attribute("#setting-targetSize", "aria-invalid") is None
    assert not page.evaluate("document.getElementById('results').classList.contains('stale')")


def test_invalid_transcript_json_says_line_and_column(page):
    set_mode(page, "turns")
    show_text(page, json.dumps(MEETING[:4]), "own-transcript")
    stats = shown_stats(page)
    page.fill("#text", '[\n  {"seq": 1, "text": "a"},\n  {"seq": 2 "text": "b"}\n]')
    wait_until(page, "document.getElementById('text-error').textContent !== ''")
    assert "not valid JSON: at line 3, column 13:" in page.text_content("#text-error")
    assert shown_stats(page) == stats
    page.fill("#text", '[{"seq": 1}]')
    wait_until(page, "document.getElementById('text-error').textContent.includes('turns[0]')")
    before = runs(page)
    page.fill("#text", json.dumps(MEETING[:4]))
    settled(page, before)
    assert page.text_content("#text-error") == ""


# --- For everyone ---------------------------------------------------------------------------------


def test_every_control_has_a_label(page):
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll(
             'input, select, textarea, button, [role="listbox"], #document, #transcript')]
           .filter((el) => {
             const named = (el.labels && [...el.labels].some((l) => l.textContent.trim()))
               || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')
               || (el.tagName === 'BUTTON' && el.textContent.trim());
             return !named;
           }).map((el) => el.outerHTML.slice(0, 80))"""
    )
    assert unnamed == []


def test_keyboard_reaches_modes_sliders_and_the_list(page):
    set_mode(page, "semantic")
    show_text(page, GUIDE, "guide")
    page.focus('input[name="mode"][value="semantic"]')
    before = runs(page)
    page.keyboard.press("ArrowRight")
    settled(page, before)
    assert page.is_checked('input[name="mode"][value="engine"]')
    before = runs(page)
    page.keyboard.press("ArrowLeft")
    settled(page, before)
    page.focus("#chunk-list")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    wait_until(
        page,
        "document.getElementById('chunk-list').getAttribute('aria-activedescendant') === 'chunk-row-2'",
    )
    wait_until(page, "document.querySelectorAll('#document .selected').length > 0")
    # Tab order: from the text area onwards every control is reachable.
    page.focus("#text")
    reached = set()
    for _ in range(40):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement.id || document.activeElement.name"))
    assert {"setting-targetSize-slider", "setting-targetSize", "setting-respectHeadings"} <= reached


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [360, 1280])
def test_reads_well_from_360px_to_wide(page, artifacts, width, scheme):
    set_mode(page, "semantic")
    show_text(page, GUIDE, "guide")
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size({"width": width, "height": 900})
    try:
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        red = int(re.search(r"\d+", background).group())
        assert (red < 80) if scheme == "dark" else (red > 200)
        # A viewport as tall as the page: blocks drawn lazily show in the picture too.
        height = page.evaluate("document.documentElement.scrollHeight")
        page.set_viewport_size({"width": width, "height": min(height, 4000)})
        page.screenshot(path=str(artifacts / f"playground-{width}-{scheme}.png"))
    finally:
        page.emulate_media(color_scheme="light")
        page.set_viewport_size({"width": 1280, "height": 900})


# --- Safe -----------------------------------------------------------------------------------------

XSS = (
    '# <img src=x onerror="window.__xss = 1">\n\n'
    "</script><script>window.__xss = 2</script>\n\n"
    '<svg onload="window.__xss = 3"></svg> & <b>bold</b>'
)


def test_user_text_shows_as_text_and_runs_nothing(page):
    set_mode(page, "semantic")
    show_text(page, XSS, "own-document")
    before = runs(page)
    page.set_input_files(
        "#file-input",
        files=[
            {
                "name": '<img src=x onerror="window.__xss=4">.md',
                "mimeType": "text/markdown",
                "buffer": XSS.encode(),
            }
        ],
    )
    settled(page, before)
    page.fill("#query", "<img onerror")
    wait_until(page, "document.querySelectorAll('#search-results .hit').length > 0")
    assert page.evaluate("window.__xss") is None
    assert page.evaluate("document.querySelectorAll('#app img, #app script, #app b').length") == 0
    assert read_document(page)["text"] == XSS
    assert "<img" in page.eval_on_selector("#source", "s => s.selectedOptions[0].textContent")
    assert "<script>" in page.text_content("#chunk-list")
    page.fill("#query", "")


def test_strict_csp_and_only_same_origin_requests(page, booted):
    headers = booted.seen["response"].headers
    csp = headers["content-security-policy"]
    for directive in (
        "default-src 'none'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "connect-src 'self'",
        "style-src 'self'",
    ):
        assert directive in csp
    assert booted.recorder.problems() == []
    assert any(url.endswith(".wasm") for url in booted.recorder.requests)  # the worker's seen


def test_the_page_fetches_its_scripts_as_five_files(booted):
    # boot.js (which starts the worker) with its two imports, and main.js with the page's
    # other modules bundled in (build.py): the page fetched forty, and the worker's requests
    # waited behind them for the browser's connections to the server.
    scripts = {urlsplit(url).path for url in booted.seen["requests"] if url.endswith(".js")}
    page_scripts = {"/playground/boot.js", "/playground/loading.js", "/playground/main.js"}
    assert scripts == {"/chunker.js", "/worker.js", *page_scripts}


def test_a_text_the_browser_cannot_keep_is_said_to_stay_in_the_page_only(page):
    set_mode(page, "semantic")
    show_text(page, "# Kept", "own-document")
    # Kept after a pause in typing, which the chunks no longer wait for (a LiveDocument cuts
    # at once): kept before the storage fills, else its keeping frees room.
    wait_until(page, "sessionStorage.getItem('chunker-playground:own-document') === '# Kept'")
    # Fill the tab's storage to the brim, so that keeping a longer text fails.
    page.evaluate(
        """() => {
          for (let size = 1 << 22, n = 0; size > 0; size >>= 1) {
            try { sessionStorage.setItem(`junk-${n}`, 'x'.repeat(size)); n++; } catch {}
          }
        }"""
    )
    show_text(page, "# Too much\n\nNo room left to keep this.", "own-document")
    note = wait_until(page, "document.getElementById('text-kept').textContent")
    assert "no room left" in note and "while the page is open" in note
    # The note is about that text: another source shown, it goes; back, it comes back.
    show_text(page, GUIDE, "guide")
    assert page.text_content("#text-kept") == ""
    page.select_option("#source", "own-document")
    wait_until(page, "document.getElementById('text-kept').textContent.includes('no room')")
    page.evaluate(
        "() => Object.keys(sessionStorage).filter((k) => k.startsWith('junk-'))"
        ".forEach((k) => sessionStorage.removeItem(k))"
    )
    show_text(page, "# Room again\n\nKept now.", "own-document")
    wait_until(page, "document.getElementById('text-kept').textContent === ''")


# Last, as it reloads the module's page.
def test_everything_typed_or_opened_survives_a_reload(page):
    set_mode(page, "semantic")
    # An edit of a sample (the user's own text then), an opened file (edited too), and the
    # user's own text are kept.
    show_text(page, GUIDE, "guide")
    before = runs(page)
    put_text(page, "# Guide, edited\n\nMy change to the sample.")
    settled(page, before)
    edited = page.input_value("#source")
    before = runs(page)
    page.set_input_files(
        "#file-input",
        files=[{"name": "kept.md", "mimeType": "text/markdown", "buffer": b"# Kept\n\nOpened."}],
    )
    settled(page, before)
    opened = page.input_value("#source")
    show_text(page, "# Kept\n\nOpened, then edited.", opened)
    show_text(page, "# Mine\n\nTyped before a reload.", "own-document")
    quiet(page)
    page.reload(wait_until="domcontentloaded")
    wait_until(page, "document.getElementById('loading').classList.contains('ready')", 120)
    settled(page, 0)
    # What was shown comes back shown, and the others under their names; the sample as it came.
    assert page.input_value("#source") == "own-document"
    assert page.input_value("#text") == "# Mine\n\nTyped before a reload."
    page.select_option("#source", edited)
    assert page.input_value("#text") == "# Guide, edited\n\nMy change to the sample."
    page.select_option("#source", opened)
    assert page.input_value("#text") == "# Kept\n\nOpened, then edited."
    page.select_option("#source", "guide")
    wait_until(page, "document.getElementById('text').value.startsWith('# Harbor')")
    assert page.input_value("#text") == GUIDE
