"""`chunk_turns`: a transcript cut into passages of whole turns.

Rules (the original's, also in docs/transcripts.md):

1. A turn whose text is empty or white space alone (JavaScript's `trim()`) is left out before
   anything else; the others are taken in the order given.
2. A passage is a run of turns, texts joined by `\\n`. It takes turns while its text stays
   within `max_chars`; its first new turn always goes in, so a turn longer than `max_chars`
   is a passage of its own.
3. Each passage after the first opens with the last `overlap_turns` turns of the one before,
   as many of them as fit within `max_chars` beside its first new turn (oldest dropped first).
   Every passage brings at least one new turn, so any `overlap_turns` ends.
4. A passage lists every turn's `itemId` in order (repeats kept, None for a turn without
   one), and takes `startMs` from its first turn and `endMs` from its last.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from numbers import Real
from typing import TYPE_CHECKING, Any

from chunker.base.limits import MINIMUMS
from chunker.base.validation import (
    ArgumentTypeError,
    ArgumentValueError,
    require_int,
    require_sequence,
)
from chunker.base.whitespace import is_blank

if TYPE_CHECKING:
    from chunker.tokens import Budget, Tokenizer

__all__ = ["Passage", "Turn", "TurnSpan", "chunk_turns"]


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of a transcript."""

    seq: int
    """Its position in the conversation."""
    text: str
    """What was said."""
    item_id: str | None = None
    """The id of the item it came from, when known."""
    start_ms: float | None = None
    """When it started, in milliseconds, when known."""
    end_ms: float | None = None
    """When it ended, in milliseconds, when known."""

    def __post_init__(self) -> None:
        _check_fields(
            "Turn",
            seq=self.seq,
            text=self.text,
            item_id=self.item_id,
            start_ms=self.start_ms,
            end_ms=self.end_ms,
            spelling={},
        )


# Keys a mapping may use for each field: the original's camelCase, or snake_case.
_KEYS = {
    "item_id": ("itemId", "item_id"),
    "start_ms": ("startMs", "start_ms"),
    "end_ms": ("endMs", "end_ms"),
}
_ORIGINAL_NAMES = {name: keys[0] for name, keys in _KEYS.items()}


@dataclass(frozen=True, slots=True)
class TurnSpan:
    """Where one turn sits in a passage's text."""

    seq: int
    """The turn's `seq`."""
    item_id: str | None
    """The turn's `itemId`, when it has one."""
    start: int
    """Offset of the turn's first character in the passage text."""
    end: int
    """Offset just past the turn's last character in the passage text."""

    def to_dict(self) -> dict[str, Any]:
        """Return `{seq, itemId, start, end}` (`itemId` only when set)."""
        out: dict[str, Any] = {"seq": self.seq}
        if self.item_id is not None:
            out["itemId"] = self.item_id
        out["start"] = self.start
        out["end"] = self.end
        return out


