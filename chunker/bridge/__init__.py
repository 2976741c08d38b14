"""The boundary with JavaScript: plain data in, plain data out, for `web/worker.js`.

The browser facade (`web/chunker.js`) sends each call as an operation name and one JSON
request whose keys are the original's argument names (`text`, `config`, `options`, ...) and
whose options use the original's names (`targetSize`, `chunkOverlap`, ...). The large text
of a call may come beside the request instead, as a `JsString` decoded from the text's
UTF-16 code units (`text_key` names its argument). `handle` answers bytes: 32-bit ints,
ASCII text, then JSON holding the result or the error, as the table in `protocol` lays them
out (the one description of the reply). The chunkers' results come packed:
`SemanticChunker.chunk` and `ChunkingEngine.chunk` answer where each chunk's text lies in the
input, or in the ASCII text (`pack_chunks`, `pack_document_chunks`), and chunker.js cuts the
texts out itself.

One job a module:
- `protocol`: `handle` and `handle_async`, the reply's bytes, error replies;
- `operations`: the table of operations, and each one;
- `calls`: what an operation is (its arguments, `Astral`), for the type checker alone;
- `indexes`: the `LexicalIndex` operations, and the indexes the worker keeps by id;
- `options`: the one table of option names, JavaScript's and Python's;
- `packing`: `SemanticChunker` chunks packed as ints and ASCII (`pack_chunks`), their offsets
  in code points beside where the text's characters outside the BMP are;
- `utf16`: JavaScript strings (`JsString`) and where their characters outside the BMP are.

Offsets cross in Python's units (code points) both ways; web/chunker-utf16.js converts them.
"""

from __future__ import annotations

from chunker.bridge.options import OPTION_NAMES
from chunker.bridge.packing import Packed, pack_chunks
from chunker.bridge.protocol import handle, handle_async
from chunker.bridge.utf16 import JsString, astral_positions

__all__ = [
    "OPTION_NAMES",
    "JsString",
    "Packed",
    "astral_positions",
    "handle",
    "handle_async",
    "pack_chunks",
]
