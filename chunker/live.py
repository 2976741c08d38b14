"""`LiveDocument`: a text and its chunks kept equal to a fresh chunking of it under edits,
re-cutting only the region an edit can reach (docs/live.md has the rule for each strategy).

An edit is re-cut from an anchor before it, a place where the chunker's state is known
whatever came before (for `SemanticChunker` a heading line or a fence that opens a code
block, outside any code block; for `hierarchical` a first-level heading; for `layout` a
code block), through the anchors after it until the new chunks between two of them equal
the old ones there, moved by the edit: from there on the old chunks stand, moved. Where no
anchor bounds the edit (plain prose, `fixed`, an edit after a code block left open or one
that pairs the fences differently), the text is re-cut from the anchor before the edit, or
the start, to the end.

The chunks after the edit are moved lazily: a `LiveDocument` holds runs of chunks, each with
how far its spans and indices are to move, and makes a moved record only when it is read.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from itertools import islice, pairwise
from typing import TYPE_CHECKING, Any, Generic, Literal, NamedTuple, TypeVar, cast, overload

from chunker.base.validation import (
    ArgumentValueError,
    require_choice,
    require_int,
    require_known_options,
    require_text,
)
from chunker.base.whitespace import JS_WHITESPACE, LINE_TERMINATORS, WS_CLASS
from chunker.recipe import PIPELINE_STRATEGIES, EngineStrategy, Recipe
from chunker.text.records import Chunk, DocumentChunk
from chunker.text.structure import HEADING_START_RE, fence_lines

if TYPE_CHECKING:
    # typing_extensions is a checker's own (typeshed's, for any Python): nothing at run time.
    from typing_extensions import Unpack

    from chunker.engine import EmbedFn
    from chunker.option_types import EngineOptions, SemanticOptions

    class EngineSemanticOptions(EngineOptions, total=False):
        """The options of `engine-semantic`: the engine's, and its `embed_fn`."""

        embed_fn: EmbedFn | None


__all__ = ["LiveDocument", "Change", "LIVE_STRATEGIES"]

AnyChunk = Chunk | DocumentChunk
# A document's chunks, `Chunk`s for `semantic`, `DocumentChunk`s for the engine's strategies.
ChunkT = TypeVar("ChunkT", bound=AnyChunk)
ChunkT_co = TypeVar("ChunkT_co", bound=AnyChunk, covariant=True)

# The pipelines' strategies, and the engine's own `semantic` (sentences grouped by the
# similarity of their embeddings: `embed_fn`), which a pipeline cannot send to other
# processes but a document in this one can call.
ENGINE_SEMANTIC = "engine-semantic"
LIVE_STRATEGIES: tuple[str, ...] = (*PIPELINE_STRATEGIES, ENGINE_SEMANTIC)
_ENGINE_SEMANTIC_OPTIONS = ("chunk_size", "chunk_overlap", "embed_fn", "max_tokens", "tokenizer")

# Runs of moved chunks a document holds before it makes them records again (`_Runs`): each
# edit adds at most two, and a lookup walks them.
_MOST_RUNS = 64


@dataclass(frozen=True, slots=True)
class Change(Generic[ChunkT_co]):
    """What an edit did to the chunks: a pipeline embeds `added`, deletes `removed`."""

    kept: Sequence[ChunkT_co]
    """The chunks carried over unchanged in text and kind, each at its new index and moved
    span, in order (a sequence whose records are made as they are read)."""
    removed: list[ChunkT_co]
    """The old chunks that are gone, as they were."""
    added: list[ChunkT_co]
    """The new chunks, in order."""


class _Run(NamedTuple):
    """`chunks[lo:hi]`, each moved `by` characters and `renumber` places."""

    chunks: Sequence[AnyChunk]
    lo: int
    hi: int
    by: int
    renumber: int


class _Runs(Sequence[AnyChunk]):
    """Chunks as runs of records to move, read as moved records."""

    __slots__ = ("runs", "ends")

    def __init__(self, runs: list[_Run]) -> None:
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
        return _moved(run.chunks[place], run.by, run.renumber)

    def __iter__(self) -> Iterator[AnyChunk]:
        for chunks, lo, hi, by, renumber in self.runs:
            if not by and not renumber:
                yield from islice(chunks, lo, hi)
            else:
                for chunk in islice(chunks, lo, hi):
                    yield _moved(chunk, by, renumber)

    def __repr__(self) -> str:
        return repr(list(self))

    def __eq__(self, other: object) -> bool:
        # As a list compares: `change.kept == [...]` reads as a list's would.
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a sequence whose chunks may be compared

    def cut(self, lo: int, hi: int) -> list[_Run]:
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


