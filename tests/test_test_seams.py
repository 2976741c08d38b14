"""The test suite's own seams: the core suite needs neither Playwright nor build.py's modules
(so it runs without a browser, and on Python 3.10), and the full run knows which Python to
run it on again."""

from __future__ import annotations

import subprocess
import sys

import pytest
from support.paths import ROOT

from tools.oldest_python import oldest_version
from tools.testing import core_tests

# Collects the core suite with Playwright and tools/ made unimportable.
COLLECT_WITHOUT = """
import sys
sys.modules["playwright"] = None
sys.modules["tools"] = None
import pytest
sys.exit(pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *sys.argv[1:]]))
"""


def test_the_core_suite_collects_without_playwright_or_build_tools():
    done = subprocess.run(
        [sys.executable, "-c", COLLECT_WITHOUT, *core_tests()],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "tests/test_core_doctests.py::test_docstring_examples" in done.stdout


def test_the_core_suite_is_the_test_core_files():
    names = [path.split("/")[-1] for path in core_tests()]
    assert names and all(name.startswith("test_core_") for name in names)
    assert "test_core_errors.py" in names and "test_core_doctests.py" in names


@pytest.mark.parametrize(
    "requires, version", [(">=3.10", "3.10"), (">= 3.12", "3.12")], ids=["plain", "spaced"]
)
def test_oldest_version_is_the_floor_of_requires_python(requires, version):
    assert oldest_version(requires) == version


@pytest.mark.parametrize("requires", [">=3.10,<4", "~=3.10", "3.10"], ids=str)
def test_oldest_version_refuses_what_it_cannot_read(requires):
    with pytest.raises(ValueError, match="requires-python"):
        oldest_version(requires)
