"""`build.py` on a Python older than its tools read (tomllib, 3.11): a message that says what
to do, not a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# build.py as an older Python would run it: `sys.version_info` is what the guard reads.
AS_PYTHON_3_10 = (
    "import runpy, sys; sys.version_info = (3, 10, 13, 'final', 0); "
    "sys.argv = ['build.py', 'web']; runpy.run_path('build.py', run_name='__main__')"
)


def test_an_older_python_is_told_what_build_py_needs() -> None:
    result = subprocess.run(
        [sys.executable, "-c", AS_PYTHON_3_10],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "build.py needs Python 3.11 or newer" in result.stderr
    assert "the package itself runs on 3.10" in result.stderr
