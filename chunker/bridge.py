"""The boundary with JavaScript: plain data in, plain data out, for `web/worker.js`.

The browser facade (`web/chunker.js`) sends each call as an operation name and one JSON
request whose keys are the original's argument names (`text`, `config`, `options`, ...) and
whose options use the original's names (`targetSize`, `chunkOverlap`, ...). The large text
of a call may come beside the request instead, as a `JsString` decoded from the text's
UTF-16 code units (`text_key` names its argument). `handle` answers bytes: 32-bit ints,
ASCII text, then JSON: `{"result": ...}` in the original's shape, or `{"error": {"name",
"message", "field"}}` for bad input: the name of the JavaScript error to throw, and the Python
name of the argument the error concerns (or null). One result comes
packed: `SemanticChunker.chunk` answers where each chunk's text lies in the input, or in
the ASCII text (`pack_chunks`), and chunker.js cuts the texts out itself.

Why bytes: in Pyodide, turning a 1 MB JavaScript string into a Python `str` takes about 13
ms and a non-ASCII `str` back into JavaScript far longer, while bytes cross in about 1 ms
each way and a tree of proxies costs more than either. The text comes as UTF-16, JavaScript's
own code units, which the worker writes straight into a `bytearray` here: that costs a
third of encoding UTF-8 once the text holds a non-Latin-1 character, a lone surrogate
survives as it is, and their count tells at once whether the text has any character outside
the BMP. A text is decoded once: the worker keeps its `JsString` for the calls on the same
text after it.

Why packed: chunk texts are mostly ASCII or the input's own characters (the overlap and then
the chunk's own text). Joined ASCII texts cross as their bytes, which JavaScript decodes in
one call and slices, a slice of the input costs JavaScript nothing, and the spans go as ints,
read where they lie (an `Int32Array`); writing 1 MB of chunk texts as JSON in Pyodide and
parsing it back cost about as much as the chunking itself.

Offsets are counted in code points in Python and in UTF-16 code units in JavaScript; they
are converted here and nowhere else, so `text.slice(startOffset, endOffset)` in JavaScript
selects what `text[start_offset:end_offset]` selects in Python.
"""

from __future__ import annotations

import json
import sys
from array import array
from bisect import bisect_left
from typing import Any, Awaitable, Callable, Iterable, Iterator, Sequence, get_args

from .records import BoundaryType, Chunk
from .semantic_chunker import SemanticChunker
from .validation import field_of

__all__ = [
    "OPTION_NAMES",
    "JsString",
    "Packed",
    "astral_positions",
    "handle",
    "handle_async",
    "pack_chunks",
    "utf16_offsets",
]

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

# A byte table for `bytes.translate` over the high bytes of UTF-16LE units: 1 for a high
# surrogate (D800-DBFF), which starts each character outside the BMP, else 0.
HIGH_SURROGATE_MARKS = bytes(1 if 0xD8 <= byte <= 0xDB else 0 for byte in range(256))

# The boundary types a packed chunk names by their index here (chunker.js gets the list).
BOUNDARY_TYPES: tuple[str, ...] = get_args(BoundaryType)
_BOUNDARY_INDEX = {name: index for index, name in enumerate(BOUNDARY_TYPES)}

# The embedding function as the worker hands it over: JSON sentences in, a promise of the
# vectors as UTF-8 JSON out.
JsonEmbed = Callable[[str], Awaitable[Any]]


# The two classes below are plain slotted classes rather than dataclasses: they are internal
# to this boundary, and every class made at import delays the page's first call (a dataclass
# compiles its methods as the module loads, some 5 ms each in Chromium as Pyodide starts).


class JsString:
    """A JavaScript string as Python holds it: `text`, and where its characters outside the
    BMP are (`astral`, as for `utf16_offsets`), found once for every call on it."""

    # `text`: the string, a lone surrogate kept as the one character it is there.
    # `astral`: where the characters outside the BMP are in `text`, in code points, in order.
    __slots__ = ("text", "astral")

    def __init__(self, text: str, astral: tuple[int, ...]) -> None:
        self.text = text
        self.astral = astral

    def __repr__(self) -> str:
        return f"JsString(text={self.text!r}, astral={self.astral!r})"

    @classmethod
    def from_utf16(cls, units: bytes | bytearray, highs: Any = None) -> JsString:
        """The string whose UTF-16LE code units are `units` (JavaScript's own; the worker
        writes them into a bytearray). `highs`, when given, lists the units that are high
        surrogates, as 32-bit ints (bytes, or a JavaScript Int32Array): see
        `astral_positions`.

        Example:
            >>> JsString.from_utf16("a😀b".encode("utf-16-le"))
            JsString(text='a😀b', astral=(1,))
        """
        # "surrogatepass": a lone surrogate stays one character, as it was one unit.
        text = units.decode("utf-16-le", "surrogatepass")
        if len(units) // 2 == len(text):  # no two units make one character
            return cls(text, ())
        known = None if highs is None else memoryview(_bytes(highs)).cast("i")
        return cls(text, tuple(astral_positions(units, known)))


