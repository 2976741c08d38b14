"""A user's code, checked by `mypy --strict` (tests/core/test_types.py) and run as a script:
it reads every public attribute of chunker's classes and results into a variable of the type
it should have, so a declaration a type checker cannot see, or sees wrongly, fails the check.

Each `# type: ignore[code]` marks a mistake the checker must catch (under `--strict` an
ignore that catches nothing is itself an error), in a block that Python must refuse too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Literal

import chunker
from chunker import (
    STRATEGIES,
    BoundaryType,
    Change,
    Chunk,
    ChunkColumns,
    ChunkedText,
    ChunkingEngine,
    DocumentChunk,
    LexicalHit,
    LexicalIndex,
    LexicalIndexStats,
    LiveDocument,
    Passage,
    SemanticChunker,
    Snippet,
    Turn,
    TurnSpan,
    WorkerError,
    chunk,
    chunk_many,
    chunk_turns,
    lexical_tokens,
    locate_chunks,
    match_spans,
    snippet_around,
)
from chunker.base.limits import OverlapBoundary
from chunker.evaluation import EvaluationSet, Question, evaluate
from chunker.tokens import Tokenizer, count_tokens


@contextmanager
def refused(error: type[Exception]) -> Iterator[None]:
    """The block must raise `error`."""
    try:
        yield
    except error:
        return
    raise AssertionError(f"no {error.__name__} raised")


TEXT = "# Title\n\nOne sentence. Another one.\n\n## Part\n\nMore text here."

# SemanticChunker: its options, as set, and its two answers.
semantic = SemanticChunker(target_size=40, max_size=80, min_size=0, overlap=5)
target_size: int = semantic.target_size
max_size: int = semantic.max_size
min_size: int = semantic.min_size
overlap: int = semantic.overlap
preserve_code_blocks: bool = semantic.preserve_code_blocks
respect_headings: bool = semantic.respect_headings
overlap_boundary: OverlapBoundary = semantic.overlap_boundary
assert (target_size, max_size, min_size, overlap) == (40, 80, 0, 5)
assert preserve_code_blocks and respect_headings and overlap_boundary == "chars"
with refused(ValueError):
    SemanticChunker(overlap_boundary="words")  # type: ignore[arg-type]  # "word" or "sentence"
with refused(AttributeError):
    semantic.target_size = 50  # type: ignore[misc]  # read-only: set only at construction

chunks: list[Chunk] = semantic.chunk(TEXT, {"source": "notes"})
first = chunks[0]
text: str = first.text
index: int = first.index
start_offset: int = first.start_offset
end_offset: int = first.end_offset
boundary_type: BoundaryType = first.boundary_type
metadata: Mapping[str, Any] | None = first.metadata
span: tuple[int, int] = first.span
overlap_span: tuple[int, int] | None = first.overlap_span
as_dict: dict[str, Any] = first.to_dict(spans=True)
assert text and metadata == {"source": "notes"} and "span" in as_dict

columns: ChunkColumns = semantic.chunk_columns(TEXT)
counted: int = len(columns)
offsets: list[int] = columns.offsets
boundaries: list[BoundaryType] = columns.boundaries
spans: list[int] = columns.spans
overlap_spans: list[int] = columns.overlap_spans
places: list[int] = columns.places
unplaced: list[str] = columns.texts
chunk_texts: list[str] = columns.chunk_texts(TEXT)
assert counted == len(boundaries) == len(offsets) // 2 == len(chunk_texts)

one_shot: list[Chunk] = chunk(TEXT, None, overlap=0)

# ChunkingEngine: its strategies and its records.
strategies: tuple[str, ...] = STRATEGIES
engine = ChunkingEngine()
document_chunks: list[DocumentChunk] = engine.chunk(TEXT, "hierarchical", 40, 4)
section = document_chunks[0]
content: str = section.content
section_index: int = section.index
heading: str | None = section.heading
section_metadata: Mapping[str, Any] | None = section.metadata
section_span: tuple[int, int] = section.span
section_dict: dict[str, Any] = section.to_dict(spans=True)
assert content and section_dict["content"] == content


def embed(sentences: list[str]) -> list[list[float]]:
    return [[float(len(sentence)), 1.0] for sentence in sentences]


async def embed_later(sentences: list[str]) -> list[list[float]]:
    return embed(sentences)


by_meaning: list[DocumentChunk] = engine.chunk(TEXT, "semantic", embed_fn=embed)
awaited: list[DocumentChunk] = asyncio.run(engine.achunk(TEXT, "semantic", embed_fn=embed_later))
assert [c.content for c in by_meaning] == [c.content for c in awaited]

# Transcripts.
turns = [Turn(1, "Hello there.", "a", 0.0, 900.0), Turn(2, "Hi!", start_ms=1000.0)]
seq: int = turns[0].seq
turn_text: str = turns[0].text
item_id: str | None = turns[0].item_id
start_ms: float | None = turns[0].start_ms
end_ms: float | None = turns[0].end_ms
passages: list[Passage] = chunk_turns(turns, max_chars=20, overlap_turns=1)
passage = passages[0]
passage_text: str = passage.text
passage_index: int = passage.index
first_seq: int = passage.first_seq
last_seq: int = passage.last_seq
item_ids: tuple[str | None, ...] = passage.item_ids
passage_start: float | None = passage.start_ms
passage_end: float | None = passage.end_ms
repeated_turns: int = passage.repeated_turns
turn_spans: tuple[TurnSpan, ...] = passage.turns
turn_span = turn_spans[0]
span_seq: int = turn_span.seq
span_item: str | None = turn_span.item_id
span_start: int = turn_span.start
span_end: int = turn_span.end
passage_dict: dict[str, Any] = passage.to_dict(spans=True)
turn_span_dict: dict[str, Any] = turn_span.to_dict()
assert passage_text.startswith(turn_text) and span_end > span_start

# Words, snippets and where chunks lie.
words: list[str] = lexical_tokens("Refunds go back to the card.")
snippet: Snippet = snippet_around(TEXT, ["another"], before=10, after=10)
snippet_at: int = snippet.at
snippet_text: str = snippet.text
snippet_dict: dict[str, Any] = snippet.to_dict()
matches: list[tuple[int, int]] = match_spans(TEXT, ["sentence"])
located: list[tuple[int, int] | None] = locate_chunks(TEXT, ["One sentence.", "More text"])
assert snippet_at >= 0 and matches and all(place is not None for place in located)

# LexicalIndex and what it answers.
lexical_index = LexicalIndex(k1=1.5, b=0.5)
lexical_index.add_document("refunds", "Refunds go back to the card.", {"topic": "money"})
lexical_index.add_documents([{"id": "shipping", "text": "Orders ship within two days."}])
k1: float = lexical_index.k1
b: float = lexical_index.b
held: int = len(lexical_index)
holds: bool = "refunds" in lexical_index
with refused(AttributeError):
    lexical_index.k1 = 2.0  # type: ignore[misc]  # read-only: set only at construction
hits: list[LexicalHit] = lexical_index.search("card refund", 5, match="any", prefix=True)
hit = hits[0]
hit_id: str = hit.id
score: float = hit.score
hit_metadata: dict[str, Any] | None = hit.metadata
hit_dict: dict[str, Any] = hit.to_dict()
stats: LexicalIndexStats = lexical_index.stats()
document_count: int = stats.document_count
term_count: int = stats.term_count
average_length: float = stats.average_length
stats_dict: dict[str, Any] = stats.to_dict()
saved: dict[str, Any] = lexical_index.to_json()
restored: LexicalIndex = LexicalIndex.from_json(saved)
removed: bool = restored.remove_document("shipping")
assert hit_id == "refunds" and document_count == 2 and removed
with refused(ValueError):
    lexical_index.search("card", match="some")  # type: ignore[arg-type]  # "any" or "all"

# Many texts at once (in this process: jobs=1). The records follow the strategy, the ids the
# items: `Chunk`s by default, `DocumentChunk`s for the engine's; texts numbered, pairs' ids kept.
results: Iterator[ChunkedText[DocumentChunk, str]] = chunk_many(
    [("a", TEXT)], jobs=1, strategy="fixed", chunk_size=40, chunk_overlap=0
)
result = next(results)
result_id: str = result.id
result_chunks: tuple[DocumentChunk, ...] = result.chunks
assert result_id == "a" and result_chunks[0].content
by_default = next(chunk_many([TEXT], jobs=1, target_size=40, overlap=0))
numbered: int = by_default.id
first_text: str = by_default.chunks[0].text
assert numbered == 0 and first_text
mixed_id: object = next(chunk_many([TEXT, ("b", TEXT)], jobs=1, strategy="layout")).id
# A strategy chosen at run time is one of the literal names, narrowed or annotated so.
chosen: Literal["semantic", "fixed"] = "fixed"
either: Iterator[ChunkedText[Chunk, int]] | Iterator[ChunkedText[DocumentChunk, int]]
either = chunk_many([TEXT], jobs=1, strategy=chosen)
any_result: ChunkedText = next(either)  # bare: any chunk, any id
any_chunks: Sequence[Chunk | DocumentChunk] = any_result.chunks
# A misspelt strategy or option, an option of the other chunker, a value of the wrong type:
# each a type error, and refused as Python runs it.
with refused(TypeError):
    chunk(TEXT, taget_size=40)  # type: ignore[call-arg]
with refused(TypeError):
    chunk(TEXT, overlap="5")  # type: ignore[arg-type]
with refused(ValueError):
    chunk_many([TEXT], strategy="fixd")  # type: ignore[call-overload]
with refused(TypeError):
    chunk_many([TEXT], taget_size=40)  # type: ignore[call-overload]
with refused(TypeError):
    chunk_many([TEXT], strategy="fixed", target_size=40)  # type: ignore[call-overload]
with refused(TypeError):
    chunk_many([TEXT], chunk_size=40)  # type: ignore[call-overload]
with refused(AttributeError):
    result.chunks[0].text  # type: ignore[attr-defined]  # noqa: B018  # a DocumentChunk's
with refused(AttributeError):
    by_default.chunks[0].content  # type: ignore[attr-defined]  # noqa: B018  # a Chunk's
with refused(ValueError):
    evaluate(EvaluationSet({"a": TEXT}, [Question("q", "a", ((0, 7),))]), strategy="fixd")  # type: ignore[arg-type]
with refused(ValueError):
    engine.chunk(TEXT, "hierarchal")  # type: ignore[arg-type]
# A live document: its chunks follow the strategy, as `chunk_many`'s do; an edit's change too.
live = LiveDocument(TEXT, target_size=40, overlap=0)
live_text: str = live.text
live_chunks: list[Chunk] = live.chunks
change: Change[Chunk] = live.edit(0, 1, "#")
kept: Sequence[Chunk] = change.kept
added: list[Chunk] = change.added
gone: list[Chunk] = change.removed
retyped: Change[Chunk] = live.replace_text(TEXT)
assert live_text == TEXT and live_chunks and len(kept) + len(added) == len(live.chunks)
assert retyped.added == gone
sections = LiveDocument(TEXT, "hierarchical", chunk_size=40, chunk_overlap=0)
section_chunks: list[DocumentChunk] = sections.chunks
grouped = LiveDocument(TEXT, "engine-semantic", embed_fn=lambda s: [[1.0] for _ in s])
grouped_change: Change[DocumentChunk] = grouped.edit(0, 0, " ")
with refused(ValueError):
    LiveDocument(TEXT, "fixd")  # type: ignore[call-overload]
with refused(TypeError):
    LiveDocument(TEXT, "fixed", target_size=40)  # type: ignore[call-overload]
with refused(ValueError):
    live.edit(0, len(live.text) + 1, "")
# What `chunk_many` raises should a worker process die (jobs > 1): one error to catch.
worker_error: RuntimeError = WorkerError("worker process 1 ended without answering")


# A token budget: the two options, and each record's count (a function counts here, so
# this file needs no extra; a name such as "cl100k_base" takes `chunkspan[tokens]`).
def words_of(text: str) -> int:
    return len(text.split())


budgeted = SemanticChunker(max_tokens=12, tokenizer=words_of)
max_tokens: int | None = budgeted.max_tokens
tokenizer: Tokenizer | None = budgeted.tokenizer
token_count: int | None = budgeted.chunk(TEXT)[0].token_count
document_tokens: int | None = engine.chunk(TEXT, max_tokens=12, tokenizer=words_of)[0].token_count
passage_tokens: int | None = chunk_turns(turns, max_tokens=3, tokenizer=words_of)[0].token_count
counted_words: int = count_tokens("two words", words_of)
assert max_tokens == 12 and token_count is not None and token_count <= 12 and counted_words == 2
assert document_tokens is not None and passage_tokens is not None and passage_tokens <= 3

version: str = chunker.__version__
with refused(AttributeError):
    chunker.no_such_name  # type: ignore[attr-defined]  # noqa: B018  # a misspelt name
