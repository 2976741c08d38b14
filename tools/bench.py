"""`build.py bench`: the benchmarks in tests/bench/, after building the site."""

from __future__ import annotations

import subprocess
import sys

from .paths import ROOT, log
from .site import build_web


def bench() -> int:
    build_web()
    status = 0
    # The core first (alone, then over processes and Spark), then the facade (and its token
    # budgets), then the page that stands on both; then search.
    for name in (
        "core.py",
        "pipelines.py",
        "browser.py",
        "browser_tokens.py",
        "playground.py",
        "search.py",
        "live.py",
    ):
        script = ROOT / "tests" / "bench" / name
        log(f"running {script.relative_to(ROOT)}")
        status = subprocess.call([sys.executable, str(script)], cwd=ROOT) or status
    return status
