"""The token budget: a pass over a chunker's finished chunks that cuts again each chunk over
`max_tokens`, and counts every chunk (`token_count`).

A chunk within the budget is left as it is. One over it is cut at the places below, from
most to least desirable (`levels.BUDGET_LEVELS`), each piece as long as the budget lets it be:

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
from bisect import bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from chunker.base.validation import ArgumentValueError
from chunker.base.whitespace import (
    JS_WHITESPACE,
    LAST_TEXT_RE,
    TEXT_RE,
    WS_CLASS,
    tight_span,
)
from chunker.text.levels import BUDGET_LEVELS
from chunker.text.records import (
    BoundaryType,
    Chunk,
    ChunkRows,
    DocumentChunk,
    DocumentRow,
    document_records,
    document_row,
    records,
)

if TYPE_CHECKING:
    from chunker.tokens import Budget, TokenCounter

__all__ = [
    "Piece",
    "fit_text",
    "fit_chunks",
    "fit_document_chunks",
    "Fitted",
    "fit_pieces",
    "fit_embedded",
]

# A run of visible characters ("a-b" in "a-b c"): what the spans of pieces are read from.
VISIBLE_RUN_RE = re.compile(f"[^{WS_CLASS}]+")


class Piece(NamedTuple):
    """A range of a text within the budget."""

    start: int
    end: int
    tokens: int
    """The tokens in `text[start:end]`."""
    boundary: BoundaryType
    """Where it was cut: after a sentence, or between words or within one (`fixed`)."""


def fit_text(
    text: str,
    start: int,
    end: int,
    tokens: int,
    count: Callable[[int, int], int],
    max_tokens: int,
    floor: int | None = None,
) -> list[Piece] | None:
    """`text[start:end]` (no white space at its ends; `tokens` of them, over `max_tokens`) cut
    into pieces within the budget, in order; `count(a, b)` counts `text[a:b]`
    (`TokenCounter.ranges`). With `floor`, no cut falls before it, and None answers that the
    first piece cannot end at the first place after it."""
    return _Cutter(text, count, max_tokens).split(start, end, tokens, 0, floor)


class _Cutter:
    # `count(start, end)` counts `text[start:end]`.
    __slots__ = ("text", "count", "max_tokens")

    def __init__(self, text: str, count: Callable[[int, int], int], max_tokens: int) -> None:
        self.text, self.count, self.max_tokens = text, count, max_tokens

    def split(
        self, start: int, end: int, tokens: int, level: int, floor: int | None = None
    ) -> list[Piece] | None:
        """Pieces of `text[start:end]`, over the budget by `tokens`, cut at `level` or finer
        (and with `floor`, as `fit_text`)."""
        boundary, breaks = BUDGET_LEVELS[level].boundary, BUDGET_LEVELS[level].breaks
        if breaks is None:
            return self.prefixes(start, end, tokens)
        # Units: the ranges between the breaks of this level.
        starts, ends = [start], []
        for break_start, break_end in breaks(self.text, start if floor is None else floor, end):
            ends.append(break_start)
            starts.append(break_end)
        ends.append(end)
        if len(starts) == 1:
            return None if floor is not None else self.split(start, end, tokens, level + 1)
        max_tokens = self.max_tokens
        pieces: list[Piece] = []
        # Characters a token: from the whole text, then from the last piece counted.
        per_token = (end - start) / tokens
        first = 0  # the piece being made starts at units[first]
        while first < len(starts):
            at = starts[first]
            # As many units as the characters a token let in, then fewer until within the
            # budget: each try counted whole, never summed.
            last = max(first, bisect_right(ends, at + int(max_tokens * per_token), first) - 1)
            while True:
                piece_tokens = self.count(at, ends[last])
                if piece_tokens <= max_tokens or last == first:
                    break
                limit = at + (ends[last] - at) * max_tokens // piece_tokens
                last = max(first, min(last - 1, bisect_right(ends, limit, first) - 1))
            if piece_tokens > max_tokens:  # one unit alone is over: cut it finer
                if first == 0 and floor is not None:
                    return None
                pieces += self.split(at, ends[last], piece_tokens, level + 1) or []
            else:
                pieces.append(Piece(at, ends[last], piece_tokens, boundary))
                if piece_tokens:
                    per_token = (ends[last] - at) / piece_tokens
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
            # `bad` over it. The rest is counted only when every guess up to it fitted, so a
            # long run is not counted again a piece at a time.
            good, bad = start, 0
            guess = start + max(1, int(max_tokens * per_token))
            while guess < end:
                if count(start, guess) > max_tokens:
                    bad = guess
                    break
                good, guess = guess, guess + 2 * (guess - start)
            if not bad:
                rest = count(start, end)
                if rest <= max_tokens:
                    pieces.append(Piece(start, end, rest, "fixed"))
                    return pieces
                bad = end
            while bad - good > 1:
                middle = (good + bad) // 2
                if count(start, middle) <= max_tokens:
                    good = middle
                else:
                    bad = middle
            if good == start:
                raise ArgumentValueError(
                    "max_tokens",
                    f"invalid max_tokens {max_tokens} (too small: the character "
                    f"{text[start]!r} alone is {count(start, start + 1)} tokens)",
                )
            pieces.append(Piece(start, good, count(start, good), "fixed"))
            start = good


class Fitted(NamedTuple):
    """A chunk's text cut into pieces: each piece's text, and where its own part lies."""

    texts: list[str]
    pieces: list[Piece]
    """In the chunk's own text; the first from 0 when it keeps the chunk's text before it."""
    with_lead: bool
    """Whether the first text starts with the chunk's overlap."""


