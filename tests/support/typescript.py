"""TypeScript's compiler on the typed example of a page author's code (tests/types/)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from support.paths import ROOT, TESTS

# Pinned exactly in web/package.json's devDependencies, installed by `npm ci` in web/.
TSC = ROOT / "web" / "node_modules" / ".bin" / "tsc"
EXAMPLE = TESTS / "types" / "example.ts"
# What `tsc --noEmit --strict` checks the example with: as a bundler resolves imports.
COMPILER_OPTIONS = {
    "strict": True,
    "noEmit": True,
    "noUnusedLocals": True,
    "target": "es2022",
    "module": "es2022",
    "moduleResolution": "bundler",
    "lib": ["es2022", "dom"],
}


def run_tsc(
    folder: Path, example: Path = EXAMPLE, paths: dict[str, list[str]] | None = None
) -> subprocess.CompletedProcess[str]:
    """tsc on `example` with a tsconfig.json written into `folder`; `paths` maps module names
    to files (else `chunker-web` resolves from node_modules, through the package's exports)."""
    options = {**COMPILER_OPTIONS, **({"paths": paths} if paths else {})}
    config = {"compilerOptions": options, "files": [str(example)]}
    (folder / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    return subprocess.run(
        [str(TSC), "-p", str(folder / "tsconfig.json"), "--traceResolution"],
        capture_output=True,
        text=True,
        timeout=300,
    )
