"""The npm package `chunker-web`: the facade, its types, its worker and the runtime it boots
(Pyodide, the memory snapshot and the wheel, as the site serves them), one folder that a page
serves as is."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .paths import DIST, NODE_MODULES, ROOT, SITE, WEB, log
from .precompress import ENCODINGS
from .site import PYODIDE_FILES, PYODIDE_LOCK, PYODIDE_STDLIB, TOKENIZER_WHEEL, build_web
from .snapshot import SNAPSHOT
from .wheel import build_wheel

NAME = "chunker-web"
# The files of site/ that make the facade run, besides the wheel. No micropip: the worker
# unpacks the wheel itself, and a page with its own Pyodide has its own micropip. The site's
# chunker.js and worker.js hold their modules (tools/script_bundle.py): the package ships
# those two files alone.
FACADE_FILES = ("chunker.js", "chunker.d.ts", "worker.js")
# The package's command that copies what the worker loads into a folder the site serves as
# is: for a site built by a bundler, which bundles chunker.js but not those.
COPY_COMMAND = "chunker-web-copy"
COPY_SCRIPT = WEB / "npm" / "copy.mjs"
# The docs page, and its section, that the package's own README is, so that the two never
# differ (the package holds no docs/, so the section links nowhere relative).
README_PAGE = ROOT / "docs" / "browser.md"
README_SECTION = "Use it in your page"
# What a browser fetches to get ready (the rest: the source map, the types, the README, the
# wheels, whose files the memory snapshot holds, the tokenizer's fetched by the first call
# that counts tokens, and the compressed copies, which stand for the files they copy).
FETCHED_AT_BOOT = re.compile(r"(chunker|worker)\.js|pyodide/(?!.*\.(map|br|gz)$).*")


@dataclass(frozen=True, slots=True)
class PackageSizes:
    """Bytes of the package: its .tgz, its files on disk, and what a browser fetches to get
    ready, as they are and as a server sends them with the package's brotli or gzip copies
    (a file without a copy, sent as it is)."""

    packed: int
    unpacked: int
    fetched: int
    fetched_brotli: int
    fetched_gzip: int


def build_package() -> Path:
    """Write dist/chunker-web-<version>.tgz with `npm pack`; answer its path."""
    build_web()
    wheel = build_wheel().name  # the site's copy of it carries its bytecode
    version = wheel.split("-")[1]
    DIST.mkdir(exist_ok=True)
    for stale in DIST.glob(f"{NAME}-*.tgz"):
        stale.unlink()
    with tempfile.TemporaryDirectory() as folder:
        stage = Path(folder)
        copies = [*FACADE_FILES, f"wheels/{wheel}", f"wheels/{TOKENIZER_WHEEL}"]
        copies += [f"pyodide/{name}" for name in (*PYODIDE_FILES, PYODIDE_STDLIB)] + [SNAPSHOT]
        # The compressed copies beside them, for a server that sends those (docs/browser.md).
        copies += _encoded(copies)
        for relative in copies:
            (stage / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(SITE / relative, stage / relative)
        shutil.copy2(COPY_SCRIPT, stage / COPY_SCRIPT.name)
        (stage / COPY_SCRIPT.name).chmod(0o755)
        (stage / "pyodide" / PYODIDE_LOCK).write_text(_empty_lock(), encoding="utf-8")
        (stage / "package.json").write_text(_manifest(version), encoding="utf-8")
        (stage / "README.md").write_text(_readme(), encoding="utf-8")
        subprocess.run(
            ["npm", "pack", "--pack-destination", str(DIST), "--loglevel=error"],
            cwd=stage,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    tarball = DIST / f"{NAME}-{version}.tgz"
    sizes = package_sizes(tarball)
    log(
        f"wrote {tarball.relative_to(ROOT)}: {_mb(sizes.packed)} packed, {_mb(sizes.unpacked)} "
        f"unpacked; a browser fetches {_mb(sizes.fetched)} to get ready, "
        f"{_mb(sizes.fetched_brotli)} with brotli, {_mb(sizes.fetched_gzip)} with gzip"
    )
    return tarball


def package_sizes(tarball: Path) -> PackageSizes:
    """The sizes of `tarball` and of the files in it."""
    with tarfile.open(tarball) as archive:
        sizes = {
            member.name.removeprefix("package/"): member.size
            for member in archive.getmembers()
            if member.isfile()
        }
    fetched = [name for name in sizes if FETCHED_AT_BOOT.fullmatch(name)]

    def sent(suffix: str) -> int:
        return sum(sizes.get(name + suffix, sizes[name]) for name in fetched)

    return PackageSizes(
        packed=tarball.stat().st_size,
        unpacked=sum(sizes.values()),
        fetched=sum(sizes[name] for name in fetched),
        fetched_brotli=sent(ENCODINGS["br"]),
        fetched_gzip=sent(ENCODINGS["gzip"]),
    )


def _encoded(names: Sequence[str]) -> list[str]:
    """The compressed copies that the site holds of files `names` (tools/precompress.py)."""
    copies = (name + suffix for name in names for suffix in ENCODINGS.values())
    return [copy for copy in copies if (SITE / copy).exists()]


def _empty_lock() -> str:
    """Pyodide's lock file listing no package: the package serves none but chunker's wheel,
    which the worker unpacks by itself."""
    lock = json.loads((NODE_MODULES / "pyodide" / PYODIDE_LOCK).read_text(encoding="utf-8"))
    return json.dumps({"info": lock["info"], "packages": {}}, indent=1) + "\n"


def _manifest(version: str) -> str:
    pyodide = json.loads((NODE_MODULES / "pyodide" / "package.json").read_text())["version"]
    manifest = {
        "name": NAME,
        "version": version,
        "description": (
            "Text chunking and snippets for retrieval in the browser: the chunker wheel in "
            f"Pyodide {pyodide}, in a Web Worker, behind the original AgentOS names"
        ),
        "license": "MIT AND MPL-2.0 AND PSF-2.0",
        "type": "module",
        # Types first: TypeScript takes the first condition that matches.
        "exports": {
            ".": {"types": "./chunker.d.ts", "default": "./chunker.js"},
            "./*": "./*",
        },
        "types": "./chunker.d.ts",
        "bin": {COPY_COMMAND: f"./{COPY_SCRIPT.name}"},
        "files": [*FACADE_FILES, *_encoded(FACADE_FILES), COPY_SCRIPT.name, "pyodide/", "wheels/"],
        "sideEffects": False,
    }
    return json.dumps(manifest, indent=2) + "\n"


def _readme() -> str:
    """docs/browser.md's section for page authors, as the package's README."""
    text = README_PAGE.read_text(encoding="utf-8")
    heading = f"## {README_SECTION}\n"
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    section = text[start + len(heading) : None if end < 0 else end].strip()
    return f"# {NAME}\n\n{section}\n"


def _mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB"
