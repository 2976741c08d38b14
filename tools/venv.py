"""The virtual environments under .cache/ that hold the test tools: pip never installs into
the Python that runs build.py, which Debian and Ubuntu mark as externally managed (PEP 668)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .paths import CACHE, log
from .system_packages import apt_install, can_apt_install


class SetupError(Exception):
    """What the machine lacks for a step, and the one command that would fix it."""


def venv_python(python: str, name: str, requirements: list[str]) -> Path:
    """The Python of .cache/venv-`name`, made with `python`, holding `requirements`; pip runs
    only when they changed since it last ran there."""
    venv = CACHE / f"venv-{name}"
    bin_python = venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    stamp = venv / "requirements.txt"
    wanted = "\n".join(requirements) + "\n"
    if not _runs(bin_python):
        _create(python, venv)
    if not stamp.exists() or stamp.read_text(encoding="utf-8") != wanted:
        log(f"pip install into .cache/venv-{name}: {' '.join(requirements)}")
        subprocess.run(
            [
                str(bin_python),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                *requirements,
            ],
            check=True,
        )
        stamp.write_text(wanted, encoding="utf-8")
    return bin_python


def _runs(python: Path) -> bool:
    # A venv whose base Python was removed or upgraded has a bin/python that no longer runs.
    try:
        return subprocess.run([str(python), "-c", "pass"], capture_output=True).returncode == 0
    except OSError:
        return False


def _create(python: str, venv: Path) -> None:
    log(f"creating {venv.relative_to(CACHE.parent)} with {python}")
    made = subprocess.run(
        [python, "-m", "venv", "--clear", str(venv)], capture_output=True, text=True
    )
    if made.returncode == 0:
        return
    if "ensurepip" not in made.stdout + made.stderr:
        raise SetupError(f"`{python} -m venv` failed:\n{made.stdout}{made.stderr}")
    # Debian and Ubuntu ship venv's pip apart, in python3.X-venv.
    version = subprocess.run(
        [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    package = f"python{version}-venv"
    if not (can_apt_install() and apt_install([package], f"{python} has no venv with pip")):
        raise SetupError(
            f"{python} cannot make a venv with pip; fix: sudo apt-get install -y {package}"
        )
    subprocess.run([python, "-m", "venv", "--clear", str(venv)], check=True)
