"""A live document's chunks as runs of records, each run moved by the edits after it, and
made into moved records only when read; and what "the same chunk, moved" means."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import fields
from itertools import islice
from typing import NamedTuple, overload

from chunker.text.records import Chunk, DocumentChunk

__all__ = ["AnyChunk", "Run", "Runs", "moved", "same"]

AnyChunk = Chunk | DocumentChunk


class Run(NamedTuple):
    """`chunks[lo:hi]`, each moved `by` characters and `renumber` places."""

    chunks: Sequence[AnyChunk]
    lo: int
    hi: int
    by: int
    renumber: int


class Runs(Sequence[AnyChunk]):
    """Chunks as runs of records to move, read as moved records."""

    __slots__ = ("runs", "ends")

    def __init__(self, runs: list[Run]) -> None:
        self.runs = [run for run in runs if run.hi > run.lo]
        self.ends: list[int] = []  # where each run ends in the sequence
        total = 0
        for run in self.runs:
            total += run.hi - run.lo
            self.ends.append(total)

    def __len__(self) -> int:
        return self.ends[-1] if self.ends else 0

    @overload
    def __getitem__(self, at: int) -> AnyChunk: ...
    @overload
    def __getitem__(self, at: slice) -> list[AnyChunk]: ...
    def __getitem__(self, at: int | slice) -> AnyChunk | list[AnyChunk]:
        if isinstance(at, slice):
            return [self[number] for number in range(*at.indices(len(self)))]
        if at < 0:
            at += len(self)
        if not 0 <= at < len(self):
            raise IndexError("chunk index out of range")
        number = bisect_right(self.ends, at)
        run = self.runs[number]
        place = run.lo + at - (self.ends[number - 1] if number else 0)
        return moved(run.chunks[place], run.by, run.renumber)

    def __iter__(self) -> Iterator[AnyChunk]:
        for chunks, lo, hi, by, renumber in self.runs:
            if not by and not renumber:
                yield from islice(chunks, lo, hi)
            else:
                for chunk in islice(chunks, lo, hi):
                    yield moved(chunk, by, renumber)

    def __repr__(self) -> str:
        return repr(list(self))

    def __eq__(self, other: object) -> bool:
        # As a list compares: `change.kept == [...]` reads as a list's would.
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a sequence whose chunks may be compared

    def cut(self, lo: int, hi: int) -> list[Run]:
        """The runs of `self[lo:hi]`."""
        out = []
        start = 0
        for run, end in zip(self.runs, self.ends):
            if end > lo and start < hi:
                out.append(
                    run._replace(lo=run.lo + max(lo - start, 0), hi=run.hi - max(end - hi, 0))
                )
            start = end
        return out

    def first_from(self, position: int) -> int:
        """How many chunks have a span that starts before `position`."""
        start = 0
        for run, end in zip(self.runs, self.ends):
            last = run.chunks[run.hi - 1].span[0] + run.by
            if last >= position:
                found = bisect_left(run.chunks, position - run.by, run.lo, run.hi, key=_span_start)
                return start + found - run.lo
            start = end
        return start


def _span_start(chunk: AnyChunk) -> int:
    return chunk.span[0]


def moved(chunk: AnyChunk, by: int, renumber: int) -> AnyChunk:
    """`chunk` with its spans and offsets `by` characters on and its index `renumber` on.

    Made field by field, as a frozen dataclass's `__init__` does, not by `replace`, which
    costs several times as much: a document moves every chunk after its edits when they are
    read (tests/bench/live.py)."""
    if not by and not renumber:
        return chunk
    kind = chunk.__class__
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in fields(kind))
    new = object.__new__(kind)
    for name in names:
        _set(new, name, getattr(chunk, name))
    _set(new, "index", chunk.index + renumber)
    if by:
        start, end = chunk.span
        _set(new, "span", (start + by, end + by))
        if kind is Chunk:
            assert isinstance(chunk, Chunk)
            _set(new, "start_offset", chunk.start_offset + by)
            _set(new, "end_offset", chunk.end_offset + by)
            overlap = chunk.overlap_span
            if overlap is not None:
                _set(new, "overlap_span", (overlap[0] + by, overlap[1] + by))
    return new


_FIELDS: dict[type, tuple[str, ...]] = {}
_set = object.__setattr__


def same(new: AnyChunk, old: AnyChunk, by: int) -> bool:
    """Whether `new` is `old` moved `by` characters, every field but the index."""
    if new.span != (old.span[0] + by, old.span[1] + by) or new.token_count != old.token_count:
        return False
    if isinstance(new, Chunk) and isinstance(old, Chunk):
        overlap = old.overlap_span
        return (
            new.text == old.text
            and new.boundary_type == old.boundary_type
            and new.start_offset == old.start_offset + by
            and new.end_offset == old.end_offset + by
            and new.overlap_span
            == (None if overlap is None else (overlap[0] + by, overlap[1] + by))
            and new.metadata == old.metadata
        )
    if isinstance(new, DocumentChunk) and isinstance(old, DocumentChunk):
        return (
            new.content == old.content
            and new.heading == old.heading
            and new.metadata == old.metadata
        )
    return False
