"""`ChunkerNodeParser`: our chunkers as a LlamaIndex node parser (`pip install
'chunkspan[llama-index]'`). The core never imports this module.

Nodes are built as LlamaIndex's own text splitters build them (`build_nodes_from_splits`:
the SOURCE relationship to the document; PREVIOUS/NEXT between the nodes of one document, the
document's metadata merged in, by `NodeParser` itself). By default (`content="source"`) a
node's text is the slice of the document its chunk covers, from its first character (its
overlap's) to its last, and `start_char_idx`/`end_char_idx` are that slice's, so
`text[start_char_idx:end_char_idx]` is the node's text, as LlamaIndex's own parsers promise;
with `content="original"` the text is the chunker's own (see `recipe.CONTENTS`) and the
indices the same range. They come from the chunk's spans: `NodeParser` finds each node again
with `str.find`, which can land on another copy of repeated text and misses a text the
chunker changed, so ours are put back after it. Our fields go in the metadata under
`recipe.METADATA_KEYS`, left out of the text that is embedded or sent to the model.

LlamaIndex embeds a node's metadata with its text (`get_content(MetadataMode.EMBED)`: its
`metadata_template` and `text_template`, the keys not in `excluded_embed_metadata_keys`),
so the token budget and `token_count` are that text's, the document's metadata included. A
chunk under a heading (`hierarchical`) gets its heading path under `heading_path`, embedded
(`heading_path=True`, the default), as `MarkdownNodeParser` keeps its `header_path`.

With `stable_ids=True` a node's `id_` is stable (`text.ids`: from its document's id, its
text and how many before it in that document hold the same) and its metadata has no
`chunk_index`, so the node's `hash` too stays as it was where an edit elsewhere kept it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from chunker.base.extras import require
from chunker.base.validation import require_bool
from chunker.recipe import (
    HEADING_PATH_KEY,
    METADATA_KEYS,
    Frame,
    Recipe,
    check_content,
    metadata_of,
    placed,
)
from chunker.text.ids import chunk_ids

require("llama_index.core", "llama-index", "chunker.llama_index")

from llama_index.core.bridge.pydantic import Field, PrivateAttr  # noqa: E402
from llama_index.core.node_parser import NodeParser  # noqa: E402
from llama_index.core.node_parser.node_utils import (  # noqa: E402
    IdFuncCallable,
    build_nodes_from_splits,
)
from llama_index.core.schema import BaseNode, Document, MetadataMode, TextNode  # noqa: E402

__all__ = ["ChunkerNodeParser"]

_OUR_KEYS = list(METADATA_KEYS.values())


class ChunkerNodeParser(NodeParser):
    """A LlamaIndex `NodeParser` that cuts with `SemanticChunker` or `ChunkingEngine`.

    Args:
        strategy: `semantic` (`SemanticChunker`), or the engine's `fixed`, `hierarchical`,
            `layout`.
        options: the strategy's options by their Python names, checked here (with
            `max_tokens` and `tokenizer` as LlamaIndex's splitters take `chunk_size` and
            `tokenizer`: a name, or a callable answering the tokens, such as an encoding's
            `encode`, kept out of `to_dict()` as theirs is); the other
            keyword arguments of `NodeParser` (`include_metadata`, `include_prev_next_rel`,
            `id_func`, `callback_manager`) work as in LlamaIndex.
        content: `source`, the slice of the document the chunk covers (a chunk of white
            space alone gives no node); or `original`, the chunker's own text.
        heading_path: give a chunk under a heading (`hierarchical`) its heading path
            ("Guide > Install") in the metadata under `heading_path`, which is embedded and
            counted in the token budget.
        stable_ids: give each node a stable `id_` (`chunker.text.ids`, from its document's
            `id_`, in place of `id_func`) and leave the place (`chunk_index`) out of its
            metadata, so a kept node's `hash` stays too.

    The fields (`strategy`, `options`, `content`, `heading_path`, `stable_ids`) are read at
    each call, so one set after the parser was made takes effect, as `to_dict()`, which
    LlamaIndex's `IngestionCache` keys on, says; a bad one raises when the parser next cuts.

    Example:
        >>> from llama_index.core import Document
        >>> parser = ChunkerNodeParser("fixed", chunk_size=8, chunk_overlap=0)
        >>> [n.text for n in parser.get_nodes_from_documents([Document(text="one two three")])]
        ['one two', 'three']
    """

    strategy: str = Field(default="semantic", description="semantic, fixed, hierarchical, layout")
    options: dict[str, Any] = Field(default_factory=dict, description="the strategy's options")
    content: str = Field(
        default="source", description="source (the slice of the document) or original"
    )
    heading_path: bool = Field(
        default=True, description="embed a chunk's heading path (hierarchical)"
    )
    stable_ids: bool = Field(
        default=False, description="ids from the document's id and the node's text"
    )
    # A tokenizer that is not a name (a callable, an encoding), kept out of `options` as
    # LlamaIndex's own splitters keep theirs: `to_dict()` cannot write it.
    _tokenizer: Any = PrivateAttr(default=None)

    def __init__(
        self,
        strategy: str = "semantic",
        options: dict[str, Any] | None = None,
        *,
        content: str = "source",
        heading_path: bool = True,
        stable_ids: bool = False,
        **keywords: Any,
    ) -> None:
        # `options=` too, as `to_dict()` writes them and `from_dict()` passes them back.
        parser_fields = {
            name: keywords.pop(name) for name in list(keywords) if name in NodeParser.model_fields
        }
        recipe = Recipe(strategy, {**(options or {}), **keywords})  # checked before pydantic
        given = dict(recipe.options or {})
        tokenizer = given.get("tokenizer")
        if tokenizer is not None and not isinstance(tokenizer, str):
            del given["tokenizer"]
        # One mapping, as pydantic takes the fields: the type checker sees `NodeParser`'s own
        # `__init__`, not the one pydantic makes from this class's fields.
        fields: dict[str, Any] = {
            "strategy": strategy,
            "options": given,
            "content": check_content(content),
            "heading_path": require_bool("heading_path", heading_path),
            "stable_ids": require_bool("stable_ids", stable_ids),
            **parser_fields,
        }
        super().__init__(**fields)
        if "tokenizer" not in given:
            self._tokenizer = tokenizer

    @classmethod
    def class_name(cls) -> str:
        return "ChunkerNodeParser"

    def _parse_nodes(
        self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        options = dict(self.options)  # the fields as they are now
        if self._tokenizer is not None and "tokenizer" not in options:
            options["tokenizer"] = self._tokenizer
        recipe = Recipe(self.strategy, options)
        parsed: list[BaseNode] = []
        for node in nodes:
            pieces = placed(
                recipe,
                _text_of(node),
                self.content,
                heading_paths=self.heading_path,
                frame_of=self._frames(node),
            )
            texts = [p.text for p in pieces]
            id_func = _given(chunk_ids(node.node_id, texts)) if self.stable_ids else self.id_func
            built = build_nodes_from_splits(texts, node, id_func=id_func)
            for text_node, piece in zip(built, pieces):
                text_node.start_char_idx, text_node.end_char_idx = piece.start, piece.end
                ours = metadata_of(piece.flat, places=not self.stable_ids)
                self._dress(text_node, node, ours, piece.heading_path)
            parsed.extend(built)
        return parsed

    def _dress(
        self, text_node: TextNode, source: BaseNode, ours: dict[str, Any], path: str | None
    ) -> None:
        """Give `text_node`, cut from `source`, its metadata as `_postprocess_parsed_nodes`
        leaves it (the source's first, when `include_metadata`, then `ours` and the heading
        path), our keys left out of what is embedded or sent to the model."""
        if path is not None:
            ours = {**ours, HEADING_PATH_KEY: path}
        text_node.metadata = {**source.metadata, **ours} if self.include_metadata else ours
        text_node.excluded_embed_metadata_keys = [
            *text_node.excluded_embed_metadata_keys,
            *_OUR_KEYS,
        ]
        text_node.excluded_llm_metadata_keys = [*text_node.excluded_llm_metadata_keys, *_OUR_KEYS]

    def _frames(self, source: BaseNode) -> Callable[[str | None], Frame | None]:
        """`placed`'s `frame_of` for the nodes cut from `source`: what LlamaIndex embeds of a
        text under a heading path, each node's own `get_content(MetadataMode.EMBED)`, asked
        of a probe built and dressed as the nodes are (our keys, left out, change nothing);
        None where that is the text alone. Made on first use (only a budget counts what is
        embedded), once a path."""
        frames: dict[str | None, Frame | None] = {}
        # Built once: building one hashes the whole source again.
        built: list[TextNode] = []

        def frame_of(path: str | None) -> Frame | None:
            if path in frames:
                return frames[path]
            if not built:
                built.append(build_nodes_from_splits([""], source, id_func=_probe_id)[0])
            probe = built[0].model_copy()
            self._dress(probe, source, {}, path)
            frames[path] = None
            if probe.get_metadata_str(MetadataMode.EMBED).strip():

                def embedded(body: str) -> str:
                    probe.text = body
                    return probe.get_content(MetadataMode.EMBED)

                frames[path] = embedded
            return frames[path]

        return frame_of

    def _postprocess_parsed_nodes(
        self, nodes: list[BaseNode], parent_doc_map: dict[str, Document]
    ) -> list[BaseNode]:
        spans = [(n.start_char_idx, n.end_char_idx) for n in nodes if isinstance(n, TextNode)]
        nodes = super()._postprocess_parsed_nodes(nodes, parent_doc_map)
        text_nodes = [n for n in nodes if isinstance(n, TextNode)]
        for node, (start, end) in zip(text_nodes, spans):
            node.start_char_idx, node.end_char_idx = start, end
        return nodes


def _given(ids: list[str]) -> IdFuncCallable:
    """An `id_func` answering `ids`, the nodes' ids in order."""

    def id_func(i: int, doc: BaseNode) -> str:
        return ids[i]

    return id_func


def _probe_id(i: int, doc: BaseNode) -> str:
    """The id of a probe (`_frames`): the user's `id_func` is called for the nodes alone."""
    return "probe"


def _text_of(node: BaseNode) -> str:
    return node.get_content(metadata_mode=MetadataMode.NONE)
