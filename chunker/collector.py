"""The cyclic garbage collector paused while a chunker builds its records."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

__all__ = ["collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with the cyclic collector paused, if it was running.

    A large text makes tens of thousands of records and no reference cycle, and each time the
    collector runs it walks again every record made so far: a sixth to a third of a 10 MB call
    (tests/bench/core.py, at 10 MB). Reference counting still frees everything at once; only
    cycles made elsewhere wait for the block's end. A caller who turned the collector off
    keeps it off.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
