"""The package's folders are its layers: a module imports only from its own layer and the
layers below it, and no two modules import each other, counting the imports made in a
function or for the type checker alone (docs/development.md, "The layers")."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

from support.paths import ROOT

PACKAGE = ROOT / "chunker"

# Lowest first. A module of the package's top level is named by itself: those are the modules
# users import by path (the chunkers, their options, the adapters, the evaluation).
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"base"}),
    frozenset({"tokens"}),
    frozenset({"text"}),
    frozenset({"engine", "semantic_chunker", "turns", "option_types", "search"}),
    frozenset({"recipe"}),
    frozenset({"evaluation", "stability", "pipelines", "live"}),
    frozenset({"langchain", "llama_index", "spark", "bridge"}),
    frozenset({"chunker", "cli", "__main__"}),
)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """The package's modules that `path` imports anywhere in it."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("chunker"):
            assert node.level == 0, f"{path}: a relative import"
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names if alias.name.startswith("chunker"))
    return names


def layer_of(module: str) -> int:
    parts = module.split(".")
    place = parts[1] if len(parts) > 1 else "chunker"
    for level, names in enumerate(LAYERS):
        if place in names:
            return level
    raise AssertionError(f"{module} is in no layer: name its folder in LAYERS")


GRAPH = {module_name(path): imports_of(path) for path in PACKAGE.rglob("*.py")}


def test_the_walk_sees_every_kind_of_import():
    assert "chunker.search.lexical_index" in GRAPH["chunker.bridge.indexes"]  # a function's
    assert "chunker.semantic_chunker" in GRAPH["chunker.pipelines.many"]
    assert "chunker.engine" in GRAPH["chunker"]  # for the type checker alone


def test_no_module_imports_one_that_imports_it_back():
    # A package's __init__ is its own node: importing chunker.text.records does not import
    # whatever chunker/__init__.py names for the checker, so the edges are the modules'.
    try:
        list(TopologicalSorter(GRAPH).static_order())
    except CycleError as error:
        raise AssertionError(f"modules import each other: {error.args[1]}") from None


def test_no_module_imports_from_a_layer_above_its_own():
    upward = [
        f"{module} -> {imported}"
        for module, imported_names in sorted(GRAPH.items())
        for imported in sorted(imported_names)
        if imported != "chunker" and layer_of(imported) > layer_of(module)
    ]
    assert upward == []


def test_every_folder_is_in_a_layer():
    for path in PACKAGE.iterdir():
        if (path.is_dir() and (path / "__init__.py").exists()) or path.suffix == ".py":
            layer_of(f"chunker.{path.stem}" if path.stem != "__init__" else "chunker")