def _moved(chunk: AnyChunk, by: int, renumber: int) -> AnyChunk:
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


def _same(new: AnyChunk, old: AnyChunk, by: int) -> bool:
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


def _line_end(text: _Text, at: int) -> int:
    """Where the line starting at `at` ends, past its line feed (past the text without one)."""
    found = text.find("\n", at)
    return len(text) + 1 if found < 0 else found + 1


# The characters a block of a `_Text` holds, about: an edit copies one or two blocks.
_BLOCK_CHARS = 1 << 16


class _Text:
    """A text as blocks, so that an edit copies a block or two, not the text (5 MB of text
    with one character outside the BMP is 20 MB, and copying it costs more than re-cutting
    the region an edit reaches: tests/bench/live.py). Read as the `str` methods it answers;
    `str()` joins it, once."""

    __slots__ = ("blocks", "starts", "length", "whole")

    def __init__(self, blocks: list[str], whole: str | None = None) -> None:
        self.blocks = blocks
        self.starts = []  # where each block starts
        at = 0
        for block in blocks:
            self.starts.append(at)
            at += len(block)
        self.length = at
        self.whole = whole

    @classmethod
    def of(cls, text: str) -> _Text:
        step = _BLOCK_CHARS
        return cls([text[at : at + step] for at in range(0, len(text), step)], text)

    def __str__(self) -> str:
        if self.whole is None:
            self.whole = "".join(self.blocks)
        return self.whole

    def __len__(self) -> int:
        return self.length

    def _block(self, at: int) -> int:
        """The block holding the character at `at` (the last block for the end)."""
        return max(bisect_right(self.starts, at) - 1, 0)

    @overload
    def __getitem__(self, at: int) -> str: ...
    @overload
    def __getitem__(self, at: slice) -> str: ...
    def __getitem__(self, at: int | slice) -> str:
        if self.whole is not None:
            return self.whole[at]
        if isinstance(at, int):
            number = self._block(at)
            return self.blocks[number][at - self.starts[number]]
        start, stop, _ = at.indices(self.length)
        if start >= stop:
            return ""
        first, last = self._block(start), self._block(stop - 1)
        if first == last:
            return self.blocks[first][start - self.starts[first] : stop - self.starts[first]]
        return "".join(
            (
                self.blocks[first][start - self.starts[first] :],
                *self.blocks[first + 1 : last],
                self.blocks[last][: stop - self.starts[last]],
            )
        )

    def find(self, sub: str, start: int) -> int:
        """`str.find`, for a `sub` shorter than a block."""
        if self.whole is not None:
            return self.whole.find(sub, start)
        reach = len(sub) - 1
        for number in range(self._block(start), len(self.blocks)):
            at = self.starts[number]
            # The block, and what `sub` may reach of the next one past its end.
            found = self.blocks[number].find(sub, max(start - at, 0))
            if found >= 0:
                return at + found
            if reach and number + 1 < len(self.blocks):
                seam = self[
                    max(at + len(self.blocks[number]) - reach, start) : at
                    + len(self.blocks[number])
                    + reach
                ]
                found = seam.find(sub)
                if found >= 0:
                    return max(at + len(self.blocks[number]) - reach, start) + found
        return -1

    def rfind(self, sub: str, start: int, end: int) -> int:
        """`str.rfind` from `start` (0 or a place in the first block) to `end`."""
        if self.whole is not None:
            return self.whole.rfind(sub, start, end)
        reach = len(sub) - 1
        for number in range(self._block(max(end - 1, 0)), -1, -1):
            at = self.starts[number]
            if reach and number + 1 < len(self.blocks):
                seam_at = max(at + len(self.blocks[number]) - reach, start)
                seam = self[seam_at : min(at + len(self.blocks[number]) + reach, end)]
                found = seam.rfind(sub)
                if found >= 0:
                    return seam_at + found
            found = self.blocks[number].rfind(sub, max(start - at, 0), max(end - at, 0))
            if found >= 0:
                return at + found
            if at <= start:
                break
        return -1

    def replaced(self, start: int, end: int, replacement: str) -> _Text:
        """This text with `[start:end]` replaced."""
        if not self.blocks:
            return _Text.of(replacement)
        first, last = self._block(start), self._block(end)
        middle = "".join(
            (
                self.blocks[first][: start - self.starts[first]],
                replacement,
                self.blocks[last][end - self.starts[last] :],
            )
        )
        step = _BLOCK_CHARS
        made = [middle[at : at + step] for at in range(0, len(middle), step)]
        return _Text([*self.blocks[:first], *made, *self.blocks[last + 1 :]])


