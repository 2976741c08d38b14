"""`ChunkerTextSplitter`: our chunkers as a LangChain text splitter (`pip install
'chunkspan[langchain]'`). The core never imports this module.

With `add_start_index=True` each document's `metadata["start_index"]` and `["end_index"]`
come from the chunk's span: the range of the source its text covers, its overlap included.
They are exact also where the same text occurs twice, which LangChain's own splitters, finding
each chunk again with `str.find`, get wrong. Our fields go in the metadata under
`recipe.METADATA_KEYS`: `chunk_index`, `boundary_type` (semantic), `heading`,
`heading_level`, `ancestor_headings` (hierarchical), `block_type` (layout).
"""

from __future__ import annotations

import copy
from typing import Any

from ._extras import require
from .recipe import Recipe, covered, fields, metadata_of, options_of

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
        options: the strategy's options by their Python names (`target_size=...`,
            `chunk_size=...`), checked here.

    Example:
        >>> splitter = ChunkerTextSplitter("fixed", chunk_size=8, chunk_overlap=0)
        >>> splitter.split_text("one two three")
        ['one two', 'three']
    """

    def __init__(
        self, strategy: str = "semantic", *, add_start_index: bool = False, **options: Any
    ) -> None:
        self._recipe = Recipe(strategy, options)
        # LangChain's own sizes, for code that reads them: the size above which a chunk is
        # cut again, and the overlap (at most that size, as LangChain requires).
        settings = {**options_of(strategy), **options}
        size = settings.get("chunk_size", settings.get("max_size"))
        overlap = min(settings.get("chunk_overlap", settings.get("overlap")), size)
        super().__init__(chunk_size=size, chunk_overlap=overlap, add_start_index=add_start_index)

    @property
    def recipe(self) -> Recipe:
        """The strategy and options this splitter cuts with."""
        return self._recipe

    def split_text(self, text: str) -> list[str]:
        """The chunks' texts, in order."""
        return [fields(chunk)["text"] for chunk in self._recipe.cut(text)]

    def create_documents(
        self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
    ) -> list[Document]:
        """A `Document` per chunk of each text, with a copy of the text's metadata and ours."""
        if metadatas is not None and len(metadatas) != len(texts):
            raise ValueError(
                f"metadatas must have one mapping per text: {len(metadatas)} for {len(texts)}"
            )
        documents = []
        for number, text in enumerate(texts):
            given = metadatas[number] if metadatas is not None else {}
            for chunk in self._recipe.cut(text):
                flat = fields(chunk)
                metadata = {**copy.deepcopy(given), **metadata_of(flat)}
                if self._add_start_index:
                    metadata["start_index"], metadata["end_index"] = covered(flat)
                documents.append(Document(page_content=flat["text"], metadata=metadata))
        return documents
