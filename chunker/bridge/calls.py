"""What an operation of the bridge is, for a type checker: its arguments, `Astral`, and its
signature. `operations` and `indexes` both name them from here, so neither imports the
other for its types (`operations` imports `indexes`, on the first call of an index's).

Imported under `TYPE_CHECKING` only: nothing here runs in the worker.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

__all__ = ["Arguments", "Astral", "Operation"]


class Arguments(Protocol):
    """A call's arguments as its JSON request gives them (a dict), for a type checker: each
    value is unchecked until the function it goes to checks it, a missing one reading None,
    which is checked as any other value. So `get` answers Any, where a dict's would say
    `| None` of a value that is Any already."""

    def get(self, key: str, /) -> Any: ...
    def __getitem__(self, key: str, /) -> Any: ...
    def __setitem__(self, key: str, value: Any, /) -> None: ...


# Where the characters outside the BMP are in the call's text, when that came as a
# `JsString` (else None): each operation takes it beside the arguments.
Astral = Sequence[int] | None

# An operation: the call's arguments and `Astral` in, its result out.
Operation = Callable[[Arguments, Astral], Any]
