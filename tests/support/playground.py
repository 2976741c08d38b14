"""What the playground's browser tests (and its benchmark) need beyond tests/conftest.py's
fixtures (the site served, Chromium): opening the playground and waiting for it.

The page runs under the site's strict CSP, which forbids `eval`: Playwright's
`wait_for_function` polls by evaluating a string in the page and is refused, so waits here
poll with `page.evaluate` (sent over CDP, which the CSP does not govern) instead.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chunker.evaluation import EvaluationSet, Question

from .paths import ROOT
from .recorder import Recorder

ARTIFACTS = ROOT / "test-artifacts"
# What a page's context is granted for the copy buttons and `paste_over`.
CLIPBOARD = ["clipboard-read", "clipboard-write"]
# The page's sample guide, and its questions (the Tune view's built-in set).
GUIDE_NAME = "indexer-guide.md"
GUIDE = (ROOT / "web" / "samples" / GUIDE_NAME).read_text(encoding="utf-8")
# A text of thirty short paragraphs on three topics, typed as the user's own.
OWN_TEXT = "\n\n".join(
    f"Part {i}. Sentences about topic {i % 3} follow. Another sentence on it. Then more words."
    for i in range(30)
)
GUIDE_QUESTIONS = json.loads(
    (ROOT / "web" / "samples" / "guide-questions.json").read_text(encoding="utf-8")
)


def wait_until(page: Any, expression: str, timeout: float = 60.0) -> Any:
    """Poll `expression` (a JavaScript expression) until it is truthy; answer its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"still false after {timeout} s: {expression}")
        time.sleep(0.02)


def runs(page: Any) -> int:
    """How many results the page has drawn so far."""
    return int(page.evaluate("Number(document.body.dataset.runs || 0)"))


def settled(page: Any, after: int, timeout: float = 60.0) -> int:
    """Wait until a result newer than run `after` is drawn and nothing else is running."""
    return wait_until(
        page,
        f"Number(document.body.dataset.runs || 0) > {after} "
        "&& document.body.dataset.busy === 'false' && Number(document.body.dataset.runs)",
        timeout,
    )


def quiet(page: Any, calm: float = 0.3, timeout: float = 60.0) -> int:
    """Wait until nothing runs and no new result came for `calm` seconds (after typing,
    whose pauses may or may not have started runs of their own)."""
    deadline = time.monotonic() + timeout
    last, since = runs(page), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.05)
        now = runs(page)
        if now != last or page.evaluate("document.body.dataset.busy") != "false":
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= calm:
            return now
    raise TimeoutError(f"the page was still busy after {timeout} s")


def open_playground(
    browser: Any,
    origin: str,
    query: str = "",
    *,
    width: int = 1280,
    height: int = 900,
    init_script: str | None = None,
    **context_options: Any,
) -> tuple[Any, Recorder, dict[str, Any]]:
    """A new page on the playground at `origin` (with `query`), ready and drawn. Answers the
    page, its recorder, and what was seen while it loaded: `response`, `before` (the
    controls' state at first sight), `stages` (each text the loading line showed) and
    `requests` (the URLs asked for until the first chunks were drawn; a test's own come after).
    `init_script` runs in the page before its own scripts."""
    context = browser.new_context(viewport={"width": width, "height": height}, **context_options)
    if init_script is not None:
        context.add_init_script(init_script)
    page = context.new_page()
    recorder = Recorder(origin).attach(page)
    response = page.goto(f"{origin}/{query}", wait_until="domcontentloaded")
    seen: dict[str, Any] = {"response": response, "stages": []}
    seen["before"] = page.evaluate(
        "({disabled: document.getElementById('app').disabled,"
        " hasBar: !!document.querySelector('#loading progress')})"
    )
    deadline = time.monotonic() + 120
    while not page.evaluate("document.getElementById('loading').classList.contains('ready')"):
        stage = page.evaluate("document.getElementById('load-stage').textContent")
        if stage not in seen["stages"]:
            seen["stages"].append(stage)
        if page.evaluate("document.getElementById('loading').classList.contains('failed')"):
            raise RuntimeError(f"the playground failed to load: {stage}")
        if time.monotonic() > deadline:
            raise TimeoutError("the playground was not ready after 120 s")
        time.sleep(0.01)
    seen["stages"].append(page.evaluate("document.getElementById('load-stage').textContent"))
    settled(page, 0)
    seen["requests"] = list(recorder.requests)
    return page, recorder, seen


@dataclass(frozen=True)
class Booted:
    """A playground page booted for a module's tests (Pyodide takes seconds, so once a
    module), its recorder, what was seen as it loaded (`open_playground`'s third answer) and
    the origin it was opened at."""

    page: Any
    recorder: Recorder
    seen: dict[str, Any]
    origin: str


@contextmanager
def booted_playground(
    browser: Any, origin: str, query: str = "", **options: Any
) -> Iterator[Booted]:
    """`open_playground(browser, origin, query, **options)` as a `Booted`; its browser
    context is closed afterwards. tests/conftest.py's `booted` is one with the clipboard
    allowed; a module that needs another defines its own `booted` with this."""
    page, recorder, seen = open_playground(browser, origin, query, **options)
    try:
        yield Booted(page, recorder, seen, origin)
    finally:
        page.context.close()


