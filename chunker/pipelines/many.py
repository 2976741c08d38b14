"""`chunk_many`: many texts cut over worker processes, answered in input order.

Work goes out in batches sized by characters, and only a few batches per process are ever in
flight (pool.py), so a generator of texts larger than memory streams through: memory holds
what is being cut and what waits to be yielded in order, not the input or the output.

A worker answers a batch's chunks as positions in its texts (`chunk_columns`: offsets, spans
and where each chunk's text lies), texts only where they are not the input's own characters;
the parent, which still holds the batch's texts, makes the records. Records carry their
texts, so sent whole as much would cross the process boundary as was cut, and the parent
would spend as long unpickling as a worker did cutting (tests/bench/pipelines.py).
"""

from __future__ import annotations

import os
import sys
import time
from array import array
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import chain, islice
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, overload

from chunker.base.validation import (
    ArgumentTypeError,
    ArgumentValueError,
    require_int,
    require_sequence,
)
from chunker.recipe import EngineStrategy, Recipe
from chunker.text.records import (
    BoundaryType,
    Chunk,
    ChunkColumns,
    ChunkRows,
    DocumentChunk,
    DocumentRow,
    document_records,
    document_row,
    records,
)

if TYPE_CHECKING:
    # typing_extensions is a checker's own (typeshed's, for any Python): nothing at run time.
    from typing_extensions import TypeVar as DefaultedTypeVar
    from typing_extensions import Unpack

    from chunker.option_types import EngineOptions, SemanticOptions

__all__ = ["ChunkedText", "chunk_many", "batched", "default_jobs", "spread"]

Item = TypeVar("Item")
Result = TypeVar("Result")
Answer = TypeVar("Answer")
Shared = TypeVar("Shared")
Id = TypeVar("Id")

# A `ChunkedText`'s chunks and id, which `chunk_many`'s overloads tell a checker from the
# strategy and the items. Without them (a bare `ChunkedText`), any chunk and any id; the
# defaults matter to a checker alone (typing's TypeVar takes them from Python 3.13).
if TYPE_CHECKING:
    ChunkT_co = DefaultedTypeVar(
        "ChunkT_co", bound=Chunk | DocumentChunk, covariant=True, default=Chunk | DocumentChunk
    )
    IdT_co = DefaultedTypeVar("IdT_co", covariant=True, default=object)
else:
    ChunkT_co = TypeVar("ChunkT_co", covariant=True)
    IdT_co = TypeVar("IdT_co", covariant=True)

# A batch closes at this many characters or items, whichever comes first: large enough that
# sending it costs little beside cutting it, small enough that every process stays busy
# until the end and memory holds little (tests/bench/pipelines.py).
BATCH_CHARS = 200_000
BATCH_ITEMS = 500

# `jobs=None` cuts this many characters in this process first, timing them, and starts
# processes for the rest only if it cut slower than `PROCESSES_BELOW_CHARS_A_SECOND`: below
# that speed the workers win more than the parent spends sending them the texts and making
# the records they answer; the faster the chunker, the less a second process gains, and a
# token budget counting with a tokenizer gains most (tests/bench/pipelines.py, each strategy
# with `jobs=1` and `jobs=2` on two cores). Starting them for a small input never pays.
PROCESSES_FROM_CHARS = 4 * BATCH_CHARS
PROCESSES_BELOW_CHARS_A_SECOND = 50_000_000


@dataclass(frozen=True, slots=True)
class ChunkedText(Generic[ChunkT_co, IdT_co]):
    """One input of `chunk_many` and its chunks: `ChunkedText[Chunk, int]` for texts cut by
    `semantic`, `ChunkedText[DocumentChunk, str]` for `(str, text)` pairs cut by the engine."""

    id: IdT_co
    """The id given with the text, or the text's position in the input (from 0)."""
    chunks: tuple[ChunkT_co, ...]
    """Its chunks, in order: `Chunk`s for `semantic`, `DocumentChunk`s for the others."""


