"""The fixtures are what the original answers today: regenerate them with Node and compare."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
GENERATED = ("semantic_chunker.json", "chunking_engine.json", "engine_hangs.json")


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed here")
def test_checked_in_fixtures_equal_a_fresh_run_of_the_original(tmp_path: Path):
    subprocess.run(
        ["node", str(FIXTURES / "generate.mjs"), "--out", str(tmp_path)],
        check=True,
        timeout=600,
        capture_output=True,
    )
    for name in GENERATED:
        fresh = (tmp_path / name).read_bytes()
        assert fresh == (FIXTURES / name).read_bytes(), f"{name} differs from a fresh run"
