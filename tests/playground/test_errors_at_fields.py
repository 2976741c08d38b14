"""Errors at the field they concern and values that make no sense refused
at their field, in real Chromium.

The facade's errors carry `.field`, the Python name of the argument; the page maps it to its
control through its settings table and says it in the page's words (its labels). Values the
chunker takes but that defeat each other, and numbers JavaScript cannot hold exactly, are
refused by the page itself, and never sent.
"""

from __future__ import annotations

import re

import pytest
from support.playground import (
    booted_playground,
    choose,
    copied,
    open_playground,
    put_text,
    runs,
    settled,
    wait_until,
)

from chunker import ChunkingEngine, SemanticChunker, chunk_turns

PYTHON_NAME = re.compile(r"\b[a-z]+_[a-z_]+\b")  # snake_case: a Python name, not the page's
TEXT = "\n\n".join(f"Paragraph {i}. " + "Words follow words here. " * 12 for i in range(40))
SEMANTIC_FIELDS = ["targetSize", "maxSize", "minSize", "overlap"]


@pytest.fixture(scope="module")
def booted(browser, site_url):
    with booted_playground(browser, site_url) as booted:
        # Every request the page sends the worker, to prove what was never sent.
        booted.page.evaluate(
            """() => {
              window.sentToWorker = [];
              const send = Worker.prototype.postMessage;
              Worker.prototype.postMessage = function (message, ...rest) {
                window.sentToWorker.push(JSON.stringify(message?.request ?? message?.type ?? null));
                return send.call(this, message, ...rest);
              };
            }"""
        )
        yield booted


@pytest.fixture
def page(booted):
    seen = len(booted.recorder.problems())
    page = booted.page
    reset(page)
    yield page
    assert booted.recorder.problems()[seen:] == [], "the page reported problems"


def reset(page):
    """Back to good settings and the test's text, with a fresh result drawn."""
    for mode, values in (
        ("engine", {"strategy": "fixed", "chunkSize": 512, "chunkOverlap": 64}),
        ("semantic", {"targetSize": 1000, "maxSize": 2000, "minSize": 200, "overlap": 100}),
    ):
        set_mode(page, mode)
        for name, value in values.items():
            if page.input_value(f"#setting-{name}") != str(value):
                choose(page, f"#setting-{name}", value)
    if page.input_value("#source") != "own-document":
        page.select_option("#source", "own-document")
    before = runs(page)
    put_text(page, TEXT)
    settled(page, before)


def set_mode(page, mode):
    if not page.is_checked(f'input[name="mode"][value="{mode}"]'):
        page.click(f'label:has(> input[name="mode"][value="{mode}"])')


def errors(page):
    """Each setting's shown error, by name, for the settings that show one."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.field-error[id^="setting-"]')]
             .filter((p) => p.textContent)
             .map((p) => [p.id.slice('setting-'.length, -'-error'.length), p.textContent]))"""
    )


def error_shown(page, name):
    wait_until(page, f"document.getElementById('setting-{name}-error').textContent !== ''")
    assert page.get_attribute(f"#setting-{name}", "aria-invalid") == "true"
    assert page.evaluate("document.getElementById('results').classList.contains('stale')")
    return errors(page)


# --- the facade: .field ---------------------------------------------------------------------------


FACADE_CASES = {
    "overlap not below the size": (
        "new api.ChunkingEngine().chunk('x', {chunkSize: 512, chunkOverlap: 600})",
        "RangeError",
        "chunk_overlap",
    ),
    "size below one": (
        "new api.ChunkingEngine().chunk('x', {chunkSize: 0})",
        "RangeError",
        "chunk_size",
    ),
    "unknown strategy": (
        "new api.ChunkingEngine().chunk('x', {strategy: 'nope'})",
        "RangeError",
        "strategy",
    ),
    "fractional target": (
        "new api.SemanticChunker({targetSize: 1.5}).chunk('x')",
        "TypeError",
        "target_size",
    ),
    "negative overlap": (
        "new api.SemanticChunker({overlap: -1}).chunk('x')",
        "RangeError",
        "overlap",
    ),
    "turn without text": ("api.chunkTurns([{seq: 1}])", "RangeError", "turns"),
    "max chars zero": ("api.chunkTurns([], {maxChars: 0})", "RangeError", "max_chars"),
    "words not a list": ("api.snippetAround('text', 'word')", "TypeError", "words"),
    "before negative": ("api.snippetAround('text', ['a'], {before: -1})", "RangeError", "before"),
    "text not a string": ("api.lexicalTokens(5)", "TypeError", "text"),
}