def default_jobs() -> int:
    """The cores this process may use (its CPU affinity, which `taskset` and containers
    narrow), or all the machine's where that cannot be read; 1 in a daemonic process (a
    `multiprocessing.Pool`'s worker), which may start none."""
    multiprocessing = sys.modules.get("multiprocessing")  # imported in any of its processes
    if multiprocessing is not None and multiprocessing.current_process().daemon:
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# For a checker, the records follow the strategy and the ids the items: texts are numbered,
# pairs keep their ids' type, a mix of the two has ids of any type.
@overload
def chunk_many(
    items: Iterable[str],
    jobs: int | None = None,
    *,
    strategy: Literal["semantic"] = "semantic",
    **options: Unpack[SemanticOptions],
) -> Iterator[ChunkedText[Chunk, int]]: ...
@overload
def chunk_many(
    items: Iterable[tuple[Id, str]],
    jobs: int | None = None,
    *,
    strategy: Literal["semantic"] = "semantic",
    **options: Unpack[SemanticOptions],
) -> Iterator[ChunkedText[Chunk, Id]]: ...
@overload
def chunk_many(
    items: Iterable[str | tuple[object, str]],
    jobs: int | None = None,
    *,
    strategy: Literal["semantic"] = "semantic",
    **options: Unpack[SemanticOptions],
) -> Iterator[ChunkedText[Chunk, object]]: ...
@overload
def chunk_many(
    items: Iterable[str],
    jobs: int | None = None,
    *,
    strategy: EngineStrategy,
    **options: Unpack[EngineOptions],
) -> Iterator[ChunkedText[DocumentChunk, int]]: ...
@overload
def chunk_many(
    items: Iterable[tuple[Id, str]],
    jobs: int | None = None,
    *,
    strategy: EngineStrategy,
    **options: Unpack[EngineOptions],
) -> Iterator[ChunkedText[DocumentChunk, Id]]: ...
@overload
def chunk_many(
    items: Iterable[str | tuple[object, str]],
    jobs: int | None = None,
    *,
    strategy: EngineStrategy,
    **options: Unpack[EngineOptions],
) -> Iterator[ChunkedText[DocumentChunk, object]]: ...
def chunk_many(
    items: Iterable[str | tuple[Any, str]],
    jobs: int | None = None,
    *,
    strategy: str = "semantic",
    **options: Any,
) -> Iterator[ChunkedText[Any, Any]]:
    """Cut each text of `items` with `strategy` and `options`; yield a `ChunkedText` each, in
    input order, whatever order the processes finish in.

    Args:
        items: texts, or `(id, text)` pairs (the id comes back on the result); not a bare
            string, which would be cut as one text a character.
        jobs: processes to cut in (1: this one, no other started). None decides from the work
            (`spread`): this process alone for a small input or work fast enough that
            processes would not pay, else one worker per core this process may use.
        strategy: `semantic` (`SemanticChunker`) or the engine's `fixed`, `hierarchical`,
            `layout`.
        options: the strategy's options by their Python names (`target_size=...`,
            `chunk_size=...`), checked before any text is cut.

    Raises:
        TypeError: `items` not a list of texts or pairs (a bare string, a mapping); an item
            neither, as it is reached; `jobs` above 1 and an option that worker processes
            cannot be sent (a lambda `tokenizer` where multiprocessing starts them by
            `spawn` or `forkserver`, which pickle what they run; `jobs=None` then cuts in
            this process).
        ValueError: `jobs` above 1 and an input that needs processes, where those workers
            cannot run this program's `__main__` again, as they must first (a script read
            from standard input: `python - < script.py`); at the first result, before any
            text is cut; `jobs=None` then cuts in this process.
        chunker.WorkerError: a worker process died (killed, as when memory runs out);
            the other workers are stopped.

    Example:
        >>> [r.id for r in chunk_many([("a", "One."), ("b", "Two.")], jobs=1)]
        ['a', 'b']
    """
    recipe = Recipe(strategy, options)  # a bad option fails here, before any work
    if jobs is not None:
        require_int("jobs", jobs, minimum=1)
    if jobs is not None and jobs > 1:
        problem = _unsendable(recipe)
        if problem is not None:
            raise problem
    # A string is iterable, as its characters: `chunk_many("text")` is `chunk_many(["text"])`
    # mistyped, never five one-character texts.
    texts = require_sequence("items", items, of="texts or (id, text) pairs")
    return _chunked(recipe, iter(texts), jobs)


def _unsendable(recipe: Recipe) -> ArgumentTypeError | None:
    """Why worker processes cannot be sent `recipe` (`Recipe.unsendable`), or None: forked
    ones inherit it, whatever it holds."""
    return None if _start_method() == "fork" else recipe.unsendable()


def _start_method(own_process: bool = False) -> str:
    """How worker processes start (`pool.start_method`). One not forked (`spawn`, macOS's
    default; `forkserver`, Linux's from Python 3.14) is sent what it runs by pickle, and first
    runs this program's `__main__` again (`_unreadable_main`)."""
    from chunker.pipelines.pool import start_method  # only where processes may start

    return start_method(own_process)


