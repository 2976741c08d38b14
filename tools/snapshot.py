"""The memory snapshot the site ships (web/worker-snapshot.js): the worker's Python after a
first start (the wheel unpacked, chunker.bridge imported), made at build time under Node from
the site's own files (web/snapshot-make.mjs), so that a first visit restores it instead of
booting Python and importing chunker."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

from .paths import CACHE, WEB, log

# Where the site and the npm package serve it: beside the runtime it was made by.
SNAPSHOT = "pyodide/chunker-snapshot.bin"
MAKE_SCRIPT = WEB / "snapshot-make.mjs"
# The snapshots made, by the key they were made for and what else went in (see `shipped_snapshot`).
SNAPSHOT_CACHE = CACHE / "snapshot"


def shipped_snapshot(
    plan: Mapping[str, Path], key: str, stdlib: str, wheel: str, lock: str
) -> Path:
    """The snapshot for `key` (tools/start_facts.py's digest of the runtime, the standard
    library, the wheel and the worker's code), made from `plan`'s files: the standard
    library `stdlib` and the wheel `wheel` (paths in the site), with the site's lock file
    `lock` (its text).

    Cached in .cache/snapshot/ by `key`, the lock file and the script that makes it, so Node
    runs only when one of them changed.
    """
    script = MAKE_SCRIPT.read_bytes()
    digest = hashlib.sha256(f"{key}\0{lock}\0".encode() + script).hexdigest()[:16]
    folder = SNAPSHOT_CACHE / digest
    output = folder / Path(SNAPSHOT).name
    if not output.exists():
        log("making the snapshot the site ships (web/snapshot-make.mjs)")
        started = time.perf_counter()
        folder.mkdir(parents=True, exist_ok=True)
        lock_file = folder / "pyodide-lock.json"
        lock_file.write_text(lock, encoding="utf-8")
        subprocess.run(
            [
                "node",
                str(MAKE_SCRIPT),
                # The folder of the runtime's files that the site serves.
                str(plan["pyodide/pyodide.mjs"].parent),
                str(plan[stdlib]),
                str(lock_file),
                str(plan[wheel]),
                key,
                str(output),
            ],
            check=True,
        )
        took = time.perf_counter() - started
        log(f"snapshot: {output.stat().st_size / 1e6:.1f} MB in {took:.1f} s")
    for stale in SNAPSHOT_CACHE.iterdir():  # the snapshots of inputs that are gone
        if stale != folder:
            shutil.rmtree(stale, ignore_errors=True)
    return output
