"""`build.py test`: the test tools installed, a Chromium there, the site built, pytest."""

from __future__ import annotations

import subprocess
import sys
import tomllib

from .chromium import SYSTEM_CHROMIUM
from .paths import ROOT, log
from .site import build_web


def test(pytest_args: list[str]) -> int:
    """Install the test tools, make sure a Chromium is there, build, run pytest."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    requirements = pyproject["project"]["optional-dependencies"]["test"]
    log(f"pip install {' '.join(requirements)}")
    subprocess.run(
        [
            sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
            "--root-user-action=ignore", *requirements,
        ],
        check=True,
    )
    if not SYSTEM_CHROMIUM.exists():
        log(f"no {SYSTEM_CHROMIUM}: installing Playwright's Chromium")
        subprocess.run([sys.executable, "-m", "playwright", "install", "chromium"], check=True)
    build_web()
    return subprocess.call([sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT)
