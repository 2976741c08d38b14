"""The operations the facade calls, by name: each takes the call's arguments (the original's
names) and answers its result in the original's shape, or `Packed`. Offsets are Python's (code
points): chunker.js converts them (chunker-utf16.js).

Each operation imports what it calls when first called: the worker is ready sooner, and a
page pays only for the modules it uses (SemanticChunker's are imported with this one).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from chunker.base.validation import require_bool
from chunker.bridge.options import python_options
from chunker.bridge.packing import Packed, columns_of, pack_chunks, pack_document_chunks
from chunker.semantic_chunker import SemanticChunker

if TYPE_CHECKING:
    from chunker.bridge.calls import Arguments, Astral, Operation

__all__ = ["OPERATIONS", "engine_chunk", "find_operation"]

T = TypeVar("T")


def _semantic_chunk(args: Arguments, astral: Astral) -> Packed:
    text = args.get("text")
    options = python_options("SemanticChunker.chunk", args.get("config"))
    with_spans = require_bool("spans", options.pop("spans", False))
    chunker = SemanticChunker(**options)
    if chunker.max_tokens is None and chunker.tokenizer is None:
        columns = chunker.chunk_columns(text, args.get("metadata"))
        return pack_chunks(text, columns, astral, with_spans)
    # Counted: the budget's pass works on records (`budget.py`), and cuts pieces that
    # `chunk_columns` does not describe; their columns are made from the records instead.
    chunks = chunker.chunk(text, args.get("metadata"))
    counts = [chunk.token_count or 0 for chunk in chunks]
    return pack_chunks(text, columns_of(text, chunks), astral, with_spans, counts)


async def engine_chunk(
    args: Arguments, astral: Astral, embed_fn: Callable[[list[str]], Any] | None = None
) -> Packed:
    """`ChunkingEngine.chunk`, for `handle` (no `embed_fn`) and `handle_async` (the page's
    `embedFn`, which answers a promise) alike."""
    from chunker.engine import ChunkingEngine

    content = args.get("content")
    options = python_options("ChunkingEngine.chunk", args.get("options"))
    require_bool("spans", options.pop("spans", False))  # the spans place the contents
    if embed_fn is not None:
        options["embed_fn"] = embed_fn
    chunks = await ChunkingEngine().achunk(content, **options)
    return pack_document_chunks(content, chunks, astral)


def _engine_chunk(args: Arguments, astral: Astral) -> Packed:
    return _at_once(engine_chunk(args, astral))


def _at_once(coroutine: Coroutine[Any, Any, T]) -> T:
    """The result of `coroutine`, which never waits: `achunk` without an `embed_fn` awaits
    nothing, so it ends at its first step, with no event loop."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        result: T = done.value  # StopIteration's value is untyped
        return result
    coroutine.close()
    raise RuntimeError("the engine waited for something without an embed_fn")


def _chunk_turns(args: Arguments, _astral: Astral) -> list[dict[str, Any]]:
    from chunker.turns import chunk_turns

    options = python_options("chunkTurns", args.get("options"))
    # `spans` asks for the records' spans (repeatedTurns); chunk_turns itself does not take it.
    with_spans = require_bool("spans", options.pop("spans", False))
    return [
        passage.to_dict(spans=with_spans) for passage in chunk_turns(args.get("turns"), **options)
    ]


def _count_tokens(args: Arguments, _astral: Astral) -> int:
    from chunker.tokens import DEFAULT_TOKENIZER, count_tokens

    tokenizer = args.get("tokenizer")  # missing or null: the default, as options take theirs
    return count_tokens(args.get("text"), DEFAULT_TOKENIZER if tokenizer is None else tokenizer)


def _lexical_tokens(args: Arguments, _astral: Astral) -> list[str]:
    from chunker.search.lexical import lexical_tokens

    return lexical_tokens(args.get("text"))


def _snippet_around(args: Arguments, _astral: Astral) -> dict[str, Any]:
    from chunker.search.lexical import snippet_around

    options = python_options("snippetAround", args.get("options"))
    snippet = snippet_around(args.get("text"), args.get("words"), **options)
    return {"at": snippet.at, "text": snippet.text}


def _match_spans(args: Arguments, _astral: Astral) -> list[dict[str, int]]:
    from chunker.search.lexical import match_spans

    spans = match_spans(args.get("text"), args.get("words"))
    return [{"start": start, "end": end} for start, end in spans]


def _locate_chunks(args: Arguments, _astral: Astral) -> list[dict[str, int] | None]:
    from chunker.search.locate import locate_chunks

    spans = locate_chunks(args.get("text"), args.get("contents"))
    return [None if s is None else {"start": s[0], "end": s[1]} for s in spans]


OPERATIONS: dict[str, Operation] = {
    "SemanticChunker.chunk": _semantic_chunk,
    "ChunkingEngine.chunk": _engine_chunk,
    "chunkTurns": _chunk_turns,
    "countTokens": _count_tokens,
    "lexicalTokens": _lexical_tokens,
    "snippetAround": _snippet_around,
    "locateChunks": _locate_chunks,
    "matchSpans": _match_spans,
}


def find_operation(name: str) -> Operation:
    """The operation `name`; those of `LexicalIndex` (module `indexes`), of the evaluation
    sets (`evaluations`) and of `LiveDocument` (`live`) are imported on their first call, so
    the worker starts without them."""
    if name.startswith("LexicalIndex."):
        from chunker.bridge.indexes import INDEX_OPERATIONS

        return INDEX_OPERATIONS[name]
    if name.startswith("LiveDocument."):
        from chunker.bridge.live import LIVE_OPERATIONS

        return LIVE_OPERATIONS[name]
    if name.startswith("EvaluationSet."):
        from chunker.bridge.evaluations import EVALUATION_OPERATIONS

        return EVALUATION_OPERATIONS[name]
    return OPERATIONS[name]
