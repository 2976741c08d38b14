"""The py3-none-any wheel, written by hand from pyproject.toml (no setuptools, no network)."""

from __future__ import annotations

import ast
import base64
import hashlib
import sys
import zipfile
from pathlib import Path
from typing import Any

import tomllib

from .paths import CACHE, DIST, ROOT, log

# The pyproject.toml keys this builder knows how to put in a wheel; any other stops it, so
# a new setting is never dropped silently.
KNOWN_PROJECT_KEYS = {
    "name",
    "dynamic",
    "version",
    "description",
    "readme",
    "requires-python",
    "license",
    "dependencies",
    "optional-dependencies",
    "classifiers",
    "keywords",
    "urls",
    "authors",
    "scripts",
}
KNOWN_SETUPTOOLS_KEYS = {"packages", "package-data", "dynamic"}
# Every entry of a wheel gets this date, so the same sources give the same bytes.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


# What the page's wheel leaves out: the command line and the pipeline adapters, which nothing
# in the browser imports (and which would cost it their bytes and their files to unpack).
# `base/extras.py` stays: `chunker.tokens` names the `tokens` extra through it, in the page too.
NOT_FOR_THE_PAGE = (
    "chunker/__main__.py",
    "chunker/cli/",
    "chunker/langchain.py",
    "chunker/llama_index.py",
    "chunker/spark.py",
)
PAGE_WHEEL_FOLDER = CACHE / "page-wheel"


def build_wheel() -> Path:
    """Write dist/<name>-<version>-py3-none-any.whl from pyproject.toml; answer its path.

    Built by hand (no setuptools, no network) and byte-for-byte reproducible: the file is
    rewritten only when its bytes change, so the site's copy stays fresh for HTTP caches.
    """
    name, data = _wheel(leave_out=(), with_scripts=True)
    DIST.mkdir(exist_ok=True)
    for stale in DIST.glob(f"{name.split('-')[0]}-*.whl"):
        if stale.name != name:
            stale.unlink()
    return _write(DIST / name, data)


def build_page_wheel() -> Path:
    """The wheel the page loads (same name, in .cache/page-wheel/): the package without
    `NOT_FOR_THE_PAGE` and without the console script that would need them."""
    name, data = _wheel(leave_out=NOT_FOR_THE_PAGE, with_scripts=False)
    if PAGE_WHEEL_FOLDER.exists():
        for stale in PAGE_WHEEL_FOLDER.iterdir():
            if stale.name != name:
                stale.unlink()
    PAGE_WHEEL_FOLDER.mkdir(parents=True, exist_ok=True)
    return _write(PAGE_WHEEL_FOLDER / name, data)


def _write(target: Path, data: bytes) -> Path:
    if not target.exists() or target.read_bytes() != data:
        target.write_bytes(data)
        log(f"wrote {target.relative_to(ROOT)}")
    return target


def _wheel(leave_out: tuple[str, ...], with_scripts: bool) -> tuple[str, bytes]:
    """The wheel's file name and bytes, without the files whose paths start with `leave_out`."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = pyproject["project"]
    setuptools = pyproject.get("tool", {}).get("setuptools", {})
    for keys, known, table in (
        (project, KNOWN_PROJECT_KEYS, "[project]"),
        (setuptools, KNOWN_SETUPTOOLS_KEYS, "[tool.setuptools]"),
    ):
        unknown = sorted(set(keys) - known)
        if unknown:
            sys.exit(f"build.py: cannot put {table} {', '.join(unknown)} in a wheel yet")
    name, version = project["name"], _version(project, setuptools)
    files = _package_files(setuptools)
    dist_info = f"{name}-{version}.dist-info"
    entries: list[tuple[str, bytes]] = [
        (path.relative_to(ROOT).as_posix(), path.read_bytes()) for path in files
    ]
    entries = [(path, data) for path, data in entries if not path.startswith(leave_out)]
    entries.append((f"{dist_info}/METADATA", _metadata(project, version).encode()))
    wheel_file = "Wheel-Version: 1.0\nGenerator: chunker build.py\nRoot-Is-Purelib: true\n"
    entries.append((f"{dist_info}/WHEEL", (wheel_file + "Tag: py3-none-any\n").encode()))
    top_level = sorted({p.split(".")[0] for p in setuptools["packages"]})
    entries.append((f"{dist_info}/top_level.txt", ("\n".join(top_level) + "\n").encode()))
    scripts = project.get("scripts", {})
    if with_scripts and scripts:
        lines = ["[console_scripts]", *(f"{key} = {value}" for key, value in scripts.items())]
        entries.append((f"{dist_info}/entry_points.txt", ("\n".join(lines) + "\n").encode()))
    record = [f"{path},sha256={_urlsafe_sha256(data)},{len(data)}" for path, data in entries]
    record.append(f"{dist_info}/RECORD,,")
    entries.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode()))
    return f"{name}-{version}-py3-none-any.whl", _zip_bytes(entries)


def _version(project: dict[str, Any], setuptools: dict[str, Any]) -> str:
    if "version" in project:
        return str(project["version"])
    # `attr = "chunker.__version__"`: read the assignment without importing the package.
    module, _, attribute = setuptools["dynamic"]["version"]["attr"].rpartition(".")
    source = ROOT.joinpath(*module.split(".")) / "__init__.py"
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == attribute for t in node.targets
        ):
            return str(ast.literal_eval(node.value))
    sys.exit(f"build.py: no {attribute} = '...' in {source}")


def _package_files(setuptools: dict[str, Any]) -> list[Path]:
    files: set[Path] = set()
    for package in setuptools["packages"]:
        folder = ROOT.joinpath(*package.split("."))
        files.update(folder.glob("*.py"))
        for pattern in setuptools.get("package-data", {}).get(package, []):
            files.update(p for p in folder.glob(pattern) if p.is_file())
    return sorted(files)


def _metadata(project: dict[str, Any], version: str) -> str:
    """Core metadata 2.4 (the METADATA file, as setuptools 77 and later write it) for the
    [project] table."""
    lines = ["Metadata-Version: 2.4", f"Name: {project['name']}", f"Version: {version}"]
    if "description" in project:
        lines.append(f"Summary: {project['description']}")
    lines += [f"Keywords: {keyword}" for keyword in project.get("keywords", ())]
    for author in project.get("authors", ()):
        if "email" in author:
            who = f"{author['name']} <{author['email']}>" if "name" in author else author["email"]
            lines.append(f"Author-email: {who}")
        else:
            lines.append(f"Author: {author['name']}")
    if "license" in project:
        if not isinstance(project["license"], str):  # PEP 639 deprecates the table form
            sys.exit('build.py: [project] license must be an SPDX expression, e.g. "MIT"')
        lines.append(f"License-Expression: {project['license']}")
    for label, url in project.get("urls", {}).items():
        lines.append(f"Project-URL: {label}, {url}")
    lines += [f"Classifier: {c}" for c in project.get("classifiers", ())]
    if "requires-python" in project:
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", ())]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in requirements]
    readme: Path | None = ROOT / str(project["readme"]) if "readme" in project else None
    if readme is None or not readme.exists():
        return "\n".join(lines) + "\n"
    content_type = "text/markdown" if readme.suffix == ".md" else "text/plain"
    lines.append(f"Description-Content-Type: {content_type}")
    return "\n".join(lines) + "\n\n" + readme.read_text(encoding="utf-8")


def _urlsafe_sha256(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _zip_bytes(entries: list[tuple[str, bytes]]) -> bytes:
    from io import BytesIO

    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in entries:
            info = zipfile.ZipInfo(path, ZIP_DATE)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()