class _Anchors:
    """Where a chunker's state is known whatever came before: for a strategy with none, no
    place (every edit is re-cut from the start to the end)."""

    __slots__ = ("text",)

    def __init__(self, text: _Text) -> None:
        self.text = text

    def edited(self, start: int, end: int, replacement: str, text: _Text) -> _Anchors:
        """The anchors of `text`, this text with `[start:end]` replaced."""
        return type(self)(text)

    def same_state_after(self, new: _Anchors, start: int, end: int, delta: int) -> bool:
        """Whether the state a chunker carries past `[start:end]` (what the edit replaced)
        is the same in `new`'s text as in this one."""
        return True

    def is_anchor(self, at: int) -> bool:
        return False

    def down(self, before: int) -> Iterator[int]:
        """The anchors before `before`, last first."""
        return iter(())

    def restart(self, start: int, chunks: _Runs) -> tuple[int, int]:
        """Where to re-cut from for an edit at `start`, given this text's `chunks`: the
        place before which every chunk stands as it is, and a place at or before it where
        the chunker starts as it would in the whole text, so that what it cuts from the
        first is as in the whole text (0 and 0: the start)."""
        keep_to = 0
        down = self.down(start)
        for at in down:
            if _line_end(self.text, at) <= start:
                keep_to = at
                break
        return (keep_to, next(down, 0)) if keep_to else (0, 0)

    def settles(self, at: int, chunks: _Runs) -> bool:
        """Whether, at the anchor `at`, everything after it is a function of the text from
        there and the chunk before (given this text's `chunks`)."""
        return self.is_anchor(at)

    def up(self, after: int) -> Iterator[int]:
        """The anchors after `after`, in order."""
        return iter(())


