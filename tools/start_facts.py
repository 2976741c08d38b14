"""What the worker needs to know of the site's files to start (web/worker.js): the bytes it
downloads, for its progress, and the key of a memory snapshot, for knowing when one is stale
(the shipped one, tools/snapshot.py, and one a visit kept)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path

# The worker's downloads before ready that its progress counts (Pyodide imports
# pyodide.asm.mjs with `import()`, whose bytes no script can follow), besides the wheel (a
# start without a snapshot) or the snapshot.
COUNTED = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip")


def snapshot_key(plan: Mapping[str, Path], wheel: str) -> str:
    """A digest of every file whose change makes a snapshot of the worker's memory wrong (the
    runtime, its standard library, the wheel `wheel`, the worker's own code), taken from
    `plan`, the site's files as they will be served."""
    keyed = sorted(
        name
        for name in plan
        if (name.startswith("pyodide/pyodide") and not name.endswith(".map"))
        or name in (*COUNTED, wheel)
        or name.startswith("worker")
    )
    digest = hashlib.sha256()
    for name in keyed:
        data = plan[name].read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:32]


def download_sizes(plan: Mapping[str, Path], others: Iterable[str]) -> dict[str, int]:
    """Bytes of each counted download and of `others` (the wheel, the snapshot), by path."""
    return {name: plan[name].stat().st_size for name in (*COUNTED, *others)}
