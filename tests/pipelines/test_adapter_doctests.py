"""The examples in the adapters' docstrings run against the real packages (the core's own
examples run in core/test_doctests.py, which leaves these modules out; chunker.spark's, which
needs a session, runs in pipelines/test_spark.py)."""

from __future__ import annotations

import doctest
import importlib
import inspect

import pytest

MODULES = [importlib.import_module(f"chunker.{name}") for name in ("langchain", "llama_index")]
DOCSTRINGS = [d for module in MODULES for d in doctest.DocTestFinder().find(module) if d.examples]


def test_every_example_is_collected():
    written = sum(inspect.getsource(module).count(">>> ") for module in MODULES)
    assert written > 0 and sum(len(d.examples) for d in DOCSTRINGS) == written


@pytest.mark.parametrize("docstring", DOCSTRINGS, ids=[d.name for d in DOCSTRINGS])
def test_docstring_examples(docstring: doctest.DocTest):
    report: list[str] = []
    outcome = doctest.DocTestRunner().run(docstring, out=report.append)
    assert outcome.failed == 0, "".join(report)
