"""The examples in the docstrings of `chunkspan` run, and answer what they show."""

from __future__ import annotations

import ast
import builtins
import doctest
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import chunkspan

# Not the core's: the command line's entry point runs as it is imported, and the adapters
# need their packages (their examples run in test_pipelines_doctests.py).
NOT_CORE = {"chunkspan.__main__", "chunkspan.langchain", "chunkspan.llama_index", "chunkspan.spark"}
MODULES = [chunkspan] + [
    importlib.import_module(found.name)
    for found in pkgutil.walk_packages(chunkspan.__path__, "chunkspan.")
    if found.name not in NOT_CORE
]
# Each docstring with examples, found in the module that defines it (not where it is imported).
DOCSTRINGS = [
    docstring
    for module in MODULES
    for docstring in doctest.DocTestFinder().find(module)
    if docstring.examples
]


def test_every_example_written_in_the_sources_is_collected():
    # A docstring the finder cannot reach (say, of a function hidden in a closure) is no test.
    written = sum(inspect.getsource(module).count(">>> ") for module in MODULES)
    assert written > 0
    assert sum(len(docstring.examples) for docstring in DOCSTRINGS) == written


@pytest.mark.parametrize("docstring", DOCSTRINGS, ids=[d.name for d in DOCSTRINGS])
def test_docstring_examples(docstring: doctest.DocTest):
    report: list[str] = []
    outcome = doctest.DocTestRunner().run(docstring, out=report.append)
    assert outcome.failed == 0, "".join(report)


def test_the_readmes_python_example_uses_only_what_it_imports_or_makes():
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## In Python\n", 1)[1]
    example = re.search(r"```python\n(.*?)```", section, re.DOTALL)[1]
    flags = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT  # it awaits achunk
    tree = compile(example, "README.md", "exec", flags=flags)
    made = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (used if isinstance(node.ctx, ast.Load) else made).add(node.id)
    # What it leaves to the reader: their document and their embedders.
    assert used - made - set(dir(builtins)) == {"document", "my_embed", "async_embed"}
