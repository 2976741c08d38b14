"""No bare `raise ValueError(...)` or `raise TypeError(...)` in the package.

Every error about an argument carries it as `field` (`chunker/base/validation.py`), so that the
facade's reply and a form can put the message at that argument. A bare `ValueError` would
reach the page as `field: null`: this walk finds one wherever it is added. The CLI is left
out: its errors are messages for a terminal, about its own flags.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from support.paths import ROOT

PACKAGE = ROOT / "chunker"
BARE = {"ValueError", "TypeError"}
# Where a bare error is the rule: the errors are made there, or are not about an argument.
EXEMPT = {PACKAGE / "base" / "validation.py", PACKAGE / "cli"}


def bare_raises(source: str) -> list[tuple[int, str]]:
    """The line and name of each `raise ValueError(...)`/`raise TypeError` in `source`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Raise) or node.exc is None:
            continue
        raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        if isinstance(raised, ast.Name) and raised.id in BARE:
            found.append((node.lineno, raised.id))
    return found


def modules() -> list[Path]:
    return [
        path
        for path in sorted(PACKAGE.rglob("*.py"))
        if not any(path == exempt or exempt in path.parents for exempt in EXEMPT)
    ]


@pytest.mark.parametrize("path", modules(), ids=lambda path: str(path.relative_to(PACKAGE)))
def test_errors_name_their_argument(path):
    found = bare_raises(path.read_text(encoding="utf-8"))
    assert found == [], (
        f"{path.name}: raise ArgumentValueError/ArgumentTypeError (or a require_* helper of "
        f"chunker/base/validation.py) so the error carries its field, at lines {found}"
    )


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("raise ValueError('x')", [(1, "ValueError")]),
        ("if x:\n    raise TypeError", [(2, "TypeError")]),
        ("raise ArgumentValueError('size', 'x')", []),
        ("raise", []),
        ("raise KeyError('x') from None", []),
    ],
)
def test_the_walk_finds_bare_raises_and_only_those(source, found):
    assert bare_raises(source) == found


def test_the_walk_covers_the_package_and_leaves_the_cli_out():
    names = {str(path.relative_to(PACKAGE)) for path in modules()}
    assert {"search/lexical_index.py", "bridge/indexes.py", "recipe.py"} <= names
    assert not any(name.startswith("cli/") for name in names) and "base/validation.py" not in names
