"""Work measured in lines of Python run, not seconds: a loaded machine does not change it, so a
test can say that work grows linearly without timing anything; and the runs without white
space that once took a tokenizer quadratic time. This module runs as it is in Pyodide too
(tests/browser/test_facade_tokens.py sends its source to a worker)."""

from __future__ import annotations

import random
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


# Runs that are one long pre-token each (or many, for the base64 image's digits around its
# zeros), of about n bytes in UTF-8, the same on every Python: a letter repeated, DNA repeated
# and random, a base64 image's zeros, white space, a line of dashes, emoji, CJK without
# punctuation.
_RUN_MAKERS: dict[str, Callable[[int], str]] = {
    "a": lambda n: "a" * n,
    "ATGC": lambda n: ("ATGC" * n)[:n],
    "DNA": lambda n: "".join(random.Random(n).choice("ACGT") for _ in range(n)),
    "base64": lambda n: "iVBORw0KGgo" + "A" * n + "==",
    "spaces": lambda n: " " * n + "x",
    "dashes": lambda n: "-" * n,
    "emoji": lambda n: "😀🎉" * (n // 8),
    "CJK": lambda n: "".join(chr(0x4E00 + (k * 7919) % 20000) for k in range(n // 3)),
}
RUNS = tuple(_RUN_MAKERS)


def run_of(kind: str, n: int) -> str:
    """A run of `kind` (one of `RUNS`) of about `n` bytes."""
    return _RUN_MAKERS[kind](n)