@dataclass(frozen=True, slots=True)
class Passage:
    """Whole turns of a transcript joined by line feeds, cut by `chunk_turns`."""

    text: str
    """The turns' texts joined by `\\n`."""
    index: int
    """Position of the passage in the answer, from 0."""
    first_seq: int
    """`seq` of the passage's first turn."""
    last_seq: int
    """`seq` of the passage's last turn."""
    item_ids: tuple[str | None, ...]
    """Every turn's `itemId` in order, repeats kept; None for a turn without one."""
    start_ms: float | None
    """The first turn's `startMs`, or None when that turn has none."""
    end_ms: float | None
    """The last turn's `endMs`, or None when that turn has none."""
    turns: tuple[TurnSpan, ...] = field(default=())
    """Where each turn sits in `text`, in order."""
    repeated_turns: int = 0
    """How many of its first turns repeat the passage before (0 for the first passage)."""
    token_count: int | None = field(default=None, repr=False)
    """The tokens in `text` when `chunk_turns` was given a tokenizer (`tokens.py`), else None."""

    def __post_init__(self) -> None:
        require_int("repeated_turns", self.repeated_turns, minimum=0)
        if self.turns and self.repeated_turns >= len(self.turns):
            raise ArgumentValueError(
                "repeated_turns",
                f"invalid repeated_turns {self.repeated_turns!r} (a passage of "
                f"{len(self.turns)} turns brings at least one new turn)",
            )

    def to_dict(self, *, spans: bool = False) -> dict[str, Any]:
        """Return `{text, index, firstSeq, lastSeq, itemIds, startMs, endMs, turns}`, the
        original's shape (`startMs`/`endMs` None when unknown); `spans=True` adds
        `repeatedTurns`."""
        out: dict[str, Any] = {
            "text": self.text,
            "index": self.index,
            "firstSeq": self.first_seq,
            "lastSeq": self.last_seq,
            "itemIds": list(self.item_ids),
            "startMs": self.start_ms,
            "endMs": self.end_ms,
            "turns": [span.to_dict() for span in self.turns],
        }
        if self.token_count is not None:
            out["tokenCount"] = self.token_count
        if spans:
            out["repeatedTurns"] = self.repeated_turns
        return out


def chunk_turns(
    turns: Sequence[Turn | Mapping[str, Any]],
    max_chars: int = 1200,
    overlap_turns: int = 1,
    max_tokens: int | None = None,
    tokenizer: Tokenizer | None = None,
) -> list[Passage]:
    """Cut `turns` into passages of whole turns of at most `max_chars` characters.

    Each turn is a `Turn` or a mapping with `seq` and `text` (and optionally `itemId`,
    `startMs`, `endMs`, or their snake_case names). With `max_tokens`, a passage over that
    many tokens of `tokenizer` (`cl100k_base` unless given) is cut again, within its turns
    (`budget.py`); with a tokenizer, each passage has its `token_count`.

    Example:
        >>> turns = [{"seq": 1, "text": "Hello."}, {"seq": 2, "text": "Hi there."},
        ...          {"seq": 3, "text": "How are you?"}]
        >>> [p.text for p in chunk_turns(turns, max_chars=25)]
        ['Hello.\\nHi there.', 'Hi there.\\nHow are you?']
    """
    require_sequence("turns", turns, of="turns")
    least = MINIMUMS["chunk_turns"]
    require_int("max_chars", max_chars, minimum=least["max_chars"])
    require_int("overlap_turns", overlap_turns, minimum=least["overlap_turns"])
    budget = None
    if max_tokens is not None or tokenizer is not None:
        from chunker.tokens import Budget  # on first use, as the page loads what it uses

        budget = Budget.of(max_tokens, tokenizer)
    # Every entry is checked first, so that a blank turn of the wrong type is still an error.
    checked = [_as_turn(number, turn) for number, turn in enumerate(turns)]
    checked = [turn for turn in checked if not is_blank(turn.text)]
    prefix = [0]
    for turn in checked:
        prefix.append(prefix[-1] + len(turn.text))

    def joined_length(first: int, stop: int) -> int:
        """Length of turns[first:stop] joined by line feeds."""
        return prefix[stop] - prefix[first] + stop - first - 1

    passages: list[Passage] = []
    held: list[list[Turn]] = []  # each passage's turns, for the budget
    previous_start = 0
    fresh = 0  # the first turn no passage holds yet
    while fresh < len(checked):
        start = max(previous_start, fresh - overlap_turns)
        while start < fresh and joined_length(start, fresh + 1) > max_chars:
            start += 1
        end = fresh + 1
        while end < len(checked) and joined_length(start, end + 1) <= max_chars:
            end += 1
        held.append(checked[start:end])
        passages.append(_passage(held[-1], len(passages), repeated=fresh - start))
        previous_start, fresh = start, end
    if budget is None:
        return passages
    return _within_budget(passages, held, budget)


