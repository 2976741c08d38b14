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
    found: list[tuple[str, int]] = []
    for parent, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(files):
            path = Path(parent, name)
            relative = PurePath(path.relative_to(folder))
            if name.startswith(".") or (glob is not None and not relative.match(glob)):
                continue
            found.append((path.as_posix(), _size(path)))
    return found


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
        data = Path(source.name).read_bytes()
    except OSError as error:
        raise InputError(f"{source.name}: cannot read: {error.strerror or error}") from None
    return _decoded(source.name, data)


def _decoded(name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(
            f"{name}: not UTF-8 (byte {data[error.start]:#04x} at offset {error.start})"
        ) from None