@pytest.mark.parametrize(("call", "kind", "field"), FACADE_CASES.values(), ids=FACADE_CASES)
def test_the_facade_error_names_the_python_argument(page, call, kind, field):
    got = page.evaluate(
        f"""async () => {{
          const api = await window.chunkerReady;
          try {{ await {call}; return null; }}
          catch (error) {{ return [error.constructor.name, error.field, error.message]; }}
        }}"""
    )
    assert got is not None, "the call was not refused"
    assert got[:2] == [kind, field]
    assert field in got[2]


def test_a_field_is_the_same_that_python_names(page):
    # What Python itself says, raised here: the same field crosses the boundary unchanged.
    for make, call in (
        (
            lambda: ChunkingEngine().chunk("x", chunk_size=3, chunk_overlap=3),
            "new api.ChunkingEngine().chunk('x', {chunkSize: 3, chunkOverlap: 3})",
        ),
        (lambda: SemanticChunker(min_size=-2), "new api.SemanticChunker({minSize: -2}).chunk('x')"),
        (lambda: chunk_turns([{"seq": 1, "text": 2}]), "api.chunkTurns([{seq: 1, text: 2}])"),
    ):
        with pytest.raises((ValueError, TypeError)) as raised:
            make()
        got = page.evaluate(
            f"""async () => {{
              const api = await window.chunkerReady;
              try {{ await {call}; }} catch (error) {{ return [error.field, error.message]; }}
            }}"""
        )
        assert got == [raised.value.field, str(raised.value)]


def test_an_unknown_option_names_the_argument_holding_it(page):
    # Every error the facade sends names its argument: here the config,
    # which is no setting of the page's, so the page says it above the results instead.
    got = page.evaluate(
        """async () => {
          const api = await window.chunkerReady;
          try { await new api.SemanticChunker({ nonsense: 1 }).chunk('x'); }
          catch (error) { return [error.name, error.field]; }
        }"""
    )
    assert got == ["TypeError", "config"]


# --- the page: at the field, in its words ---------------------------------------------------------


def test_an_overlap_past_the_chunk_size_is_shown_at_the_overlap_in_the_pages_words(page):
    set_mode(page, "engine")
    choose(page, "#setting-chunkOverlap", 600)
    assert error_shown(page, "chunkOverlap") == {
        "chunkOverlap": "Chunk overlap 600 must be less than chunk size 512 "
        "(or no window would move forward)"
    }
    # Fixed at the other field, the message goes from both.
    before = runs(page)
    choose(page, "#setting-chunkSize", 700)
    settled(page, before)
    assert errors(page) == {}


@pytest.mark.parametrize(
    ("mode", "name", "value", "label"),
    [
        ("semantic", "targetSize", 0, "Target size"),
        ("semantic", "maxSize", -3, "Max size"),
        ("semantic", "minSize", -1, "Min size"),
        ("semantic", "overlap", -5, "Overlap"),
        ("semantic", "targetSize", 2.5, "Target size"),
        ("engine", "chunkSize", 0, "Chunk size"),
        ("engine", "chunkOverlap", -1, "Chunk overlap"),
    ],
)
def test_a_value_the_chunker_refuses_is_shown_at_its_own_field(page, mode, name, value, label):
    set_mode(page, mode)
    choose(page, f"#setting-{name}", value)
    shown = error_shown(page, name)
    assert list(shown) == [name]
    assert shown[name].startswith(f"{label} ") or f" {label.lower()} " in shown[name]
    assert str(value) in shown[name]
    assert not PYTHON_NAME.search(shown[name]), shown[name]


