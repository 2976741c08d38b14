"""Checks at the public boundary: each error names the argument, the value and the rule."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["require_text", "require_int", "require_bool", "require_number"]


def require_text(name: str, value: Any) -> str:
    """Return `value` if it is a `str`, else raise `TypeError` naming `name`."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__} {value!r:.80}")
    return value


def require_int(name: str, value: Any, *, minimum: int) -> int:
    """Return `value` if it is an int of at least `minimum`, else raise.

    `bool` is refused although it is an `int`: `target_size=True` is a mistake, not a size.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r:.80}")
    if value < minimum:
        raise ValueError(f"invalid {name} {value!r} (must be >= {minimum})")
    return value


def require_bool(name: str, value: Any) -> bool:
    """Return `value` if it is `True` or `False`, else raise `TypeError` naming `name`."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r:.80}")
    return value


def require_number(name: str, value: Any, *, minimum: float, maximum: float = math.inf) -> float:
    """Return `value` as a float if it is a finite real number within the bounds, else raise.

    `bool` is refused as in `require_int`; NaN and the infinities are refused because no
    score computed from them means anything.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {value!r:.80}")
    if not math.isfinite(value) or not minimum <= value <= maximum:
        bounds = f">= {minimum}" if maximum == math.inf else f"between {minimum} and {maximum}"
        raise ValueError(f"invalid {name} {value!r} (must be a finite number {bounds})")
    return float(value)
