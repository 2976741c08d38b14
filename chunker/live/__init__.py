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

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import islice, pairwise
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, cast, overload

from chunker.base.validation import (
    ArgumentValueError,
    require_choice,
    require_int,
    require_known_options,
    require_text,
)
from chunker.live.anchors import Anchors, BlockAnchors, MarkdownAnchors, SectionAnchors, line_end
from chunker.live.blocks import BlockText
from chunker.live.runs import AnyChunk, Run, Runs, moved, same
from chunker.recipe import PIPELINE_STRATEGIES, EngineStrategy, Recipe
from chunker.text.records import Chunk, DocumentChunk

if TYPE_CHECKING:
    # typing_extensions is a checker's own (typeshed's, for any Python): nothing at run time.
    from typing_extensions import Unpack

    from chunker.engine import EmbedFn
    from chunker.option_types import EngineOptions, SemanticOptions

    class EngineSemanticOptions(EngineOptions, total=False):
        """The options of `engine-semantic`: the engine's, and its `embed_fn`."""

        embed_fn: EmbedFn | None


__all__ = ["LiveDocument", "Change", "LIVE_STRATEGIES"]

# A document's chunks, `Chunk`s for `semantic`, `DocumentChunk`s for the engine's strategies.
ChunkT = TypeVar("ChunkT", bound=AnyChunk)
ChunkT_co = TypeVar("ChunkT_co", bound=AnyChunk, covariant=True)

# The pipelines' strategies, and the engine's own `semantic` (sentences grouped by the
# similarity of their embeddings: `embed_fn`), which a pipeline cannot send to other
# processes but a document in this one can call.
ENGINE_SEMANTIC = "engine-semantic"
LIVE_STRATEGIES: tuple[str, ...] = (*PIPELINE_STRATEGIES, ENGINE_SEMANTIC)
_ENGINE_SEMANTIC_OPTIONS = ("chunk_size", "chunk_overlap", "embed_fn", "max_tokens", "tokenizer")

# Runs of moved chunks a document holds before it makes them records again (`runs.Runs`): each
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


Cut = Callable[[str], Sequence[AnyChunk]]


def _chunker(strategy: str, options: dict[str, Any]) -> tuple[Cut, Callable[[BlockText], Anchors]]:
    """What cuts a text for `strategy` with `options`, and what finds its anchors."""
    require_choice("strategy", require_text("strategy", strategy), LIVE_STRATEGIES)
    if strategy == ENGINE_SEMANTIC:
        require_known_options(options, _ENGINE_SEMANTIC_OPTIONS, of=f"strategy {strategy!r}")
        from chunker.engine import ChunkingEngine

        engine = ChunkingEngine()

        def cut(text: str) -> list[DocumentChunk]:
            return engine.chunk(text, "semantic", **options)

        cut("")  # the options checked now, not at the first edit
        return cut, Anchors
    recipe = Recipe(strategy, options)
    if strategy == "hierarchical":
        return recipe.cutter(), SectionAnchors
    if strategy == "layout":
        # With a budget, a code block is cut into pieces, and nothing tells the piece that
        # starts at a line of backticks inside it (its closing fence) from a block.
        return recipe.cutter(), Anchors if recipe.has_budget else BlockAnchors
    if strategy != "semantic":
        return recipe.cutter(), Anchors
    settings = recipe.options or {}
    headings = settings.get("respect_headings", True)
    codes = settings.get("preserve_code_blocks", True)
    return recipe.cutter(), lambda text: MarkdownAnchors(text, headings, codes, recipe.has_budget)


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
        self._text = BlockText.of(require_text("text", text))
        self._anchors = self._anchors_of(self._text)
        chunks = list(self._cut(text))
        self._chunks = Runs([Run(chunks, 0, len(chunks), 0, 0)])

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
        self._chunks = Runs([Run(chunks, 0, len(chunks), 0, 0)])
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
            BlockText.of(new_text),
        )

    def _apply(self, start: int, end: int, replacement: str, text: BlockText) -> Change[ChunkT]:
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
            stop = len(text) if whole else min(line_end(text, ahead[-1]), len(text))
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
            moved(chunk, cut_from, first + number - chunk.index)
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
        runs = [*head, Run(middle, 0, len(middle), 0, 0), *tail]
        if len(runs) > _MOST_RUNS:
            chunks = list(Runs(runs))
            runs = [Run(chunks, 0, len(chunks), 0, 0)]
        self._text, self._anchors, self._chunks = text, anchors, Runs(runs)
        change = Change(Runs([*head, Run(kept, 0, len(kept), 0, 0), *tail]), removed, added)
        return cast("Change[ChunkT]", change)


def _resync(
    window: Sequence[AnyChunk],
    starts: list[int],
    trusted: int,
    old: Runs,
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
            same(window[lo + number], old[old_lo + number], delta - cut_from)
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
        if same(now, was, by):
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