def test_a_bad_turn_is_shown_at_the_text_not_a_setting(page):
    set_mode(page, "turns")
    page.select_option("#source", "own-transcript")
    before = runs(page)
    put_text(page, '[{"seq": 1, "text": "a"}]')
    settled(page, before)
    put_text(page, '[{"seq": 1, "text": 5}]')
    wait_until(page, "document.getElementById('text-error').textContent !== ''")
    assert "turns[0].text" in page.text_content("#text-error")
    assert errors(page) == {}


# --- values that make no sense --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "name", "message"),
    [
        (
            {"maxSize": 2000, "overlap": 5000},
            "overlap",
            "Overlap 5,000 must be less than max size 2,000, "
            "or each chunk repeats the whole chunk before it.",
        ),
        (
            {"maxSize": 2000, "overlap": 2000},
            "overlap",
            "Overlap 2,000 must be less than max size 2,000, "
            "or each chunk repeats the whole chunk before it.",
        ),
        (
            {"maxSize": 1000, "minSize": 1001},
            "minSize",
            "Min size 1,001 must not be more than max size 1,000, "
            "or short chunks join into ones past the max.",
        ),
        (
            {"maxSize": 2000, "targetSize": 3000},
            "targetSize",
            "Target size 3,000 must not be more than max size 2,000, "
            "or parts are cut longer than the max.",
        ),
    ],
)
def test_a_combination_that_makes_no_sense_is_said_at_the_field(page, values, name, message):
    # The chunker takes it, so the page runs it (a person may pass through such values on
    # the way, one field at a time), and says at the field why it makes no sense.
    set_mode(page, "semantic")
    *first, (last, value) = values.items()
    for field, good in first:
        before = runs(page)
        choose(page, f"#setting-{field}", good)
        settled(page, before)
    before = runs(page)
    choose(page, f"#setting-{last}", value)
    settled(page, before)
    assert errors(page) == {name: message}
    assert page.get_attribute(f"#setting-{name}", "aria-invalid") == "true"
    assert not page.evaluate("document.getElementById('results').classList.contains('stale')")
    # Put right, the message goes.
    before = runs(page)
    choose(page, f"#setting-{last}", 100 if last != "maxSize" else 2000)
    settled(page, before)
    assert errors(page) == {}


def test_the_same_values_at_their_limits_are_taken(page):
    set_mode(page, "semantic")
    for field, value in {
        "maxSize": 1000,
        "targetSize": 1000,
        "minSize": 1000,
        "overlap": 999,
    }.items():
        before = runs(page)
        choose(page, f"#setting-{field}", value)
        settled(page, before)
    assert errors(page) == {}


@pytest.mark.parametrize(
    ("mode", "name", "typed"),
    [
        ("semantic", "targetSize", "99999999999999999999"),
        ("semantic", "maxSize", "9007199254740993"),
        ("semantic", "overlap", "1e300"),
        ("engine", "chunkSize", "18014398509481984"),
    ],
)
def test_a_number_javascript_cannot_hold_exactly_is_never_sent(page, mode, name, typed):
    set_mode(page, mode)
    sent = page.evaluate("window.sentToWorker.length")
    choose(page, f"#setting-{name}", typed)
    shown = error_shown(page, name)
    assert list(shown) == [name]
    assert "too large" in shown[name] and "9,007,199,254,740,991" in shown[name]
    page.wait_for_timeout(300)  # never sent: seen only by waiting past the page's pause
    assert page.evaluate("window.sentToWorker.length") == sent


