"""`build.py test`: the test tools installed, a Chromium there, the site built, pytest; then
the core suite again on the oldest Python that `requires-python` promises."""

from __future__ import annotations

import subprocess
import sys
import time

import tomllib

from .chromium import SYSTEM_CHROMIUM, has_chromium
from .oldest_python import find_python, oldest_version, venv_python
from .paths import ROOT, log
from .site import build_web

# The core suite: the package alone, no Node, no Chromium, no build step (and Python 3.10).
CORE_TESTS = "tests/test_core_*.py"
# Options that choose which tests run: with any of them, or a path, the run is not the whole
# suite, and the core is not run again on the oldest Python.
SELECTING = ("-k", "-m", "--lf", "--last-failed", "--deselect", "--ignore")


def core_tests() -> list[str]:
    return sorted(str(path.relative_to(ROOT)) for path in ROOT.glob(CORE_TESTS))


def pip_install(python: str, requirements: list[str]) -> None:
    log(f"pip install {' '.join(requirements)}")
    subprocess.run(
        [
            python,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--root-user-action=ignore",
            *requirements,
        ],
        check=True,
    )


def test(pytest_args: list[str], *, core: bool = False) -> int:
    """With `core`, the core suite on this Python. Otherwise: install the test tools, make
    sure a Chromium is there, build, run pytest, and with no selection in `pytest_args`, the
    core suite on the oldest supported Python as well."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    if core:
        pip_install(sys.executable, extras["test"])
        return subprocess.call(
            [sys.executable, "-m", "pytest", *core_tests(), *pytest_args], cwd=ROOT
        )
    pip_install(sys.executable, extras["test"] + extras["test-browser"] + extras["test-pipelines"])
    if not has_chromium():
        # No download of a browser of our own: the machines this runs on reach package
        # registries only, and a browser is the machine's to provide.
        log(
            f"no Chromium: neither {SYSTEM_CHROMIUM} nor Playwright's own is installed. "
            "Install Debian's (apt-get install -y chromium), or run the core suite alone "
            "with `python build.py test --core`"
        )
        return 2
    build_web()
    status = subprocess.call([sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT)
    if any(not arg.startswith("-") or arg.startswith(SELECTING) for arg in pytest_args):
        return status
    return test_on_oldest_python(project, pytest_args) or status


def test_on_oldest_python(project: dict, pytest_args: list[str]) -> int:
    version = oldest_version(project["requires-python"])
    python = find_python(version)
    if python is None:
        log(
            f"NOT RUN: the core suite on Python {version} (requires-python "
            f"{project['requires-python']}): no python{version} on PATH or in pyenv"
        )
        return 0
    started = time.monotonic()
    venv = venv_python(python, version, project["optional-dependencies"]["test"])
    log(f"the core suite on Python {version} ({python})")
    status = subprocess.call([str(venv), "-m", "pytest", *core_tests(), *pytest_args], cwd=ROOT)
    log(f"the core suite on Python {version}: {time.monotonic() - started:.0f} s")
    return status
