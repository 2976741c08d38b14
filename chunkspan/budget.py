"""The token budget: a pass over a chunker's finished chunks that cuts again each chunk over
`max_tokens`, and counts every chunk (`token_count`).

A chunk within the budget is left as it is. One over it is cut at the places below, from
most to least desirable, each piece as long as the budget lets it be:

1. after a sentence: the white space after `.`, `!` or `?`, or white space holding a line
   feed (a line, a paragraph, a turn ends there too);
2. at any white space, between words;
3. within a word too long alone: its longest prefix within the budget, again and again.

Pieces hold no white space at their ends, and between them only white space is dropped.
A chunk's overlap (the text it repeats from the chunk before) counts within the budget and
stays on its first piece when it fits there; its other pieces start with none. Counts are
never added up: every piece is counted whole, as a tokenizer merges across any boundary.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from .records import BoundaryType, Chunk, DocumentChunk
from .validation import ArgumentValueError
from .whitespace import TEXT_RE, WHITESPACE_RUN_RE, WS_CLASS, tight_span

if TYPE_CHECKING:
    from .tokens import Budget, TokenCounter
    from .turns import Passage, Turn

__all__ = ["Piece", "fit_text", "fit_chunks", "fit_document_chunks", "fit_passages"]

# A run of visible characters: what the spans of pieces are read from.
VISIBLE_RUN_RE = re.compile(f"[^{WS_CLASS}]+")

# The characters before white space that end a sentence ("Hi. There": the space after ".").
_SENTENCE_ENDS = frozenset(".!?")

# How a piece was ended, by the level of its cut: a sentence, or a word or a prefix.
_LEVEL_BOUNDARIES: tuple[BoundaryType, ...] = ("sentence", "fixed", "fixed")


class Piece(NamedTuple):
    """A range of a text within the budget."""

    start: int
    end: int
    tokens: int
    """The tokens in `text[start:end]`."""
    boundary: BoundaryType
    """Where it was cut: after a sentence, or between words or within one (`fixed`)."""


def fit_text(
    text: str, start: int, end: int, tokens: int, count: TokenCounter, max_tokens: int
) -> list[Piece]:
    """`text[start:end]` (no white space at its ends; `tokens` of them, over `max_tokens`) cut
    into pieces within the budget, in order. The last piece's boundary is `fixed`."""
    return _Cutter(text, count, max_tokens).split(start, end, tokens, 0)


class _Cutter:
    __slots__ = ("text", "count", "max_tokens")

    def __init__(self, text: str, count: TokenCounter, max_tokens: int) -> None:
        self.text, self.count, self.max_tokens = text, count, max_tokens

    def split(self, start: int, end: int, tokens: int, level: int) -> list[Piece]:
        """Pieces of `text[start:end]`, over the budget by `tokens`, cut at `level` or finer."""
        if level == 2:
            return self.prefixes(start, end, tokens)
        text = self.text
        # Units: the ranges between the breaks of this level.
        starts, ends = [start], []
        for run in WHITESPACE_RUN_RE.finditer(text, start, end):
            if level or "\n" in run.group() or text[run.start() - 1] in _SENTENCE_ENDS:
                ends.append(run.start())
                starts.append(run.end())
        ends.append(end)
        if len(starts) == 1:
            return self.split(start, end, tokens, level + 1)
        boundary = _LEVEL_BOUNDARIES[level]
        max_tokens = self.max_tokens
        pieces: list[Piece] = []
        first = 0  # the piece being made starts at units[first]
        while first < len(starts):
            at = starts[first]
            # The most units the text's own characters a token let in, then fewer until
            # within the budget: each try counted whole, never summed.
            limit = at + (end - start) * max_tokens // tokens
            last = max(first, bisect_right(ends, limit, first) - 1)
            while True:
                piece_tokens = self.count(text[at : ends[last]])
                if piece_tokens <= max_tokens or last == first:
                    break
                limit = at + (ends[last] - at) * max_tokens // piece_tokens
                last = max(first, min(last - 1, bisect_right(ends, limit, first) - 1))
            if piece_tokens > max_tokens:  # one unit alone is over: cut it finer
                pieces += self.split(at, ends[last], piece_tokens, level + 1)
            else:
                pieces.append(Piece(at, ends[last], piece_tokens, boundary))
            first = last + 1
        return pieces

    def prefixes(self, start: int, end: int, tokens: int) -> list[Piece]:
        """A run without white space, over the budget, cut at its longest prefixes within it."""
        text, count, max_tokens = self.text, self.count, self.max_tokens
        pieces: list[Piece] = []
        # Characters a token, from the whole run: where each search starts.
        per_token = (end - start) / tokens
        while True:
            # Gallop from that guess, then bisect: `good` is within the budget (`start` is),
            # `bad` over it. The rest is counted only once it may fit (once shorter than the
            # last piece, twice over), so a long run is not counted again a piece at a time.
            good, bad = start, end
            guess = start + max(1, int(max_tokens * per_token))
            while guess < bad:
                if count(text[start:guess]) <= max_tokens:
                    good, guess = guess, guess + 2 * (guess - start)
                else:
                    bad = guess
            while bad - good > 1:
                middle = (good + bad) // 2
                if count(text[start:middle]) <= max_tokens:
                    good = middle
                else:
                    bad = middle
            if good == start:
                raise ArgumentValueError(
                    "max_tokens",
                    f"invalid max_tokens {max_tokens} (too small: the character "
                    f"{text[start]!r} alone is {count(text[start])} tokens)",
                )
            pieces.append(Piece(start, good, count(text[start:good]), "fixed"))
            if end - good <= 2 * (good - start):
                rest = count(text[good:end])
                if rest <= max_tokens:
                    pieces.append(Piece(good, end, rest, "fixed"))
                    return pieces
            start = good


