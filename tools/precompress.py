"""The site's files as a server sends them compressed: beside each `.wasm`, `.mjs`, `.js`,
`.json`, `.zip` and `.bin` (the memory snapshot), a brotli copy (`.br`) and a gzip one
(`.gz`), made once at build time, for `build.py serve` (tools/server.py) and for any server
that sends precompressed files (docs/browser.md). Compressing the WebAssembly or the snapshot
at the highest settings takes half a minute each: too long for a server to do as it answers,
so it is done here, once per content, the files shared among as many processes as the
machine has cores."""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

from .paths import CACHE, WEB, log

# Content-Encoding name -> the suffix of the copy, in the order a server prefers them.
ENCODINGS = {"br": ".br", "gzip": ".gz"}
COMPRESSED_TYPES = (".wasm", ".mjs", ".js", ".json", ".zip", ".bin")
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
    brotli_jobs: list[tuple[Path, Path]] = []  # (source, copy)
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
            brotli_jobs.append((source, brotli))
    if brotli_jobs:
        log(f"compressing {len(brotli_jobs)} file(s) with brotli (web/brotli.mjs)")
        _brotli(brotli_jobs)
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


def _brotli(jobs: list[tuple[Path, Path]]) -> None:
    """Make each (source, copy) of `jobs`, in one Node process a core, the largest sources
    spread first; then delete the sources."""
    shares: list[list[str]] = [[] for _ in range(min(len(jobs), os.cpu_count() or 1))]
    loads = [0] * len(shares)
    for source, copy in sorted(jobs, key=lambda job: -job[0].stat().st_size):
        least = loads.index(min(loads))
        shares[least] += [str(source), str(copy)]
        loads[least] += source.stat().st_size
    processes = [subprocess.Popen(["node", str(BROTLI_SCRIPT), *share]) for share in shares]
    failed = [process.args for process in processes if process.wait() != 0]
    if failed:
        raise SystemExit(f"build.py: brotli failed: {failed}")
    for source, _ in jobs:
        source.unlink()
