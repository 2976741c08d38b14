"""Transcripts in Chromium: `chunkTurns` with `spans: true` through the facade, and the
playground's transcript view drawing the passages from `repeatedTurns`, blank turns in none.

The playground is booted once for the module; the facade is the page's own
(`window.chunkerReady`). Every test fails if the page logged an error or threw.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from support.offsets import utf16_offset
from support.paths import FIXTURES
from support.playground import (
    ROOT,
    command_line,
    copied,
    downloaded,
    open_file,
    run_python,
    runs,
    settled,
    wait_until,
)

from chunker import chunk_turns

# Blank turns of several kinds, seqs repeated and out of order, ids repeated and missing,
# times missing on some turns, emoji (two JavaScript units), and U+0085 (not blank to trim()).
TRANSCRIPT = [
    {"seq": 1, "itemId": "rec-1", "text": "Welcome, everyone. 😀", "startMs": 0, "endMs": 900},
    {"seq": 2, "itemId": "rec-1", "text": "   ", "startMs": 950, "endMs": 990},
    {"seq": 3, "itemId": "rec-1", "text": "First, the refund backlog.", "startMs": 1000},
    {"seq": 3, "text": "\ufeff\t"},
    {"seq": 2, "itemId": "rec-2", "text": "It is down to 40 tickets.", "endMs": 5000},
    {"seq": 5, "text": "\u0085"},
    {
        "seq": 6,
        "itemId": "rec-2",
        "text": "Good. 🚀 Next: shipping.",
        "startMs": 6000,
        "endMs": 7000,
    },
    {"seq": 7, "text": "\u3000\n"},
    {
        "seq": 8,
        "itemId": "rec-2",
        "text": "Orders ship in two days.",
        "startMs": 7100,
        "endMs": 9000,
    },
]
BLANK = {1, 3, 7}  # positions whose text is white space alone


def facade(page: Any, expression: str, argument: Any = None) -> Any:
    """Await `expression` with the page's facade as `api` and `argument` as `arg`; answer its
    value or `{"error": [name, message]}`."""
    return page.evaluate(
        f"""async (arg) => {{
          const api = await window.chunkerReady;
          try {{ return await {expression}; }}
          catch (e) {{ return {{ error: [e.constructor.name, e.message] }}; }}
        }}""",
        argument,
    )


def in_javascript(record: dict[str, Any], text: str) -> dict[str, Any]:
    """A passage's dict with its turns' offsets as JavaScript indices into `text`."""
    turns = [
        {**span, "start": utf16_offset(text, span["start"]), "end": utf16_offset(text, span["end"])}
        for span in record["turns"]
    ]
    return {**record, "turns": turns}


def show_transcript(page: Any, turns: list[dict[str, Any]], max_chars: int, overlap: int) -> None:
    """Show `turns` as the user's own transcript with these settings; wait for each result."""
    if page.input_value("#source") != "own-transcript":
        before = runs(page)
        page.select_option("#source", "own-transcript")
        settled(page, before)
    before = runs(page)
    page.eval_on_selector(
        "#text",
        """(area, text) => {
          area.value = text;
          area.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'}));
        }""",
        json.dumps(turns),
    )
    settled(page, before)
    for name, value in (("maxChars", max_chars), ("overlapTurns", overlap)):
        if page.input_value(f"#setting-{name}") != str(value):
            before = runs(page)
            page.fill(f"#setting-{name}", str(value))
            settled(page, before)


READ_TRANSCRIPT = """() => [...document.querySelectorAll('#transcript .turn')].map((row) => ({
  own: (row.dataset.c || '').split(' ').filter(Boolean).map(Number),
  lead: (row.dataset.l || '').split(' ').filter(Boolean).map(Number),
  badge: row.dataset.badge || null,
  blank: row.classList.contains('blank'),
}))"""


