"""Real documents already on this machine, for tests and benchmarks that want real text of
the sizes people chunk: the Markdown, reStructuredText and plain text that npm's global
packages, Python's installed packages and Debian's /usr/share/doc ship; and the few of
Debian's documents that are not UTF-8 (Latin-1 changelogs, most of them gzipped)."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import sysconfig
from functools import cache
from pathlib import Path

__all__ = ["real_document_paths", "real_documents", "real_documents_not_utf8"]

_SUFFIXES = (".md", ".markdown", ".rst", ".txt")

# Smaller than a sentence, or larger than most notes and pages: not what this corpus stands for.
_SMALLEST, _LARGEST = 200, 400_000


def _roots() -> list[Path]:
    roots = []
    try:
        npm = subprocess.run(
            ["npm", "root", "-g"], capture_output=True, text=True, timeout=60
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        npm = ""
    if npm:
        roots.append(Path(npm))
    roots.append(Path(sysconfig.get_paths()["purelib"]))
    roots.append(Path("/usr/share/doc"))
    return [root for root in roots if root.is_dir()]


@cache
def real_document_paths(more: tuple[Path, ...] = ()) -> tuple[Path, ...]:
    """Every such file of a usable size, in a fixed order (sorted by path within each root,
    the folders `more` after the usual ones); a file found twice (a symlink) once."""
    seen: set[Path] = set()
    found: list[Path] = []
    for root in [*_roots(), *more]:
        for folder, folders, files in os.walk(root):
            folders.sort()
            for name in sorted(files):
                if not name.lower().endswith(_SUFFIXES):
                    continue
                path = Path(folder, name)
                try:
                    real = path.resolve()
                    size = real.stat().st_size
                except OSError:
                    continue
                if _SMALLEST <= size <= _LARGEST and real not in seen:
                    seen.add(real)
                    found.append(path)
    return tuple(found)


def real_documents(count: int | None = None, more: tuple[Path, ...] = ()) -> list[str]:
    """The texts of the first `count` files (all, for None) that are UTF-8, looked for in
    the folders `more` too."""
    texts: list[str] = []
    for path in real_document_paths(more):
        try:
            texts.append(path.read_bytes().decode("utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
        if count is not None and len(texts) >= count:
            break
    return texts


def real_documents_not_utf8(count: int) -> list[tuple[str, bytes]]:
    """The names and bytes (decompressed, if gzipped) of the first `count` text files of
    /usr/share/doc, in sorted order, that are not UTF-8: Debian's changelogs of old, in
    Latin-1. Fewer, or none, where the machine has fewer."""
    found: list[tuple[str, bytes]] = []
    for folder, folders, files in os.walk("/usr/share/doc"):
        folders.sort()
        for name in sorted(files):
            path = Path(folder, name)
            try:
                data = path.read_bytes()
                if name.endswith(".gz"):
                    data = gzip.decompress(data)
            except (OSError, EOFError, gzip.BadGzipFile):
                continue
            if b"\x00" in data or not _SMALLEST <= len(data) <= _LARGEST:
                continue  # not text, or not a document's size
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                found.append((f"{path.parent.name}-{name.removesuffix('.gz')}", data))
                if len(found) == count:
                    return found
    return found


if __name__ == "__main__":
    documents = real_documents()
    print(
        f"{len(documents)} documents, {sum(map(len, documents)) / 1e6:.1f} M characters",
        file=sys.stderr,
    )
