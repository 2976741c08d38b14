"""The chunkers' options as types, for a type checker: `chunk` and `chunk_many` take their
options as `**options: Unpack[...]` of these, so a misspelt option, one of the other chunker
or a value of the wrong type is a type error. Nothing in the package imports this module as
it runs (a `TypedDict` costs as its module loads); a user may, to type an option dict:

    options: SemanticOptions = {"target_size": 400, "overlap": 0}
    chunk(text, **options)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from chunker.base.limits import Boundaries, OverlapBoundary
    from chunker.tokens import Tokenizer

__all__ = ["SemanticOptions", "EngineOptions"]


class SemanticOptions(TypedDict, total=False):
    """The options of `SemanticChunker` (its keyword arguments): `chunk`'s, and
    `chunk_many`'s with `strategy="semantic"`."""

    target_size: int
    max_size: int
    min_size: int
    overlap: int
    preserve_code_blocks: bool
    respect_headings: bool
    max_tokens: int | None
    tokenizer: Tokenizer | None
    overlap_boundary: OverlapBoundary


class EngineOptions(TypedDict, total=False):
    """The options of `ChunkingEngine.chunk` that a pipeline passes on: `chunk_many`'s with
    its `fixed`, `hierarchical` or `layout` strategy."""

    chunk_size: int
    chunk_overlap: int
    max_tokens: int | None
    tokenizer: Tokenizer | None
    boundaries: Boundaries