class _MarkdownAnchors(_Anchors):
    """`SemanticChunker`'s: a heading line (with `respect_headings`) or a fence that opens a
    code block (with `preserve_code_blocks`), outside a code block. Step 1 starts a segment
    there whatever it was gathering, step 3 never joins it to the chunk before, and only the
    overlap, cut from the chunk before, carries over."""

    __slots__ = ("headings", "budget", "fences")

    def __init__(
        self,
        text: _Text,
        headings: bool,
        codes: bool,
        budget: bool,
        fences: list[int] | None = None,
    ) -> None:
        super().__init__(text)
        self.headings = headings
        self.budget = budget
        self.fences = fences if fences is not None else fence_lines(str(text)) if codes else []

    def edited(self, start: int, end: int, replacement: str, text: _Text) -> _Anchors:
        old, fences = self.text, self.fences
        if not fences and "```" not in replacement:
            return _MarkdownAnchors(text, self.headings, False, self.budget, [])
        # The fence lines of the lines the edit touched, found again; the later ones moved.
        lines_from = old.rfind("\n", 0, start) + 1
        lines_to = min(_line_end(old, end), len(old))
        delta = len(replacement) - (end - start)
        touched = fence_lines(text[lines_from : lines_to + delta])
        first, after = bisect_left(fences, lines_from), bisect_left(fences, lines_to)
        moved = [
            *fences[:first],
            *(lines_from + at for at in touched),
            *(at + delta for at in fences[after:]),
        ]
        return _MarkdownAnchors(text, self.headings, True, self.budget, moved)

    def same_state_after(self, new: _Anchors, start: int, end: int, delta: int) -> bool:
        assert isinstance(new, _MarkdownAnchors)
        # Each fence line opens or closes a block in turn: the edit leaves every line after
        # it inside or outside a block as it was when it adds or removes an even number. (A
        # block left open repeats, after it, the segment gathering as it opened: the
        # anchors, all before that segment, still hold.)
        past = min(_line_end(self.text, end), len(self.text))
        return (bisect_left(self.fences, past) - bisect_left(new.fences, past + delta)) % 2 == 0

    def _outside(self, at: int) -> bool:
        return bisect_left(self.fences, at) % 2 == 0

    def _opens(self, at: int) -> bool:
        # A fence that opens a block which closes: one left open runs to the end, and the
        # segment gathering before it comes out again after it, last.
        fences = self.fences
        found = bisect_left(fences, at)
        return found + 1 < len(fences) and fences[found] == at and found % 2 == 0

    def is_anchor(self, at: int) -> bool:
        if at <= 0:
            return False
        text = self.text
        return (
            self.headings and text[at - 1] == "\n" and _heading_at(text, at) and self._outside(at)
        ) or self._opens(at)

    def down(self, before: int) -> Iterator[int]:
        return heapq.merge(self._headings_down(before), self._fences_down(before), reverse=True)

    def restart(self, start: int, chunks: _Runs) -> tuple[int, int]:
        # The segment of the anchor nearest the edit may now run into it, and its first part
        # join the chunk before if it is split: so the chunks stand up to a chunk that starts
        # at an anchor before that one. The window is cut from another such anchor before,
        # so that the chunk before that one, whose end its overlap repeats, is cut whole.
        down = self.down(start)
        for at in down:
            if _line_end(self.text, at) <= start:
                break
        else:
            return 0, 0
        starting = (at for at in down if self.settles(at, chunks))
        keep_to = next(starting, 0)
        return (keep_to, next(starting, 0)) if keep_to else (0, 0)

    def settles(self, at: int, chunks: _Runs) -> bool:
        # A chunk starts at the anchor's text: its first part is not joined to the chunk
        # before (a split segment's first part is, when short). With a token budget, a
        # chunk is cut into pieces, one of which may start there: then the piece must be
        # the last of a heading or code-block chunk (a part of a split one has another
        # type).
        if not self.is_anchor(at):
            return False
        text_at = at if self.text[at] == "#" else self.text.find("```", at)
        found = chunks.first_from(text_at)
        if found == len(chunks):
            return False
        chunk = chunks[found]
        return chunk.span[0] == text_at and (
            not self.budget
            or (isinstance(chunk, Chunk) and chunk.boundary_type in ("heading", "code-block"))
        )

    def up(self, after: int) -> Iterator[int]:
        return heapq.merge(self._headings_up(after), self._fences_up(after))

    def _headings_down(self, before: int) -> Iterator[int]:
        if not self.headings:
            return
        text, at = self.text, before
        while (found := text.rfind("\n#", 0, at)) >= 0:
            if _heading_at(text, found + 1) and self._outside(found + 1):
                yield found + 1
            at = found

    def _headings_up(self, after: int) -> Iterator[int]:
        if not self.headings:
            return
        text, at = self.text, after
        while (found := text.find("\n#", at)) >= 0:
            if _heading_at(text, found + 1) and self._outside(found + 1):
                yield found + 1
            at = found + 1

    def _fences_down(self, before: int) -> Iterator[int]:
        fences = self.fences
        for number in range(min(bisect_left(fences, before), len(fences) - 1) - 1, -1, -1):
            if number % 2 == 0 and fences[number] > 0:
                yield fences[number]

    def _fences_up(self, after: int) -> Iterator[int]:
        fences = self.fences
        for number in range(bisect_right(fences, after), len(fences) - 1):
            if number % 2 == 0:
                yield fences[number]


def _heading_at(text: _Text, at: int) -> bool:
    """Whether a heading line's marks start at `at` (which starts a line)."""
    return HEADING_START_RE.match(text[at : at + 8]) is not None


# A first-level heading whose text is on its own line: "# Guide", not "## Setup", nor "#"
# alone (whose heading, for `hierarchical`, is the next line's text).
_IN_LINE = "".join(c for c in JS_WHITESPACE if c not in LINE_TERMINATORS)
_FIRST_LEVEL_RE = re.compile(f"#[{re.escape(_IN_LINE)}]+[^{WS_CLASS}]")


class _SectionAnchors(_Anchors):
    """`hierarchical`'s: a first-level heading, where the path of headings starts again
    empty. Not one after a line of `#` alone, whose heading would be this line."""

    __slots__ = ()

    def is_anchor(self, at: int) -> bool:
        text = self.text
        if (
            at <= 0
            or text[at - 1] != "\n"
            or not _FIRST_LEVEL_RE.match(text[at : _line_end(text, at)])
        ):
            return False
        before = at - 1
        while before >= 0 and text[before] in JS_WHITESPACE:
            before -= 1
        return before < 0 or text[before] != "#"

    def down(self, before: int) -> Iterator[int]:
        text, at = self.text, before
        while (found := text.rfind("\n#", 0, at)) >= 0:
            if self.is_anchor(found + 1):
                yield found + 1
            at = found

    def up(self, after: int) -> Iterator[int]:
        text, at = self.text, after
        while (found := text.find("\n#", at)) >= 0:
            if self.is_anchor(found + 1):
                yield found + 1
            at = found + 1


