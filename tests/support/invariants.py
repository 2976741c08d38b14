"""What no chunker may lose: the visible characters of its input, in order."""

from __future__ import annotations

from chunker.base.whitespace import JS_WHITESPACE


def visible(text: str, drop: str = "") -> str:
    """The characters of `text` that no chunker may lose: all but white space (and `drop`)."""
    return "".join(ch for ch in text if ch not in JS_WHITESPACE and ch not in drop)


def is_subsequence(needle: str, haystack: str) -> bool:
    rest = iter(haystack)
    return all(ch in rest for ch in needle)