def _passage(turns: list[Turn], index: int, repeated: int) -> Passage:
    spans: list[TurnSpan] = []
    offset = 0
    for turn in turns:
        spans.append(TurnSpan(turn.seq, turn.item_id, offset, offset + len(turn.text)))
        offset += len(turn.text) + 1
    return Passage(
        text="\n".join(turn.text for turn in turns),
        index=index,
        first_seq=turns[0].seq,
        last_seq=turns[-1].seq,
        item_ids=tuple(turn.item_id for turn in turns),
        start_ms=turns[0].start_ms,
        end_ms=turns[-1].end_ms,
        turns=tuple(spans),
        repeated_turns=repeated,
    )


def _as_turn(number: int, turn: Any) -> Turn:
    """Check one entry of `turns`; errors name it as `turns[N].field`."""
    if isinstance(turn, Turn):
        return turn  # checked when it was made
    if isinstance(turn, Mapping):
        for required in ("seq", "text"):
            if required not in turn:
                raise ArgumentValueError(
                    "turns", f"turns[{number}] has no {required!r}: {dict(turn)!r:.120}"
                )
        fields = {"seq": turn["seq"], "text": turn["text"]}
        for name, keys in _KEYS.items():
            fields[name] = next((turn[key] for key in keys if key in turn), None)
    else:
        raise ArgumentTypeError(
            "turns",
            f"turns[{number}] must be a mapping or a Turn, got {type(turn).__name__} {turn!r:.80}",
        )
    # Checked here, so that errors name the entry and the original's key names.
    _check_fields(f"turns[{number}]", **fields, spelling=_ORIGINAL_NAMES, argument="turns")
    return Turn(**fields)


def _check_fields(
    where: str,
    *,
    seq: Any,
    text: Any,
    item_id: Any,
    start_ms: Any,
    end_ms: Any,
    spelling: Mapping[str, str],
    argument: str | None = None,
) -> None:
    """Raise TypeError naming `where.field` and the value for a field of the wrong type, and
    ValueError for a time that is not a finite number (JSON, and so the page, cannot carry
    one); `spelling` gives other names for fields (the original's camelCase). Errors are about
    `argument`, or when None (a `Turn` made directly) the field itself."""
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise ArgumentTypeError(
            argument or "seq", f"{where}.seq must be an integer, got {seq!r:.80}"
        )
    if not isinstance(text, str):
        raise ArgumentTypeError(
            argument or "text", f"{where}.text must be a string, got {text!r:.80}"
        )
    if item_id is not None and not isinstance(item_id, str):
        name = spelling.get("item_id", "item_id")
        raise ArgumentTypeError(
            argument or "item_id",
            f"{where}.{name} must be a string or absent, got {item_id!r:.80}",
        )
    for timing, value in (("start_ms", start_ms), ("end_ms", end_ms)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, Real)):
            name = spelling.get(timing, timing)
            raise ArgumentTypeError(
                argument or timing, f"{where}.{name} must be a number or absent, got {value!r:.80}"
            )
        if value is not None and not math.isfinite(value):
            name = spelling.get(timing, timing)
            raise ArgumentValueError(
                argument or timing, f"{where}.{name} must be a finite number, got {value!r:.80}"
            )


def _within_budget(
    passages: list[Passage], turns: Sequence[Sequence[Turn]], budget: Budget
) -> list[Passage]:
    """`chunk_turns`' passages (made of `turns`, a list each) within `budget`, each with its
    `token_count`: each over it cut by the budget's pass (`budget.py`). A piece of a passage
    lists the turns it holds part of, where in its text, and their times."""
    from chunker.text.budget import fit_pieces  # on first use, as the page loads what it uses

    count = budget.counter()
    max_tokens = budget.max_tokens
    out: list[Passage] = []
    for passage, held in zip(passages, turns):
        own_at = passage.turns[passage.repeated_turns].start
        lead, own = passage.text[:own_at], passage.text[own_at:]
        fitted = (
            None if max_tokens is None else fit_pieces(lead, own, passage.text, count, max_tokens)
        )
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
