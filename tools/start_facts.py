"""What the worker needs to know of the site's files to start (web/worker-start.js): the
bytes it downloads, for its progress, and the key of the memory snapshot it keeps, for
knowing when a kept one is stale."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

# The worker's downloads before ready that its progress counts (Pyodide imports
# pyodide.asm.mjs with `import()`, whose bytes no script can follow), besides the wheel.
COUNTED = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip")


def start_facts(plan: Mapping[str, Path], wheel: str) -> dict[str, object]:
    """`sizes` (bytes of each counted download, by its path in the site, the wheel `wheel`
    included) and `snapshotKey`: a digest of every file whose change makes a snapshot of the
    worker's memory wrong (the runtime, its standard library, the wheel, the worker's own
    code), taken from `plan`, the site's files as they will be served."""
    counted = (*COUNTED, wheel)
    keyed = sorted(
        name
        for name in plan
        if (name.startswith("pyodide/pyodide") and not name.endswith(".map"))
        or name in counted
        or name.startswith("worker")
    )
    digest = hashlib.sha256()
    for name in keyed:
        data = plan[name].read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    sizes = {name: plan[name].stat().st_size for name in counted}
    return {"sizes": sizes, "snapshotKey": digest.hexdigest()[:32]}
