"""The README, as the tests that run its code blocks read it."""

from __future__ import annotations

import re

from .paths import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def readme_block(first_line: str) -> str:
    """The README's fenced code block that starts with `first_line`."""
    for block in re.findall(r"```[a-z]*\n(.*?)```", README, re.DOTALL):
        if block.startswith(first_line):
            return block
    raise AssertionError(f"README has no code block starting {first_line!r}")
