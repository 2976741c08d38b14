"""`SemanticChunker`: cut Markdown and prose at headings, paragraphs, sentences, then sizes.

The four steps are the spec's (docs/method.md):

1. read line by line into heading, paragraph and code-block segments;
2. split a segment longer than `max_size` at blank lines, then sentence ends, then every
   `target_size` characters;
3. add a segment shorter than `min_size` to the one before it;
4. start each chunk with the last `overlap` characters of the chunk before (with
   `overlap_boundary`, from the first word or sentence start among them: overlap.py).

Every step is linear in the length of the text: step 1 visits only the lines that can end a
segment, merged segments are joined once, and each search is bounded to the window it may
answer from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from itertools import accumulate
from typing import TYPE_CHECKING, Any, cast

from chunker.base.collector import collector_paused
from chunker.base.limits import CHOICES, MINIMUMS, OverlapBoundary
from chunker.base.validation import (
    ArgumentTypeError,
    ArgumentValueError,
    require_bool,
    require_choice,
    require_int,
    require_text,
)
from chunker.base.whitespace import (
    JS_WHITESPACE,
    TEXT_RE,
    WHITESPACE_RUN_RE,
    bom_length,
    is_blank,
    tight_span,
)
from chunker.text.levels import (
    SPLIT_LEVELS,
    paragraph_breaks,
    pieces_between,
    sentence_breaks,
)
from chunker.text.records import (
    BoundaryType,
    Chunk,
    ChunkColumns,
    ChunkRows,
    add_rows,
    records,
)
from chunker.text.sourcemap import PieceMap, Source, after, input_span, joined, to_input
from chunker.text.structure import (
    BOUNDARY,
    NOT_FOUND,
    OFFSET,
    SOURCE,
    SPAN_END,
    SPAN_START,
    TEXT,
    HeldSegment,
    Segment,
    segment_text,
    split_by_structure,
)

if TYPE_CHECKING:
    from chunker.base.whitespace import MatchingPattern
    from chunker.tokens import Tokenizer

__all__ = ["SemanticChunker"]

# The spaces a fixed split skips before the next part starts (spaces only, as the original).
# It matches the empty string, so everywhere.
SPACES_RE: MatchingPattern = cast("MatchingPattern", re.compile(" *"))

# The options of SemanticChunker, in the constructor's order.
_OPTIONS = (
    "target_size",
    "max_size",
    "min_size",
    "overlap",
    "preserve_code_blocks",
    "respect_headings",
    "max_tokens",
    "tokenizer",
    "overlap_boundary",
)


class SemanticChunker:
    """Cut text at its natural boundaries into chunks of about `target_size` characters.

    Args:
        target_size: characters a chunk gathers before a blank line ends it, and the size
            the splits pack to.
        max_size: characters above which a chunk is split again.
        min_size: characters (white space aside) below which a chunk joins the one before.
        overlap: characters of the chunk before that each chunk starts with.
        preserve_code_blocks: keep each fenced code block as one chunk.
        respect_headings: start a chunk at each Markdown heading.
        max_tokens: tokens of `tokenizer` no chunk holds more of: a chunk over them, its
            overlap included, is cut again (`budget.py`); None, no budget.
        tokenizer: what counts tokens (`tokens.Tokenizer`: `cl100k_base` unless given);
            with one, each chunk has its `token_count`.
        overlap_boundary: where the overlap starts: "chars" (the original's: the last
            `overlap` characters, wherever they start), "word" or "sentence" (from the first
            word or sentence start among them; none when there is none: docs/spans.md).

    Example:
        >>> chunker = SemanticChunker(overlap=0)
        >>> [c.boundary_type for c in chunker.chunk("# A\\n\\nOne.\\n\\n# B\\n\\nTwo.")]
        ['heading', 'heading']
    """

    __slots__ = _OPTIONS

    if TYPE_CHECKING:
        # The options as a type checker sees them: read-only, as they are at run time (see
        # `__setattr__`), where they are the slots above, set by `__init__`.
        @property
        def target_size(self) -> int: ...
        @property
        def max_size(self) -> int: ...
        @property
        def min_size(self) -> int: ...
        @property
        def overlap(self) -> int: ...
        @property
        def preserve_code_blocks(self) -> bool: ...
        @property
        def respect_headings(self) -> bool: ...
        @property
        def max_tokens(self) -> int | None: ...
        @property
        def tokenizer(self) -> Tokenizer | None: ...
        @property
        def overlap_boundary(self) -> OverlapBoundary: ...

    def __init__(
        self,
        target_size: int = 1000,
        max_size: int = 2000,
        min_size: int = 200,
        overlap: int = 100,
        preserve_code_blocks: bool = True,
        respect_headings: bool = True,
        max_tokens: int | None = None,
        tokenizer: Tokenizer | None = None,
        *,
        overlap_boundary: OverlapBoundary = "chars",
    ) -> None:
        least = MINIMUMS["SemanticChunker"]  # with the reason for each
        options = {
            "target_size": require_int("target_size", target_size, minimum=least["target_size"]),
            "max_size": require_int("max_size", max_size, minimum=least["max_size"]),
            "min_size": require_int("min_size", min_size, minimum=least["min_size"]),
            "overlap": require_int("overlap", overlap, minimum=least["overlap"]),
            "preserve_code_blocks": require_bool("preserve_code_blocks", preserve_code_blocks),
            "respect_headings": require_bool("respect_headings", respect_headings),
            "max_tokens": max_tokens,
            "tokenizer": tokenizer,
            "overlap_boundary": require_choice(
                "overlap_boundary",
                require_text("overlap_boundary", overlap_boundary),
                CHOICES["SemanticChunker"]["overlap_boundary"],
            ),
        }
        if max_tokens is not None or tokenizer is not None:
            # Imported only with a budget: the page loads what it uses (see `chunk`).
            from chunker.tokens import Budget

            Budget.of(max_tokens, tokenizer)  # checked now, not at the first chunk
        for name, value in options.items():
            object.__setattr__(self, name, value)

    # Options are checked once, at construction: one set later, unchecked, could make chunk()
    # loop forever (target_size 0) or fail deep inside. A subclass's own attributes are free.
    def __setattr__(self, name: str, value: Any) -> None:
        if name in _OPTIONS:
            raise AttributeError(
                f"SemanticChunker options cannot change after construction (tried {name}="
                f"{value!r:.80}); make a new SemanticChunker({name}=...)"
            )
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in _OPTIONS:
            raise AttributeError(f"SemanticChunker options cannot be deleted (tried {name})")
        object.__delattr__(self, name)

    def __reduce__(self) -> tuple[Callable[..., SemanticChunker], tuple[Any, ...]]:
        # copy and pickle remake it with its options checked again (setting them is refused).
        return _remake, (type(self), {name: getattr(self, name) for name in _OPTIONS})

    def __repr__(self) -> str:
        options = ", ".join(f"{name}={getattr(self, name)!r}" for name in _OPTIONS)
        return f"{type(self).__name__}({options})"

    def chunk(self, text: str, metadata: Mapping[str, Any] | None = None) -> list[Chunk]:
        """Cut `text` into chunks, in order; `[]` for empty or white-space-only text.

        Example:
            >>> SemanticChunker().chunk("Hello.")[0].text
            'Hello.\\n'
        """
        with collector_paused():
            written = self._rows(text, metadata)
            if self.max_tokens is None and self.tokenizer is None:
                return records(text, written, metadata)
        # Imported on first use: a page that never counts tokens does not load them.
        from chunker.text.budget import fit_chunks
        from chunker.tokens import Budget

        budget = Budget.of(self.max_tokens, self.tokenizer)
        assert budget is not None  # a tokenizer or max_tokens is given
        fitted, counts = fit_chunks(written, text, budget)
        with collector_paused():
            return records(text, fitted, metadata, counts)

    def chunk_columns(
        self,
        text: str,
        metadata: Mapping[str, Any] | None = None,
        *,
        into: ChunkColumns | None = None,
    ) -> ChunkColumns:
        """`chunk`'s chunks as columns, without a record for each, every chunk's text placed
        in `text` where it was cut when it is the input's own characters: what the facade
        sends instead of the texts (`ChunkColumns` lists the columns). `metadata` is checked
        as `chunk` checks it; the columns do not hold it (every chunk has the same object).
        With `into`, the chunks are added after those columns already hold (a batch of
        texts, one after another: each text's places are in that text) and it is returned.

        Example:
            >>> columns = SemanticChunker(min_size=0, overlap=2).chunk_columns(
            ...     "# A\\n\\nOne.\\n\\n# B\\n\\nTwo.\\n\\n# C")
            >>> columns
            <ChunkColumns: 3 chunks, 1 not placed>
            >>> columns.offsets, columns.boundaries
            ([0, 11, 11, 22, 22, 26], ['heading', 'heading', 'heading'])
            >>> columns.places, columns.texts
            ([0, 0, 0, 11, 9, 11, 11, 22, -1, -1, -1, -1], ['\\n\\n# C\\n'])
        """
        if self.max_tokens is not None or self.tokenizer is not None:
            raise ArgumentValueError(
                "max_tokens",
                "chunk_columns does not count tokens: use chunk() for max_tokens or tokenizer",
            )
        columns = ChunkColumns() if into is None else into
        with collector_paused():
            add_rows(columns, self._rows(text, metadata))
        return columns

    def _rows(self, text: str, metadata: Mapping[str, Any] | None) -> ChunkRows:
        """The chunks of `text`, as rows (`records.ChunkRows`): what `chunk` and
        `chunk_columns` read."""
        require_text("text", text)
        if metadata is not None and not isinstance(metadata, Mapping):
            raise ArgumentTypeError(
                "metadata",
                "metadata must be a mapping or None, "
                f"got {type(metadata).__name__} {metadata!r:.80}",
            )
        written = ChunkRows()
        if is_blank(text):
            return written
        mark = bom_length(text)
        if not mark:
            self._cut_text(text, written)
            return written
        # No part of the text: what follows it is cut, its places shifted past it.
        self._cut_text(text[mark:], written)
        written.shift(mark)
        return written

    def _cut_text(self, text: str, written: ChunkRows) -> None:
        """The rows of a text holding more than white space, taken as it is (after the
        byte-order mark `_rows` found, if any), added to `written`."""
        structure, long, repeated = split_by_structure(
            text,
            self.target_size,
            self.max_size,
            self.preserve_code_blocks,
            self.respect_headings,
        )
        # Segments come in the input's order but for one case: the original repeats the text
        # before a code block left open after it, which step 1 gives as the same segment
        # again, last (`repeated`). `ordered` counts the segments before that repeat.
        segments = self._split_long(text, structure[:-1] if repeated else structure, long)
        ordered = len(segments)
        if repeated:  # as long as the segment it repeats
            repeats = len(structure) - 3
            segments += self._split_long(
                text, structure[-1:], {0: long[repeats]} if repeats in long else {}
            )
        self._build(text, segments, ordered, written)

    def _split_long(
        self, text: str, structure: list[Segment], long: dict[int, int]
    ) -> list[Segment]:
        """Step 2 for the segments of `text` at `long` in `structure`, in order: those longer
        than `max_size`, each with how far into it a blank line may start. The others are not
        visited."""
        if not long:
            return structure
        segments: list[Segment] = []
        done = 0  # structure[:done] is in segments
        for at, blank_by in long.items():
            segment = structure[at]
            segments += structure[done:at]
            segments += self._split_at(
                0, segment_text(text, segment), segment[OFFSET], segment[SOURCE], blank_by
            )
            done = at + 1
        segments += structure[done:]
        return segments

    def _split_at(
        self, level: int, text: str, offset: int, source: Source, blank_by: int = NOT_FOUND
    ) -> list[Segment]:
        """Step 2 from `SPLIT_LEVELS[level]` on (levels.py): `text` cut at that level's
        breaks and packed, a part still over `max_size` cut at the next level; a text with no
        such break goes to the next level whole. The last level cuts by size. With
        `blank_by`, no break of the first level (a blank line: step 1 searched for them)
        starts there or later."""
        breaks = SPLIT_LEVELS[level].breaks
        if breaks is None:
            return self._split_fixed(text, offset, source)
        found = breaks(text, 0, _blank_search_stop(text, blank_by) if level == 0 else len(text))
        if not found:
            return self._split_at(level + 1, text, offset, source)
        pieces, starts = pieces_between(text, found)
        return self._pack(pieces, starts, level, offset, source)

    def _pack(
        self, pieces: list[str], starts: list[int], level: int, offset: int, source: Source
    ) -> list[Segment]:
        """Gather pieces cut at `SPLIT_LEVELS[level]` up to `target_size`, joined with its
        joiner; a gathered part over `max_size` is split at the next level.

        `starts` are where the pieces are in the text they came from, whose characters stand in
        the input where `source` says. Offsets assume each break was exactly the joiner, as the
        original's do.
        """
        boundary, joiner = SPLIT_LEVELS[level].boundary, SPLIT_LEVELS[level].joiner
        assert joiner is not None  # every level with breaks joins its parts
        results: list[Segment] = []
        target_size, max_size = self.target_size, self.max_size
        joiner_length = len(joiner)
        # Where each piece starts by the original's count: `offset`, then past each piece and
        # its joiner.
        piece_at = list(accumulate(map(joiner_length.__add__, map(len, pieces)), initial=offset))

        def flush(gathered: str, first: int, stop: int) -> None:
            # `gathered` joins pieces[first:stop].
            if stop - first == 1:
                gathered_source = after(source, starts[first])
            elif source.__class__ is int:
                # Pieces of one slice of the input: `joined`'s map, read off the lists
                # (tests/bench/core.py, SemanticChunker at 10 MB).
                at = piece_at[first]
                gathered_source = PieceMap(
                    [at_k - at for at_k in piece_at[first:stop]],
                    [source + start for start in starts[first:stop]],
                )
            else:
                sources = [after(source, starts[k]) for k in range(first, stop)]
                lengths = [len(pieces[k]) for k in range(first, stop)]
                gathered_source = joined(sources, lengths, joiner_length)
            if len(gathered) > max_size:
                results.extend(
                    self._split_at(level + 1, gathered, piece_at[first], gathered_source)
                )
            else:
                results.append(_segment(gathered, piece_at[first], boundary, gathered_source))

        # pieces[first:number] are gathered, `size` characters once joined; a part is joined
        # once, as it is flushed, not grown a piece at a time (tests/bench/core.py,
        # SemanticChunker at 10 MB).
        size = first = 0
        for number, piece in enumerate(pieces):
            if not size:  # nothing gathered yet (an empty piece gathers nothing)
                first, size = number, len(piece)
            elif size + len(piece) + joiner_length > target_size:
                flush(joiner.join(pieces[first:number]), first, number)
                first, size = number, len(piece)
            else:
                size += joiner_length + len(piece)
        gathered = joiner.join(pieces[first:])
        if not is_blank(gathered):
            flush(gathered, first, len(pieces))
        return results

    def _split_fixed(self, text: str, offset: int, source: Source) -> list[Segment]:
        """Step 2's last level: every `target_size` characters, back to a space more than
        `min_size` characters in if there is one."""
        results: list[Segment] = []
        target_size, min_size = self.target_size, self.min_size
        position = 0
        length = len(text)
        while position < length:
            end = position + target_size
            if end < length:
                # Only a space more than min_size characters in counts, so search just there.
                space = text.rfind(" ", position + min_size + 1, end + 1)
                if space != -1:
                    end = space
            else:
                end = length
            part = tight_span(text, position, end)  # the part, trimmed
            if part is not None:
                part_start, part_end = part
                span_start, span_end = input_span(source, part_start, part_end)
                segment: HeldSegment = (
                    text[part_start:part_end],
                    offset + position,
                    "fixed",
                    span_start,
                    span_end,
                    after(source, part_start),
                )
                results.append(segment)
            position = SPACES_RE.match(text, end).end()
        return results

    def _build(self, text: str, segments: list[Segment], ordered: int, written: ChunkRows) -> None:
        """Steps 3 and 4: add each short paragraph, sentence or fixed part to the segment
        before, then make each segment of `text` a chunk that starts with the end of the one
        before, a row each in `written` (`records.ChunkRows`).

        `segments[:ordered]` are in the input's order (see `_cut_text`)."""
        overlap = reach = self.overlap  # `reach`: the overlap's length (see below)
        # With `overlap_boundary` "word" or "sentence", each overlap is shorter when it would
        # start inside a word or sentence (imported then alone: the page loads what it uses).
        starts_at = self.overlap_boundary
        measure: Callable[[str, int, int, int, str], int] | None = None
        if overlap and starts_at != "chars":
            from chunker.text.overlap import lead_length

            measure = lead_length
        rows, unplaced = written.rows, written.texts
        starts = _chunk_starts(segments, self.min_size)
        stops = starts[1:]
        stops.append(len(segments))
        # The next chunk's overlap and where it came from. It is `text[lead_at:lead_to]` when
        # it is the input's own characters there (an empty one lies anywhere), cut only for a
        # chunk whose text is not placed; else `lead_at` is -1 and it is `lead`. A segment
        # with an int source is one slice of the input, but for the line feed step 1 adds
        # after the input's last line: a text reaching past `length`.
        lead, lead_span = "", None
        lead_at = lead_to = 0
        length = len(text)
        # This loop runs once a chunk. Its facts are found once: the chunk's own text, as
        # `own`, or as `text[own_from:own_to]` when it is one slice of the input (`own_from`
        # -1 when it is not); its row places its text where it can, and no text is cut but
        # one not placed.
        for start, stop in zip(starts, stops):
            # segments[start:stop] make a chunk.
            cut, offset, boundary, span_start, span_end, source = segments[start]
            if stop - start == 1:
                span = span_start, span_end
                if cut.__class__ is str:  # a text of its own, from step 2 or step 1's end
                    own = cut
                    own_length = len(own)
                    own_from = source if source.__class__ is int else -1
                    own_to = own_from + own_length
                    if own_to > length:  # the line feed step 1 adds after the last line
                        own_from = -1
                else:  # text[source:cut], not cut yet (see structure.py)
                    # An int text has an int source (CutSegment): unpacked, a type checker
                    # no longer knows it.
                    own_from, own_to = source, cut  # type: ignore[assignment]
                    own_length = own_to - own_from
            else:
                group = segments[start:stop]
                parts = [segment_text(text, segment) for segment in group]
                own = "\n\n".join(parts)
                own_length = len(own)
                own_from = -1  # joined with blank lines
                _, _, _, last_start, last_end, source = group[-1]
                if stop <= ordered and span_start < span_end and last_start < last_end:
                    # Segments in order, the first and last holding text: most joins.
                    span = span_start, last_end
                else:
                    span = _hull(group)

            # `lead` and `lead_span` are still the chunk before's.
            if own_from >= 0 and lead_at >= 0:
                rows.append(
                    (
                        lead_at,
                        lead_to,
                        own_from,
                        own_to,
                        offset,
                        offset + own_length,
                        boundary,
                        span,
                        lead_span,
                    )
                )
            else:
                rows.append(
                    (-1, -1, -1, -1, offset, offset + own_length, boundary, span, lead_span)
                )
                if lead_at >= 0:
                    lead = text[lead_at:lead_to]
                unplaced.append(lead + (own if own_from < 0 else text[own_from:own_to]))

            if not overlap:
                continue
            if measure is not None:
                reach = (
                    measure(text, own_from, own_to, overlap, starts_at)
                    if own_from >= 0
                    else measure(own, 0, own_length, overlap, starts_at)
                )
                if not reach:  # no boundary among the last `overlap` characters: no overlap
                    lead, lead_span, lead_at, lead_to = "", None, 0, 0
                    continue
            # The next chunk's overlap: the last `reach` characters of this one's own text,
            # placed from its first text to the end of this chunk's span.
            if own_from >= 0:  # one slice of the input: placed, not cut
                lead_to = own_to
                lead_at = own_to - reach if own_length > reach else own_from
                # Where its text starts: most often at its first character or the next,
                # which a look tells; else a search.
                first = lead_at
                if first < own_to and text[first] in _WHITE:
                    first += 1
                    if first < own_to and text[first] in _WHITE:
                        found = TEXT_RE.search(text, first, own_to)
                        first = own_to if found is None else found.start()
                lead_span = (first, span_end) if first < own_to else None
                continue
            lead = own[-reach:]
            tail = lead.lstrip(JS_WHITESPACE)
            if stop - start == 1:
                lead_at = -1
                if not tail:
                    lead_span = None
                elif source.__class__ is int:  # the line feed added after the last line
                    lead_span = own_to - len(tail), span_end
                else:  # the source is a PieceMap: joined pieces
                    lead_span = _overlap_span(own, [segments[start]], [own], len(lead))
                continue
            last_length = len(parts[-1])
            at = last_length - len(tail)  # where that starts in the last segment
            if not tail:
                lead_span = None
            elif at >= 0 and source.__class__ is int:
                # In the last segment, one slice of the input: read off.
                lead_span = source + at, last_end
            else:
                lead_span = _overlap_span(own, group, parts, len(lead))
            # The overlap is the input's own characters when it lies in the last segment, a
            # slice of the input.
            lead_to = source + last_length if source.__class__ is int else length + 1
            lead_at = lead_to - len(lead)
            if lead_to > length or lead_at < lead_to - last_length:
                lead_at = -1


# The white space characters, to look one up.
_WHITE = frozenset(JS_WHITESPACE)


def _chunk_starts(segments: list[Segment], min_size: int) -> list[int]:
    """Where each chunk starts in `segments`: at the first segment, each heading and code
    block, and each other segment with at least `min_size` characters of text; the segments
    between join the chunk before.

    A comprehension that reads a segment's fields by index, the type first, as it runs once
    a segment and most are headings (tests/bench/core.py, SemanticChunker). Of a segment that
    is one slice of the input (an int source), the text without its white space at the ends
    is its span; joiners are no longer than the white space they stand for, so a joined
    text's is no longer than its span."""
    return [
        number
        for number, segment in enumerate(segments)
        if segment[BOUNDARY] == "heading"
        or segment[BOUNDARY] == "code-block"
        or not number
        or (
            segment[SPAN_END] - segment[SPAN_START] >= min_size
            and (
                segment[SOURCE].__class__ is not PieceMap
                or len(segment[TEXT].strip(JS_WHITESPACE)) >= min_size
            )
        )
    ]


def _segment(text: str, offset: int, boundary: BoundaryType, source: Source) -> Segment:
    """A segment of `text`, its span taken from `source`."""
    part = tight_span(text, 0, len(text))
    if part is None:
        at = to_input(source, 0)
        return text, offset, boundary, at, at, source
    span_start, span_end = input_span(source, part[0], part[1])
    return text, offset, boundary, span_start, span_end, source


def _hull(group: list[Segment]) -> tuple[int, int]:
    """The span of segments joined into one chunk: from the first text to the last.

    Segments of white space alone hold no text; a segment the original repeats after a code
    block left open lies before the block, so the hull takes the least start and most end.
    """
    held = [segment for segment in group if segment[SPAN_START] != segment[SPAN_END]]
    if not held:
        return group[0][SPAN_START], group[0][SPAN_END]
    # Lists to min and max, not generators: a generator costs a Python step an item
    # (tests/bench/core.py, SemanticChunker).
    return (
        min([segment[SPAN_START] for segment in held]),
        max([segment[SPAN_END] for segment in held]),
    )


def _overlap_span(
    own: str, group: list[Segment], texts: list[str], length: int
) -> tuple[int, int] | None:
    """Where the last `length` characters of `own` (the segments of `group`, whose texts are
    `texts`, joined with a blank line) came from, without their white space; None when they
    hold white space alone."""
    found = TEXT_RE.search(own, len(own) - length)
    if found is None:
        return None
    at = found.start()
    if len(group) == 1:
        return to_input(group[0][SOURCE], at), group[0][SPAN_END]
    segment_at = len(own)  # where each segment starts in `own`, from the last
    for number in range(len(group) - 1, -1, -1):
        segment = group[number]
        segment_at -= len(texts[number])
        if segment_at <= at:
            break
        segment_at -= 2  # the blank line that joined it
    start = to_input(segment[SOURCE], at - segment_at)
    # The overlap ends at the end of the last text: that of its last segment holding any.
    for later in reversed(group[number:]):
        if later[SPAN_START] != later[SPAN_END]:
            if later[SPAN_END] < start:
                # From a code block left open into the text the original repeats after it,
                # which lies before the block: the span covers both, as a chunk's (`_hull`).
                return _hull(group[number:])
            return start, later[SPAN_END]
    raise AssertionError("an overlap with text has a segment holding it")  # pragma: no cover


def _remake(cls: type[SemanticChunker], options: dict[str, Any]) -> SemanticChunker:
    """A `cls` with `options`, whatever the constructor of a subclass takes (see `__reduce__`)."""
    chunker = cls.__new__(cls)
    SemanticChunker.__init__(chunker, **options)
    return chunker


def _blank_search_stop(text: str, blank_by: int) -> int:
    """Where a search for the blank lines of `text` may stop when none starts at `blank_by`
    or later: the end of the white space there (a break that starts before it ends in it)."""
    if blank_by >= len(text):
        return len(text)
    white = WHITESPACE_RUN_RE.match(text, blank_by)
    return white.end() if white else blank_by


def split_paragraphs(text: str, blank_by: int = NOT_FOUND) -> tuple[list[str], list[int]]:
    """`text` cut at its blank lines, which are dropped, and where each paragraph starts.
    With `blank_by`, the caller knows that no blank line starts there or later: the search
    stops at the end of the white space there.

    Example:
        >>> split_paragraphs("a\\n\\nb\\n \\n\\nc")
        (['a', 'b', 'c'], [0, 3, 8])
    """
    return pieces_between(text, paragraph_breaks(text, 0, _blank_search_stop(text, blank_by)))


def split_sentences(text: str) -> list[str]:
    """`text` cut at the white space after each `.`, `!` and `?`, which is dropped.

    Example:
        >>> split_sentences("Hi. Who? Me!  Yes")
        ['Hi.', 'Who?', 'Me!', 'Yes']
    """
    return pieces_between(text, sentence_breaks(text, 0, len(text)))[0]
