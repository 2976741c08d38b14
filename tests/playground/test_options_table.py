"""The playground's options are Python's: site/playground/options.js is
written by the build from chunker (tools/playground_options.py), and the page adds only
labels, help and slider ranges (web/playground/settings.js).

Each test changes a fact in Python (a default, a least value, a pair at odds, a new option)
and sees the table, or the page, follow; the built site must hold the table Python makes now;
and the page, in Chromium, shows Python's defaults and least values.
"""

from __future__ import annotations

import inspect
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from support.paths import ROOT
from support.playground import open_playground

from chunker import ChunkingEngine, SemanticChunker, chunk_turns
from chunker.base.limits import AT_ODDS, MINIMUMS, AtOdds
from chunker.base.validation import ArgumentValueError
from chunker.bridge.options import OPTION_NAMES
from chunker.engine import STRATEGIES
from chunker.recipe import options_of
from tools.playground_options import (
    MODES,
    OPTIONS_MODULE,
    TOKEN_OPTIONS,
    OptionTableError,
    option_table,
    options_module,
)

PLAYGROUND = ROOT / "web" / "playground"
# Each mode's Python with options only (on a text that makes it check them all).
RUN = {
    "semantic": SemanticChunker,
    "engine": lambda **options: ChunkingEngine().chunk("x", **options),
    "turns": lambda **options: chunk_turns([], **options),
}


def option(mode: str, name: str) -> dict:
    return next(o for o in option_table()["options"][mode] if o["name"] == name)


def with_option(monkeypatch: pytest.MonkeyPatch, name: str, default: object) -> None:
    """SemanticChunker as if it took one more keyword option, `name`, as the token budget
    did (`inspect.signature` reads `__signature__` first)."""
    call = MODES["semantic"].call
    signature = inspect.signature(call)
    added = inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default)
    monkeypatch.setattr(
        call,
        "__signature__",
        signature.replace(parameters=[*signature.parameters.values(), added]),
        raising=False,
    )


# --- the table is Python's -----------------------------------------------------------------


def test_the_defaults_are_those_the_chunkers_use():
    table = option_table()["options"]
    chunker = SemanticChunker()
    assert {o["python"]: o["default"] for o in table["semantic"]} == {
        name: getattr(chunker, name) for name in options_of("semantic") if name not in TOKEN_OPTIONS
    }
    engine = {o["python"]: o["default"] for o in table["engine"]}
    fixed = {k: v for k, v in options_of("fixed").items() if k not in TOKEN_OPTIONS}
    assert {k: v for k, v in engine.items() if k in fixed} == fixed
    assert option("engine", "strategy")["choices"] == list(STRATEGIES)
    # Python's own results at the table's defaults are those of a call without options.
    text = "One two three. " * 300
    defaults = {o["python"]: o["default"] for o in table["engine"]}
    assert ChunkingEngine().chunk(text, **defaults) == ChunkingEngine().chunk(text)
    turns = [{"seq": n, "text": f"Turn {n}. " * 40} for n in range(12)]
    assert chunk_turns(turns, **{o["python"]: o["default"] for o in table["turns"]}) == (
        chunk_turns(turns)
    )


def test_the_names_are_the_facades():
    for mode, spec in MODES.items():
        for entry in option_table()["options"][mode]:
            assert OPTION_NAMES[spec.operation][entry["name"]] == entry["python"]


@pytest.mark.parametrize("mode", MODES)
def test_each_least_value_is_the_least_the_chunker_takes(mode):
    numbers = [entry for entry in option_table()["options"][mode] if entry["kind"] == "int"]
    # The others as small as they go, so that no pair rule refuses first.
    small = {entry["python"]: entry["min"] for entry in numbers}
    for entry in numbers:
        name, least = entry["python"], entry["min"]
        RUN[mode](**{**small, name: least})
        with pytest.raises(ArgumentValueError) as refused:
            RUN[mode](**{**small, name: least - 1})
        assert refused.value.field == name


# --- a change in Python changes the table ----------------------------------------------------


def test_a_default_changed_in_python_changes_the_table(monkeypatch):
    before = options_module()
    init = SemanticChunker.__init__
    defaults = list(init.__defaults__)
    defaults[list(inspect.signature(init).parameters).index("target_size") - 1] = 900
    monkeypatch.setattr(init, "__defaults__", tuple(defaults))
    assert SemanticChunker().target_size == 900  # Python's own default did change
    assert option("semantic", "targetSize")["default"] == 900
    monkeypatch.setattr(chunk_turns, "__defaults__", (1500, 2, *chunk_turns.__defaults__[2:]))
    assert option("turns", "maxChars")["default"] == 1500
    assert option("turns", "overlapTurns")["default"] == 2
    assert options_module() != before


