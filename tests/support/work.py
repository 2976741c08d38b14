"""Work measured in lines of Python run, not seconds: a loaded machine does not change it, so a
test can say that work grows linearly without timing anything. The source of `python_lines`
runs as it is in Pyodide too (tests/test_browser_tokens.py sends it to the worker)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


class TooMuchWork(Exception):
    """Raised from within the call once it has run more lines than allowed."""


def python_lines(call: Callable[[], object], limit: int) -> int:
    """The lines of Python that `call()` runs (`sys.settrace`'s line events, in every frame);
    stops it with `TooMuchWork` past `limit` lines, so that a quadratic call fails fast."""
    lines = 0

    def line(frame: Any, event: str, arg: Any) -> Any:
        nonlocal lines
        if event == "line":
            lines += 1
            if lines > limit:
                raise TooMuchWork(f"more than {limit:,} lines")
        return line

    sys.settrace(lambda frame, event, arg: line)
    try:
        call()
    finally:
        sys.settrace(None)
    return lines