class _BlockAnchors(_Anchors):
    """`layout`'s: a line that opens a fenced code block, where the blocks start again
    (prose before it ends there, its fence decides where the block ends). Whether a line of
    backticks opens a block or closes one depends on the fences before it: an anchor counts
    where a code block's chunk starts at it. After the edit, the window's chunks between two
    anchors, equal to the old ones, tell that the first still opens its block, and so the
    second."""

    __slots__ = ()

    def is_anchor(self, at: int) -> bool:
        return at > 0 and self.text[at - 1] == "\n" and self.text[at : at + 3] == "```"

    def down(self, before: int) -> Iterator[int]:
        text, at = self.text, before
        while (found := text.rfind("\n```", 0, at)) >= 0:
            yield found + 1
            at = found

    def up(self, after: int) -> Iterator[int]:
        text, at = self.text, after
        while (found := text.find("\n```", at)) >= 0:
            yield found + 1
            at = found + 1

    def restart(self, start: int, chunks: _Runs) -> tuple[int, int]:
        # No overlap crosses a block: the window starts at the block the chunks stand up to.
        for at in self.down(start):
            if _line_end(self.text, at) <= start and self.settles(at, chunks):
                return at, at
        return 0, 0

    def settles(self, at: int, chunks: _Runs) -> bool:
        found = chunks.first_from(at)
        if found == len(chunks):
            return False
        chunk = chunks[found]
        return chunk.span[0] == at and isinstance(chunk, DocumentChunk) and chunk.metadata == _CODE


_CODE = {"type": "code"}

Cut = Callable[[str], Sequence[AnyChunk]]


def _chunker(strategy: str, options: dict[str, Any]) -> tuple[Cut, Callable[[_Text], _Anchors]]:
    """What cuts a text for `strategy` with `options`, and what finds its anchors."""
    require_choice("strategy", require_text("strategy", strategy), LIVE_STRATEGIES)
    if strategy == ENGINE_SEMANTIC:
        require_known_options(options, _ENGINE_SEMANTIC_OPTIONS, of=f"strategy {strategy!r}")
        from chunker.engine import ChunkingEngine

        engine = ChunkingEngine()

        def cut(text: str) -> list[DocumentChunk]:
            return engine.chunk(text, "semantic", **options)

        cut("")  # the options checked now, not at the first edit
        return cut, _Anchors
    recipe = Recipe(strategy, options)
    if strategy == "hierarchical":
        return recipe.cutter(), _SectionAnchors
    if strategy == "layout":
        # With a budget, a code block is cut into pieces, and nothing tells the piece that
        # starts at a line of backticks inside it (its closing fence) from a block.
        return recipe.cutter(), _Anchors if recipe.has_budget else _BlockAnchors
    if strategy != "semantic":
        return recipe.cutter(), _Anchors
    settings = recipe.options or {}
    headings = settings.get("respect_headings", True)
    codes = settings.get("preserve_code_blocks", True)
    return recipe.cutter(), lambda text: _MarkdownAnchors(text, headings, codes, recipe.has_budget)