def test_a_least_value_changed_in_python_changes_the_check_and_the_table(monkeypatch):
    monkeypatch.setitem(MINIMUMS["SemanticChunker"], "min_size", 5)
    assert option("semantic", "minSize")["min"] == 5
    with pytest.raises(ArgumentValueError, match="must be >= 5"):
        SemanticChunker(min_size=4)
    monkeypatch.setitem(MINIMUMS["ChunkingEngine"], "chunk_size", 2)
    assert option("engine", "chunkSize")["min"] == 2
    with pytest.raises(ArgumentValueError, match="must be >= 2"):
        ChunkingEngine().chunk("x", chunk_size=1, chunk_overlap=0)


def test_a_pair_at_odds_changed_in_python_changes_the_table(monkeypatch):
    rule = AtOdds("min_size", "<", "target_size", "or a chunk may be all short parts")
    monkeypatch.setitem(AT_ODDS, "SemanticChunker", (rule,))
    assert option_table()["atOdds"]["semantic"] == [
        {"name": "minSize", "relation": "<", "other": "targetSize", "why": rule.why}
    ]


def test_what_python_does_not_say_stops_the_build(monkeypatch):
    # A new option, as the token budget will bring: the facade must name it first...
    with_option(monkeypatch, "max_words", 256)
    with pytest.raises(OptionTableError, match=r"max_words has no JavaScript name"):
        option_table()
    # ...and its check must read its least value from chunker.base.limits.
    monkeypatch.setitem(OPTION_NAMES["SemanticChunker.chunk"], "maxWords", "max_words")
    with pytest.raises(OptionTableError, match=r"max_words has no least value"):
        option_table()
    monkeypatch.setitem(MINIMUMS["SemanticChunker"], "max_words", 1)
    assert option("semantic", "maxWords") == {
        "name": "maxWords",
        "python": "max_words",
        "kind": "int",
        "default": 256,
        "min": 1,
    }
    monkeypatch.setitem(AT_ODDS, "SemanticChunker", (AtOdds("nope", "<", "max_size", "or"),))
    with pytest.raises(OptionTableError, match=r"names nope, no integer option"):
        option_table()


# --- the page reads it -----------------------------------------------------------------------


def settings_module_error(folder: Path, module: str) -> str:
    """What importing settings.js in Node says beside options.js holding `module` ('' if it
    loads)."""
    for name in ("settings.js", "format.js", "whole-number.js"):
        shutil.copy(PLAYGROUND / name, folder / name)
    (folder / "options.js").write_text(module, encoding="utf-8")
    done = subprocess.run(
        ["node", "--input-type=module", "-e", "await import('./settings.js');"],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    return done.stderr if done.returncode else ""


def test_an_option_without_a_label_stops_the_page(monkeypatch, tmp_path):
    assert settings_module_error(tmp_path, options_module()) == ""
    with_option(monkeypatch, "max_words", 256)
    monkeypatch.setitem(OPTION_NAMES["SemanticChunker.chunk"], "maxWords", "max_words")
    monkeypatch.setitem(MINIMUMS["SemanticChunker"], "max_words", 1)
    error = settings_module_error(tmp_path, options_module())
    assert "settings.js: semantic option maxWords (Python's max_words) has no label" in error


def test_a_label_for_no_option_stops_the_page(tmp_path):
    table = option_table()
    table["options"]["engine"] = [o for o in table["options"]["engine"] if o["name"] != "chunkSize"]
    module = (
        f"export const OPTIONS = {json.dumps(table['options'])};\n"
        f"export const AT_ODDS = {json.dumps(table['atOdds'])};\n"
    )
    assert "PAGE.engine.chunkSize is no option of Python's" in settings_module_error(
        tmp_path, module
    )


def test_the_built_site_holds_the_table_python_makes_now(built_site):
    assert (built_site / OPTIONS_MODULE).read_text(encoding="utf-8") == options_module()
    assert not (PLAYGROUND / Path(OPTIONS_MODULE).name).exists()  # written, never kept


def test_the_page_shows_pythons_defaults_and_least_values(browser, site_url):
    page, recorder, _ = open_playground(browser, site_url)
    try:
        shown = page.evaluate(
            """() => [...document.querySelectorAll('.mode-settings [id^="setting-"]')]
                 .filter((e) => !e.id.endsWith('-slider') && e.matches('input, select'))
                 .map((e) => [e.id.slice('setting-'.length),
                   e.type === 'checkbox' ? e.checked : e.value, e.getAttribute('min')])"""
        )
        expected = [
            [
                o["name"],
                o["default"] if o["kind"] == "bool" else str(o["default"]),
                str(o["min"]) if "min" in o else None,
            ]
            for mode in MODES
            for o in option_table()["options"][mode]
            if o["kind"] is not None
        ]
        assert shown == expected
        assert recorder.problems() == []
    finally:
        page.context.close()
