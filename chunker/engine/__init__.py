"""`ChunkingEngine`: the four strategies of the original's document ingestion."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from chunker.base.collector import collector_paused
from chunker.base.limits import BOUNDARIES, MINIMUMS
from chunker.base.validation import (
    ArgumentTypeError,
    ArgumentValueError,
    require_choice,
    require_int,
    require_text,
)
from chunker.base.whitespace import bom_length, tight_span
from chunker.engine.fixed import fixed_chunks
from chunker.engine.hierarchical import hierarchical_chunks
from chunker.engine.layout import layout_chunks
from chunker.engine.semantic import check_vectors, group_by_similarity, sentences_before_capitals
from chunker.text.records import DocumentChunk, DocumentRow, document_records, document_row

if TYPE_CHECKING:
    from chunker.base.limits import Boundaries
    from chunker.tokens import Budget, Tokenizer

__all__ = ["ChunkingEngine", "STRATEGIES", "ChunkingStrategy", "EmbedFn", "AsyncEmbedFn"]

# The strategies by name, for a user's type checker (a misspelt one is a type error).
ChunkingStrategy = Literal["fixed", "semantic", "hierarchical", "layout"]

EmbedFn = Callable[[list[str]], Sequence[Sequence[float]]]
AsyncEmbedFn = Callable[[list[str]], Awaitable[Sequence[Sequence[float]]]]

# Each strategy without embeddings, adding a row a chunk to the list given; `semantic` runs as
# `fixed` when it has none to use.
_WITHOUT_EMBEDDINGS: dict[ChunkingStrategy, Callable[[str, int, int, list[DocumentRow]], None]] = {
    "fixed": fixed_chunks,
    "semantic": fixed_chunks,
    "hierarchical": hierarchical_chunks,
    "layout": layout_chunks,
}

STRATEGIES: tuple[ChunkingStrategy, ...] = tuple(_WITHOUT_EMBEDDINGS)


class ChunkingEngine:
    """Cut documents by a fixed size, by embedding similarity, by headings, or around blocks.

    Example:
        >>> engine = ChunkingEngine()
        >>> [c.content for c in engine.chunk("one two three", chunk_size=8, chunk_overlap=0)]
        ['one two', 'three']
    """

    __slots__ = ()

    def chunk(
        self,
        content: str,
        strategy: ChunkingStrategy = "fixed",
        chunk_size: int = 512,
        chunk_overlap: int = 64,
        embed_fn: EmbedFn | None = None,
        max_tokens: int | None = None,
        tokenizer: Tokenizer | None = None,
        boundaries: Boundaries = "position",
    ) -> list[DocumentChunk]:
        """Cut `content` with `strategy` (`fixed`, `semantic`, `hierarchical` or `layout`).

        Args:
            content: the document.
            strategy: how to cut it.
            chunk_size: characters a chunk holds at most (a code block or table, whole, may
                hold more; so may a lone sentence in `semantic`).
            chunk_overlap: characters each `fixed` window starts before the end of the last.
            embed_fn: for `semantic`, called once with the sentences; answers one vector each.
            max_tokens: tokens of `tokenizer` no chunk holds more of: a chunk over them is
                cut again (`budget.py`); None, no budget.
            tokenizer: what counts tokens (`tokens.Tokenizer`: `cl100k_base` unless given);
                with one, each chunk has its `token_count`.
            boundaries: where `fixed` windows end: "position", every `chunk_size` less
                `chunk_overlap` characters cut back to white space (the original's), or
                "content", at words the text's own content chooses, so an edit moves only
                the windows next to it (`content_windows.py`); `fixed` only.
        """
        budget = _budget(max_tokens, tokenizer)
        with collector_paused():  # not around embed_fn: the caller's code, cycles and all
            request = _Request(content, strategy, chunk_size, chunk_overlap, embed_fn, boundaries)
            sentences = request.sentences_to_embed()
            if sentences is None:
                return _within(request.without_embeddings(), request.content, budget)
        vectors = request.embed_fn(sentences)
        if inspect.isawaitable(vectors):
            _close(vectors)
            raise ArgumentTypeError(
                "embed_fn", "embed_fn returned an awaitable: use achunk() for an async embed_fn"
            )
        return _within(request.with_embeddings(sentences, vectors), request.content, budget)

    async def achunk(
        self,
        content: str,
        strategy: ChunkingStrategy = "fixed",
        chunk_size: int = 512,
        chunk_overlap: int = 64,
        embed_fn: AsyncEmbedFn | EmbedFn | None = None,
        max_tokens: int | None = None,
        tokenizer: Tokenizer | None = None,
        boundaries: Boundaries = "position",
    ) -> list[DocumentChunk]:
        """`chunk()` for an async `embed_fn` (a plain one works too), as the original's Promise."""
        budget = _budget(max_tokens, tokenizer)
        with collector_paused():  # not around embed_fn: the caller's code, cycles and all
            request = _Request(content, strategy, chunk_size, chunk_overlap, embed_fn, boundaries)
            sentences = request.sentences_to_embed()
            if sentences is None:
                return _within(request.without_embeddings(), request.content, budget)
        vectors = request.embed_fn(sentences)
        if inspect.isawaitable(vectors):
            vectors = await vectors
        return _within(request.with_embeddings(sentences, vectors), request.content, budget)


class _Request:
    """One call's checked arguments."""

    __slots__ = (
        "content",
        "mark",
        "text",
        "strategy",
        "chunk_size",
        "chunk_overlap",
        "embed_fn",
        "boundaries",
        "sentences",
        "starts",
    )

    def __init__(
        self,
        content: Any,
        strategy: Any,
        chunk_size: Any,
        chunk_overlap: Any,
        embed_fn: Any,
        boundaries: Any,
    ) -> None:
        self.content = require_text("content", content)
        # A byte-order mark is no part of the text: what follows it is cut, and the chunks'
        # spans shifted past it (`_placed`), to index `content`.
        self.mark = bom_length(self.content)
        self.text = self.content[self.mark :] if self.mark else self.content
        self.strategy = require_choice(
            "strategy", require_text("strategy", strategy), _WITHOUT_EMBEDDINGS
        )
        least = MINIMUMS["ChunkingEngine"]
        self.chunk_size = require_int("chunk_size", chunk_size, minimum=least["chunk_size"])
        self.chunk_overlap = require_int(
            "chunk_overlap", chunk_overlap, minimum=least["chunk_overlap"]
        )
        # An overlap as long as the window would start the next window where this one did.
        if self.chunk_overlap >= self.chunk_size:
            raise ArgumentValueError(
                "chunk_overlap",
                f"chunk_overlap {chunk_overlap!r} must be less than chunk_size "
                f"{chunk_size!r} (or no window would move forward)",
            )
        if embed_fn is not None and not callable(embed_fn):
            raise ArgumentTypeError(
                "embed_fn",
                "embed_fn must be callable or None, "
                f"got {type(embed_fn).__name__} {embed_fn!r:.80}",
            )
        self.embed_fn = embed_fn
        self.boundaries = require_choice(
            "boundaries", require_text("boundaries", boundaries), BOUNDARIES
        )
        if self.boundaries == "content" and self.strategy != "fixed":
            raise ArgumentValueError(
                "boundaries",
                f"boundaries 'content' is for strategy 'fixed' only, not {self.strategy!r} "
                "(use boundaries 'position')",
            )
        uses_embeddings = strategy == "semantic" and embed_fn is not None
        # The sentences to embed, and where each starts in `content`.
        self.sentences: list[str] | None = None
        self.starts: list[int] = []
        if uses_embeddings:
            self.sentences, self.starts = sentences_before_capitals(self.text)

    def sentences_to_embed(self) -> list[str] | None:
        """The sentences to pass to `embed_fn`, or None when this call embeds nothing."""
        return self.sentences if self.sentences and len(self.sentences) > 1 else None

    def without_embeddings(self) -> list[DocumentRow]:
        rows: list[DocumentRow] = []
        if self.sentences and len(self.sentences) == 1:
            # One sentence is one chunk, whatever its length; none falls back to fixed.
            start = self.starts[0]
            span = tight_span(self.text, start, start + len(self.sentences[0]))
            assert span is not None  # blank sentences are dropped
            rows.append(document_row(self.text[span[0] : span[1]], None, None, span))
        elif self.boundaries == "content":  # `fixed`'s alone (checked as made)
            fixed_chunks(self.text, self.chunk_size, self.chunk_overlap, rows, boundaries="content")
        else:
            run = _WITHOUT_EMBEDDINGS[self.strategy]
            run(self.text, self.chunk_size, self.chunk_overlap, rows)
        return self._placed(rows)

    def with_embeddings(self, sentences: list[str], vectors: Any) -> list[DocumentRow]:
        checked = check_vectors(vectors, len(sentences))
        rows: list[DocumentRow] = []
        group_by_similarity(
            sentences, self.starts, checked, self.chunk_size, self.chunk_overlap, rows
        )
        return self._placed(rows)

    def _placed(self, rows: list[DocumentRow]) -> list[DocumentRow]:
        """The rows of `text`'s chunks placed in `content`."""
        if not self.mark:
            return rows
        for row in rows:
            start, end = row.span
            row.span = start + self.mark, end + self.mark
        return rows


def _budget(max_tokens: Any, tokenizer: Any) -> Budget | None:
    """The checked budget, or None; its module loaded only then, as the page loads what it
    uses."""
    if max_tokens is None and tokenizer is None:
        return None
    from chunker.tokens import Budget

    return Budget.of(max_tokens, tokenizer)


def _within(rows: list[DocumentRow], content: str, budget: Budget | None) -> list[DocumentChunk]:
    """The records of the chunks of `content` `rows` describe, within `budget` if there is one."""
    if budget is None:
        return document_records(rows)
    from chunker.text.budget import fit_document_chunks

    return fit_document_chunks(rows, content, budget)


def _close(awaitable: Any) -> None:
    """Close a coroutine we will not await, so Python does not warn that it never ran."""
    close = getattr(awaitable, "close", None)
    if callable(close):
        close()