class LiveDocument(Generic[ChunkT]):
    """A text and its chunks, which stay those of a fresh chunking of the text under edits,
    re-cut only where an edit can change them.

    `strategy` and `options` are `chunk_many`'s (`semantic`, or the engine's `fixed`,
    `hierarchical`, `layout`, with `max_tokens` and `tokenizer`), or `engine-semantic`, the
    engine's `semantic` with its `embed_fn`.

    Example:
        >>> doc = LiveDocument("# A\\n\\nOne.\\n\\n# B\\n\\nTwo.\\n", overlap=0)
        >>> change = doc.edit(5, 9, "Uno!")
        >>> [c.text for c in change.removed], [c.text for c in change.added]
        (['# A\\n\\nOne.\\n\\n'], ['# A\\n\\nUno!\\n\\n'])
        >>> [(c.text, c.index, c.span) for c in change.kept]
        [('# B\\n\\nTwo.\\n\\n', 1, (11, 20))]
        >>> doc.chunks == LiveDocument(doc.text, overlap=0).chunks
        True
    """

    __slots__ = ("_text", "_cut", "_anchors_of", "_anchors", "_chunks")

    @overload
    def __init__(
        self: LiveDocument[Chunk],
        text: str,
        strategy: Literal["semantic"] = "semantic",
        **options: Unpack[SemanticOptions],
    ) -> None: ...
    @overload
    def __init__(
        self: LiveDocument[DocumentChunk],
        text: str,
        strategy: EngineStrategy,
        **options: Unpack[EngineOptions],
    ) -> None: ...
    @overload
    def __init__(
        self: LiveDocument[DocumentChunk],
        text: str,
        strategy: Literal["engine-semantic"],
        **options: Unpack[EngineSemanticOptions],
    ) -> None: ...
    def __init__(self, text: str, strategy: str = "semantic", **options: Any) -> None:
        self._cut, self._anchors_of = _chunker(strategy, options)
        self._text = _Text.of(require_text("text", text))
        self._anchors = self._anchors_of(self._text)
        chunks = list(self._cut(text))
        self._chunks = _Runs([_Run(chunks, 0, len(chunks), 0, 0)])

    @property
    def text(self) -> str:
        """The text as edited."""
        return str(self._text)

    @property
    def chunks(self) -> list[ChunkT]:
        """The text's chunks, as a fresh chunking with the same settings gives them."""
        runs = self._chunks
        if len(runs.runs) == 1 and not runs.runs[0].by and not runs.runs[0].renumber:
            run = runs.runs[0]
            return cast("list[ChunkT]", list(run.chunks[run.lo : run.hi]))
        chunks = list(runs)
        self._chunks = _Runs([_Run(chunks, 0, len(chunks), 0, 0)])
        return cast("list[ChunkT]", list(chunks))

    def __repr__(self) -> str:
        return f"<LiveDocument: {len(self._text)} characters, {len(self._chunks)} chunks>"

    def edit(self, start: int, end: int, replacement: str) -> Change[ChunkT]:
        """Replace `text[start:end]` (code points, as spans count) with `replacement`; answer
        what that did to the chunks."""
        length = len(self._text)
        require_int("start", start, minimum=0)
        require_int("end", end, minimum=0)
        if start > length:
            raise ArgumentValueError(
                "start", f"invalid start {start!r} (must be <= the text's length, {length})"
            )
        if not start <= end <= length:
            raise ArgumentValueError(
                "end",
                f"invalid end {end!r} (must be from start, {start}, to the text's length, "
                f"{length})",
            )
        require_text("replacement", replacement)
        return self._apply(start, end, replacement, self._text.replaced(start, end, replacement))

    def replace_text(self, new_text: str) -> Change[ChunkT]:
        """Make the text `new_text`, the edit found as what lies between the part both
        texts start with and the part both end with; answer what that did to the chunks."""
        require_text("new_text", new_text)
        old = str(self._text)
        start = _common_prefix(old, new_text)
        end_back = _common_suffix(old, new_text, min(len(old), len(new_text)) - start)
        return self._apply(
            start,
            len(old) - end_back,
            new_text[start : len(new_text) - end_back],
            _Text.of(new_text),
        )

    def _apply(self, start: int, end: int, replacement: str, text: _Text) -> Change[ChunkT]:
        old, old_anchors = self._chunks, self._anchors
        delta = len(replacement) - (end - start)
        anchors = old_anchors.edited(start, end, replacement, text)
        # The chunks before `keep_to` stand; the window is cut from `cut_from`.
        keep_to, cut_from = old_anchors.restart(start, old)
        first = old.first_from(keep_to)
        # The anchors after the edit, anchors in both texts: from two of them on whose
        # chunks between them are the old ones moved, nothing differs.
        ahead: list[int] = []
        up = (
            (
                at
                for at in anchors.up(start + len(replacement))
                if old_anchors.settles(at - delta, old)
            )
            if old_anchors.same_state_after(anchors, start, end, delta)
            else iter(())
        )
        wanted, tried = 2, 0
        while True:
            ahead += islice(up, wanted - len(ahead))
            # Two anchors at least, and one more than the last window held, else the window
            # runs to the end.
            whole = len(ahead) < 2 or len(ahead) == tried
            tried = len(ahead)
            stop = len(text) if whole else min(_line_end(text, ahead[-1]), len(text))
            window = self._cut(text[cut_from:stop])
            starts = [chunk.span[0] + cut_from for chunk in window]
            begin = next((n for n, at in enumerate(starts) if at >= keep_to), len(window))
            if whole:
                upto, resume = len(window), len(old)
                break
            trusted = next((n for n, at in enumerate(starts) if at >= ahead[-1]), len(window))
            found = _resync(window, starts, trusted, old, ahead, delta, cut_from)
            if found is not None:
                upto, resume = found
                break
            wanted *= 2
        middle = [
            _moved(chunk, cut_from, first + number - chunk.index)
            for number, chunk in enumerate(window[begin:upto])
        ]
        replaced = old[first:resume]
        kept, removed, added = _diff(replaced, middle, start, delta)
        renumber = len(middle) - len(replaced)
        tail = [
            run._replace(by=run.by + delta, renumber=run.renumber + renumber)
            for run in old.cut(resume, len(old))
        ]
        head = old.cut(0, first)
        runs = [*head, _Run(middle, 0, len(middle), 0, 0), *tail]
        if len(runs) > _MOST_RUNS:
            chunks = list(_Runs(runs))
            runs = [_Run(chunks, 0, len(chunks), 0, 0)]
        self._text, self._anchors, self._chunks = text, anchors, _Runs(runs)
        change = Change(_Runs([*head, _Run(kept, 0, len(kept), 0, 0), *tail]), removed, added)
        return cast("Change[ChunkT]", change)


