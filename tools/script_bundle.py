"""The site's entry scripts as one file each: chunker.js (the facade, for the page),
worker.js (its worker) and playground/main.js (the playground's page, but for boot.js, which
starts the worker), each bundled with the modules it imports.

A page that imports the facade from the site fetched chunker.js and then its imports in two
more rounds of requests before it could start the worker, and the worker its own imports
before it could start Pyodide's downloads (tests/bench/browser.py --wire: ready sooner, on a
first visit and on a repeat one, which revalidates each request). The playground's forty
modules took the browser's six connections to the server while the worker's requests waited
behind them. web/ keeps the modules, one job each.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from .paths import NODE_MODULES, WEB

ESBUILD = NODE_MODULES / ".bin" / "esbuild"


def bundle_script(
    entry: str, generated: Mapping[str, str], external: Sequence[str] = ()
) -> tuple[str, list[str]]:
    """web/`entry` bundled with what it imports (esbuild, pinned in web/package.json), as
    readable as its modules (not minified, nothing renamed), `generated` standing beside them
    (files the build writes, by name: the worker's bundle.js), but for the imports named in
    `external` as written (left as imports); and the files it holds (the entry too), by their
    names in web/ or `generated`."""
    with tempfile.TemporaryDirectory() as folder:
        here = Path(folder)
        for script in [*WEB.glob("*.js"), *WEB.glob("playground/*.js")]:
            copy = here / script.relative_to(WEB)
            copy.parent.mkdir(exist_ok=True)
            shutil.copy2(script, copy)
        for name, text in generated.items():
            (here / name).write_text(text, encoding="utf-8")
        banner = (
            f"// {entry}: web/{entry} and the modules it imports, bundled by build.py "
            "(tools/script_bundle.py)."
        )
        result = subprocess.run(
            [
                str(ESBUILD),
                entry,
                "--bundle",
                "--format=esm",
                "--charset=utf8",
                "--legal-comments=none",
                f"--banner:js={banner}",
                "--outfile=bundled/out.js",
                "--metafile=bundled/meta.json",
                "--log-level=warning",
                *(f"--external:{name}" for name in external),
            ],
            cwd=here,
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            raise SystemExit(f"build.py: esbuild could not bundle web/{entry}:\n{result.stderr}")
        inputs = json.loads((here / "bundled" / "meta.json").read_text(encoding="utf-8"))
        return (here / "bundled" / "out.js").read_text(encoding="utf-8"), sorted(inputs["inputs"])
