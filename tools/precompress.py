"""The site's files as a server sends them compressed: beside each `.wasm`, `.mjs`, `.js`,
`.json` and `.zip`, a brotli copy (`.br`) and a gzip one (`.gz`), made once at build time,
for `build.py serve` (tools/server.py) and for any server that sends precompressed files
(docs/browser.md). Compressing the WebAssembly at the highest settings takes half a minute:
too long for a server to do as it answers, so it is done here, once per content."""

from __future__ import annotations

import gzip
import hashlib
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

from .paths import CACHE, WEB, log

# Content-Encoding name -> the suffix of the copy, in the order a server prefers them.
ENCODINGS = {"br": ".br", "gzip": ".gz"}
COMPRESSED_TYPES = (".wasm", ".mjs", ".js", ".json", ".zip")
# A copy is kept only when it is this much smaller: a zip of deflated files barely shrinks,
# and a copy that saves nothing costs the browser its decoding.
KEEP_BELOW = 0.95
BROTLI_SCRIPT = WEB / "brotli.mjs"
# The copies, named by the content they were made from (and the way they were made).
ENCODED_CACHE = CACHE / "encoded"


def encoded_copies(files: Mapping[str, bytes]) -> dict[str, Path]:
    """For each of `files` (site path -> content) of a type in COMPRESSED_TYPES, its copies
    that shrink it enough: {site path + suffix: the copy, in .cache/encoded/}."""
    recipe = hashlib.sha256(BROTLI_SCRIPT.read_bytes() + b"gzip 9 mtime 0").digest()
    ENCODED_CACHE.mkdir(parents=True, exist_ok=True)
    copies: dict[str, Path] = {}
    sizes: dict[str, int] = {}
    brotli_jobs: list[str] = []
    sources: list[Path] = []
    for relative, data in files.items():
        if not relative.endswith(COMPRESSED_TYPES):
            continue
        key = hashlib.sha256(recipe + data).hexdigest()[:32]
        for suffix in ENCODINGS.values():
            copies[relative + suffix] = ENCODED_CACHE / f"{key}{suffix}"
        sizes[relative] = len(data)
        gzipped = ENCODED_CACHE / f"{key}.gz"
        if not gzipped.exists():
            part = gzipped.with_name(gzipped.name + ".part")
            part.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
            part.rename(gzipped)
        brotli = ENCODED_CACHE / f"{key}.br"
        if not brotli.exists():
            source = ENCODED_CACHE / f"{key}.source"
            source.write_bytes(data)
            sources.append(source)
            brotli_jobs += [str(source), str(brotli)]
    if brotli_jobs:
        log(f"compressing {len(sources)} file(s) with brotli (web/brotli.mjs)")
        subprocess.run(["node", str(BROTLI_SCRIPT), *brotli_jobs], check=True)
        for source in sources:
            source.unlink()
    for stale in ENCODED_CACHE.iterdir():  # the copies of contents that are gone
        if stale not in copies.values():
            if stale.is_dir():
                shutil.rmtree(stale)
            else:
                stale.unlink()
    return {
        name: copy
        for name, copy in copies.items()
        if copy.stat().st_size < KEEP_BELOW * sizes[name.rsplit(".", 1)[0]]
    }