@contextmanager
def on_the_guide(browser: Any, origin: str) -> Iterator[Any]:
    """A playground page showing the technical guide sample, for a module's tests; it must
    report no problem by their end, and is closed then."""
    page, recorder, _ = open_playground(browser, origin)
    show_source(page, "guide")
    yield page
    assert recorder.problems() == []
    page.context.close()


def set_mode(page: Any, mode: str) -> None:
    if page.is_checked(f'input[name="mode"][value="{mode}"]'):
        return
    before = runs(page)
    page.click(f'label:has(> input[name="mode"][value="{mode}"])')
    settled(page, before)


def show_source(page: Any, source: str, timeout: float = 60.0) -> None:
    """Choose `source` (a sample, or the user's own text) in its menu; wait for its result."""
    if page.input_value("#source") != source:
        before = runs(page)
        page.select_option("#source", source)
        settled(page, before, timeout)


def show_text(page: Any, text: str, source: str = "own-document", timeout: float = 60.0) -> None:
    """Show `source` (its kind's mode comes with it) holding `text`, and wait for its result."""
    show_source(page, source, timeout)
    if page.input_value("#text") != text:
        before = runs(page)
        put_text(page, text)
        settled(page, before, timeout)


# Resolves once the page has rendered a frame and the task after it has run.
NEXT_FRAME = "new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)))"


# Whether a row of the chunk list is drawn within the list's visible box.
ROW_IN_VIEW = """() => {
  const box = document.getElementById('chunk-list').getBoundingClientRect();
  return [...document.querySelectorAll('#chunk-list .row')].some((row) => {
    const at = row.getBoundingClientRect();
    return at.height > 0 && at.bottom > box.top && at.top < box.bottom;
  });
}"""


def scroll_list(page: Any, top: str) -> None:
    """Scroll the chunk list to `top` (a JavaScript expression of `list`, as
    `list.scrollHeight`) and wait until a row is drawn in view there."""
    page.eval_on_selector("#chunk-list", f"list => {{ list.scrollTop = {top}; }}")
    wait_until(page, f"({ROW_IN_VIEW})()")


def paste_over(page: Any, selector: str, text: str) -> float:
    """Paste `text` over all that the text area at `selector` holds, as a person does:
    Control+A, then Control+V, `text` being on the clipboard. Answers the ms from the first
    key to the end of the next frame. The keys run the browser's own select-all and paste
    commands (and its undo step); the page's context needs the clipboard permissions
    (`permissions=["clipboard-read", "clipboard-write"]`) for the text to be put there."""
    page.evaluate("(text) => navigator.clipboard.writeText(text)", text)
    page.focus(selector)
    started = time.perf_counter()
    page.keyboard.press("Control+A")
    page.keyboard.press("Control+V")
    page.evaluate(NEXT_FRAME)
    return (time.perf_counter() - started) * 1000


def open_file(page: Any, path: Path) -> None:
    """Open the file at `path` as a person does: a click on "Open file…", then the file picked
    in the browser's file chooser."""
    with page.expect_file_chooser() as chooser:
        page.click("label[for='file-input']")
    chooser.value.set_files(path)


# Every stretch of time the page's main thread was held (from before its own scripts run, as
# an `init_script` of `open_playground`): long tasks, and long animation frames, which count
# the rendering a task caused too (Chromium's long task leaves out the layout of a text put in
# a text box, which is most of the cost of a large one).
STALLS = """window.stalls = [];
for (const type of ['longtask', 'long-animation-frame']) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) stalls.push(entry.duration);
  }).observe({ type, buffered: true });
}"""


def longest_stall(page: Any, since: int = 0) -> float:
    """The longest stall seen (see STALLS) after the first `since`, in ms (0 for none)."""
    return float(page.evaluate(f"Math.max(0, ...stalls.slice({since}))"))


def stalls_seen(page: Any) -> int:
    """How many stalls were seen so far (for `longest_stall`'s `since`)."""
    return int(page.evaluate("stalls.length"))


def put_text(page: Any, text: str) -> None:
    """Replace the page's text as a paste would: one input event (Playwright's `fill` types a
    long text in pieces)."""
    page.eval_on_selector(
        "#text",
        """(area, text) => {
          area.value = text;
          area.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'}));
        }""",
        text,
    )


def set_settings(page: Any, **values: Any) -> None:
    """Set settings by their JavaScript names through their fields; waits for the result."""
    for name, value in values.items():
        selector = f"#setting-{name}"
        before = runs(page)
        kind = page.get_attribute(selector, "type") or "select"
        if kind == "checkbox":
            if page.is_checked(selector) == value:
                continue
            page.set_checked(selector, value)
        elif kind == "select":
            if page.input_value(selector) == value:
                continue
            page.select_option(selector, value)
        else:
            if page.input_value(selector) == str(value):
                continue
            page.fill(selector, str(value))
        settled(page, before)


