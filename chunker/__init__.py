"""Text chunking and snippets for retrieval: the AgentOS chunkers, in pure Python.

Two tiers, as `textwrap`: classes to configure (`SemanticChunker`, `ChunkingEngine`) and
one-shot functions (`chunk`, `chunk_turns`, `lexical_tokens`, `snippet_around`).
"""

from __future__ import annotations

from typing import Any, Mapping

from .engine import STRATEGIES, ChunkingEngine
from .lexical import lexical_tokens, snippet_around
from .locate import locate_chunks
from .records import BoundaryType, Chunk, DocumentChunk, Passage, Snippet, TurnSpan
from .semantic_chunker import SemanticChunker
from .turns import Turn, chunk_turns

__version__ = "0.1.0"

__all__ = [
    "BoundaryType",
    "Chunk",
    "ChunkingEngine",
    "DocumentChunk",
    "Passage",
    "STRATEGIES",
    "SemanticChunker",
    "Snippet",
    "Turn",
    "TurnSpan",
    "chunk",
    "chunk_turns",
    "lexical_tokens",
    "locate_chunks",
    "snippet_around",
    "__version__",
]


def chunk(text: str, metadata: Mapping[str, Any] | None = None, **options: Any) -> list[Chunk]:
    """Cut `text` with a `SemanticChunker` made from `options` (its keyword arguments).

    Example:
        >>> [c.boundary_type for c in chunk("# Title\\n\\nBody.", overlap=0)]
        ['heading']
    """
    return SemanticChunker(**options).chunk(text, metadata)