class _Fitted(NamedTuple):
    """A chunk's text cut into pieces: each piece's text, and where its own part lies."""

    texts: list[str]
    pieces: list[Piece]
    """In the chunk's own text; the first from 0 when it keeps the chunk's text before it."""
    with_lead: bool
    """Whether the first text starts with the chunk's overlap."""


def _fit(lead: str, own: str, whole: str, count: TokenCounter, max_tokens: int) -> _Fitted | None:
    """`whole` (`lead + own`) cut into pieces, or None when it is within the budget."""
    tokens = count(whole)
    if tokens <= max_tokens:
        return None
    tight = tight_span(own, 0, len(own))
    if tight is None:  # white space alone (with an overlap over the budget): nothing to keep
        return _Fitted([], [], False)
    lo, hi = tight
    own_tokens = count(own[lo:hi])
    pieces = (
        fit_text(own, lo, hi, own_tokens, count, max_tokens)
        if own_tokens > max_tokens
        else [Piece(lo, hi, own_tokens, "fixed")]
    )
    texts = [own[piece.start : piece.end] for piece in pieces]
    first = lead + own[: pieces[0].end]
    first_tokens = count(first)
    with_lead = first_tokens <= max_tokens
    if with_lead:
        texts[0] = first
        pieces[0] = pieces[0]._replace(start=0, tokens=first_tokens)
    return _Fitted(texts, pieces, with_lead)


class _Places:
    """Where the visible characters of a chunk's own text lie in the input: they are its span's,
    in order (white space aside), but after a code block left open, where the original repeats
    earlier text and a chunk's span covers both; there every piece takes the chunk's span."""

    __slots__ = ("own_runs", "input_runs", "span")

    def __init__(self, own: str, text: str, span: tuple[int, int]) -> None:
        own_runs = [(m.start(), m.end()) for m in VISIBLE_RUN_RE.finditer(own)]
        input_runs = [(m.start(), m.end()) for m in VISIBLE_RUN_RE.finditer(text, *span)]
        same = "".join(own[a:b] for a, b in own_runs) == "".join(text[a:b] for a, b in input_runs)
        self.span = span
        self.own_runs, self.input_runs = (
            (_char_places(own_runs), _char_places(input_runs)) if same else ([], [])
        )

    def of(self, start: int, end: int) -> tuple[int, int]:
        """The span in the input of the own text's `[start, end)`, which holds text."""
        if not self.own_runs:
            return self.span
        first = bisect_left(self.own_runs, start)
        last = bisect_left(self.own_runs, end) - 1
        return self.input_runs[first], self.input_runs[last] + 1


def _char_places(runs: list[tuple[int, int]]) -> list[int]:
    return [at for a, b in runs for at in range(a, b)]