@dataclass(frozen=True)
class Menu:
    """A setting's menu as the page shows it: its choices, the one chosen, its label, its help."""

    options: list[str]
    chosen: str
    label: str
    help: str


def setting_menu(page: Any, setting: str) -> Menu:
    """The menu of the setting `setting` (its option's name in the page, e.g. "boundaries")."""
    menu = f"#setting-{setting}"
    return Menu(
        page.evaluate(f"[...document.querySelector('{menu}').options].map((o) => o.value)"),
        page.input_value(menu),
        page.text_content(f"label[for='setting-{setting}']"),
        page.text_content(f"{menu}-help"),
    )


def choose(page: Any, selector: str, value: Any) -> None:
    """Set the control at `selector` (a radio, checkbox, menu or field) to `value`."""
    kind = page.get_attribute(selector, "type") or "select"
    if kind in ("checkbox", "radio"):
        page.set_checked(selector, bool(value))
    elif kind == "select":
        page.select_option(selector, str(value))
    else:
        page.fill(selector, str(value))


def copied(page: Any, button: str) -> str:
    """Click the copy `button` (a selector) and answer what it put on the clipboard (the
    page's context needs the clipboard permissions)."""
    page.eval_on_selector("#export-status", "status => { status.textContent = ''; }")
    page.click(button)
    wait_until(page, "document.getElementById('export-status').textContent.includes('copied')")
    return page.evaluate("navigator.clipboard.readText()")


def downloaded(page: Any, button: str = "#download-json") -> tuple[str, Any]:
    """Click a download `button` (a selector) and answer the file's name and what it holds:
    the JSON value, or for JSON Lines the list of each line's."""
    with page.expect_download() as download:
        page.click(button)
    name = download.value.suggested_filename
    text = Path(download.value.path()).read_text(encoding="utf-8")
    if name.endswith(".jsonl"):
        return name, [json.loads(line) for line in text.splitlines()]
    return name, json.loads(text)


# What a download adds to the original's records: the spans the page colours by.
SPAN_KEYS = ("span", "overlapSpan", "repeatedTurns")


def shown_chunks(page: Any) -> list[dict[str, Any]]:
    """The chunks the page holds, as its Download JSON button saves them, in the original's
    shape (without the spans, which tests/playground/test_exports.py checks)."""
    _, saved = downloaded(page)
    return [{k: v for k, v in chunk.items() if k not in SPAN_KEYS} for chunk in saved["chunks"]]


def run_in_console(page: Any, code: str, result: str) -> Any:
    """Run `code` as the console runs what is pasted into it (top-level await), and answer
    the value of its variable `result`. The page's CSP forbids eval, but not the browser
    protocol, which is how the console itself evaluates."""
    assert not re.search(r"^\s*import\s", code, re.M), "a static import cannot run in a console"
    return page.evaluate(f"async () => {{\n{code}\nreturn {result};\n}}")


def run_python(code: str, cwd: Any) -> list[str]:
    """Run copied Python with the checkout's chunker, in `cwd`; answer its lines."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()


def command_line(settings: dict[str, Any], name: str, cwd: Path) -> list[dict[str, Any]]:
    """The records `chunker` writes for the file `name` in `cwd`, given a download's
    `settings` (the page's mode and its options, by the facade's names) as its flags."""
    command = [sys.executable, "-m", "chunker", "turns" if settings["mode"] == "turns" else "chunk"]
    for option, value in settings.items():
        flag = "--" + re.sub("([A-Z])", r"-\1", option).lower()
        if option == "mode":
            continue
        if isinstance(value, bool):
            command.append(flag if value else flag.replace("--", "--no-", 1))
        else:
            command += [flag, str(value)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ran = subprocess.run([*command, name], cwd=cwd, env=env, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    return [json.loads(line) for line in ran.stdout.splitlines()]


# --- the Tune view ---------------------------------------------------------------------------


def percent(value: float) -> str:
    """A figure as the Tune view shows it."""
    return f"{100 * value:.1f}%"


def type_over(page: Any, selector: str, text: str) -> None:
    """Replace a field's value as a person does: click, Control+A, type."""
    page.click(selector)
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


def evaluated(page: Any) -> dict[str, str]:
    """Click Evaluate and answer the figures shown, once the status says they are drawn."""
    page.eval_on_selector("#tune-status", "s => { s.textContent = ''; }")
    page.click("#tune-evaluate")
    wait_until(
        page,
        "/questions, .* chunks, in/.test(document.getElementById('tune-status').textContent)"
        " || document.getElementById('tune-error').textContent !== ''",
    )
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#tune-figures [data-figure]')]
             .map((d) => [d.dataset.figure, d.querySelector('dd').firstChild.textContent]))"""
    )


def sample_set() -> EvaluationSet:
    """The guide's built-in questions as Python's evaluation set, each excerpt found in it."""
    questions = []
    for entry in GUIDE_QUESTIONS["questions"]:
        start = GUIDE.find(entry["excerpt"])
        questions.append(
            Question(entry["question"], GUIDE_NAME, ((start, start + len(entry["excerpt"])),))
        )
    return EvaluationSet({GUIDE_NAME: GUIDE}, questions)
