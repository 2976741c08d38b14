"""The boundary with JavaScript: plain data in, plain data out, for `web/worker.js`.

The browser facade (`web/chunker.js`) sends each call as an operation name and one JSON
request whose keys are the original's argument names (`text`, `config`, `options`, ...) and
whose options use the original's names (`targetSize`, `chunkOverlap`, ...). `handle` answers
one JSON string: `{"result": ...}` in the original's shape, or `{"error": {"name", "message"}}`
for bad input, with the name of the JavaScript error to throw. JSON both ways because one
string crosses the Pyodide boundary far faster than a tree of proxies.

Offsets are counted in code points in Python and in UTF-16 code units in JavaScript; they
are converted here and nowhere else, so `text.slice(startOffset, endOffset)` in JavaScript
selects what `text[start_offset:end_offset]` selects in Python.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from typing import Any, Awaitable, Callable

from .engine import ChunkingEngine
from .lexical import lexical_tokens, snippet_around
from .locate import locate_chunks
from .semantic_chunker import SemanticChunker
from .turns import chunk_turns

__all__ = ["OPTION_NAMES", "handle", "handle_async", "Utf16Offsets"]

# The one table of names: for each operation, its JavaScript option names and the Python
# keyword each stands for.
OPTION_NAMES: dict[str, dict[str, str]] = {
    "SemanticChunker.chunk": {
        "targetSize": "target_size",
        "maxSize": "max_size",
        "minSize": "min_size",
        "overlap": "overlap",
        "preserveCodeBlocks": "preserve_code_blocks",
        "respectHeadings": "respect_headings",
    },
    "ChunkingEngine.chunk": {
        "strategy": "strategy",
        "chunkSize": "chunk_size",
        "chunkOverlap": "chunk_overlap",
        "embedFn": "embed_fn",
    },
    "chunkTurns": {"maxChars": "max_chars", "overlapTurns": "overlap_turns"},
    "snippetAround": {"before": "before", "after": "after"},
}

# Python errors that mean bad input, and the JavaScript error each becomes (as the original
# throws a RangeError where Python raises ValueError). Any other exception is a bug and
# propagates, so the page can tell the two apart.
JS_ERROR_NAMES: dict[type[Exception], str] = {ValueError: "RangeError", TypeError: "TypeError"}

# A character outside the Basic Multilingual Plane: two UTF-16 code units, one code point.
ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")

# The embedding function as the worker hands it over: JSON sentences in, a promise of JSON
# vectors out.
JsonEmbed = Callable[[str], Awaitable[str]]


class Utf16Offsets:
    """Turns code-point offsets into a text into UTF-16 offsets into the same text.

    The positions of the text's astral characters are found once (a C-speed regex scan,
    skipped when `max(text)` shows there are none); each offset then costs one bisection.

    Example:
        >>> Utf16Offsets("😀 ok")(2)
        3
    """

    __slots__ = ("_astral",)

    def __init__(self, text: str) -> None:
        astral = bool(text) and max(text) > "\uffff"
        self._astral = [m.start() for m in ASTRAL_RE.finditer(text)] if astral else []

    def __call__(self, offset: int) -> int:
        # Each astral character before `offset` takes one more code unit in JavaScript.
        return offset + bisect_left(self._astral, offset) if self._astral else offset


def handle(operation: str, request: str) -> str:
    """Run one call of the facade and answer its JSON reply.

    Example:
        >>> handle("lexicalTokens", '{"text": "Hello, world"}')
        '{"result":["hello","world"]}'
    """
    args = json.loads(request)
    try:
        return _reply(_OPERATIONS[operation](args))
    except tuple(JS_ERROR_NAMES) as error:
        return _error_reply(error)


async def handle_async(operation: str, request: str, embed: JsonEmbed) -> str:
    """`handle` for `ChunkingEngine.chunk` with an embedding function given in JavaScript.

    `embed` takes the sentences as a JSON list and resolves to their vectors as JSON; the
    worker answers it by asking the page's `embedFn`.
    """
    if operation != "ChunkingEngine.chunk":
        raise ValueError(f"handle_async runs ChunkingEngine.chunk only, not {operation!r}")

    async def embed_fn(sentences: list[str]) -> Any:
        return json.loads(await embed(json.dumps(sentences)))

    args = json.loads(request)
    try:
        options = _options(operation, args.get("options"))
        options["embed_fn"] = embed_fn
        chunks = await ChunkingEngine().achunk(args.get("content"), **options)
        return _reply([c.to_dict() for c in chunks])
    except tuple(JS_ERROR_NAMES) as error:
        return _error_reply(error)


def _semantic_chunk(args: dict[str, Any]) -> list[dict[str, Any]]:
    text = args.get("text")
    chunker = SemanticChunker(**_options("SemanticChunker.chunk", args.get("config")))
    chunks = chunker.chunk(text, args.get("metadata"))
    if not chunks:
        return []
    utf16 = Utf16Offsets(text)
    out = []
    for chunk in chunks:
        record = chunk.to_dict()
        record["startOffset"] = utf16(chunk.start_offset)
        record["endOffset"] = utf16(chunk.end_offset)
        out.append(record)
    return out


def _engine_chunk(args: dict[str, Any]) -> list[dict[str, Any]]:
    options = _options("ChunkingEngine.chunk", args.get("options"))
    return [c.to_dict() for c in ChunkingEngine().chunk(args.get("content"), **options)]


def _chunk_turns(args: dict[str, Any]) -> list[dict[str, Any]]:
    passages = chunk_turns(args.get("turns"), **_options("chunkTurns", args.get("options")))
    out = []
    for passage in passages:
        record = passage.to_dict()
        utf16 = Utf16Offsets(passage.text)
        for span in record["turns"]:
            span["start"], span["end"] = utf16(span["start"]), utf16(span["end"])
        out.append(record)
    return out


def _lexical_tokens(args: dict[str, Any]) -> list[str]:
    return lexical_tokens(args.get("text"))


def _snippet_around(args: dict[str, Any]) -> dict[str, Any]:
    text = args.get("text")
    options = _options("snippetAround", args.get("options"))
    snippet = snippet_around(text, args.get("words"), **options)
    at = Utf16Offsets(text)(snippet.at) if snippet.at >= 0 else snippet.at
    return {"at": at, "text": snippet.text}


def _locate_chunks(args: dict[str, Any]) -> list[dict[str, int] | None]:
    text = args.get("text")
    spans = locate_chunks(text, args.get("contents"))
    utf16 = Utf16Offsets(text)
    return [None if s is None else {"start": utf16(s[0]), "end": utf16(s[1])} for s in spans]


_OPERATIONS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "SemanticChunker.chunk": _semantic_chunk,
    "ChunkingEngine.chunk": _engine_chunk,
    "chunkTurns": _chunk_turns,
    "lexicalTokens": _lexical_tokens,
    "snippetAround": _snippet_around,
    "locateChunks": _locate_chunks,
}


def _options(operation: str, given: Any) -> dict[str, Any]:
    """Python keywords for the JavaScript options `given` to `operation`.

    A missing or null option takes its default, as the original's `option ?? default`.
    """
    if given is None:
        return {}
    argument = "config" if operation == "SemanticChunker.chunk" else "options"
    if not isinstance(given, dict):
        raise TypeError(f"{argument} must be an object, got {given!r:.80}")
    names = OPTION_NAMES[operation]
    unknown = [name for name in given if name not in names]
    if unknown:
        raise TypeError(
            f"{argument} of {operation} has unknown option{'s' if len(unknown) > 1 else ''} "
            f"{', '.join(unknown)} (known: {', '.join(names)})"
        )
    return {names[name]: value for name, value in given.items() if value is not None}


def _reply(result: Any) -> str:
    # ASCII-only JSON: a lone surrogate from JavaScript survives the trip back, and an
    # ASCII string is the cheapest kind for Pyodide to turn into a JavaScript string.
    return json.dumps({"result": result}, separators=(",", ":"))


def _error_reply(error: Exception) -> str:
    name = next(js for py, js in JS_ERROR_NAMES.items() if isinstance(error, py))
    return json.dumps({"error": {"name": name, "message": str(error)}})