def fit_pieces(
    lead: str, own: str, whole: str, count: TokenCounter, max_tokens: int
) -> Fitted | None:
    """`whole` (`lead + own`) cut into pieces, or None when it is within the budget."""
    ranges = count.ranges(whole)
    tokens = ranges(0, len(whole))
    if tokens <= max_tokens:
        return None
    tight = tight_span(own, 0, len(own))
    if tight is None:  # white space alone (with an overlap over the budget): nothing to keep
        return Fitted([], [], False)
    lo, hi = tight
    head = len(lead)
    pieces = None
    if lead.strip(JS_WHITESPACE):
        # The overlap and the first piece, counted as one text: cut after the overlap only.
        pieces = fit_text(whole, 0, head + hi, tokens, ranges, max_tokens, floor=head + lo)
    with_lead = pieces is not None
    if pieces is None:  # the overlap does not fit beside the first piece: left out
        pieces = fit_text(whole, head + lo, head + hi, tokens, ranges, max_tokens) or []
    texts = [whole[piece.start : piece.end] for piece in pieces]
    # In the own text's places; the first from 0 when it starts with the overlap.
    pieces = [
        piece._replace(start=max(piece.start - head, 0), end=piece.end - head) for piece in pieces
    ]
    return Fitted(texts, pieces, with_lead)


class _Places:
    """Where a chunk's own text lies in the input, read off its span: most often the own text,
    white space at its ends aside, is the span's text, and a place is an offset away. Else
    its runs of visible characters are the span's, in order, each run placed; but after a
    code block left open, where the original repeats earlier text and a chunk's span covers
    both, they are not, and every piece takes the chunk's span."""

    __slots__ = ("shift", "own_starts", "input_starts", "span")

    def __init__(self, own: str, text: str, span: tuple[int, int]) -> None:
        self.span = span
        self.own_starts: list[int] = []
        self.input_starts: list[int] = []
        first = TEXT_RE.search(own)
        self.shift: int | None = None
        if (
            first is not None
            and own.startswith(text[span[0] : span[1]], first.start())
            and TEXT_RE.search(own, first.start() + span[1] - span[0]) is None
        ):
            self.shift = span[0] - first.start()
            return
        own_runs = VISIBLE_RUN_RE.findall(own)
        input_runs = VISIBLE_RUN_RE.findall(text, *span)
        if own_runs == input_runs:
            self.own_starts = [m.start() for m in VISIBLE_RUN_RE.finditer(own)]
            self.input_starts = [m.start() for m in VISIBLE_RUN_RE.finditer(text, *span)]
        elif "".join(own_runs) == "".join(input_runs):
            # The same characters, split otherwise (a fixed split of a word, joined with
            # blank lines): each character placed, a run of its own.
            self.own_starts = [m.start() for m in TEXT_RE.finditer(own)]
            self.input_starts = [m.start() for m in TEXT_RE.finditer(text, *span)]

    def of(self, start: int, end: int) -> tuple[int, int]:
        """The span in the input of the own text's `[start, end)`, which starts and ends with
        text."""
        if self.shift is not None:
            return start + self.shift, end + self.shift
        if not self.own_starts:
            return self.span
        return self.place(start), self.place(end - 1) + 1

    def place(self, at: int) -> int:
        run = bisect_right(self.own_starts, at) - 1
        return self.input_starts[run] + at - self.own_starts[run]


