"""A strategy and its options, checked once: what the pipelines (`chunk_many`, the command
line, the LangChain, LlamaIndex and Spark adapters) cut texts with.

`semantic` is `SemanticChunker` (its options by their Python names); `fixed`, `hierarchical`
and `layout` are `ChunkingEngine`'s strategies (`chunk_size`, `chunk_overlap`). The engine's
own `semantic` needs an `embed_fn`, which a pipeline cannot ship to other processes, so it is
not offered here. `fields()` is the one flat view of a chunk that every adapter writes;
`placed()` what the LangChain and LlamaIndex adapters make of each chunk. The token budget's
options (`max_tokens`, `tokenizer`) are every strategy's, so they come through here.

For a user's type checker, `PipelineStrategy` names the strategies (`option_types` has the
options each takes), so a misspelt one is a type error.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast, get_args

from chunker.base.validation import (
    ArgumentTypeError,
    require_choice,
    require_known_options,
    require_text,
)
from chunker.text.records import Chunk, DocumentChunk

if TYPE_CHECKING:
    from chunker.engine import ChunkingStrategy

__all__ = [
    "Recipe",
    "PipelineStrategy",
    "EngineStrategy",
    "PIPELINE_STRATEGIES",
    "FIELDS",
    "METADATA_KEYS",
    "PLACE_FIELDS",
    "options_of",
    "fields",
    "metadata_of",
    "covered",
    "CONTENTS",
    "HEADING_PATH_KEY",
    "Frame",
    "Placed",
    "placed",
    "heading_path_of",
    "check_content",
]

AnyChunk = Chunk | DocumentChunk

# The strategies a pipeline offers, `SemanticChunker` first (the default); the others are
# `ChunkingEngine`'s, whose chunks are `DocumentChunk`s.
EngineStrategy = Literal["fixed", "hierarchical", "layout"]
PipelineStrategy = Literal["semantic", EngineStrategy]
PIPELINE_STRATEGIES: tuple[PipelineStrategy, ...] = get_args(PipelineStrategy)

# The flat fields of a chunk (see `fields`), with their Python types, in column order.
FIELDS: tuple[tuple[str, type], ...] = (
    ("index", int),
    ("text", str),
    ("start", int),
    ("end", int),
    ("overlap_start", int),
    ("overlap_end", int),
    ("boundary_type", str),
    ("heading", str),
    ("heading_level", int),
    ("ancestor_headings", list),
    ("block_type", str),
    ("token_count", int),
)

# DocumentChunk.metadata's keys (the original's camelCase) under their field names.
_ENGINE_METADATA = {
    "headingLevel": "heading_level",
    "ancestorHeadings": "ancestor_headings",
    "type": "block_type",
}


def options_of(strategy: str) -> dict[str, Any]:
    """The options `strategy` takes, each with its default (the chunker's own, read from it)."""
    _check_strategy(strategy)
    call: Callable[..., Any]
    if strategy == "semantic":
        from chunker.semantic_chunker import SemanticChunker

        call = SemanticChunker.__init__
    else:
        from chunker.engine import ChunkingEngine

        call = ChunkingEngine.chunk
    return {
        name: parameter.default
        for name, parameter in inspect.signature(call).parameters.items()
        if name not in ("self", "content", "strategy", "embed_fn")
    }


class _FromMain(Exception):
    """Raised by `_pickling_problem`'s pickler at a function or class of `__main__`."""


class _Discarded:
    """Where `_pickling_problem` pickles to: nothing is kept."""

    def write(self, data: bytes) -> int:
        return len(data)


def _pickling_problem(value: Any) -> str | None:
    """What stops `value` from reaching a worker that is sent it by pickle, or None. A
    function or class is pickled as its module and name, so one of a `__main__` that has no
    file (`python -c`, the interactive prompt, a notebook) pickles but cannot be found there.
    multiprocessing sends some things only as it starts a worker, such as a
    `multiprocessing.Lock`, which refuses plain pickle with a `RuntimeError`: that is left
    for it to judge; any other error stops the value."""
    import pickle
    import sys
    from types import FunctionType

    pickler = pickle.Pickler
    if getattr(sys.modules.get("__main__"), "__file__", None) is None:

        class Finder(pickle.Pickler):
            def persistent_id(self, obj: Any) -> None:  # every object pickled passes here
                if isinstance(obj, (type, FunctionType)) and obj.__module__ == "__main__":
                    raise _FromMain(obj.__qualname__)

        pickler = Finder
    try:
        pickler(_Discarded()).dump(value)
    except _FromMain as found:
        return f"{found} is defined in a __main__ that they cannot import"
    except Exception as error:  # pickle raises several kinds, by the value's
        # multiprocessing's own refusal (`assert_spawning`), not a RecursionError (a
        # RuntimeError too): that one is for multiprocessing to judge (see above).
        if type(error) is RuntimeError and "through inheritance" in str(error):
            return None
        return f"{type(error).__name__}: {error}"
    return None


@dataclass(frozen=True, slots=True)
class Recipe:
    """How to cut: a strategy and its options, checked when made. Picklable, so it can be sent
    to worker processes and Spark executors.

    Example:
        >>> recipe = Recipe("fixed", {"chunk_size": 8, "chunk_overlap": 0})
        >>> [c.content for c in recipe.cut("one two three")]
        ['one two', 'three']
    """

    strategy: str = "semantic"
    """One of `PIPELINE_STRATEGIES`."""
    options: Mapping[str, Any] | None = None
    """The strategy's options by their Python names; those left out take its defaults."""

    def __post_init__(self) -> None:
        options = dict(self.options or {})
        require_known_options(options, options_of(self.strategy), of=f"strategy {self.strategy!r}")
        object.__setattr__(self, "options", options)
        self.cut("")  # the chunkers check their options before they look at the text

    @property
    def has_budget(self) -> bool:
        """Whether chunks are counted in tokens (`max_tokens` or `tokenizer` given)."""
        options = self.options or {}
        return options.get("max_tokens") is not None or options.get("tokenizer") is not None

    def unsendable(self) -> ArgumentTypeError | None:
        """Why worker processes that multiprocessing does not fork cannot be sent this recipe
        (they are sent it by pickle), naming the option, or None if they can: an option that
        does not pickle (a lambda `tokenizer`), or one that is, or holds, a function or class
        of a `__main__` that they cannot import (`python -c`, the interactive prompt, a
        notebook)."""
        for name, value in (self.options or {}).items():
            if value is None or isinstance(value, (str, int, float)):
                continue  # pickles, and is most options: pickle not imported for them
            problem = _pickling_problem(value)
            if problem is not None:
                return ArgumentTypeError(
                    name,
                    f"{name}={value!r:.80} cannot be sent to worker processes, which are sent "
                    f"what they run by pickle ({problem}): give one defined at a module's top "
                    "level, or jobs=1",
                )
        return None

    def cut(self, text: str) -> list[Chunk] | list[DocumentChunk]:
        """The chunks of `text`: `Chunk`s for `semantic`, `DocumentChunk`s for the others."""
        return self.cutter()(text)

    def cutter(self) -> Callable[[str], list[Chunk] | list[DocumentChunk]]:
        """`cut` with the chunker made once, for many texts: a `SemanticChunker` checks its
        options as it is made, which costs as much as cutting a short text
        (tests/bench/pipelines.py)."""
        options = self.options or {}  # a dict once made (`__post_init__`)
        if self.strategy == "semantic":
            from chunker.semantic_chunker import SemanticChunker

            return SemanticChunker(**options).chunk
        from chunker.engine import ChunkingEngine

        # One of the engine's: checked as the recipe was made (`_check_strategy`).
        engine, strategy = ChunkingEngine(), cast("ChunkingStrategy", self.strategy)

        def cut(text: str) -> list[DocumentChunk]:
            require_text("text", text)
            return engine.chunk(text, strategy, **options)

        return cut


def fields(chunk: AnyChunk) -> dict[str, Any]:
    """A chunk as the flat fields of `FIELDS` (None where it has none), for tables and metadata.

    `start`/`end` is the chunk's span in its document; `overlap_start`/`overlap_end` the span
    of the overlap a `Chunk`'s text starts with (None when it has none).
    """
    start, end = chunk.span
    out: dict[str, Any] = dict.fromkeys(name for name, _ in FIELDS)
    out.update(index=chunk.index, start=start, end=end, token_count=chunk.token_count)
    if isinstance(chunk, Chunk):
        out["text"] = chunk.text
        out["boundary_type"] = chunk.boundary_type
        if chunk.overlap_span is not None:
            out["overlap_start"], out["overlap_end"] = chunk.overlap_span
        return out
    out["text"] = chunk.content
    out["heading"] = chunk.heading
    for key, value in (chunk.metadata or {}).items():
        if key in _ENGINE_METADATA:
            out[_ENGINE_METADATA[key]] = list(value) if key == "ancestorHeadings" else value
    return out


# What the LangChain and LlamaIndex adapters' documents or nodes hold (`content=`), the default
# first. `source`: the slice of the document a chunk covers (`covered`), so the indices give
# it back, as LangChain's and LlamaIndex's own splitters promise. `original`: the chunker's
# text (`Chunk.text`, its overlap then its own text with white space normalised;
# `DocumentChunk.content`), which reads like that slice but need not be it.
CONTENTS = ("source", "original")

# The fields an adapter puts in a document's metadata, and under which key: `index` would
# clash with a user's own keys, so it is `chunk_index`. Fields that are None are left out.
METADATA_KEYS = {
    "index": "chunk_index",
    "boundary_type": "boundary_type",
    "heading": "heading",
    "heading_level": "heading_level",
    "ancestor_headings": "ancestor_headings",
    "block_type": "block_type",
    "token_count": "token_count",
}


# The fields of `METADATA_KEYS` that tell a chunk's place, which an edit before it moves.
# Left out with stable ids (`metadata_of`): what a store compares to skip a kept chunk
# (LlamaIndex's node hash, LangChain's `index()`) covers the metadata.
PLACE_FIELDS = frozenset({"index"})


def metadata_of(flat: Mapping[str, Any], *, places: bool = True) -> dict[str, Any]:
    """The metadata an adapter gives a chunk, from its `fields()`; without `PLACE_FIELDS`
    unless `places`."""
    return {
        key: flat[name]
        for name, key in METADATA_KEYS.items()
        if flat[name] is not None and (places or name not in PLACE_FIELDS)
    }


def covered(flat: Mapping[str, Any]) -> tuple[int, int]:
    """The range of the document a chunk covers, from its `fields()`: its own span, from the
    start of its overlap where that comes before it. An overlap taken from later in the text
    (after a code block left open the original repeats text from before it: docs/spans.md)
    is left out, as no one range holds both; so `start <= end`."""
    start, end = flat["start"], flat["end"]
    if flat["overlap_start"] is not None and flat["overlap_start"] < start:
        return flat["overlap_start"], end
    return start, end


# The metadata key of a chunk's heading path (`heading_path`), which, unlike
# `METADATA_KEYS`, is embedded: see `placed`.
HEADING_PATH_KEY = "heading_path"

# What joins a heading path's headings, outermost first: "Guide > Install > On Debian".
HEADING_PATH_SEPARATOR = " > "

# What is embedded beside a text under a heading path (the path, and LlamaIndex's metadata)
# takes at most this share of `max_tokens` (1/2), the path losing its outermost headings
# until it does: the text keeps the rest, however long a heading (a README's title of badges)
# or deep a path.
HEADING_PATH_SHARE = 2

Frame = Callable[[str], str]
"""What is embedded of a body: the text an adapter hands to an embedding model."""


class Placed(NamedTuple):
    """A chunk as the LangChain and LlamaIndex adapters hand it on."""

    text: str
    """What the document or node holds: see `CONTENTS`."""
    start: int
    """Where the range of the document the chunk covers (`covered`) starts."""
    end: int
    """Where that range ends."""
    flat: dict[str, Any]
    """The chunk's `fields()`."""
    heading_path: str | None
    """The headings it is under, outermost first, to embed with it (see `placed`), or None."""


def placed(
    recipe: Recipe,
    text: str,
    content: str,
    *,
    heading_paths: bool = False,
    frame_of: Callable[[str | None], Frame | None] | None = None,
) -> list[Placed]:
    """The chunks of `text` cut by `recipe`, each with the `content` an adapter gives it.

    With `source` a chunk that covers no character (white space alone, which a few settings
    make) is left out, as LangChain's and LlamaIndex's splitters leave out empty chunks.

    The recipe's token budget is kept on what is embedded, not on the chunker's text: each
    chunk is cut without it, then its content, as `frame_of(heading_path)` frames it (None:
    as it is), is cut within the budget (`budget.fit_embedded`); `token_count` counts what is
    embedded and `index` numbers the pieces. With `heading_paths`, a chunk under a heading
    (`hierarchical`) gets its heading path (`heading_path_of`), within `HEADING_PATH_SHARE`.
    """
    check_content(content)
    options = dict(recipe.options or {})
    max_tokens, tokenizer = options.pop("max_tokens", None), options.pop("tokenizer", None)
    budget = None
    if max_tokens is not None or tokenizer is not None:
        from chunker.text.budget import fit_embedded
        from chunker.tokens import Budget

        budget = Budget.of(max_tokens, tokenizer)
        recipe = Recipe(recipe.strategy, options)
    fits = None
    if budget is not None and budget.max_tokens is not None:
        count, share = budget.count, budget.max_tokens // HEADING_PATH_SHARE

        def fits(path: str) -> bool:
            frame = frame_of(path) if frame_of is not None else None
            return count(path if frame is None else frame("")) <= share

    out: list[Placed] = []
    number = 0
    for chunk in recipe.cut(text):
        flat = fields(chunk)
        start, end = covered(flat)
        path = heading_path_of(flat, fits) if heading_paths else None
        frame = frame_of(path) if budget is not None and frame_of is not None else None
        pieces = (
            [chunk]
            if budget is None
            else fit_embedded(chunk, text, budget, frame, start if content == "source" else None)
        )
        for piece in pieces:
            flat = fields(piece)
            flat["index"] = number
            number += 1
            start, end = covered(flat)
            if content == "original":
                out.append(Placed(flat["text"], start, end, flat, path))
            elif start < end:
                out.append(Placed(text[start:end], start, end, flat, path))
    return out


def heading_path_of(
    flat: Mapping[str, Any], fits: Callable[[str], bool] | None = None
) -> str | None:
    """The headings a chunk is under, from its `fields()`, outermost first and joined by
    `HEADING_PATH_SEPARATOR`, or None when it has none. A chunk that holds its heading alone
    (a section with no body) is under its ancestors only. A path that `fits` refuses loses its
    outermost headings until it does.

    Example:
        >>> flat = {"heading": "On Debian", "ancestor_headings": ["Guide", "Install"]}
        >>> heading_path_of({**flat, "text": "Use apt."})
        'Guide > Install > On Debian'
        >>> heading_path_of({**flat, "text": "On Debian"})
        'Guide > Install'
        >>> heading_path_of({**flat, "text": "Use apt."}, lambda path: len(path) < 20)
        'Install > On Debian'
    """
    heading = flat["heading"]
    if heading is None:
        return None
    headings = [*(flat["ancestor_headings"] or ())]
    if flat["text"] != heading:
        headings.append(heading)
    while headings:
        path = HEADING_PATH_SEPARATOR.join(headings)
        if fits is None or fits(path):
            return path or None
        del headings[0]
    return None


def check_content(content: Any) -> str:
    """`content` if it is one of `CONTENTS`, else a ValueError naming it."""
    return require_choice("content", require_text("content", content), CONTENTS)


def _check_strategy(strategy: Any) -> None:
    require_choice("strategy", require_text("strategy", strategy), PIPELINE_STRATEGIES)
