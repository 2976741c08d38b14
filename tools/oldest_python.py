"""The oldest Python that `requires-python` promises, found on this machine (the core suite runs
on it too; the browser tests need build.py, hence 3.11+)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def oldest_version(requires_python: str) -> str:
    """ "3.10" for ">=3.10": the floor of a `requires-python` that names only one."""
    if not requires_python.startswith(">=") or "," in requires_python:
        raise ValueError(f"requires-python {requires_python!r}: expected '>=X.Y' alone")
    return requires_python[2:].strip()


def _runs(python: str) -> bool:
    # A pyenv shim is on PATH for every version pyenv knows, and fails when it is not active.
    try:
        done = subprocess.run([python, "-c", "pass"], capture_output=True, timeout=60)
    except OSError:
        return False
    return done.returncode == 0


def find_python(version: str) -> str | None:
    """`pythonX.Y` from PATH, else pyenv's, when either runs; None when the machine has none."""
    name = f"python{version}"
    candidates = [shutil.which(name)]
    if shutil.which("pyenv"):
        prefix = subprocess.run(["pyenv", "prefix", version], capture_output=True, text=True)
        if prefix.returncode == 0:
            candidates.append(str(Path(prefix.stdout.strip()) / "bin" / name))
    return next((python for python in candidates if python and _runs(python)), None)