def _unstartable_main(jobs: int | None, own_process: bool = False) -> ArgumentValueError | None:
    """Why `jobs` worker processes cannot start for this program, or None if they can."""
    method = _start_method(own_process)
    path = None if method == "fork" else _unreadable_main()
    if path is None:
        return None
    why = "a script read from standard input" if path == "<stdin>" else "it is not there"
    return ArgumentValueError(
        "jobs",
        f"jobs={jobs} starts worker processes by {method!r}, which first run this program's "
        f"__main__ again from its file, {path!r}, and cannot ({why}): run the script from a "
        "file, or give jobs=1",
    )


def _unreadable_main() -> str | None:
    """The file this program's `__main__` was read from, when a worker that is not forked
    would fail to run it again, else None. multiprocessing's rule (`spawn.py`,
    `get_preparation_data` and `_fixup_main_from_path`): `__main__` is run again by its
    module's name (`python -m`), else from its file, but for a frozen program (the worker is
    the program itself) and IPython; one with neither (`python -c`, the prompt) is not run
    again. A script read from standard input (`python - < script.py`) is "<stdin>"."""
    import multiprocessing.process

    main = sys.modules.get("__main__")
    if getattr(getattr(main, "__spec__", None), "name", None) is not None:
        return None
    path = getattr(main, "__file__", None)
    if path is None or getattr(sys, "frozen", False):
        return None
    # A relative path is read from where the program started (typeshed lacks the name).
    started_in = getattr(multiprocessing.process, "ORIGINAL_DIR", None) or ""
    where = os.path.normpath(os.path.join(started_in, path))
    if os.path.splitext(os.path.basename(where))[0] == "ipython" or os.path.exists(where):
        return None
    return str(path)


def _chunked(
    recipe: Recipe, items: Iterator[Any], jobs: int | None
) -> Iterator[ChunkedText[Any, Any]]:
    # One chunker for the run, not one a batch (`Recipe.cutter` says why).
    cut_here = partial(_cut_text, recipe.cutter())
    work, made = _work_of(recipe)
    unsendable = partial(_unsendable, recipe)
    for results in spread(
        _checked(items), jobs, _text_length, cut_here, work, recipe, made, unsendable
    ):
        yield from results


# What a worker does with a batch, and what makes its answer the batch's results.
_Work = tuple[
    Callable[[Recipe, list[tuple[Any, str]]], Any],
    Callable[[list[tuple[Any, str]], Any], list[ChunkedText]],
]


def _work_of(recipe: Recipe) -> _Work:
    """What a worker answers differs by the way `recipe` cuts (each function says)."""
    if recipe.has_budget:
        return _fields, partial(_made_of_each, _records_of_fields(recipe))
    if recipe.strategy == "semantic":
        return _batch_columns, _records_of_columns
    return _positions, partial(_made_of_each, _records_of_engine)


def _sendable() -> None:
    return None


