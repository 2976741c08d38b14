"""The playground as a person sees it, in Chromium, at 360 to 1280 px and in both
colour schemes: every text of a list row readable in every state a row can be in, a row's
index, type, size and range whole at every width, the search's switches laid out as
switches, a JSON error that says only where (by line and column) and what, and a binary
file refused at the file field without touching the text.
"""

from __future__ import annotations

import json

import pytest
from support.colours import AA
from support.offsets import utf16_offset
from support.playground import (
    GUIDE,
    ROOT,
    put_text,
    runs,
    scroll_list,
    set_mode,
    set_settings,
    settled,
    show_text,
    wait_until,
)
from support.reading import LAYERS_JS, least_contrast

from chunker import ChunkingEngine, SemanticChunker, chunk_turns

MEETING_TEXT = (ROOT / "web/samples/meeting.json").read_text(encoding="utf-8")
MEGABYTE = (GUIDE * (1_000_000 // len(GUIDE) + 1))[:1_000_000]


# --- 2. Every text of a row, in every state, in both schemes, meets WCAG AA ------------------

# Each element under `selector` that holds text of its own (or, with `pseudo`, its ::before),
# with its colour, the background layers behind it (its own first, then each ancestor's)
# and `state`: what a person sees the row in (selected, hovered, in a focused list, and its
# classes). A row has no state of its own for a search hit: hits are listed in the search.
READ_TEXTS = (
    """({selector, row, pseudo}) => {
  const layers = """
    + LAYERS_JS
    + """;
  const owns = (node) => [...node.childNodes].some(
    (child) => child.nodeType === 3 && child.data.trim() !== '');
  const out = [];
  for (const node of document.querySelectorAll(selector)) {
    const holder = node.closest(row) ?? node;
    const selected = holder.getAttribute('aria-selected') === 'true'
      || holder.classList.contains('selected');
    const state = {
      selected,
      hovered: holder.matches(':hover'),
      // The selected row of a focused list is its active one, which the keys move.
      focused: selected && holder.parentElement?.closest('[tabindex]') === document.activeElement,
      classes: [...holder.classList].sort().join(' '),
    };
    const parts = [...node.querySelectorAll('*'), node].filter(owns);
    for (const part of parts) {
      const style = getComputedStyle(part);
      out.push({part: part.className || part.tagName.toLowerCase(), state,
                color: style.color, layers: layers(part)});
    }
    if (pseudo) {
      const style = getComputedStyle(node, '::before');
      if (style.content !== 'none') {
        out.push({part: '::before', state, color: style.color, layers: layers(node, style)});
      }
    }
  }
  return out;
}"""
)


def worst(texts):
    """The least contrast of each text in `texts` (as READ_TEXTS reads them) with whatever
    can show behind it, with the text."""
    for text in texts:
        text["ratio"] = least_contrast(text)
    return texts


def failures(texts):
    return sorted(
        {
            f"{t['state']['classes']} {state_name(t['state'])} {t['part']}: {t['ratio']:.2f}:1"
            for t in worst(texts)
            if t["ratio"] < AA
        }
    )


def state_name(state):
    return (
        " and ".join(name for name in ("selected", "hovered", "focused") if state[name]) or "plain"
    )


ROWS = {"selector": "#chunk-list .row", "row": ".row", "pseudo": False}


def row_states(page):
    """Each row 0..5 (one of each tint) in each state a row takes, as a person puts it there:
    clicked (selected under the mouse, the list focused), beside the mouse, moved to by an
    arrow key, and left selected when the focus moves on. Answers what was read each time."""
    scroll_list(page, "0")
    seen = []
    for k in range(6):
        page.click(f"#chunk-row-{k}")
        seen += page.evaluate(READ_TEXTS, ROWS)
        page.hover(f"#chunk-row-{(k + 1) % 6}")
        seen += page.evaluate(READ_TEXTS, ROWS)
        page.mouse.move(1, 1)
        page.keyboard.press("ArrowDown")
        wait_until(
            page,
            f"document.getElementById('chunk-row-{k + 1}')"
            "?.getAttribute('aria-selected') === 'true'",
        )
        seen += page.evaluate(READ_TEXTS, ROWS)
        page.keyboard.press("Tab")
        seen += page.evaluate(READ_TEXTS, ROWS)
    return seen


def covered(seen):
    """Which (tint, state) pairs were read, a tint being the row's class c0..c5."""
    return {
        (
            next(c for c in t["state"]["classes"].split() if c[0] == "c" and c[1:].isdigit()),
            state_name(t["state"]),
        )
        for t in seen
    }


@pytest.mark.parametrize("scheme", ["light", "dark"], indirect=True)
@pytest.mark.parametrize("mode", ["engine", "turns"])
def test_every_text_of_a_row_in_every_state_meets_wcag_aa(page, scheme, mode):
    if mode == "engine":
        set_mode(page, "engine")
        show_text(page, (GUIDE + "\n\n") * 3, "own-document")
        set_settings(page, strategy="hierarchical", chunkSize=300, chunkOverlap=30)
    else:
        show_text(page, MEETING_TEXT, "meeting")
        set_settings(page, maxChars=300, overlapTurns=1)
    seen = row_states(page)
    states = {
        "plain",
        "hovered",
        "selected and hovered and focused",
        "selected and focused",
        "selected",
    }
    assert covered(seen) >= {(f"c{c}", state) for c in range(6) for state in states}
    assert failures(seen) == [], scheme


@pytest.mark.parametrize("scheme", ["light", "dark"], indirect=True)
def test_every_text_of_a_transcripts_turn_meets_wcag_aa(page, scheme):
    """The transcript view's turns: each tint, striped where repeated, selected, repeated by
    the selected passage, with their meta line, text and badge."""
    show_text(page, MEETING_TEXT, "meeting")
    set_settings(page, maxChars=300, overlapTurns=1)
    turns = {"selector": "#transcript .turn", "row": ".turn", "pseudo": True}
    seen = []
    for k in range(7):
        page.click(f"#chunk-row-{k}")
        seen += page.evaluate(READ_TEXTS, turns)
    classes = {frozenset(t["state"]["classes"].split()) - {"chunk", "turn", "first"} for t in seen}
    for c in range(6):
        assert {f"c{c}"} in classes and {f"c{c}", "selected"} in classes, c
    assert any({"overlap", "selected-lead"} <= kind for kind in classes)
    assert any({"overlap", "selected"} <= kind for kind in classes)
    assert {t["part"] for t in seen} >= {"turn-meta", "turn-text", "::before"}
    assert failures(seen) == [], scheme


@pytest.mark.parametrize("scheme", ["light", "dark"], indirect=True)
def test_every_text_of_a_search_hit_meets_wcag_aa(page, scheme):
    """A hit: its head, score and snippet, and the words marked in it, under the mouse too."""
    set_mode(page, "semantic")
    show_text(page, GUIDE, "guide")
    before = int(page.evaluate("Number(document.body.dataset.searches ?? 0)"))
    page.fill("#query", "")
    page.click("#query")
    page.keyboard.type("index chunk")
    wait_until(
        page,
        f"Number(document.body.dataset.searches ?? 0) > {before}"
        " && document.querySelectorAll('#search-results mark').length > 0",
    )
    hits = {
        "selector": "#search .tokens, #search-count, #search-results li",
        "row": "li",
        "pseudo": False,
    }
    seen = page.evaluate(READ_TEXTS, hits)
    page.hover("#search-results .hit >> nth=0")
    seen += page.evaluate(READ_TEXTS, hits)
    assert {"hit-score", "hit-snippet", "mark", "token"} <= {t["part"] for t in seen}
    assert failures(seen) == [], scheme


# --- 3. A row's index, type, size and range, whole at every width ---------------------------

# For each row listed in `wanted` (strings by row index), the strings that are not wholly on
# screen: missing from the row, or cut by an element that clips (an ellipsis, the row's edge).
CUT = """(wanted) => {
  const out = [];
  for (const row of document.querySelectorAll('#chunk-list .row')) {
    for (const text of wanted[row.dataset.index] ?? []) {
      const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
      let node = walker.nextNode();
      while (node && !node.data.includes(text)) node = walker.nextNode();
      if (!node) {
        out.push(`${row.id}: no "${text}" in "${row.textContent}"`);
        continue;
      }
      const range = document.createRange();
      const at = node.data.indexOf(text);
      range.setStart(node, at);
      range.setEnd(node, at + text.length);
      const box = range.getBoundingClientRect();
      for (let clip = node.parentElement; clip !== row.parentElement; clip = clip.parentElement) {
        if (getComputedStyle(clip).overflowX === 'visible') continue;
        const edge = clip.getBoundingClientRect().left + clip.clientLeft;
        if (box.left < edge - 0.5 || box.right > edge + clip.clientWidth + 0.5) {
          out.push(`${row.id}: "${text}" cut by .${clip.className.split(' ')[0]}`);
        }
      }
    }
  }
  return out;
}"""


def clock(ms):
    """Milliseconds as the page writes them (format.js formatMs): m:ss.s or h:mm:ss.s."""
    if ms is None:
        return "?"
    tenths = round(ms / 100)
    hours, minutes, seconds = tenths // 36000, tenths // 600 % 60, tenths // 10 % 60
    ss = f"{seconds:02d}.{tenths % 10}"
    return f"{hours}:{minutes:02d}:{ss}" if hours else f"{minutes}:{ss}"


def semantic_rows(text):
    chunks = SemanticChunker(target_size=1000, max_size=2000, min_size=200, overlap=100).chunk(text)
    return {
        str(c.index): [
            f"{c.index} · {c.boundary_type}",
            f"{len(c.text):,} chars",
            f"{utf16_offset(text, c.span[0]):,}–{utf16_offset(text, c.span[1]):,}",
        ]
        for c in chunks
    }


def hierarchical_rows(text):
    chunks = ChunkingEngine().chunk(text, strategy="hierarchical", chunk_size=300, chunk_overlap=30)
    return {
        str(c.index): [
            f"{c.index} · {section_kind(c)}",
            f"{len(c.content):,} chars",
            f"{utf16_offset(text, c.span[0]):,}–{utf16_offset(text, c.span[1]):,}",
        ]
        for c in chunks
    }


def section_kind(chunk):
    """A hierarchical chunk's type as the page names it: its heading's level, or a section
    before any heading."""
    level = (chunk.metadata or {}).get("headingLevel")
    return f"h{level}" if level else "section"


# A long call: seq numbers in the hundred thousands, hours in, with long item ids.
LONG_CALL = [
    {
        "seq": 100_000 + i,
        "itemId": f"recording-{i // 4:05d}-of-the-quarterly-review",
        "text": f"Speaker {i % 3}: point {i} about the index, said at some length here.",
        "startMs": 36_000_000 + 7_000 * i,
        "endMs": 36_000_000 + 7_000 * i + 6_500,
    }
    for i in range(2_000)
]


def turn_rows(turns):
    passages = chunk_turns(turns, max_chars=500, overlap_turns=1)
    return {
        str(p.index): [
            f"{p.index} · seq {p.first_seq}–{p.last_seq}",
            f"{len(p.text):,} chars",
            f"{clock(p.start_ms)}–{clock(p.end_ms)}",
        ]
        for p in passages
    }


LAYOUTS = {
    "semantic": (
        "semantic",
        MEGABYTE,
        "own-document",
        {"targetSize": 1000, "maxSize": 2000, "minSize": 200, "overlap": 100},
        semantic_rows,
    ),
    "hierarchical": (
        "engine",
        MEGABYTE,
        "own-document",
        {"strategy": "hierarchical", "chunkSize": 300, "chunkOverlap": 30},
        hierarchical_rows,
    ),
    "transcript": (
        "turns",
        json.dumps(LONG_CALL),
        "own-transcript",
        {"maxChars": 500, "overlapTurns": 1},
        lambda text: turn_rows(json.loads(text)),
    ),
}


@pytest.mark.parametrize("width", [360, 1024, 1280])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_row_shows_its_index_type_size_and_range_whole(page, layout, width):
    mode, text, source, values, expected = LAYOUTS[layout]
    set_mode(page, mode)
    show_text(page, text, source, timeout=120)
    set_settings(page, **values)
    wanted = expected(text)
    page.set_viewport_size({"width": width, "height": 900})
    try:
        if width < 960:
            page.click("#tab-chunks")
        for top in ("0", "list.scrollHeight"):  # the first rows and the last, largest ones
            scroll_list(page, top)
            assert page.evaluate("document.querySelectorAll('#chunk-list .row').length") > 3
            assert page.evaluate(CUT, wanted) == []
    finally:
        if width < 960:
            page.click("#tab-text")
        page.set_viewport_size({"width": 1280, "height": 900})


# --- 6a. The search's switches: a box beside its label -------------------------------------

SWITCHES = """() => [...document.querySelectorAll('#search input[type="checkbox"]')].map((box) => {
  const label = box.closest('label');
  const words = document.createRange();
  words.selectNodeContents(label);
  words.setStartAfter(box);
  const at = box.getBoundingClientRect();
  const line = [...words.getClientRects()].filter((r) => r.width > 0);
  return {id: box.id, box: [at.left, at.top, at.width, at.height],
          words: line.map((r) => [r.left, r.top, r.width, r.height]),
          font: parseFloat(getComputedStyle(label).fontSize)};
})"""


@pytest.mark.parametrize("width", [360, 1280])
def test_the_search_switches_are_a_box_beside_its_label(page, width):
    page.set_viewport_size({"width": width, "height": 900})
    try:
        if width < 960:
            page.click("#tab-search")
        switches = page.evaluate(SWITCHES)
        assert [s["id"] for s in switches] == ["query-all", "query-prefix"]
        for switch in switches:
            left, top, size, height = switch["box"]
            assert 0 < size < 2 * switch["font"], switch  # a box, not the field's width
            assert len(switch["words"]) == 1, switch  # the label on one line
            words_left, words_top, _, words_height = switch["words"][0]
            assert left + size <= words_left < left + size + switch["font"], switch
            middle = top + height / 2
            assert words_top <= middle <= words_top + words_height, switch  # side by side
    finally:
        if width < 960:
            page.click("#tab-text")
        page.set_viewport_size({"width": 1280, "height": 900})


# --- 6b. A JSON error says where, by line and column, and what: nothing else ----------------

BAD_JSON = {
    "a comma missing": '[\n  {"seq": 1, "text": "a"},\n  {"seq": 2 "text": "b"}\n]',
    "more after the list": MEETING_TEXT + "]",
    "a word that is no value": '[{"seq": 1, "text": "a"},\n {"seq": 2, "text": nope}]',
    "a string never closed": '[{"seq": 1, "text": "abc',
    "a line break in a string": '[{"seq": 1, "text": "one\ntwo"}]',
    "an emoji before the error": '[{"seq": 1, "text": "😀 🚀"} {"seq": 2}]',
    "the end too soon": '[{"seq": 1, "text": "a"},',
}


def python_says(text):
    """Where Python's json finds `text`'s first error: (line, column), both from 1, the
    column in characters."""
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return error.lineno, error.colno
    raise AssertionError("valid JSON")


def said_at_the_text(page):
    wait_until(page, "document.getElementById('text-error').textContent !== ''")
    return page.text_content("#text-error")


@pytest.mark.parametrize("text", BAD_JSON.values(), ids=BAD_JSON)
def test_a_json_error_says_only_our_line_and_column(page, text):
    show_text(page, MEETING_TEXT, "own-transcript")
    put_text(page, text)
    said = said_at_the_text(page)
    line, column = python_says(text)
    assert said.startswith("The transcript is not valid JSON: ")
    assert f"at line {line}, column {column}:" in said
    # Nothing of the browser's own: its position (in UTF-16 units), or a piece of the text
    # ('Unexpected token 'n', ..."text": nope}]" is not valid JSON').
    for browser_words in ("position", "(line", '" is not valid JSON', '"seq', "Unexpected"):
        assert browser_words not in said


def test_a_json_error_in_an_opened_file_names_the_file(page):
    show_text(page, "my own words", "own-document")
    before = runs(page)
    page.set_input_files(
        "#file-input",
        files=[
            {
                "name": "call.json",
                "mimeType": "application/json",
                "buffer": (MEETING_TEXT + "]").encode(),
            }
        ],
    )
    line, column = python_says(MEETING_TEXT + "]")
    assert said_at_the_text(page) == (
        f"call.json is not valid JSON: at line {line}, column {column}: "
        "more after the end of the JSON (a transcript is one JSON list of turns, or JSON "
        "Lines: one turn a line)."
    )
    assert runs(page) == before  # nothing chunked: the result before stays


# --- 6c. A binary file is refused at the file field; the text stays ----------------------

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000")
LATIN_1 = "Notes: café, naïve, über.\n".encode("latin-1")

DROP = """async ({name, bytes}) => {
  const data = new DataTransfer();
  data.items.add(new File([new Uint8Array(bytes)], name, {type: 'text/markdown'}));
  const target = document.getElementById('text');
  for (const kind of ['dragenter', 'dragover', 'drop']) {
    target.dispatchEvent(
      new DragEvent(kind, {bubbles: true, cancelable: true, dataTransfer: data}));
  }
}"""


@pytest.mark.parametrize(
    ("how", "name", "content"),
    [
        ("picked", "diagram.md", PNG),
        ("dropped", "notes.txt", LATIN_1),
        ("dropped", "a.md", PNG),
    ],
)
def test_a_binary_file_is_refused_at_the_file_field_and_the_text_stays(page, how, name, content):
    set_mode(page, "semantic")
    typed = "Words I typed and want to keep."
    show_text(page, typed, "own-document")
    options = page.evaluate("document.getElementById('source').options.length")
    before = runs(page)
    if how == "picked":
        page.set_input_files(
            "#file-input", files=[{"name": name, "mimeType": "text/markdown", "buffer": content}]
        )
    else:
        page.evaluate(DROP, {"name": name, "bytes": list(content)})
    # Refused, or (as before) opened and chunked as if it were text.
    wait_until(
        page,
        "document.getElementById('file-error')?.textContent"
        f" || Number(document.body.dataset.runs) > {before}",
    )
    page.wait_for_timeout(300)  # what a wrongly opened file would start, it would have
    assert page.input_value("#text") == typed
    assert page.input_value("#source") == "own-document"
    assert page.evaluate("document.getElementById('source').options.length") == options
    assert runs(page) == before
    said = page.text_content("#file-error")
    assert said.startswith(f"{name} is not UTF-8 text"), said
    assert said.endswith("it was not opened, and the text here is as it was.")
    assert page.get_attribute("#file-input", "aria-describedby") == "file-error"
    # A text file opened next is taken, and the refusal goes.
    page.set_input_files(
        "#file-input",
        files=[
            {
                "name": "fine.md",
                "mimeType": "text/markdown",
                "buffer": "# Fine\n\nText, ü. 😀".encode(),
            }
        ],
    )
    settled(page, before)
    assert page.input_value("#text") == "# Fine\n\nText, ü. 😀"
    assert page.text_content("#file-error") == ""
