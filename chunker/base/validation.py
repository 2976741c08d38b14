"""Checks at the public boundary: each error names the argument, the value and the rule.

Each error also carries the argument's Python name as `field` (`error.field == "chunk_overlap"`),
so that a caller (the bridge, a form) can put the message at the argument without reading it.
The errors stay a `ValueError` or a `TypeError`, the types a caller catches.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from typing import Any, TypeVar, cast

__all__ = [
    "ArgumentTypeError",
    "ArgumentValueError",
    "field_of",
    "require_bool",
    "require_callable",
    "require_choice",
    "require_int",
    "require_known_options",
    "require_mapping",
    "require_nonempty_text",
    "require_number",
    "require_sequence",
    "require_text",
]


class _ArgumentError(Exception):
    """An error about the argument named `field` (mixed in before ValueError or TypeError)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field

    def __reduce__(self) -> tuple[Any, ...]:
        # The default would remake it from `args` (the message) alone.
        return type(self), (self.field, str(self))


class ArgumentValueError(_ArgumentError, ValueError):
    """A `ValueError` about the argument named `field`."""


class ArgumentTypeError(_ArgumentError, TypeError):
    """A `TypeError` about the argument named `field`."""


def field_of(error: BaseException) -> str | None:
    """The Python name of the argument `error` is about, or None when it names none."""
    field = getattr(error, "field", None)
    return field if isinstance(field, str) else None


def require_text(name: str, value: Any, *, field: str = "") -> str:
    """Return `value` if it is a `str`, else raise `TypeError` naming `name`.

    `field` is the argument `name` belongs to, when `name` is a part of one (`words[2]`).
    """
    if not isinstance(value, str):
        raise ArgumentTypeError(
            field or name,
            f"{name} must be a string, got {type(value).__name__} {value!r:.80}",
        )
    return value


def require_nonempty_text(name: str, value: Any, *, field: str = "") -> str:
    """Return `value` if it is a `str` holding at least one character, else raise.

    A `TypeError` for what is not a string (as `require_text`), a `ValueError` for `""`.
    """
    # `type` first: it is checked twice a document (tests/bench/search.py: indexing).
    text: str = value if type(value) is str else require_text(name, value, field=field)
    if not text:
        raise ArgumentValueError(field or name, f"invalid {name} '' (must not be empty)")
    return text


def require_mapping(
    name: str, value: Any, *, field: str = "", holding: str = "", optional: bool = False
) -> Mapping[str, Any]:
    """Return `value` if it is a mapping (or None, when `optional`), else raise `TypeError`.

    `holding` says what the mapping must hold, for the message ("with 'id' and 'text'").
    """
    # `type` first: typing's `Mapping` check is slow, and nearly every value is a dict
    # (tests/bench/search.py: indexing).
    if type(value) is dict or (optional and value is None) or isinstance(value, Mapping):
        return cast("Mapping[str, Any]", value)  # None only when `optional`
    rule = "a mapping" + (f" {holding}" if holding else "") + (" or None" if optional else "")
    raise ArgumentTypeError(
        field or name, f"{name} must be {rule}, got {type(value).__name__} {value!r:.80}"
    )


def require_sequence(name: str, value: Any, *, of: str, field: str = "") -> Iterable[Any]:
    """Return `value` if it is a list (any iterable but a string, bytes or a mapping), else
    raise `TypeError`; `of` says what its items are, for the message ("strings").

    Its items are the caller's to check, naming each as `name[N]` with `field=name`.
    """
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise ArgumentTypeError(
            field or name,
            f"{name} must be a list of {of}, got {type(value).__name__} {value!r:.80}",
        )
    return value


def require_known_options(given: Iterable[str], known: Collection[str], *, of: str) -> None:
    """Raise `TypeError` naming `options` at the first name of `given` not in `known` (as
    Python refuses an unknown keyword, but with the `field`); `of` says whose options they
    are, for the message ("strategy 'fixed'")."""
    for name in given:
        if name not in known:
            raise ArgumentTypeError(
                "options", f"unknown option {name!r} for {of} (it takes {', '.join(known)})"
            )


_Choice = TypeVar("_Choice", bound=str)


def require_choice(name: str, value: Any, choices: Collection[_Choice]) -> _Choice:
    """Return `value` if it is one of `choices`, else raise `ValueError` listing them."""
    if value not in choices:
        names = ", ".join(repr(choice) for choice in choices)
        raise ArgumentValueError(name, f"unknown {name} {value!r:.80} (must be one of {names})")
    return cast(_Choice, value)  # one of `choices`


def require_callable(name: str, value: Any, *, rule: str = "callable") -> Any:
    """Return `value` if it can be called, else raise `TypeError`; `rule` says what it must
    be, for the message ("a function from a text to its words")."""
    if not callable(value):
        raise ArgumentTypeError(
            name, f"{name} must be {rule}, got {type(value).__name__} {value!r:.80}"
        )
    return value


def require_int(name: str, value: Any, *, minimum: int) -> int:
    """Return `value` if it is an int of at least `minimum`, else raise.

    `bool` is refused although it is an `int`: `target_size=True` is a mistake, not a size.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(
            name, f"{name} must be an integer, got {type(value).__name__} {value!r:.80}"
        )
    if value < minimum:
        raise ArgumentValueError(name, f"invalid {name} {value!r} (must be >= {minimum})")
    return value


def require_bool(name: str, value: Any) -> bool:
    """Return `value` if it is `True` or `False`, else raise `TypeError` naming `name`."""
    if not isinstance(value, bool):
        raise ArgumentTypeError(
            name, f"{name} must be True or False, got {type(value).__name__} {value!r:.80}"
        )
    return value


def require_number(name: str, value: Any, *, minimum: float, maximum: float = math.inf) -> float:
    """Return `value` as a float if it is a finite real number within the bounds, else raise.

    `bool` is refused as in `require_int`; NaN and the infinities are refused because no
    score computed from them means anything.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ArgumentTypeError(
            name, f"{name} must be a number, got {type(value).__name__} {value!r:.80}"
        )
    if not math.isfinite(value) or not minimum <= value <= maximum:
        bounds = f">= {minimum}" if maximum == math.inf else f"between {minimum} and {maximum}"
        raise ArgumentValueError(
            name, f"invalid {name} {value!r} (must be a finite number {bounds})"
        )
    return float(value)