def spread(
    items: Iterator[Item],
    jobs: int | None,
    size: Callable[[Item], int],
    here: Callable[[Item], Result],
    work: Callable[[Shared, list[Item]], Answer],
    shared: Shared,
    made: Callable[[list[Item], Answer], list[Result]],
    unsendable: Callable[[], Exception | None] = _sendable,
    batch_here: Callable[[list[Item]], Answer] | None = None,
    own_process: bool = False,
) -> Iterator[list[Result]]:
    """Each item's result, in input order, in lists as they are done: `[here(item)]` for an
    item done in this process alone (a batch's results held until its last item was done
    made `chunk_many` slower than a plain loop, tests/bench/pipelines.py); over processes, a
    batch's (`batched`) at once, `made(batch, work(shared, batch))` where a worker did, and
    where this process cut it (`pool.map_in_order`: it cuts too)
    `made(batch, batch_here(batch))` if `batch_here` is given (the command line: a batch's
    output written at once, not a file at a time), else `[here(item) for item in batch]`.
    `size`: an item's characters.

    The one place `jobs` is decided. Given: that many processes (1: this one), unless the
    input is one batch (a process would only wait for it). None: this process alone if it
    may use one core only (`default_jobs`); else it does items itself, a result each, until
    `PROCESSES_FROM_CHARS` characters are done, timing them, and starts a worker per core
    for the rest only if it did them slower than `PROCESSES_BELOW_CHARS_A_SECOND`: faster
    work than that costs the parent more to send and receive than the workers save
    (docs/processes.md). Workers that cannot be sent `shared` (`unsendable` says why; a
    caller with `jobs` given asks first) or cannot start for this program
    (`_unstartable_main`: given, that raises as they would start) leave None in this
    process. `own_process`: the caller owns its process (the command line), which decides
    how workers start (`pool.start_method`).
    """
    cores = default_jobs() if jobs is None else jobs
    if jobs is None and cores > 1:
        pays = yield from _probe(items, size, here)
        if pays is None:  # the input ended
            return
        # Checked only now, as processes would start: a check may pickle `shared`.
        if not pays or unsendable() is not None or _unstartable_main(None, own_process) is not None:
            cores = 1
    if cores == 1:
        for item in items:
            yield [here(item)]
        return
    batches = batched(items, size)
    head = list(islice(batches, 2))
    if len(head) < 2:
        for item in chain.from_iterable(head):
            yield [here(item)]
        return
    if jobs is not None:  # as processes would start, not before: a small input never needs them
        problem = _unstartable_main(cores, own_process)
        if problem is not None:
            raise problem
    from chunker.pipelines.pool import (
        map_in_order,  # processes: not in the browser, which never gets here
    )

    method = _start_method(own_process)
    if batch_here is not None:
        for batch, answer, _ in map_in_order(
            work, chain(head, batches), cores, shared, batch_here, method
        ):
            yield made(batch, answer)
        return
    each_here = partial(_each, here)
    for batch, answer, done_here in map_in_order(
        work, chain(head, batches), cores, shared, each_here, method
    ):
        yield answer if done_here else made(batch, answer)


def _each(here: Callable[[Item], Result], batch: list[Item]) -> list[Result]:
    return [here(item) for item in batch]


def _probe(
    units: Iterator[Item], size: Callable[[Item], int], here: Callable[[Item], Result]
) -> Generator[list[Result], None, bool | None]:
    """`[here(unit)]` for each unit, in this process, until `PROCESSES_FROM_CHARS`
    characters (`size`) are done, timed; then whether processes pay for the rest, by
    `jobs=None`'s rule (`spread`): the work was slower than
    `PROCESSES_BELOW_CHARS_A_SECOND`. None if the units ended first."""
    done = 0
    started = time.perf_counter()
    for unit in units:
        done += size(unit)
        yield [here(unit)]
        if done >= PROCESSES_FROM_CHARS:
            elapsed = max(time.perf_counter() - started, 1e-9)
            return done / elapsed < PROCESSES_BELOW_CHARS_A_SECOND
    return None


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
    """`items` in lists closed once their `size`s reach `BATCH_CHARS`, or at `BATCH_ITEMS`
    items: the units of work sent to a process."""
    batch: list[Item] = []
    total = 0
    for item in items:
        batch.append(item)
        total += size(item)
        if total >= BATCH_CHARS or len(batch) >= BATCH_ITEMS:
            yield batch
            batch, total = [], 0
    if batch:
        yield batch


def _text_length(pair: tuple[Any, str]) -> int:
    return len(pair[1])


def _batch_chars(batch: list[tuple[Any, str]]) -> int:
    return sum(len(text) for _, text in batch)


def _cut_text(cut: Callable[[str], list[Any]], pair: tuple[Any, str]) -> ChunkedText:
    return ChunkedText(pair[0], tuple(cut(pair[1])))


def _made_of_each(
    record: Callable[[str, Any], tuple[Any, ...]], batch: list[tuple[Any, str]], answers: list[Any]
) -> list[ChunkedText]:
    """A batch's results from a worker's answer for each of its texts."""
    return [ChunkedText(key, record(text, answer)) for (key, text), answer in zip(batch, answers)]


# What a worker answers for a batch cut by `SemanticChunker`: its texts' `ChunkColumns`, one
# after another in one set, the integers as arrays (a pickle of a list writes and reads each
# integer as an object: the parent's unpickling was a large part of what a worker's batch
# cost it, tests/bench/pipelines.py), and where each text's chunks end.
# (`array[int]` quoted: arrays are subscriptable at run time from Python 3.12.)
_BatchColumns = tuple[
    "array[int]",
    "array[int]",
    list[BoundaryType],
    "array[int]",
    "array[int]",
    "array[int]",
    list[str],
]


