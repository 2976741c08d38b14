"""The command line's inputs: paths expanded to files, each read as UTF-8 or refused by name.

A file's text is its bytes decoded as UTF-8 and nothing else: a byte-order mark stays (as
U+FEFF) and line endings stay as they are, so the spans index the text that Python's
`open(path, encoding="utf-8", newline="")` reads, the text a user slices."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path, PurePath

__all__ = ["Source", "InputError", "expand", "read_text", "STDIN"]

STDIN = "-"


class InputError(Exception):
    """An input that cannot be read; the message names it and says why."""


@dataclass(frozen=True, slots=True)
class Source:
    """One input: a file, or standard input already read."""

    name: str
    """As given or found (`docs/a.md`), or `-` for standard input; written on each record."""
    size: int
    """Its size in bytes, for the progress line."""
    text: str | None = None
    """Standard input's text (a file is read where it is cut, possibly in another process)."""


def expand(paths: list[str], glob: str | None) -> tuple[list[Source], list[str]]:
    """The files named by `paths`, in order: a file as given, a folder's files (those matching
    `glob`, hidden ones skipped) recursively in sorted order, `-` for standard input.
    Answers the sources and a message for each path that names nothing readable."""
    sources: list[Source] = []
    problems: list[str] = []
    for given in paths:
        if given == STDIN:
            data = sys.stdin.buffer.read()
            try:
                sources.append(Source(STDIN, len(data), _decoded(STDIN, data)))
            except InputError as error:
                problems.append(str(error))
            continue
        path = Path(given)
        if path.is_dir():
            sources += [Source(name, size) for name, size in _folder_files(path, glob)]
        elif path.exists():
            sources.append(Source(given, _size(path)))
        else:
            problems.append(f"{given}: no such file or folder")
    return sources, problems


def _folder_files(folder: Path, glob: str | None) -> list[tuple[str, int]]:
    """The files under `folder` with their sizes: each folder's own files in sorted order,
    then its subfolders' in sorted order (as `os.walk` gives them, which does not follow a
    link to a folder), named as `folder` was given, with `/`. By `os.scandir` and strings,
    not a `Path` per file, which cost as much as cutting a short file
    (tests/bench/pipelines.py, the command line's rows)."""
    found: list[tuple[str, int]] = []
    root = folder.as_posix()
    _walk(root, "" if root == "." else root.rstrip("/") + "/", "", glob, found)
    return found


def _walk(
    path: str, shown: str, relative: str, glob: str | None, found: list[tuple[str, int]]
) -> None:
    try:
        with os.scandir(path) as listing:
            entries = sorted(listing, key=_name)
    except OSError:  # as os.walk: a folder that cannot be listed is passed over
        return
    folders = []
    for entry in entries:
        name = entry.name
        try:
            is_folder = entry.is_dir()
        except OSError:
            is_folder = False
        if is_folder:
            if not name.startswith(".") and not entry.is_symlink():
                folders.append(entry)
            continue
        if name.startswith(".") or (glob is not None and not PurePath(relative + name).match(glob)):
            continue
        try:
            size = entry.stat().st_size
        except OSError:
            size = 0  # reading it will say what is wrong
        found.append((shown + name, size))
    for entry in folders:
        name = entry.name
        _walk(entry.path, shown + name + "/", relative + name + "/", glob, found)


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # reading it will say what is wrong


def read_text(source: Source) -> str:
    """The text of `source`, strictly UTF-8 (a byte-order mark kept); `InputError` if not."""
    if source.text is not None:
        return source.text
    try:
        data = _read_bytes(source.name)
    except OSError as error:
        raise InputError(f"{source.name}: cannot read: {error.strerror or error}") from None
    return _decoded(source.name, data)


def _read_bytes(name: str) -> bytes:
    """The bytes of the file `name`, by `os.open` and `os.read`: a buffered file object, or a
    `Path`, a file took twice as long to read the command line's many small files
    (tests/bench/pipelines.py)."""
    descriptor = os.open(name, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        parts = []
        while part := os.read(descriptor, 1 << 20):
            parts.append(part)
    finally:
        os.close(descriptor)
    return b"".join(parts)


def _decoded(name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{name}: not UTF-8 (byte {data[error.start]:#04x} at offset {error.start})"
        ) from None
