"""`ChunkerNodeParser`: our chunkers as a LlamaIndex node parser (`pip install
'chunkspan[llama-index]'`). The core never imports this module.

Nodes are built as LlamaIndex's own text splitters build them (`build_nodes_from_splits`:
the SOURCE relationship to the document; PREVIOUS/NEXT between the nodes of one document, the
document's metadata merged in, by `NodeParser` itself). Each node's `start_char_idx` and
`end_char_idx` come from the chunk's span, the range of the document its text covers (its
overlap included): `NodeParser` finds each node again with `str.find`, which lands on the
first copy of repeated text and misses a text the chunker changed, so ours are put back after
it. Our fields go in the metadata under `recipe.METADATA_KEYS`, left out of the text that is
embedded or sent to the model.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

from ._extras import require
from .recipe import METADATA_KEYS, Recipe, covered, fields, metadata_of

require("llama_index.core", "llama-index", "chunkspan.llama_index")

from llama_index.core.bridge.pydantic import Field, PrivateAttr  # noqa: E402
from llama_index.core.node_parser import NodeParser  # noqa: E402
from llama_index.core.node_parser.node_utils import build_nodes_from_splits  # noqa: E402
from llama_index.core.schema import BaseNode, Document, MetadataMode, TextNode  # noqa: E402

__all__ = ["ChunkerNodeParser"]

_OUR_KEYS = list(METADATA_KEYS.values())


class ChunkerNodeParser(NodeParser):
    """A LlamaIndex `NodeParser` that cuts with `SemanticChunker` or `ChunkingEngine`.

    Args:
        strategy: `semantic` (`SemanticChunker`), or the engine's `fixed`, `hierarchical`,
            `layout`.
        options: the strategy's options by their Python names, checked here; the other
            keyword arguments of `NodeParser` (`include_metadata`, `include_prev_next_rel`,
            `id_func`, `callback_manager`) work as in LlamaIndex.

    Example:
        >>> from llama_index.core import Document
        >>> parser = ChunkerNodeParser("fixed", chunk_size=8, chunk_overlap=0)
        >>> [n.text for n in parser.get_nodes_from_documents([Document(text="one two three")])]
        ['one two', 'three']
    """

    strategy: str = Field(default="semantic", description="semantic, fixed, hierarchical, layout")
    options: Dict[str, Any] = Field(default_factory=dict, description="the strategy's options")
    _recipe: Recipe = PrivateAttr()

    def __init__(
        self, strategy: str = "semantic", options: Dict[str, Any] | None = None, **keywords: Any
    ) -> None:
        # `options=` too, as `to_dict()` writes them and `from_dict()` passes them back.
        parser_fields = {
            name: keywords.pop(name) for name in list(keywords) if name in NodeParser.model_fields
        }
        recipe = Recipe(strategy, {**(options or {}), **keywords})  # checked before pydantic
        super().__init__(strategy=strategy, options=dict(recipe.options or {}), **parser_fields)
        self._recipe = recipe

    @classmethod
    def class_name(cls) -> str:
        return "ChunkerNodeParser"

    def _parse_nodes(
        self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any
    ) -> List[BaseNode]:
        parsed: List[BaseNode] = []
        for node in nodes:
            flats = [fields(chunk) for chunk in self._recipe.cut(_text_of(node))]
            built = build_nodes_from_splits([f["text"] for f in flats], node, id_func=self.id_func)
            for text_node, flat in zip(built, flats):
                text_node.start_char_idx, text_node.end_char_idx = covered(flat)
                text_node.metadata.update(metadata_of(flat))
                text_node.excluded_embed_metadata_keys = [
                    *text_node.excluded_embed_metadata_keys,
                    *_OUR_KEYS,
                ]
                text_node.excluded_llm_metadata_keys = [
                    *text_node.excluded_llm_metadata_keys,
                    *_OUR_KEYS,
                ]
            parsed.extend(built)
        return parsed

    def _postprocess_parsed_nodes(
        self, nodes: List[BaseNode], parent_doc_map: Dict[str, Document]
    ) -> List[BaseNode]:
        spans = [(n.start_char_idx, n.end_char_idx) for n in nodes if isinstance(n, TextNode)]
        nodes = super()._postprocess_parsed_nodes(nodes, parent_doc_map)
        text_nodes = [n for n in nodes if isinstance(n, TextNode)]
        for node, (start, end) in zip(text_nodes, spans):
            node.start_char_idx, node.end_char_idx = start, end
        return nodes


def _text_of(node: BaseNode) -> str:
    return node.get_content(metadata_mode=MetadataMode.NONE)