def _resync(
    window: Sequence[AnyChunk],
    starts: list[int],
    trusted: int,
    old: _Runs,
    ahead: list[int],
    delta: int,
    cut_from: int,
) -> tuple[int, int] | None:
    """Where the window's chunks (`window[:trusted]` as the whole text's; `starts`, where
    each starts in it) give way to the old ones, moved: the first of two anchors in `ahead`
    between which the window holds the old chunks moved `delta`, as (that place in
    `window`, in `old`); None if there is none."""
    for at, then in pairwise(ahead):
        lo, hi = bisect_left(starts, at, 0, trusted), bisect_left(starts, then, 0, trusted)
        old_lo, old_hi = old.first_from(at - delta), old.first_from(then - delta)
        if hi - lo != old_hi - old_lo or hi == lo:
            continue
        if all(
            _same(window[lo + number], old[old_lo + number], delta - cut_from)
            for number in range(hi - lo)
        ):
            return lo, old_lo
    return None


def _diff(
    old: list[AnyChunk], new: list[AnyChunk], start: int, delta: int
) -> tuple[list[AnyChunk], list[AnyChunk], list[AnyChunk]]:
    """`new` against `old` in order: kept (the new chunks that are old ones, moved by the
    edit when they started at or past its start), removed, added."""
    kept: list[AnyChunk] = []
    removed: list[AnyChunk] = []
    added: list[AnyChunk] = []
    i = k = 0
    while i < len(old) and k < len(new):
        was, now = old[i], new[k]
        by = 0 if was.span[0] < start else delta
        if _same(now, was, by):
            kept.append(now)
            i += 1
            k += 1
            continue
        if was.span[0] + by <= now.span[0]:
            removed.append(was)
            i += 1
        if was.span[0] + by >= now.span[0]:
            added.append(now)
            k += 1
    removed += old[i:]
    added += new[k:]
    return kept, removed, added


# Texts are compared in blocks of this many characters before one block is searched
# character by character: a slice comparison is one memcmp.
_BLOCK = 4096


def _common_prefix(a: str, b: str) -> int:
    """How many characters `a` and `b` start with alike."""
    most = min(len(a), len(b))
    at = 0
    while at < most and a[at : at + _BLOCK] == b[at : at + _BLOCK]:
        at += _BLOCK
    at = min(at, most)
    while at < most and a[at] == b[at]:
        at += 1
    return at


def _common_suffix(a: str, b: str, most: int) -> int:
    """How many characters, at most `most`, `a` and `b` end with alike."""
    back = 0
    while (
        back + _BLOCK <= most
        and a[len(a) - back - _BLOCK : len(a) - back] == b[len(b) - back - _BLOCK : len(b) - back]
    ):
        back += _BLOCK
    while back < most and a[len(a) - back - 1] == b[len(b) - back - 1]:
        back += 1
    return back
