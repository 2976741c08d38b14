"""The wheel installed in a fresh venv, as a user who installs it has it."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path


def users_environment() -> dict[str, str]:
    """This run's environment without PYTHONPATH, as a user's shell gives the venv: with a
    checkout on it, the venv would import that checkout, and pip would take the
    chunkspan.egg-info that `pip install .` leaves there for chunker installed."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


def install_in_fresh_venv(wheel: Path, folder: Path) -> Path:
    """Make a venv in `folder`/venv holding `wheel` alone (this pip installs into it); answer
    its bin folder. pip runs in `folder` and installs even what it finds installed already,
    so nothing of the checkout can pass for the wheel."""
    venv.create(folder / "venv", with_pip=False)
    bin_folder = folder / "venv" / "bin"
    pip = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(bin_folder / "python"),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--ignore-installed",
            "--disable-pip-version-check",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        cwd=folder,
        env=users_environment(),
    )
    assert pip.returncode == 0, pip.stderr
    return bin_folder
