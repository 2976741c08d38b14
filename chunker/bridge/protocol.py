"""One call of the facade in, its reply out as bytes: the protocol `web/worker.js` speaks.

Why bytes: in Pyodide, turning a 1 MB JavaScript string into a Python `str` costs far more
than bytes do, a non-ASCII `str` back into JavaScript more still, and a tree of proxies more
than either; bytes cross cheaply each way.

The reply, defined here only (the bridge's docstring, worker.js, chunker.js's `readReply`
and tests/support/reply.py point here), its parts in order:

| part  | bytes | what                                                                    |
|-------|-------|-------------------------------------------------------------------------|
| n     | 4     | how many ints follow: a little-endian 32-bit int                        |
| m     | 4     | how many characters of text follow the ints: the same                   |
| ints  | 4 n   | little-endian 32-bit signed ints: a `Packed` result's (else none)       |
| text  | m     | ASCII: a `Packed` result's text (else none)                             |
| JSON  | rest  | ASCII: `{"result": ...}`, in the original's shape (or a `Packed`        |
|       |       | result's, which packing.py lays out), or for bad input `{"error":       |
|       |       | {"name", "message", "field"}}`: the JavaScript error to throw, Python's |
|       |       | message, and the Python name of the argument it concerns                |

Little-endian, as JavaScript's typed arrays are wherever it runs, so an `Int32Array` reads
the ints where they lie. Any other exception than bad input's is a bug, and propagates.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from chunker.base.collector import collector_paused
from chunker.base.validation import ArgumentValueError, field_of
from chunker.bridge.operations import engine_chunk, find_operation
from chunker.bridge.packing import Packed
from chunker.bridge.utf16 import JsString, as_bytes

if TYPE_CHECKING:
    from chunker.bridge.calls import Arguments, Astral

__all__ = ["JS_ERROR_NAMES", "handle", "handle_async"]

# Python errors that mean bad input, and the JavaScript error each becomes (as the original
# throws a RangeError where Python raises ValueError). Any other exception is a bug and
# propagates, so the page can tell the two apart.
JS_ERROR_NAMES: dict[type[Exception], str] = {ValueError: "RangeError", TypeError: "TypeError"}

# The embedding function as the worker hands it over: JSON sentences in, a promise of the
# vectors as UTF-8 JSON out.
JsonEmbed = Callable[[str], Awaitable[Any]]


def handle(
    operation: str, request: str, text_key: str | None = None, text: JsString | None = None
) -> bytes:
    """Run one call of the facade and answer its reply.

    `text`, when given, is the argument `text_key`. The reply's bytes are laid out as the
    table at the top of this module says; only a `Packed` result has ints and text.

    Example:
        >>> handle("lexicalTokens", '{"text": "Hello, world"}')
        b'\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00{"result":["hello","world"]}'
        >>> handle("lexicalTokens", "{}", "text", JsString("Größe 2", ()))[8:]
        b'{"result":["gr\\\\u00f6\\\\u00dfe","2"]}'
    """
    args, astral = _arguments(request, text_key, text)
    try:
        # Paused until the reply is made: else the collection a chunker's records have made
        # due runs as packing starts, over every record (tests/bench/browser.py; collector.py
        # says why a chunker pauses it). An operation makes no cycle.
        with collector_paused():
            return _reply(find_operation(operation)(args, astral))
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
        raise ArgumentValueError(
            "operation", f"handle_async runs ChunkingEngine.chunk only, not {operation!r}"
        )

    async def embed_fn(sentences: list[str]) -> Any:
        return json.loads(as_bytes(await embed(json.dumps(sentences))))

    args, astral = _arguments(request, text_key, text)
    try:
        return _reply(await engine_chunk(args, astral, embed_fn))
    except tuple(JS_ERROR_NAMES) as error:
        return _error_reply(error)


def _arguments(
    request: str, text_key: str | None, text: JsString | None
) -> tuple[Arguments, Astral]:
    """The call's arguments, and where the characters outside the BMP are in `text`."""
    args = json.loads(request)
    if text_key is None or text is None:
        return args, None
    args[text_key] = text.text
    return args, text.astral


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
    """`handle`'s reply, as the table at the top of this module lays it out."""
    # Little-endian ("<"). `struct`, not `array("i", ints)`, which parses each int as a
    # call's argument, several times dearer (tests/bench/browser.py).
    head = struct.pack("<ii", len(ints), len(ascii))
    body = struct.pack(f"<{len(ints)}i", *ints)
    # ASCII JSON (json.dumps escapes the rest) is valid UTF-8, faster to write in Pyodide
    # than JSON keeping non-ASCII text, and keeps a lone surrogate exact as a "\\udxxx"
    # escape, which UTF-8 could not hold.
    return b"".join((head, body, ascii.encode("ascii"), reply.encode("ascii")))