def expected_rows(turns: list[dict[str, Any]], max_chars: int, overlap: int) -> list[dict]:
    """Each turn's owner, repeaters and badge, from Python: the same turns numbered by
    position tell which turns each passage holds (seqs are the caller's, repeated here)."""
    numbered = [{**turn, "seq": n} for n, turn in enumerate(turns)]
    rows = [{"own": [], "lead": [], "badge": None} for _ in turns]
    for passage in chunk_turns(numbered, max_chars=max_chars, overlap_turns=overlap):
        positions = [span.seq for span in passage.turns]
        for i, position in enumerate(positions):
            key = "lead" if i < passage.repeated_turns else "own"
            rows[position][key].append(passage.index)
        rows[positions[passage.repeated_turns]]["badge"] = f"{passage.index} · passage"
    return rows


# --- the facade ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{"maxChars": 40}, {"maxChars": 60, "overlapTurns": 2}, {"maxChars": 1, "overlapTurns": 3}, {}],
    ids=["maxChars-40", "overlapTurns-2", "maxChars-1", "defaults"],
)
def test_chunk_turns_spans_adds_repeated_turns(page, options):
    python = {
        "max_chars": options.get("maxChars", 1200),
        "overlap_turns": options.get("overlapTurns", 1),
    }
    passages = chunk_turns(TRANSCRIPT, **python)
    got = facade(
        page,
        "api.chunkTurns(arg.turns, {...arg.options, spans: true})",
        {"turns": TRANSCRIPT, "options": options},
    )
    assert got == [in_javascript(p.to_dict(spans=True), p.text) for p in passages]
    plain = facade(
        page, "api.chunkTurns(arg.turns, arg.options)", {"turns": TRANSCRIPT, "options": options}
    )
    assert plain == [in_javascript(p.to_dict(), p.text) for p in passages]
    assert all("repeatedTurns" not in passage for passage in plain)
    spans_false = facade(
        page,
        "api.chunkTurns(arg.turns, {...arg.options, spans: false})",
        {"turns": TRANSCRIPT, "options": options},
    )
    assert spans_false == plain


def test_chunk_turns_spans_on_every_fixture(page):
    cases = json.loads((FIXTURES / "chunk_turns.json").read_text(encoding="utf-8"))["cases"]
    got = facade(
        page,
        "Promise.all(arg.map((c) => api.chunkTurns(c.turns, {...c.options, spans: true})"
        ".then((passages) => passages.map((p) => p.repeatedTurns))))",
        cases,
    )
    differ = [c["id"] for c, answer in zip(cases, got) if answer != c["repeatedTurns"]]
    assert not differ and len(got) == len(cases)


@pytest.mark.parametrize("value", ["'yes'", "1", "[]"])
def test_spans_that_is_not_true_or_false_is_refused_by_name(page, value):
    got = facade(page, f"api.chunkTurns([{{seq: 1, text: 'a'}}], {{spans: {value}}})")
    assert got["error"][0] == "TypeError" and got["error"][1].startswith("spans must be")


# --- the transcript view ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "max_chars, overlap", [(60, 1), (60, 2), (30, 3), (1, 2), (1200, 1), (50, 0)]
)
def test_transcript_view_draws_the_passages_and_leaves_blank_turns_out(page, max_chars, overlap):
    show_transcript(page, TRANSCRIPT, max_chars, overlap)
    shown = page.evaluate(READ_TRANSCRIPT)
    assert len(shown) == len(TRANSCRIPT), "every turn typed is shown, blank ones too"
    expected = expected_rows(TRANSCRIPT, max_chars, overlap)
    for position, (row, want) in enumerate(zip(shown, expected)):
        assert (row["own"], row["lead"], row["badge"]) == (
            want["own"],
            want["lead"],
            want["badge"],
        ), position
        assert row["blank"] == (position in BLANK), position
    assert all(not row["own"] and not row["lead"] for n, row in enumerate(shown) if n in BLANK)
    passages = chunk_turns(TRANSCRIPT, max_chars=max_chars, overlap_turns=overlap)
    count = page.evaluate("document.querySelectorAll('#chunk-list [data-index]').length")
    assert count == len(passages)


