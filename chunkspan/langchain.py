"""`ChunkerTextSplitter`: our chunkers as a LangChain text splitter (`pip install
'chunkspan[langchain]'`). The core never imports this module.

By default (`content="source"`) a document's `page_content` is the slice of the text its
chunk covers, from its first character (its overlap's) to its last, so with
`add_start_index=True` it keeps LangChain's rule, `text[start_index:start_index +
len(page_content)] == page_content`, and `metadata["end_index"]` is where it ends. The
indices come from the chunk's spans: exact also where the same text occurs twice, which
LangChain's own splitters, finding each chunk again with `str.find`, get wrong. With
`content="original"` `page_content` is the chunker's own text (see `recipe.CONTENTS`) and
the indices the same range. Our fields go in the metadata under `recipe.METADATA_KEYS`:
`chunk_index`, `boundary_type` (semantic), `heading`, `heading_level`, `ancestor_headings`
(hierarchical), `block_type` (layout).
"""

from __future__ import annotations

import copy
from typing import Any

from ._extras import require
from .recipe import Recipe, check_content, metadata_of, options_of, placed
from .validation import ArgumentValueError

require("langchain_text_splitters", "langchain", "chunkspan.langchain")

from langchain_core.documents import Document  # noqa: E402
from langchain_text_splitters import TextSplitter  # noqa: E402

__all__ = ["ChunkerTextSplitter"]


class ChunkerTextSplitter(TextSplitter):
    """A LangChain `TextSplitter` that cuts with `SemanticChunker` or `ChunkingEngine`.

    Args:
        strategy: `semantic` (`SemanticChunker`), or the engine's `fixed`, `hierarchical`,
            `layout`.
        add_start_index: add `start_index` and `end_index` to each document's metadata.
        content: `source`, the slice of the text the chunk covers (a chunk of white space
            alone gives no document); or `original`, the chunker's own text.
        options: the strategy's options by their Python names (`target_size=...`,
            `chunk_size=...`), checked here.

    Example:
        >>> splitter = ChunkerTextSplitter("fixed", chunk_size=8, chunk_overlap=0)
        >>> splitter.split_text("one two three")
        ['one two', 'three']
    """

    def __init__(
        self,
        strategy: str = "semantic",
        *,
        add_start_index: bool = False,
        content: str = "source",
        **options: Any,
    ) -> None:
        self._recipe = Recipe(strategy, options)
        self._content = check_content(content)
        # LangChain's own sizes, for code that reads them: the size above which a chunk is
        # cut again, and the overlap (at most that size, as LangChain requires).
        settings = {**options_of(strategy), **options}
        size: int = settings["chunk_size" if "chunk_size" in settings else "max_size"]
        overlap: int = min(
            settings["chunk_overlap" if "chunk_overlap" in settings else "overlap"], size
        )
        super().__init__(chunk_size=size, chunk_overlap=overlap, add_start_index=add_start_index)

    @property
    def recipe(self) -> Recipe:
        """The strategy and options this splitter cuts with."""
        return self._recipe

    @property
    def content(self) -> str:
        """What each document holds: `source` or `original`."""
        return self._content

    def split_text(self, text: str) -> list[str]:
        """The documents' texts, in order."""
        return [piece.text for piece in placed(self._recipe, text, self._content)]

    def create_documents(
        self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
    ) -> list[Document]:
        """A `Document` per chunk of each text, with a copy of the text's metadata and ours."""
        if metadatas is not None and len(metadatas) != len(texts):
            raise ArgumentValueError(
                "metadatas",
                f"metadatas must have one mapping per text: {len(metadatas)} for {len(texts)}",
            )
        documents = []
        for number, text in enumerate(texts):
            given = metadatas[number] if metadatas is not None else {}
            for piece in placed(self._recipe, text, self._content):
                metadata = {**copy.deepcopy(given), **metadata_of(piece.flat)}
                if self._add_start_index:
                    metadata["start_index"], metadata["end_index"] = piece.start, piece.end
                documents.append(Document(page_content=piece.text, metadata=metadata))
        return documents