def test_the_largest_safe_integer_is_sent_as_it_is(page):
    set_mode(page, "engine")
    before = runs(page)
    choose(page, "#setting-chunkSize", 2**53 - 1)
    settled(page, before)
    assert errors(page) == {}
    assert any(str(2**53 - 1) in request for request in page.evaluate("window.sentToWorker"))


# --- in the page's words, every one at once -------------------------------------------------------


def type_into(page, selector, text):
    """Type `text` over a field's value as a person does: click, select all, type."""
    page.click(selector)
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


@pytest.mark.parametrize(
    ("name", "typed", "said"),
    [
        ("targetSize", "2.5", "Target size must be a whole number, not 2.5."),
        ("targetSize", "0", "Target size must be at least 1, not 0."),
        ("minSize", "-1", "Min size must be at least 0, not -1."),
        ("overlap", "-5", "Overlap must be at least 0, not -5."),
    ],
)
def test_a_number_its_field_refuses_is_said_in_the_pages_words_and_never_sent(
    page, name, typed, said
):
    set_mode(page, "semantic")
    since = page.evaluate("window.sentToWorker.length")
    type_into(page, f"#setting-{name}", typed)  # "2" of "2.5" is sent: it is a size
    assert error_shown(page, name) == {name: said}
    page.wait_for_timeout(300)  # never sent: seen only by waiting past the page's pause
    assert not page.evaluate(SENT_WITH, [since, name, float(typed)])


# Whether a request sent to the worker since the `since`th held option `name` at `value`.
SENT_WITH = """([since, name, value]) => window.sentToWorker.slice(since).some((sent) => {
  const holds = (x) => x !== null && typeof x === 'object'
    && Object.entries(x).some(([key, v]) => (key === name && v === value) || holds(v));
  let args = JSON.parse(sent); // a call's request, itself JSON, or null for other messages
  if (typeof args === 'string') args = JSON.parse(args);
  return holds(args);
})"""


def test_every_setting_at_odds_is_said_at_its_field_at_once(page):
    set_mode(page, "semantic")
    # A max size below the target (1,000), the min size (200) and the overlap (100) at once.
    before = runs(page)
    type_into(page, "#setting-maxSize", "100")
    settled(page, before)
    assert errors(page) == {
        "overlap": "Overlap 100 must be less than max size 100, "
        "or each chunk repeats the whole chunk before it.",
        "minSize": "Min size 200 must not be more than max size 100, "
        "or short chunks join into ones past the max.",
        "targetSize": "Target size 1,000 must not be more than max size 100, "
        "or parts are cut longer than the max.",
    }
    for name in ("overlap", "minSize", "targetSize"):
        assert page.get_attribute(f"#setting-{name}", "aria-invalid") == "true"
    # Put right one at a time, each note goes with its cause.
    before = runs(page)
    type_into(page, "#setting-maxSize", "500")
    settled(page, before)
    assert list(errors(page)) == ["targetSize"]


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda packed: packed[:9], id="cut short"),
        pytest.param(lambda packed: packed[:-6] + "%%%%%%", id="changed"),
        pytest.param(lambda packed: "Zm9v" + packed[4:], id="other bytes"),
    ],
)
def test_a_damaged_link_is_said_in_the_pages_words(browser, site_url, damage):
    page, _, _ = open_playground(
        browser, site_url, permissions=["clipboard-read", "clipboard-write"]
    )
    try:
        page.select_option("#source", "own-document")
        type_into(page, "#text", "# Sent\n\nA text carried by its link, then damaged on the way.")
        link = copied(page, "#copy-link")
        head, packed = link.split("#text=")
        other, other_recorder, _ = open_playground(
            browser, site_url, f"{head[len(site_url) + 1 :]}#text={damage(packed)}"
        )
        try:
            note = other.text_content("#text-kept")
            assert note == (
                "The text in the link could not be read: the link was cut short or changed on "
                "its way. Ask for the link again, or for the text itself."
            )
            assert other_recorder.problems() == []
        finally:
            other.context.close()
    finally:
        page.context.close()