def test_transcript_of_blank_turns_only_draws_no_passage(page):
    turns = [{"seq": 1, "text": " "}, {"seq": 2, "text": "\ufeff"}, {"seq": 3, "text": ""}]
    show_transcript(page, turns, 50, 1)
    shown = page.evaluate(READ_TRANSCRIPT)
    assert [row["blank"] for row in shown] == [True, True, True]
    assert all(not row["own"] and not row["lead"] and not row["badge"] for row in shown)
    assert page.evaluate("document.querySelectorAll('#chunk-list [data-index]').length") == 0


def test_passage_list_shows_first_start_last_end_and_each_item_once(page):
    show_transcript(page, TRANSCRIPT, 60, 1)
    rows = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#chunk-list [data-index]')]
             .map((row) => [row.dataset.index, row.innerText]))"""
    )
    for passage in chunk_turns(TRANSCRIPT, max_chars=60, overlap_turns=1):
        row = rows[str(passage.index)]
        ids = list(dict.fromkeys(i for i in passage.item_ids if i is not None))
        if ids:
            assert ", ".join(ids) in row
        if passage.start_ms is None and passage.end_ms is not None:
            assert "?–" in row  # the first turn has no start: unknown, not another turn's


def test_download_holds_the_passages_with_their_spans_and_the_settings(page):
    show_transcript(page, TRANSCRIPT, 60, 2)
    name, saved = downloaded(page)
    assert name == "transcript-passages.json"
    passages = chunk_turns(TRANSCRIPT, max_chars=60, overlap_turns=2)
    assert saved == {
        "source": "transcript.json",
        "settings": {"mode": "turns", "maxChars": 60, "overlapTurns": 2},
        "chunks": [in_javascript(p.to_dict(spans=True), p.text) for p in passages],
    }


# --- JSON Lines, as the command line takes them ----------------------------------------------

MEETING = json.loads((ROOT / "web/samples/meeting.json").read_text(encoding="utf-8"))


def json_lines(turns: list[Any]) -> str:
    """`turns` as JSON Lines, a blank line among them as files often have."""
    lines = [json.dumps(turn) for turn in turns]
    return "\n".join([*lines[:3], "", *lines[3:]]) + "\n"


def test_a_json_lines_transcript_is_cut_as_the_command_line_cuts_it(page, tmp_path):
    path = tmp_path / "meeting.jsonl"
    path.write_text(json_lines(MEETING), encoding="utf-8")
    before = runs(page)
    open_file(page, path)
    settled(page, before)
    assert page.text_content("#text-error") == ""
    assert page.is_checked('input[name="mode"][value="turns"]')
    _, records = downloaded(page, "#download-jsonl")
    # Each record says the settings it was cut with; the command line given them agrees.
    settings = records[0]["settings"]
    assert settings.keys() == {"mode", "maxChars", "overlapTurns"}
    assert all(record["settings"] == settings for record in records)
    cut = command_line(settings, path.name, tmp_path)
    assert [{k: v for k, v in r.items() if k != "settings"} for r in records] == cut
    # The copied Python reads the lines as the page did.
    options = {"max_chars": settings["maxChars"], "overlap_turns": settings["overlapTurns"]}
    passages = chunk_turns(MEETING, **options)
    expected = [f"{p.index} {p.first_seq} {p.last_seq} {p.item_ids}" for p in passages]
    assert run_python(copied(page, "#copy-python"), tmp_path) == expected


def test_a_line_of_json_lines_that_is_not_json_is_named_by_its_line(page, tmp_path):
    broken = json_lines(MEETING[:5]).replace('"seq": 4,', '"seq": 4', 1)
    bad_line = broken.splitlines()[4]
    assert '"seq": 4 ' in bad_line  # the fifth line (a blank one is the fourth)
    try:
        json.loads(bad_line)
    except json.JSONDecodeError as error:
        column = error.colno
    path = tmp_path / "broken.jsonl"
    path.write_text(broken, encoding="utf-8")
    open_file(page, path)
    said = wait_until(page, "document.getElementById('text-error').textContent")
    assert said.startswith(f"broken.jsonl is not valid JSON Lines: at line 5, column {column}: ")
