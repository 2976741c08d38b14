"""The house checks itself: the linter, the formatter and the type checker pass on the whole
tree, with the rule set and exceptions `pyproject.toml` states (docs/house.md says why)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import ROOT

CHECKS = {
    "ruff check": ["ruff", "check", "."],
    "ruff format": ["ruff", "format", "--check", "."],
    "mypy": ["mypy", "chunker"],
    # The build tools read pyproject.toml with tomllib: Python 3.11 and later (build.py says so).
    "mypy tools": ["mypy", "--python-version", "3.11", "build.py", "tools"],
}
# The adapters' modules and the package each needs: one whose package is not installed here
# (the oldest Python's venv holds the core's tools alone) is checked where it is.
ADAPTERS = {
    "langchain": "langchain_text_splitters",
    "llama_index": "llama_index",
    "spark": "pyspark",
}


def missing_adapters() -> list[str]:
    return [module for module, package in ADAPTERS.items() if not importlib.util.find_spec(package)]


@pytest.mark.parametrize("check", CHECKS)
def test_the_tree_passes(check: str, tmp_path: Path) -> None:
    command = [sys.executable, "-m", *CHECKS[check]]
    if check.startswith("mypy"):
        command += ["--cache-dir", str(tmp_path / "cache")]
    if check == "mypy":
        command += [f"--exclude=^chunker/{module}\\.py$" for module in missing_adapters()]
    result = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
