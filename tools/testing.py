"""`build.py test`: the test tools in a venv of their own, a Chromium and a Java there, the
site built, pytest; then the core suite again on the oldest Python `requires-python` promises."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import tomllib

from .chromium import ensure_chromium
from .java import java_environment
from .oldest_python import find_python, oldest_version
from .paths import ROOT, log
from .site import build_web
from .venv import SetupError, venv_python

# The core suite: the package alone, no Node, no Chromium, no build step (and Python 3.10);
# its tests also carry the `core` marker (tests/conftest.py).
CORE_TESTS = "tests/core"
# Options that choose which tests run: with any of them, or a path, the run is not the whole
# suite, and the core is not run again on the oldest Python.
SELECTING = ("-k", "-m", "--lf", "--last-failed", "--deselect", "--ignore")


def test(pytest_args: list[str], *, core: bool = False) -> int:
    """With `core`, the core suite on this Python. Otherwise: the test tools, a Chromium and
    a Java, the site built, pytest, and with no selection in `pytest_args`, the core suite on
    the oldest supported Python as well."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    try:
        if core:
            python = venv_python(sys.executable, "core", extras["test"])
            return _pytest(python, [CORE_TESTS, *pytest_args])
        python = venv_python(
            sys.executable,
            "test",
            extras["test"] + extras["test-browser"] + extras["test-pipelines"],
        )
        ensure_chromium(python)
        environment = java_environment()
    except SetupError as error:
        log(str(error))
        return 2
    build_web()
    status = _pytest(python, pytest_args, environment)
    if any(not arg.startswith("-") or arg.startswith(SELECTING) for arg in pytest_args):
        return status
    return test_on_oldest_python(project, pytest_args) or status


def _pytest(python: Path, arguments: list[str], environment: dict[str, str] | None = None) -> int:
    log(f"{python.relative_to(ROOT)} -m pytest {' '.join(arguments)}".rstrip())
    return subprocess.call([str(python), "-m", "pytest", *arguments], cwd=ROOT, env=environment)


def test_on_oldest_python(project: dict[str, Any], pytest_args: list[str]) -> int:
    version = oldest_version(project["requires-python"])
    found = find_python(version)
    if found is None:
        log(
            f"NOT RUN: the core suite on Python {version} (requires-python "
            f"{project['requires-python']}): no python{version} on PATH or in pyenv"
        )
        return 0
    started = time.monotonic()
    try:
        python = venv_python(
            found, f"core-python{version}", project["optional-dependencies"]["test"]
        )
    except SetupError as error:
        log(f"NOT RUN: the core suite on Python {version}: {error}")
        return 0
    log(f"the core suite on Python {version} ({found})")
    status = _pytest(python, [CORE_TESTS, *pytest_args])
    log(f"the core suite on Python {version}: {time.monotonic() - started:.0f} s")
    return status