def fit_chunks(chunks: list[Chunk], text: str, budget: Budget) -> list[Chunk]:
    """`SemanticChunker`'s chunks of `text` within `budget`, each with its `token_count`."""
    count = budget.counter()
    max_tokens = budget.max_tokens
    out: list[Chunk] = []
    for chunk in chunks:
        # Its text is its overlap, then its own text, as long as its offsets say.
        split = len(chunk.text) - (chunk.end_offset - chunk.start_offset)
        lead, own = chunk.text[:split], chunk.text[split:]
        fitted = None if max_tokens is None else _fit(lead, own, chunk.text, count, max_tokens)
        if fitted is None:
            out.append(replace(chunk, index=len(out), token_count=count(chunk.text)))
            continue
        places = _Places(own, text, chunk.span)
        last = len(fitted.pieces) - 1
        for number, (piece_text, piece) in enumerate(zip(fitted.texts, fitted.pieces)):
            own_start = piece.start if number or not fitted.with_lead else 0
            own_end = piece.end
            lo = TEXT_RE.search(own, own_start, own_end)
            span = places.of(lo.start() if lo else own_start, own_end)
            out.append(
                Chunk(
                    text=piece_text,
                    index=len(out),
                    start_offset=chunk.start_offset + own_start,
                    end_offset=chunk.start_offset + own_end,
                    boundary_type=chunk.boundary_type if number == last else piece.boundary,
                    metadata=chunk.metadata,
                    span=span,
                    overlap_span=chunk.overlap_span if number == 0 and fitted.with_lead else None,
                    token_count=piece.tokens,
                )
            )
    return out


def fit_document_chunks(
    chunks: list[DocumentChunk], text: str, budget: Budget
) -> list[DocumentChunk]:
    """`ChunkingEngine`'s chunks of `text` within `budget`, each with its `token_count`."""
    count = budget.counter()
    max_tokens = budget.max_tokens
    out: list[DocumentChunk] = []
    for chunk in chunks:
        content = chunk.content
        fitted = None if max_tokens is None else _fit("", content, content, count, max_tokens)
        if fitted is None:
            out.append(replace(chunk, index=len(out), token_count=count(content)))
            continue
        places = _Places(content, text, chunk.span)
        for piece_text, piece in zip(fitted.texts, fitted.pieces):
            lo = TEXT_RE.search(content, piece.start, piece.end)
            out.append(
                DocumentChunk(
                    content=piece_text,
                    index=len(out),
                    heading=chunk.heading,
                    metadata=chunk.metadata,
                    span=places.of(lo.start() if lo else piece.start, piece.end),
                    token_count=piece.tokens,
                )
            )
    return out


def fit_passages(
    passages: list[Passage], turns: Sequence[Sequence[Turn]], budget: Budget
) -> list[Passage]:
    """`chunk_turns`' passages (made of `turns`, a list each) within `budget`, each with its
    `token_count`. A piece of a passage lists the turns it holds part of, where in its text,
    and their times."""
    from .turns import Passage, TurnSpan

    count = budget.counter()
    max_tokens = budget.max_tokens
    out: list[Passage] = []
    for passage, held in zip(passages, turns):
        own_at = passage.turns[passage.repeated_turns].start
        lead, own = passage.text[:own_at], passage.text[own_at:]
        fitted = None if max_tokens is None else _fit(lead, own, passage.text, count, max_tokens)
        if fitted is None:
            out.append(replace(passage, index=len(out), token_count=count(passage.text)))
            continue
        for number, (piece_text, piece) in enumerate(zip(fitted.texts, fitted.pieces)):
            with_lead = number == 0 and fitted.with_lead
            start = 0 if with_lead else own_at + piece.start
            end = own_at + piece.end
            kept = [
                (turn, span)
                for turn, span in zip(held, passage.turns)
                if span.start < end and span.end > start
            ]
            out.append(
                Passage(
                    text=piece_text,
                    index=len(out),
                    first_seq=kept[0][0].seq,
                    last_seq=kept[-1][0].seq,
                    item_ids=tuple(turn.item_id for turn, _ in kept),
                    start_ms=kept[0][0].start_ms,
                    end_ms=kept[-1][0].end_ms,
                    turns=tuple(
                        TurnSpan(
                            span.seq,
                            span.item_id,
                            max(span.start, start) - start,
                            min(span.end, end) - start,
                        )
                        for _, span in kept
                    ),
                    repeated_turns=passage.repeated_turns if with_lead else 0,
                    token_count=piece.tokens,
                )
            )
    return out
