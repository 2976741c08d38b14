"""The bridge's modules import one way (issue 25, item 3): no module imports another that
imports it back, counting the imports made in a function or for the type checker alone."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

BRIDGE = Path(__file__).resolve().parent.parent / "chunker" / "bridge"


def imports_of(path: Path) -> set[str]:
    """The bridge modules that `path` imports anywhere in it (`from .x import ...`)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names.update([node.module] if node.module else [a.name for a in node.names])
    return names


def test_no_bridge_module_imports_another_back():
    graph = {path.stem: imports_of(path) for path in BRIDGE.glob("*.py")}
    assert graph["operations"] >= {"indexes"}  # the walk sees a function's import
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as error:
        raise AssertionError(f"bridge modules import each other: {error.args[1]}") from None
    assert order.index("calls") < order.index("indexes") < order.index("operations")
