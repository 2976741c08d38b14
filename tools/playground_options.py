"""The playground's option table, site/playground/options.js, written from chunker itself.

Each mode's options are the parameters of the Python it runs, in their order, named in
JavaScript by the facade's table (`chunker.bridge.options.OPTION_NAMES`), with the
signature's default, the least value the check takes (`chunker.base.limits.MINIMUMS`), the
names an option of names takes (`chunker.base.limits.CHOICES`, the engine's strategies), and the
pairs at odds (`chunker.base.limits.AT_ODDS`). The page's settings.js adds only labels, help and
slider ranges, and refuses to load when an option has none (docs/playground-options.md). A
fact Python's table lacks stops the build, naming it.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from chunker.base.limits import AT_ODDS, CHOICES, MINIMUMS
from chunker.bridge.options import OPTION_NAMES
from chunker.engine import STRATEGIES, ChunkingEngine
from chunker.semantic_chunker import SemanticChunker
from chunker.turns import chunk_turns

# Where the module is in site/, and so what settings.js imports.
OPTIONS_MODULE = "playground/options.js"


class Mode(NamedTuple):
    """What a mode of the page runs in Python."""

    chunker: str
    """Its key in `chunker.base.limits`' tables."""
    call: Callable[..., Any]
    """What takes the options: its signature gives their order and defaults."""
    operation: str
    """The facade's operation, whose `OPTION_NAMES` give the JavaScript names."""
    not_options: tuple[str, ...]
    """The parameters that are not the mode's options: the object, the text cut, the token
    budget's (the token panel's)."""
    choices: Mapping[str, tuple[str, ...]]
    """The values a text option takes, by its Python name."""


# The token budget's options, which every mode takes alike: the page shows them once, in its
# token panel (web/playground/tokens.js), not among each mode's settings.
TOKEN_OPTIONS = ("max_tokens", "tokenizer")

# In the order of the page's mode switch.
MODES = {
    "semantic": Mode(
        "SemanticChunker",
        SemanticChunker.__init__,
        "SemanticChunker.chunk",
        ("self", *TOKEN_OPTIONS),
        CHOICES["SemanticChunker"],
    ),
    "engine": Mode(
        "ChunkingEngine",
        ChunkingEngine.chunk,
        "ChunkingEngine.chunk",
        ("self", "content", *TOKEN_OPTIONS),
        {"strategy": STRATEGIES, **CHOICES["ChunkingEngine"]},
    ),
    "turns": Mode("chunk_turns", chunk_turns, "chunkTurns", ("turns", *TOKEN_OPTIONS), {}),
}


class OptionTableError(Exception):
    """Python's tables do not say something the page needs (the message says what, where)."""


def option_table() -> dict[str, Any]:
    """The table as plain data: `{"options": {mode: [option, ...]}, "atOdds": {mode: [...]}}`.

    An option is `{name, python, kind, default, min?, choices?}`; `kind` is `int`, `bool`,
    `choice`, or None for one whose default tells no kind the page has (`embed_fn`'s None).
    """
    options = {mode: _options(spec) for mode, spec in MODES.items()}
    at_odds = {mode: _at_odds(spec, options[mode]) for mode, spec in MODES.items()}
    return {"options": options, "atOdds": at_odds}


def options_module() -> str:
    """The text of site/playground/options.js: the table as an ES module of two constants."""
    table = option_table()
    return (
        "// Written by `python3 build.py web` from chunker (tools/playground_options.py): each\n"
        "// option of each mode with its Python name, kind, default and least value, and the\n"
        "// pairs of options at odds. Not to be edited: change Python, and the page follows.\n"
        f"export const OPTIONS = {_by_mode(table['options'])};\n\n"
        f"export const AT_ODDS = {_by_mode(table['atOdds'])};\n"
    )


def _by_mode(table: dict[str, list[dict[str, Any]]]) -> str:
    """`table` as a JavaScript literal (JSON is one), an entry a line."""
    lines = ["{"]
    for mode, entries in table.items():
        if not entries:
            lines.append(f"  {json.dumps(mode)}: [],")
            continue
        lines.append(f"  {json.dumps(mode)}: [")
        lines += [f"    {json.dumps(entry)}," for entry in entries]
        lines.append("  ],")
    return "\n".join([*lines, "}"])


def _options(spec: Mode) -> list[dict[str, Any]]:
    javascript = {python: name for name, python in OPTION_NAMES[spec.operation].items()}
    minimums = MINIMUMS.get(spec.chunker, {})
    out = []
    for python, parameter in inspect.signature(spec.call).parameters.items():
        if python in spec.not_options:
            continue
        where = f"{spec.chunker} option {python}"
        if python not in javascript:
            raise OptionTableError(
                f"{where} has no JavaScript name in chunker/bridge/options.py OPTION_NAMES"
                f"[{spec.operation!r}]"
            )
        option: dict[str, Any] = {"name": javascript[python], "python": python}
        default = parameter.default
        if default is inspect.Parameter.empty:
            raise OptionTableError(f"{where} has no default")
        if isinstance(default, bool):
            option.update(kind="bool", default=default)
        elif isinstance(default, int):
            if python not in minimums:
                raise OptionTableError(
                    f"{where} has no least value in chunker/base/limits.py MINIMUMS"
                    f"[{spec.chunker!r}] (its check should read it there)"
                )
            option.update(kind="int", default=default, min=minimums[python])
        elif isinstance(default, str) and python in spec.choices:
            choices = list(spec.choices[python])
            if default not in choices:
                raise OptionTableError(f"{where} defaults to {default!r}, not one of {choices}")
            option.update(kind="choice", default=default, choices=choices)
        elif default is None:
            option.update(kind=None, default=None)
        else:
            raise OptionTableError(
                f"{where} defaults to {default!r}, of no kind the page knows (int, bool, one "
                "of the choices in chunker/base/limits.py CHOICES or tools/playground_options.py "
                "MODES, or None)"
            )
        out.append(option)
    for python in minimums:
        if python not in {option["python"] for option in out}:
            raise OptionTableError(f"MINIMUMS[{spec.chunker!r}] names {python}, no option")
    return out


def _at_odds(spec: Mode, options: list[dict[str, Any]]) -> list[dict[str, str]]:
    names = {option["python"]: option["name"] for option in options if option["kind"] == "int"}
    out = []
    for rule in AT_ODDS.get(spec.chunker, ()):
        for python in (rule.name, rule.other):
            if python not in names:
                raise OptionTableError(
                    f"AT_ODDS[{spec.chunker!r}] names {python}, no integer option"
                )
        out.append(
            {
                "name": names[rule.name],
                "relation": rule.relation,
                "other": names[rule.other],
                "why": rule.why,
            }
        )
    return out