class Packed:
    """An operation's result in three parts, which chunker.js puts together: `ints` cross as
    32-bit ints and `ascii` as ASCII bytes, beside the JSON of `result`."""

    __slots__ = ("ints", "ascii", "result")

    def __init__(self, ints: Sequence[int], ascii: str, result: Any) -> None:
        self.ints = ints
        self.ascii = ascii
        self.result = result


def pack_chunks(
    text: str, chunks: Sequence[Chunk], astral: Sequence[int] | None = None
) -> Packed:
    """`SemanticChunker` chunks of `text` as spans of it or ASCII, for chunker.js to cut out.

    `ints` holds four sections, each in the chunks' order: every chunk's `startOffset` and
    `endOffset` (JavaScript indices); every chunk's index of its `boundaryType` in the
    result's `boundaryTypes`; every chunk's length of its text in `ascii`, or -1 when it is
    not there; then, for each chunk not there, where its overlap lies, `leadFrom` and
    `leadTo`. The result also holds the chunks' `count` and the `texts` that come whole as
    JSON.

    A chunk whose text is ASCII (most, in most documents) is the next that many characters
    of `ascii`, which joins those texts. Another is `text.slice(leadFrom, leadTo) +
    text.slice(startOffset, endOffset)`: usually its overlap ends where it starts (one
    slice), or where the chunk before ended. One that is not the input's own characters (a
    merge joins its parts with a blank line, the last line gains a line feed) has `leadFrom`
    -1 and is the next of `texts`. The index is the position and `metadata` the caller's
    own object. `astral` is as for `utf16_offsets`.

    Why ASCII whole: in Pyodide comparing a chunk's text with the input (or writing it as
    JSON) reads it character by character, while joining ASCII texts and writing them out
    are copies of their bytes; chunker.js decodes them in one call. An ASCII text is as long
    in JavaScript as in Python, and `str.isascii` is free.

    Example (the first chunk is ASCII; the second, "o.\\n" where the first ended then
    "# B\\n\\nThree 🙂.\\n", is not; 🙂 is two units in JavaScript):
        >>> text = "# A\\n\\nOne two.\\n\\n# B\\n\\nThree 🙂.\\n"
        >>> chunker = SemanticChunker(target_size=8, min_size=0, overlap=3)
        >>> packed = pack_chunks(text, chunker.chunk(text))
        >>> packed.ints
        [0, 14, 15, 30, 0, 0, 14, -1, 11, 14]
        >>> packed.ascii
        '# A\\n\\nOne two.\\n'
        >>> packed.result["count"], packed.result["texts"]
        (2, [])
    """
    spans: list[int] = []  # startOffset and endOffset of each chunk
    lengths: list[int] = []
    ascii_texts: list[str] = []
    leads: list[int] = []  # leadFrom and leadTo of each chunk not in `ascii_texts`
    texts: list[str] = []
    previous_end = 0
    for chunk in chunks:
        whole, start, end = chunk.text, chunk.start_offset, chunk.end_offset
        spans += (start, end)
        if whole.isascii():
            lengths.append(len(whole))
            ascii_texts.append(whole)
        else:
            lengths.append(-1)
            leads += _lead(text, whole, start, end, previous_end)
            if leads[-1] < 0:
                texts.append(whole)
        previous_end = end
    ints = utf16_offsets(text, spans, astral)
    ints += [_BOUNDARY_INDEX[chunk.boundary_type] for chunk in chunks]
    ints += lengths
    ints += utf16_offsets(text, leads, astral)
    result = {"count": len(chunks), "boundaryTypes": BOUNDARY_TYPES, "texts": texts}
    return Packed(ints, "".join(ascii_texts), result)


def _lead(text: str, whole: str, start: int, end: int, previous_end: int) -> tuple[int, int]:
    """Where the overlap of the chunk `whole` (own text at `start`-`end`) lies in `text`,
    when `whole` is `text`'s own characters; else (-1, -1)."""
    lead = len(whole) - (end - start)
    if 0 <= lead <= start and text.startswith(whole, start - lead):
        return start - lead, start
    if (
        0 <= lead <= previous_end
        and text.startswith(whole[lead:], start)
        and text.startswith(whole[:lead], previous_end - lead)
    ):
        return previous_end - lead, previous_end
    return -1, -1


