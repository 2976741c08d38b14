"""What the facade keeps in the worker between calls, by id: its `LexicalIndex` objects
(indexes.py) and its evaluation sets (evaluations.py). The page names each (ids count up),
so that a call need not wait for the object to be made: the worker takes messages in order.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from chunker.base.validation import ArgumentValueError

__all__ = ["Registry"]

Kept = TypeVar("Kept")


class Registry(Generic[Kept]):
    """Objects of one `kind` by id, each call naming it under `argument`: ids count up from 1
    and are never given twice."""

    __slots__ = ("_kept", "_last", "kind", "argument")

    def __init__(self, kind: str, argument: str) -> None:
        self._kept: dict[int, Kept] = {}
        self._last = 0
        self.kind, self.argument = kind, argument

    def __len__(self) -> int:
        return len(self._kept)

    def add(self, kept: Kept, id: Any = None) -> int:
        """Keep `kept` under `id` (the next one when None); answer the id. An id must be above
        every id given before."""
        if id is not None and (isinstance(id, bool) or not isinstance(id, int) or id <= self._last):
            raise ArgumentValueError(
                self.argument,
                f"invalid {self.argument} {id!r:.40} "
                f"(a new {self.kind} needs an id above {self._last})",
            )
        new: int = self._last + 1 if id is None else id
        self._last = new
        self._kept[new] = kept
        return new

    def get(self, id: Any) -> Kept:
        """The object `id`; a `ValueError` when there is none (disposed, or never made)."""
        # `type`, as `True` is an int (and would be id 1).
        kept = self._kept.get(id) if type(id) is int else None
        if kept is None:
            raise ArgumentValueError(
                self.argument,
                f"no {self.kind} {id!r:.40} in this worker: it was disposed, or never made",
            )
        return kept

    def dispose(self, id: Any) -> bool:
        """Forget the object `id`; answer whether there was one."""
        return self._kept.pop(id, None) is not None if type(id) is int else False
