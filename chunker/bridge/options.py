"""The one table of option names: the original's (JavaScript) and the Python keywords."""

from __future__ import annotations

from typing import Any

from chunker.base.validation import ArgumentTypeError

__all__ = ["OPTION_NAMES", "python_options"]

# For each operation, its JavaScript option names and the Python keyword each stands for.
OPTION_NAMES: dict[str, dict[str, str]] = {
    "SemanticChunker.chunk": {
        "targetSize": "target_size",
        "maxSize": "max_size",
        "minSize": "min_size",
        "overlap": "overlap",
        "preserveCodeBlocks": "preserve_code_blocks",
        "respectHeadings": "respect_headings",
        "maxTokens": "max_tokens",
        "tokenizer": "tokenizer",
        "overlapBoundary": "overlap_boundary",
        "spans": "spans",
    },
    "ChunkingEngine.chunk": {
        "strategy": "strategy",
        "chunkSize": "chunk_size",
        "chunkOverlap": "chunk_overlap",
        "embedFn": "embed_fn",
        "maxTokens": "max_tokens",
        "tokenizer": "tokenizer",
        "boundaries": "boundaries",
        "spans": "spans",
    },
    "chunkTurns": {
        "maxChars": "max_chars",
        "overlapTurns": "overlap_turns",
        "maxTokens": "max_tokens",
        "tokenizer": "tokenizer",
        "spans": "spans",
    },
    "snippetAround": {"before": "before", "after": "after"},
    "LexicalIndex": {"k1": "k1", "b": "b"},
    # `snippet` is the worker's own: each hit with its snippet and matching words' spans.
    "LexicalIndex.search": {"match": "match", "prefix": "prefix", "snippet": "snippet"},
}
# `evaluate`'s options: `k`, the strategy, and the options of whichever chunker it names.
OPTION_NAMES["evaluate"] = {
    "strategy": "strategy",
    "k": "k",
    "edits": "edits",
    "editSeed": "edit_seed",
    **{js: py for js, py in OPTION_NAMES["SemanticChunker.chunk"].items() if js != "spans"},
    **{
        js: py
        for js, py in OPTION_NAMES["ChunkingEngine.chunk"].items()
        if js not in ("strategy", "embedFn", "spans")
    },
}
# `LiveDocument`'s: its strategy, and the options of whichever chunker that names (the
# engine's without `embedFn`, which the worker's documents do not call); LiveDocument names
# one the strategy does not take.
OPTION_NAMES["LiveDocument"] = {
    **OPTION_NAMES["SemanticChunker.chunk"],
    **{js: py for js, py in OPTION_NAMES["ChunkingEngine.chunk"].items() if js != "embedFn"},
}


def python_options(operation: str, given: Any) -> dict[str, Any]:
    """Python keywords for the JavaScript options `given` to `operation`.

    A missing or null option takes its default, as the original's `option ?? default`.

    Example:
        >>> python_options("chunkTurns", {"maxChars": 80, "overlapTurns": None})
        {'max_chars': 80}
    """
    if given is None:
        return {}
    argument = "config" if operation == "SemanticChunker.chunk" else "options"
    if not isinstance(given, dict):
        raise ArgumentTypeError(argument, f"{argument} must be an object, got {given!r:.80}")
    names = OPTION_NAMES[operation]
    unknown = [name for name in given if name not in names]
    if unknown:
        raise ArgumentTypeError(
            argument,
            f"{argument} of {operation} has unknown option{'s' if len(unknown) > 1 else ''} "
            f"{', '.join(unknown)} (known: {', '.join(names)})",
        )
    return {names[name]: value for name, value in given.items() if value is not None}