def utf16_offsets(
    text: str, offsets: Sequence[int], astral: Sequence[int] | None = None
) -> list[int]:
    """The JavaScript (UTF-16) indices of code-point `offsets` into `text`, in their order.

    Each character outside the BMP before an offset adds one unit (past the end too: a
    chunk's end may count the line feed the chunker adds after the last line). `astral`
    lists where those characters are, when the caller knows (`astral_positions`). Each
    offset costs one bisection; a negative one, which means "none", stays as it is.

    Example:
        >>> utf16_offsets("😀 ok", [0, 2, 4])
        [0, 3, 5]
    """
    if astral is None:
        # An ASCII text (`isascii()` is O(1)) has none; "surrogatepass": a lone surrogate
        # from JavaScript is one unit, as it was there.
        utf16 = b"" if text.isascii() else text.encode("utf-16-le", "surrogatepass")
        astral = astral_positions(utf16)
    if not astral:
        return list(offsets)
    return [offset + bisect_left(astral, offset) for offset in offsets]


def astral_positions(utf16: bytes | bytearray, highs: Iterable[int] | None = None) -> list[int]:
    """Where the characters outside the BMP are, in code points, in UTF-16LE `utf16`.

    `highs` lists the units that are high surrogates (D800-DBFF), in order, when the caller
    knows them: the worker notes them as it copies the units in (~0.5 ms a MB). Else they
    are found here with C-speed steps, as Python loops and regexes are slow in Pyodide
    (`max(text)` alone costs 30 ms a MB): the high byte of a high surrogate is D8-DB,
    `translate` marks those bytes and `find` jumps from one to the next (~2 ms a MB). A
    high surrogate that no low one follows is a lone one: one unit, one character.

    Example:
        >>> astral_positions("a😀b😀".encode("utf-16-le"))
        [1, 3]
        >>> astral_positions("a😀b\\ud83d".encode("utf-16-le", "surrogatepass"), [1, 4])
        [1]
    """
    if highs is None:
        highs = _high_surrogates(utf16[1::2])
    positions: list[int] = []
    for unit in highs:
        # The next unit's high byte: DC-DF for a low surrogate.
        if b"\xdc" <= utf16[2 * unit + 3 : 2 * unit + 4] <= b"\xdf":
            positions.append(unit - len(positions))  # each pair before is one unit more
    return positions


def _high_surrogates(high_bytes: bytes | bytearray) -> Iterator[int]:
    """The units that are high surrogates, from the high byte of each unit."""
    marks = high_bytes.translate(HIGH_SURROGATE_MARKS)
    unit = marks.find(1)
    while unit != -1:
        yield unit
        unit = marks.find(1, unit + 1)


def handle(
    operation: str, request: str, text_key: str | None = None, text: JsString | None = None
) -> bytes:
    """Run one call of the facade and answer its reply.

    `text`, when given, is the argument `text_key`. A reply is bytes: two little-endian
    32-bit counts, n and m; n little-endian 32-bit signed ints; then ASCII: m characters of
    text, then the JSON. Only a `Packed` result has ints and text.

    Example:
        >>> handle("lexicalTokens", '{"text": "Hello, world"}')
        b'\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00{"result":["hello","world"]}'
        >>> handle("lexicalTokens", "{}", "text", JsString("Größe 2", ()))[8:]
        b'{"result":["gr\\\\u00f6\\\\u00dfe","2"]}'
    """
    args, astral = _arguments(request, text_key, text)
    try:
        return _reply(_OPERATIONS[operation](args, astral))
    except tuple(JS_ERROR_NAMES) as error:
        return _error_reply(error)


async def handle_async(
    operation: str,
    request: str,
    embed: JsonEmbed,
    text_key: str | None = None,
    text: JsString | None = None,
) -> bytes:
    """`handle` for `ChunkingEngine.chunk` with an embedding function given in JavaScript.

    `embed` takes the sentences as a JSON list and resolves to their vectors as UTF-8 JSON;
    the worker answers it by asking the page's `embedFn`.
    """
    if operation != "ChunkingEngine.chunk":
        raise ValueError(f"handle_async runs ChunkingEngine.chunk only, not {operation!r}")
    from .engine import ChunkingEngine  # on first use, as the operations below

    async def embed_fn(sentences: list[str]) -> Any:
        return json.loads(_bytes(await embed(json.dumps(sentences))))

    args, _ = _arguments(request, text_key, text)
    try:
        options = _options(operation, args.get("options"))
        options["embed_fn"] = embed_fn
        chunks = await ChunkingEngine().achunk(args.get("content"), **options)
        return _reply([c.to_dict() for c in chunks])
    except tuple(JS_ERROR_NAMES) as error:
        return _error_reply(error)


