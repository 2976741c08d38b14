"""A `chunker.bridge.handle` reply, read back as chunker.js reads it."""

from __future__ import annotations

import json
from typing import Any


def read_reply(reply: bytes) -> tuple[list[int], str, Any]:
    """The ints, the ASCII text and the JSON of a `chunker.bridge.handle` reply, read as
    chunker.js reads them, by the table of chunker/bridge/protocol.py."""
    count, length = (int.from_bytes(reply[at : at + 4], "little") for at in (0, 4))
    ends = range(12, 12 + 4 * count, 4)
    ints = [int.from_bytes(reply[end - 4 : end], "little", signed=True) for end in ends]
    text = reply[8 + 4 * count :].decode("ascii")
    return ints, text[:length], json.loads(text[length:])
