"""The examples in the docstrings of `chunker` run, and answer what they show (the README's
examples: core/test_readme.py)."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil

import pytest

import chunker

# Not the core's: the command line's entry point runs as it is imported, and the adapters
# need their packages (their examples run in pipelines/test_adapter_doctests.py).
NOT_CORE = {"chunker.__main__", "chunker.langchain", "chunker.llama_index", "chunker.spark"}
MODULES = [chunker] + [
    importlib.import_module(found.name)
    for found in pkgutil.walk_packages(chunker.__path__, "chunker.")
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
