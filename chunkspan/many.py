"""`chunk_many`: many texts cut over worker processes, answered in input order.

Work goes out in batches, and only a few batches per process are ever in flight, so a
generator of texts larger than memory streams through: memory holds what is being cut and
what waits to be yielded in order, not the input or the output.
"""

from __future__ import annotations

import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain, islice
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar

from .recipe import Recipe
from .records import Chunk, ChunkDraft, DocumentChunk, DocumentChunkDraft
from .validation import ArgumentTypeError, require_int

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = ["ChunkedText", "chunk_many", "map_in_order", "batched", "default_jobs"]

Item = TypeVar("Item")
Result = TypeVar("Result")

# A batch closes at this many items or characters, whichever comes first: large enough that
# sending it costs little beside cutting it, small enough to keep every process busy.
BATCH_ITEMS = 64
BATCH_CHARS = 1_000_000
_DRAFTS = {Chunk: ChunkDraft, DocumentChunk: DocumentChunkDraft}

# Batches in flight per process: one being cut, the next ones already sent.
BATCHES_AHEAD = 3


@dataclass(frozen=True, slots=True)
class ChunkedText:
    """One input of `chunk_many` and its chunks."""

    id: Any
    """The id given with the text, or the text's position in the input (from 0)."""
    chunks: tuple[Chunk | DocumentChunk, ...]
    """Its chunks, in order."""


def default_jobs() -> int:
    """One process per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def chunk_many(
    items: Iterable[str | tuple[Any, str]],
    jobs: int | None = None,
    *,
    strategy: str = "semantic",
    **options: Any,
) -> Iterator[ChunkedText]:
    """Cut each text of `items` with `strategy` and `options`; yield a `ChunkedText` each, in
    input order, whatever order the processes finish in.

    Args:
        items: texts, or `(id, text)` pairs (the id comes back on the result).
        jobs: processes to cut in; None for one per core (one alone cuts in this process).
        strategy: `semantic` (`SemanticChunker`) or the engine's `fixed`, `hierarchical`,
            `layout`.
        options: the strategy's options by their Python names (`target_size=...`,
            `chunk_size=...`), checked before any text is cut.

    Example:
        >>> [r.id for r in chunk_many([("a", "One."), ("b", "Two.")], jobs=1)]
        ['a', 'b']
    """
    recipe = Recipe(strategy, options)  # a bad option fails here, before any work
    if jobs is not None:
        require_int("jobs", jobs, minimum=1)
    return _chunked(recipe, iter(items), jobs)


def _chunked(recipe: Recipe, items: Iterator[Any], jobs: int | None) -> Iterator[ChunkedText]:
    batches = batched(_checked(items), _text_length)
    head = list(islice(batches, 2))
    if (jobs or default_jobs()) == 1 or len(head) < 2:  # as map_in_order: no process
        for batch in chain(head, batches):
            yield from _cut_batch(recipe, batch)
        return
    record = _record_of(recipe)
    for packed in map_in_order(_cut_batch_packed, chain(head, batches), jobs, recipe):
        yield from _unpacked(packed, record)


def _checked(items: Iterator[Any]) -> Iterator[tuple[Any, str]]:
    """Each item as `(id, text)`; a wrong item raises naming its position."""
    for position, item in enumerate(items):
        if isinstance(item, str):
            yield position, item
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], str):
            yield item
        else:
            raise ArgumentTypeError(
                "items",
                f"items[{position}] must be a text or an (id, text) pair, "
                f"got {type(item).__name__} {item!r:.80}",
            )


def batched(items: Iterable[Item], size: Callable[[Item], int]) -> Iterator[list[Item]]:
    """`items` in lists of at most `BATCH_ITEMS`, closed once their `size`s reach
    `BATCH_CHARS`: the units of work sent to a process."""
    batch: list[Item] = []
    total = 0
    for item in items:
        batch.append(item)
        total += size(item)
        if len(batch) >= BATCH_ITEMS or total >= BATCH_CHARS:
            yield batch
            batch, total = [], 0
    if batch:
        yield batch


def _text_length(pair: tuple[Any, str]) -> int:
    return len(pair[1])


def _cut_batch(recipe: Recipe, batch: list[tuple[Any, str]]) -> list[ChunkedText]:
    return [ChunkedText(key, tuple(recipe.cut(text))) for key, text in batch]


def _cut_batch_packed(
    recipe: Recipe, batch: list[tuple[Any, str]]
) -> list[tuple[Any, list[tuple[Any, ...]]]]:
    """`_cut_batch` for another process: each text's chunks as rows of their fields.

    Pickle makes a frozen dataclass through `object.__setattr__`, field by field, and that
    cost three times what cutting did; rows of plain values cross at a tenth of it.
    """
    row_of = attrgetter(*_record_of(recipe).__slots__)
    return [(key, [row_of(chunk) for chunk in recipe.cut(text)]) for key, text in batch]


def _unpacked(
    packed: list[tuple[Any, list[tuple[Any, ...]]]], record: type[Chunk] | type[DocumentChunk]
) -> list[ChunkedText]:
    """The `ChunkedText`s of `_cut_batch_packed`'s rows: drafts turned into `record`s (see
    records.py), each filled through its slots' own setters."""
    draft = _DRAFTS[record]
    setters = [getattr(draft, name).__set__ for name in record.__slots__]
    results = []
    for key, rows in packed:
        chunks = []
        for row in rows:
            chunk = draft()
            for setter, value in zip(setters, row):
                setter(chunk, value)
            chunk.__class__ = record
            chunks.append(chunk)
        results.append(ChunkedText(key, tuple(chunks)))
    return results


def _record_of(recipe: Recipe) -> type[Chunk] | type[DocumentChunk]:
    return Chunk if recipe.strategy == "semantic" else DocumentChunk


def _leave_interrupts_to_parent() -> None:
    # Ctrl-C reaches every process of the group; the parent alone stops the work, cleanly.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def map_in_order(
    function: Callable[[Any, Item], Result],
    items: Iterable[Item],
    jobs: int | None,
    shared: Any,
) -> Iterator[Result]:
    """`function(shared, item)` for each item, over `jobs` processes, yielded in input order.

    At most `BATCHES_AHEAD` items per process are in flight (send `batched` items when each
    is small), so the input is read only as
    fast as results are taken. With one job, or one item, no process is started.
    """
    iterator = iter(items)
    workers = default_jobs() if jobs is None else jobs
    head = list(islice(iterator, 2))
    if workers == 1 or len(head) < 2:
        for item in chain(head, iterator):
            yield function(shared, item)
        return
    # Imported here: multiprocessing is heavy, and absent in the browser, which never gets here.
    from concurrent.futures import ProcessPoolExecutor

    pending: deque[Future[Result]] = deque()
    with ProcessPoolExecutor(max_workers=workers, initializer=_leave_interrupts_to_parent) as pool:
        try:
            for item in chain(head, iterator):
                pending.append(pool.submit(function, shared, item))
                if len(pending) >= workers * BATCHES_AHEAD:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            # A consumer that stops early, or an error, must not wait for work nobody takes.
            for future in pending:
                future.cancel()
