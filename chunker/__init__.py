"""Text chunking and snippets for retrieval: the AgentOS chunkers, in pure Python.

Two tiers, as `textwrap`: classes to configure (`SemanticChunker`, `ChunkingEngine`) and
one-shot functions (`chunk`, `chunk_turns`, `lexical_tokens`, `snippet_around`, `match_spans`),
and `LexicalIndex` to search the passages they give.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

# Imported at once: every chunker answers it, and `chunk`'s annotations name it.
from chunker.text.records import Chunk

if TYPE_CHECKING:
    # typing_extensions is a checker's own (typeshed's, for any Python): nothing at run time.
    from typing_extensions import Unpack

    from chunker.engine import STRATEGIES, ChunkingEngine
    from chunker.live import Change, LiveDocument
    from chunker.option_types import SemanticOptions
    from chunker.pipelines.many import ChunkedText, chunk_many
    from chunker.pipelines.pool import WorkerError
    from chunker.search.lexical import Snippet, lexical_tokens, match_spans, snippet_around
    from chunker.search.lexical_index import LexicalHit, LexicalIndex, LexicalIndexStats
    from chunker.search.locate import locate_chunks
    from chunker.semantic_chunker import SemanticChunker
    from chunker.text.records import BoundaryType, ChunkColumns, DocumentChunk
    from chunker.turns import Passage, Turn, TurnSpan, chunk_turns

# Where each name lives. A name is imported on first use, so `import chunker` (and the
# browser worker, which calls one function first) loads only what is used: in Pyodide every
# module, pattern and dataclass costs milliseconds as the page starts.
_HOMES: dict[str, str] = {
    "BoundaryType": "text.records",
    "ChunkColumns": "text.records",
    "DocumentChunk": "text.records",
    "ChunkingEngine": "engine",
    "STRATEGIES": "engine",
    "Passage": "turns",
    "Turn": "turns",
    "TurnSpan": "turns",
    "chunk_turns": "turns",
    "SemanticChunker": "semantic_chunker",
    "Snippet": "search.lexical",
    "lexical_tokens": "search.lexical",
    "snippet_around": "search.lexical",
    "match_spans": "search.lexical",
    "LexicalHit": "search.lexical_index",
    "LexicalIndex": "search.lexical_index",
    "LexicalIndexStats": "search.lexical_index",
    "locate_chunks": "search.locate",
    "Change": "live",
    "LiveDocument": "live",
    "ChunkedText": "pipelines.many",
    "chunk_many": "pipelines.many",
    "WorkerError": "pipelines.pool",
}

__version__ = "0.1.0"

__all__ = [
    "BoundaryType",
    "Change",
    "Chunk",
    "ChunkColumns",
    "ChunkedText",
    "ChunkingEngine",
    "DocumentChunk",
    "LexicalHit",
    "LexicalIndex",
    "LexicalIndexStats",
    "LiveDocument",
    "Passage",
    "STRATEGIES",
    "SemanticChunker",
    "Snippet",
    "Turn",
    "TurnSpan",
    "WorkerError",
    "chunk",
    "chunk_many",
    "chunk_turns",
    "lexical_tokens",
    "locate_chunks",
    "match_spans",
    "snippet_around",
    "__version__",
]


if TYPE_CHECKING:  # a checker reads the options typed (a misspelt one is a type error)

    def chunk(
        text: str, metadata: Mapping[str, Any] | None = None, **options: Unpack[SemanticOptions]
    ) -> list[Chunk]:
        """Cut `text` with a `SemanticChunker` made from `options` (its keyword arguments)."""

else:  # Python reads this one, whose annotations `typing.get_type_hints` resolves

    def chunk(text: str, metadata: Mapping[str, Any] | None = None, **options: Any) -> list[Chunk]:
        """Cut `text` with a `SemanticChunker` made from `options` (its keyword arguments).

        Example:
            >>> [c.boundary_type for c in chunk("# Title\\n\\nBody.", overlap=0)]
            ['heading']
        """
        from chunker.semantic_chunker import _OPTIONS, SemanticChunker

        # Named here: Python's own refusal of an unknown keyword carries no `field`. (A loop,
        # with the import only when one is unknown: a short text costs little more to cut.)
        for name in options:
            if name not in _OPTIONS:
                from chunker.base.validation import require_known_options

                require_known_options(options, _OPTIONS, of="SemanticChunker")
        return SemanticChunker(**options).chunk(text, metadata)


if not TYPE_CHECKING:  # so that a type checker still flags a misspelt name

    def __getattr__(name: str) -> Any:
        """Import `name` from its module on first use (PEP 562), then keep it here."""
        home = _HOMES.get(name)
        if home is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{home}", __name__), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted({*__all__, *(name for name in globals() if name.startswith("__"))})