def _batch_columns(recipe: Recipe, batch: list[tuple[Any, str]]) -> _BatchColumns:
    """In a worker: a batch's `SemanticChunker` chunks (see `_BatchColumns`)."""
    from chunker.semantic_chunker import SemanticChunker

    chunker = SemanticChunker(**(recipe.options or {}))
    columns = ChunkColumns()
    ends = array("q")
    for _, text in batch:
        chunker.chunk_columns(text, into=columns)
        ends.append(len(columns.boundaries))
    return (
        ends,
        array("q", columns.offsets),
        columns.boundaries,
        array("q", columns.spans),
        array("q", columns.overlap_spans),
        array("q", columns.places),
        columns.texts,
    )


def _records_of_columns(batch: list[tuple[Any, str]], answer: _BatchColumns) -> list[ChunkedText]:
    """The `Chunk`s of a batch that `_batch_columns` describes: its columns read back into
    rows (`records.ChunkRows`) a column at a time, then each text's records made of them."""
    ends, offset_column, boundaries, span_column, overlap_column, place_column, unplaced = answer
    # Lists, not the arrays: a list's slices and items are read faster.
    offsets, spans, overlaps, places = (
        column.tolist() for column in (offset_column, span_column, overlap_column, place_column)
    )
    rows = list(
        zip(
            places[0::4],
            places[1::4],
            places[2::4],
            places[3::4],
            offsets[0::2],
            offsets[1::2],
            boundaries,
            zip(spans[0::2], spans[1::2]),
            [
                None if start < 0 else (start, end)
                for start, end in zip(overlaps[0::2], overlaps[1::2])
            ],
        )
    )
    rest = iter(unplaced)
    results: list[ChunkedText] = []
    done = 0
    for (key, text), end in zip(batch, ends):
        written = ChunkRows()
        written.rows = rows[done:end]
        written.texts = list(islice(rest, places[4 * done : 4 * end : 4].count(-1)))
        results.append(ChunkedText(key, tuple(records(text, written))))
        done = end
    return results


def _positions(recipe: Recipe, batch: list[tuple[Any, str]]) -> list[Any]:
    """In a worker: each text's engine chunks as `(start, end, content or None where it is
    the text at its span, heading, metadata)`."""
    cut = recipe.cutter()
    return [[_engine_row(text, chunk) for chunk in cut(text)] for _, text in batch]


def _fields(recipe: Recipe, batch: list[tuple[Any, str]]) -> list[Any]:
    """In a worker, with a token budget: each text's records as their fields' values. The
    budget cuts chunks again after they are cut, so the columns do not describe its pieces
    (`chunk_columns` refuses one), and its pieces carry their token counts."""
    values = attrgetter(*_record_of(recipe).__slots__)
    cut = recipe.cutter()
    return [[values(chunk) for chunk in cut(text)] for _, text in batch]


def _records_of_fields(recipe: Recipe) -> Callable[[str, Any], tuple[Any, ...]]:
    """What makes `_fields`' rows records again, each with its count: `Chunk`s by
    `records.records`, `DocumentChunk`s by `records.document_records`."""
    if _record_of(recipe) is DocumentChunk:

        def documents(text: str, rows: Any) -> tuple[Any, ...]:
            written = [
                document_row(content, heading, metadata, span)
                for content, _, heading, metadata, span, _ in rows
            ]
            return tuple(document_records(written, [row[-1] for row in rows]))

        return documents

    def chunks(text: str, rows: Any) -> tuple[Any, ...]:
        written = ChunkRows()
        written.rows = [
            (-1, -1, -1, -1, start, end, boundary, span, overlap)
            for _, _, start, end, boundary, _, span, overlap, _ in rows
        ]
        written.texts = [row[0] for row in rows]
        metadata = rows[0][5] if rows else None  # one object on every chunk of a text
        return tuple(records(text, written, metadata, [row[-1] for row in rows]))

    return chunks


def _record_of(recipe: Recipe) -> type[Chunk] | type[DocumentChunk]:
    return Chunk if recipe.strategy == "semantic" else DocumentChunk


def _engine_row(text: str, chunk: Any) -> tuple[Any, ...]:
    start, end = chunk.span
    content = chunk.content
    at_span = end - start == len(content) and text.startswith(content, start)
    return (start, end, None if at_span else content, chunk.heading, chunk.metadata)


def _records_of_engine(text: str, answer: Any) -> tuple[DocumentChunk, ...]:
    rows: list[DocumentRow] = []
    for start, end, content, heading, metadata in answer:
        row = DocumentRow()
        row.content = text[start:end] if content is None else content
        row.heading = heading
        row.metadata = metadata
        row.span = start, end
        rows.append(row)
    return tuple(document_records(rows))
