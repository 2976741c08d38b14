"""The cyclic garbage collector paused while a chunker builds its records."""

from __future__ import annotations

import gc
from types import TracebackType

__all__ = ["collector_paused"]


class collector_paused:  # noqa: N801 - a context manager, named as contextlib's are
    """Run a `with` block with the cyclic collector paused, if it was running.

    A large text makes tens of thousands of records and no reference cycle, and each time the
    collector runs it walks again every record made so far: a large part of a long call
    (tests/bench/core.py, at 10 MB). Reference counting still frees everything at once; only
    cycles made elsewhere wait for the block's end. A caller who turned the collector off
    keeps it off.

    A class, not a `contextlib.contextmanager`: leaving the generator made an exception
    object just after the collector came back on, and the allocations counted during the
    block made that one run it, over every record the call was about to return (a visible
    part of a 10 MB `SemanticChunker` call, tests/bench/core.py). Nothing is made after the
    collector comes back on, so it runs at the caller's next allocation, over what is still
    alive then.
    """

    __slots__ = ("_was_enabled",)

    def __enter__(self) -> None:
        self._was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._was_enabled:
            gc.enable()
