"""The test suite's own seams: the core suite needs neither Playwright nor build.py's modules
(so it runs without a browser, and on Python 3.10); every test module lives in a layer's
folder and carries its marker; the network is asked only when the run says so; and the full
run knows which Python to run the core on again."""

from __future__ import annotations

import subprocess
import sys

import pytest
from support.paths import LAYERS, ROOT, TESTS

from tools.oldest_python import oldest_version
from tools.testing import CORE_TESTS

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
        [sys.executable, "-c", COLLECT_WITHOUT, CORE_TESTS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "tests/core/test_doctests.py::test_docstring_examples" in done.stdout


def collected(*arguments: str) -> list[str]:
    """The node ids pytest collects with `arguments`, in a pytest of its own (exit 5: none)."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            *arguments,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode in (0, 5), done.stdout[-3000:] + done.stderr[-3000:]
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_every_test_module_is_in_a_layers_folder():
    modules = {path.relative_to(TESTS).parts[0] for path in TESTS.rglob("test_*.py")}
    assert modules <= set(LAYERS), "a test module outside tests/<layer>/ carries no marker"
    assert set(LAYERS) <= {path.name for path in TESTS.iterdir()}


def test_the_core_marker_selects_the_core_folder_and_nothing_else():
    folder = collected(CORE_TESTS)
    assert folder and all(node.startswith("tests/core/") for node in folder)
    assert collected("-m", "core", "tests/core", "tests/tools") == folder


def test_the_network_is_asked_only_with_network():
    names = "tests/tools/test_registry_names.py"
    assert collected(names) == []
    asked = collected("--network", names)
    assert len(asked) == 2 and all(node.startswith(names) for node in asked)


@pytest.mark.parametrize(
    "requires, version", [(">=3.10", "3.10"), (">= 3.12", "3.12")], ids=["plain", "spaced"]
)
def test_oldest_version_is_the_floor_of_requires_python(requires, version):
    assert oldest_version(requires) == version


@pytest.mark.parametrize("requires", [">=3.10,<4", "~=3.10", "3.10"], ids=str)
def test_oldest_version_refuses_what_it_cannot_read(requires):
    with pytest.raises(ValueError, match="requires-python"):
        oldest_version(requires)
