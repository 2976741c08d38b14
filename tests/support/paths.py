"""The repository's folders, as the tests name them."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
FIXTURES = TESTS / "fixtures"
PAGES = TESTS / "pages"
WEB = ROOT / "web"
# The folders of tests/ that hold test modules, one a layer, each a marker of the same name
# (registered in pyproject.toml, put on by tests/conftest.py).
LAYERS = ("core", "tokens", "oracle", "browser", "playground", "pipelines", "tools")
# The shared data sets, beside the worktree (`../shared`), read in place, never copied in.
DATASETS = ROOT.parent / "shared" / "datasets"