# Each operation imports what it calls when first called: the worker is ready sooner, and a
# page pays only for the modules it uses (SemanticChunker's are imported with this one).
#
# Each operation takes the call's arguments and where the characters outside the BMP are in
# its text, when that came as a `JsString` (else None).
Astral = Sequence[int] | None


def _semantic_chunk(args: dict[str, Any], astral: Astral) -> Packed:
    text = args.get("text")
    chunker = SemanticChunker(**_options("SemanticChunker.chunk", args.get("config")))
    return pack_chunks(text, chunker.chunk(text, args.get("metadata")), astral)


def _engine_chunk(args: dict[str, Any], _astral: Astral) -> list[dict[str, Any]]:
    from .engine import ChunkingEngine

    options = _options("ChunkingEngine.chunk", args.get("options"))
    return [c.to_dict() for c in ChunkingEngine().chunk(args.get("content"), **options)]


def _chunk_turns(args: dict[str, Any], _astral: Astral) -> list[dict[str, Any]]:
    from .turns import chunk_turns

    passages = chunk_turns(args.get("turns"), **_options("chunkTurns", args.get("options")))
    out = []
    for passage in passages:
        record = passage.to_dict()
        spans = record["turns"]
        offsets = utf16_offsets(passage.text, [o for s in spans for o in (s["start"], s["end"])])
        for number, span in enumerate(spans):
            span["start"], span["end"] = offsets[2 * number : 2 * number + 2]
        out.append(record)
    return out


def _lexical_tokens(args: dict[str, Any], _astral: Astral) -> list[str]:
    from .lexical import lexical_tokens

    return lexical_tokens(args.get("text"))


def _snippet_around(args: dict[str, Any], astral: Astral) -> dict[str, Any]:
    from .lexical import snippet_around

    text = args.get("text")
    options = _options("snippetAround", args.get("options"))
    snippet = snippet_around(text, args.get("words"), **options)
    at = utf16_offsets(text, [snippet.at], astral)[0] if snippet.at >= 0 else snippet.at
    return {"at": at, "text": snippet.text}


def _locate_chunks(args: dict[str, Any], astral: Astral) -> list[dict[str, int] | None]:
    from .locate import locate_chunks

    text = args.get("text")
    spans = locate_chunks(text, args.get("contents"))
    offsets = iter(utf16_offsets(text, [o for span in spans if span for o in span], astral))
    return [None if s is None else {"start": next(offsets), "end": next(offsets)} for s in spans]


_OPERATIONS: dict[str, Callable[[dict[str, Any], Astral], Any]] = {
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


def _arguments(
    request: str, text_key: str | None, text: JsString | None
) -> tuple[dict[str, Any], Astral]:
    """The call's arguments, and where the characters outside the BMP are in `text`."""
    args = json.loads(request)
    if text_key is None or text is None:
        return args, None
    args[text_key] = text.text
    return args, text.astral


def _bytes(data: Any) -> bytes:
    """Bytes from CPython, or from a JavaScript typed array (Pyodide's buffer proxy)."""
    return data if isinstance(data, bytes) else data.to_bytes()


def _reply(answer: Any) -> bytes:
    if not isinstance(answer, Packed):
        answer = Packed((), "", answer)
    reply = json.dumps({"result": answer.result}, separators=(",", ":"))
    return _reply_bytes(answer.ints, answer.ascii, reply)


def _error_reply(error: Exception) -> bytes:
    name = next(js for py, js in JS_ERROR_NAMES.items() if isinstance(error, py))
    reply = {"name": name, "message": str(error), "field": field_of(error)}
    return _reply_bytes((), "", json.dumps({"error": reply}))


def _reply_bytes(ints: Sequence[int], ascii: str, reply: str) -> bytes:
    """`handle`'s reply: the two counts, the ints, the ASCII text and the JSON."""
    head = array("i", [len(ints), len(ascii)])
    body = array("i", ints)
    if sys.byteorder == "big":  # JavaScript's typed arrays are little-endian wherever it runs
        head.byteswap()
        body.byteswap()
    # ASCII JSON (json.dumps escapes the rest) is valid UTF-8, faster to write than JSON
    # keeping non-ASCII text (10 ms against 16 for 1 MB of chunks in Pyodide), and keeps a
    # lone surrogate exact as a "\\udxxx" escape, which UTF-8 could not hold.
    return b"".join((head, body, ascii.encode("ascii"), reply.encode("ascii")))