def fit_chunks(written: ChunkRows, text: str, budget: Budget) -> tuple[ChunkRows, list[int]]:
    """`SemanticChunker`'s chunks of `text` (`written`) within `budget`, and each one's
    `token_count`: what `records.records` makes them of."""
    count = budget.counter()
    max_tokens = budget.max_tokens
    out = ChunkRows()
    rows, texts = out.rows, out.texts
    counts: list[int] = []
    for whole, row in zip(written.chunk_texts(text), written.rows):
        start, end, boundary, span, overlap = row[4:]
        # Its text is its overlap, then its own text, as long as its offsets say.
        split = len(whole) - (end - start)
        lead, own = whole[:split], whole[split:]
        fitted = None if max_tokens is None else fit_pieces(lead, own, whole, count, max_tokens)
        if fitted is None:
            rows.append(_NOT_PLACED + row[4:])
            texts.append(whole)
            counts.append(count(whole))
            continue
        places = _Places(own, text, span)
        last = len(fitted.pieces) - 1
        for number, (piece_text, piece) in enumerate(zip(fitted.texts, fitted.pieces)):
            own_start = piece.start if number or not fitted.with_lead else 0
            own_end = piece.end
            lo = TEXT_RE.search(own, own_start, own_end)
            hi = LAST_TEXT_RE.match(own, lo.start(), own_end).end() if lo else own_end
            rows.append(
                (
                    *_NOT_PLACED,
                    start + own_start,
                    start + own_end,
                    boundary if number == last else piece.boundary,
                    places.of(lo.start() if lo else own_start, hi),
                    overlap if number == 0 and fitted.with_lead else None,
                )
            )
            texts.append(piece_text)
            counts.append(piece.tokens)
    return out, counts


# A row's place when its text crosses as text (`records.ChunkRow`).
_NOT_PLACED = (-1, -1, -1, -1)


def fit_document_chunks(rows: list[DocumentRow], text: str, budget: Budget) -> list[DocumentChunk]:
    """The records of `ChunkingEngine`'s chunks of `text` (`rows`, as its strategies wrote
    them) within `budget`, each with its `token_count`."""
    count = budget.counter()
    max_tokens = budget.max_tokens
    out: list[DocumentRow] = []
    counts: list[int] = []
    for row in rows:
        content = row.content
        fitted = None if max_tokens is None else fit_pieces("", content, content, count, max_tokens)
        if fitted is None:
            out.append(row)
            counts.append(count(content))
            continue
        places = _Places(content, text, row.span)
        for piece_text, piece in zip(fitted.texts, fitted.pieces):
            lo = TEXT_RE.search(content, piece.start, piece.end)
            hi = LAST_TEXT_RE.match(content, lo.start(), piece.end).end() if lo else piece.end
            span = places.of(lo.start() if lo else piece.start, hi)
            out.append(document_row(piece_text, row.heading, row.metadata, span))
            counts.append(piece.tokens)
    return document_records(out, counts)


def fit_embedded(
    chunk: Chunk | DocumentChunk,
    text: str,
    budget: Budget,
    frame: Callable[[str], str] | None = None,
    start: int | None = None,
) -> list[Chunk] | list[DocumentChunk]:
    """A chunk of `text` as the LangChain and LlamaIndex adapters hand it to an embedding model,
    within `budget`: with `start`, its slice of the input from there (its overlap's start or
    its own) to the end of its own span; else its own text. `frame(body)` is what is embedded
    of a body (a heading path before it, LlamaIndex's metadata around it), counted whole; each
    piece's `token_count` counts it. The pieces are numbered from 0.

    The pieces are cut as `fit_chunks` and `fit_document_chunks` cut a chunk, the slice taken
    as the chunk's text, its overlap as its overlap.
    """
    from chunker.tokens import Budget

    if isinstance(chunk, Chunk):
        whole, own_start, end = chunk.text, chunk.start_offset, chunk.end_offset
        overlap = chunk.overlap_span
        if start is not None:  # the slice, as the chunk's text: its own text as its span's
            own_start, end = chunk.span
            whole = text[start:end]
            overlap = overlap if start < own_start else None
        written = ChunkRows()
        written.rows.append(
            (*_NOT_PLACED, own_start, end, chunk.boundary_type, chunk.span, overlap)
        )
        written.texts.append(whole)
    else:
        content = chunk.content if start is None else text[start : chunk.span[1]]
        row = document_row(content, chunk.heading, chunk.metadata, chunk.span)
    count = budget.count
    framed = budget if frame is None else Budget(budget.max_tokens, lambda t: count(frame(t)))
    try:
        if isinstance(chunk, Chunk):
            fitted, counts = fit_chunks(written, text, framed)
            return records(text, fitted, chunk.metadata, counts)
        return fit_document_chunks([row], text, framed)
    except ArgumentValueError:
        if frame is None or budget.max_tokens is None:
            raise
        alone = count(frame(""))
        if alone < budget.max_tokens:
            raise
        raise ArgumentValueError(
            "max_tokens",
            f"invalid max_tokens {budget.max_tokens} (too small for what is embedded with "
            f"each text: {frame('')!r:.80} alone is {alone} tokens)",
        ) from None
