"""The `semantic` strategy: cut between sentences whose embeddings point apart.

It runs in two halves so that `chunk()` can call a plain embedding function and `achunk()`
can await an async one: `sentences_to_embed` says what to embed, `group_by_similarity` cuts.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from numbers import Real
from typing import Any

from chunker.base.validation import ArgumentTypeError, ArgumentValueError
from chunker.base.whitespace import WS_CLASS, is_blank, tight_span
from chunker.engine.fixed import fixed_chunks
from chunker.text.records import DocumentRow, document_row
from chunker.text.sourcemap import after, input_span, joined

__all__ = ["SPLIT_THRESHOLD", "sentences_before_capitals", "group_by_similarity", "check_vectors"]

# Neighbouring sentences whose cosine similarity falls below this start a new chunk.
SPLIT_THRESHOLD = 0.3

# A group longer than this many times chunk_size is cut again with the fixed strategy.
MAX_GROUP_FACTOR = 2

# A sentence break: white space after `.`, `!` or `?` and before a capital A-Z.
# "It rained. Then" splits; "It rained. then" does not; "Mr. Smith" does, as in the original.
SENTENCE_BREAK_RE = re.compile(rf"(?<=[.!?])[{WS_CLASS}]+(?=[A-Z])")


def sentences_before_capitals(content: str) -> tuple[list[str], list[int]]:
    """Return the sentences the original embeds, and where each starts in `content`: cut at
    the white space after `.`, `!` or `?` that a capital A-Z follows (SENTENCE_BREAK_RE), the
    blank ones dropped. Not `SemanticChunker`'s sentence split, which cuts at every such
    white space and keeps every piece (`semantic_chunker.split_sentences`).

    Example:
        >>> sentences_before_capitals("It rained. Then it stopped.")
        (['It rained.', 'Then it stopped.'], [0, 11])
    """
    sentences: list[str] = []
    starts: list[int] = []
    start = 0
    for end in [*SENTENCE_BREAK_RE.finditer(content), None]:
        sentence = content[start : len(content) if end is None else end.start()]
        if not is_blank(sentence):
            sentences.append(sentence)
            starts.append(start)
        if end is not None:
            start = end.end()
    return sentences, starts


def check_vectors(vectors: Any, count: int) -> list[list[float]]:
    """Return `vectors` as lists of floats if it holds `count` vectors of finite numbers, all of
    one length and not empty, else raise. Arrays (NumPy's, and the like) count as lists."""
    vectors = _plain(vectors)
    if isinstance(vectors, (str, bytes)) or not isinstance(vectors, Sequence):
        raise _wrong_type(
            f"embed_fn must return a list of vectors, got {type(vectors).__name__} {vectors!r:.80}"
        )
    if len(vectors) != count:
        raise _wrong_value(f"embed_fn returned {len(vectors)} vectors for {count} sentences")
    checked: list[list[float]] = []
    for number, given in enumerate(vectors):
        vector = _plain(given)
        if isinstance(vector, (str, bytes)) or not isinstance(vector, Sequence):
            raise _wrong_type(
                f"embed_fn vector {number} must be a list of numbers, got {vector!r:.80}"
            )
        for value in vector:
            if isinstance(value, bool) or not isinstance(value, Real):
                raise _wrong_type(f"embed_fn vector {number} holds a non-number: {value!r:.80}")
        try:
            # As JavaScript numbers are: the sums then round as the original's do.
            floats = list(map(float, vector))
        except OverflowError:
            raise _wrong_value(
                f"embed_fn vector {number} holds a number too large for a float: {vector!r:.80}"
            ) from None
        if not all(map(math.isfinite, floats)):
            # NaN would make every similarity NaN, and so silently cut nowhere.
            bad = next(value for value in floats if not math.isfinite(value))
            raise _wrong_value(f"embed_fn vector {number} holds {bad!r}: numbers must be finite")
        if not floats:
            raise _wrong_value(f"embed_fn vector {number} is empty: no similarity can be measured")
        if checked and len(floats) != len(checked[0]):
            raise _wrong_value(
                f"embed_fn returned vectors of unequal length: vector 0 has {len(checked[0])} "
                f"numbers, vector {number} has {len(floats)}"
            )
        checked.append(floats)
    return checked


def _wrong_type(message: str) -> ArgumentTypeError:
    return ArgumentTypeError("embed_fn", message)


def _wrong_value(message: str) -> ArgumentValueError:
    return ArgumentValueError("embed_fn", message)


def _plain(value: Any) -> Any:
    """`value.tolist()` for an array (NumPy's and the like), else `value`."""
    to_list = getattr(value, "tolist", None)
    return to_list() if callable(to_list) else value


def group_by_similarity(
    sentences: list[str],
    starts: list[int],
    vectors: list[list[float]],
    chunk_size: int,
    chunk_overlap: int,
    rows: list[DocumentRow],
) -> None:
    """Join neighbouring sentences while their similarity stays at or above the threshold,
    a row a chunk added to `rows`.

    `starts` are where the sentences are in the input; a chunk's span runs from its first
    sentence's text to its last's (the input's white space between them, where the chunk
    has one space).
    """
    groups: list[list[int]] = [[0]]  # the sentences of each group, by number
    for index in range(1, len(sentences)):
        if _cosine(vectors[index - 1], vectors[index]) < SPLIT_THRESHOLD:
            groups.append([])
        groups[-1].append(index)
    for group in groups:
        whole = " ".join([sentences[number] for number in group])
        lengths = [len(sentences[number]) for number in group]
        source = joined([starts[number] for number in group], lengths, 1)
        trimmed = tight_span(whole, 0, len(whole))
        if trimmed is None:
            continue
        text = whole[trimmed[0] : trimmed[1]]
        text_source = after(source, trimmed[0])
        if len(text) > chunk_size * MAX_GROUP_FACTOR:
            # Spans in `text`, placed in the input by its source (this group alone).
            parts: list[DocumentRow] = []
            fixed_chunks(text, chunk_size, chunk_overlap, parts)
            for part in parts:
                part.span = input_span(text_source, *part.span)
            rows += parts
        else:
            rows.append(document_row(text, None, None, input_span(text_source, 0, len(text))))


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity, summed in the original's order so floats round the same; 0 for a
    zero vector."""
    dot = mag_a = mag_b = 0.0
    for x, y in zip(a, b):
        dot += x * y
        mag_a += x * x
        mag_b += y * y
    norm_a, norm_b = math.sqrt(mag_a), math.sqrt(mag_b)
    if norm_a == 0 or norm_b == 0:
        return 0.0
    return dot / (norm_a * norm_b)
