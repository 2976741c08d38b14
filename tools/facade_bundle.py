"""The site's chunker.js: web/chunker.js and the modules it imports, as one file.

A page that imports the facade from the site, as the playground and the README's pages do,
then fetches one file before it starts the worker, not chunker.js and then its imports in two
more rounds of requests (tests/bench/browser.py --wire: ready sooner, on the first visit and
on the repeat one, where each request is revalidated). web/ keeps the modules, one job each;
the site serves only the bundle of them.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

from .paths import NODE_MODULES, WEB

ESBUILD = NODE_MODULES / ".bin" / "esbuild"
ENTRY = "chunker.js"
BANNER = (
    "// chunker.js: web/chunker.js and the modules it imports, bundled by build.py "
    "(tools/facade_bundle.py)."
)


def facade_bundle() -> tuple[str, list[str]]:
    """web/chunker.js bundled with its imports (esbuild, pinned in web/package.json), as
    readable as its modules (not minified, nothing renamed), and the files of web/ it holds
    (the entry too), by their paths in web/."""
    with tempfile.TemporaryDirectory() as folder:
        bundle, metafile = Path(folder) / ENTRY, Path(folder) / "meta.json"
        result = subprocess.run(
            [
                str(ESBUILD),
                str(WEB / ENTRY),
                "--bundle",
                "--format=esm",
                "--charset=utf8",
                "--legal-comments=none",
                f"--banner:js={BANNER}",
                f"--outfile={bundle}",
                f"--metafile={metafile}",
                "--log-level=warning",
            ],
            cwd=WEB,
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            raise SystemExit(f"build.py: esbuild could not bundle web/{ENTRY}:\n{result.stderr}")
        inputs = json.loads(metafile.read_text(encoding="utf-8"))["inputs"]
        return bundle.read_text(encoding="utf-8"), sorted(inputs)
