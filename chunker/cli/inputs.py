"""The command line's inputs: paths expanded to files, each read in its encoding (UTF-8 unless
`--encoding` says) or refused by name.

A file's text is its bytes decoded and nothing else: a UTF-8 byte-order mark stays (as
U+FEFF, which the chunkers read as no part of the text) and line endings stay as they are, so
the spans index the text that Python's `open(path, encoding=..., errors=..., newline="")`
reads, the text a user slices."""

from __future__ import annotations

import argparse
import codecs
import os
import stat
import sys
from collections.abc import Callable, Iterator
from typing import NamedTuple

__all__ = [
    "Source",
    "Decoding",
    "Listing",
    "InputError",
    "ERROR_HANDLERS",
    "encoding_name",
    "read_text",
    "STDIN",
]

STDIN = "-"

# How `--errors` reads a byte its encoding cannot, as Python's `bytes.decode` does: refuse the
# file; U+FFFD for it; drop it; a lone surrogate U+DC80..U+DCFF for it (written out as the
# JSON escape `\udcXX`, which gives the byte back: output.py); `\xNN` as text.
ERROR_HANDLERS = ("strict", "replace", "ignore", "surrogateescape", "backslashreplace")


class InputError(Exception):
    """An input that cannot be read; the message names it and says why."""


class Source(NamedTuple):
    """One input: a file, or standard input already read. A tuple, not a dataclass: a batch of
    them is pickled to a worker process, and a frozen dataclass pickles through Python code
    for each, several times slower (tests/bench/pipelines.py, `chunker chunk --jobs 2`)."""

    name: str
    """As given or found (`docs/a.md`), or `-` for standard input; written on each record."""
    size: int
    """Its size in bytes, for the progress line."""
    data: bytes | None = None
    """Standard input's bytes (a file is read where it is cut, possibly in another process)."""


class Decoding(NamedTuple):
    """How the inputs' bytes become text: `--encoding` and `--errors`, as `bytes.decode`. A
    tuple, not a dataclass, as the classes of tasks.py are, and for their reason."""

    encoding: str = "utf-8"
    errors: str = "strict"

    def decode(self, name: str, data: bytes) -> str:
        """`data`, the bytes of the input `name`, as text; `InputError` naming it if they
        are not in this encoding, with the flags that would read it."""
        try:
            return data.decode(self.encoding, self.errors)
        except UnicodeDecodeError as error:
            shown = "UTF-8" if codecs.lookup(self.encoding).name == "utf-8" else self.encoding
            where = f"byte {data[error.start]:#04x} at offset {error.start}"
            raise InputError(
                f"{name}: not {shown} ({where}): give its encoding with --encoding (such as "
                "latin-1 or cp1252), or --errors replace to read it anyway"
            ) from None


def encoding_name(name: str) -> str:
    """`name` if Python decodes text in it (`latin-1`, `cp1252`, `utf-16`): `--encoding`'s
    check, a usage error before any input is read."""
    try:
        b"a".decode(name, "ignore")
    except LookupError:  # unknown (`latin-7`), or not a text encoding (`base64`)
        raise argparse.ArgumentTypeError(
            f"{name!r} is not a text encoding Python knows (such as latin-1, cp1252, utf-16)"
        ) from None
    except UnicodeError:  # a text encoding that takes no `ignore` (`idna`): it decodes
        pass
    return name


class Listing:
    """The files named by `paths`, in order, as an iterable of `Source`s: a file as given
    (whatever it is: the user's choice), a folder's regular files (those matching `glob`,
    hidden ones skipped) recursively in sorted order, `-` for standard input.

    Each path given is looked at as the listing is made (standard input read, a path that
    names nothing kept in `problems`); a folder is walked as its files are taken, a few
    hundred at a time, so that a run over processes sends the first batches while the rest
    are listed (listed first, a large folder kept the worker waiting,
    tests/bench/cli_jobs.py). Taken once."""

    __slots__ = ("problems", "skipped", "_given", "_glob")

    def __init__(self, paths: list[str], glob: str | None) -> None:
        self.problems: list[str] = []
        """A message for each path that names nothing readable."""
        self.skipped: list[str] = []
        """A message for each entry of a folder skipped for not being a regular file (a
        FIFO, which would wait for a writer forever; a socket; a device), for `--verbose`;
        whole once every source is taken."""
        self._given: list[Source | str] = []  # a folder to walk, or an input
        self._glob = glob
        for given in paths:
            if given == STDIN:
                data = sys.stdin.buffer.read()
                self._given.append(Source(STDIN, len(data), data))
                continue
            name = _posix_name(given)
            if os.path.isdir(name):
                self._given.append(name)
                continue
            try:
                size = os.stat(name).st_size
            except (FileNotFoundError, NotADirectoryError):
                self.problems.append(f"{given}: no such file or folder")
            except OSError:  # there, but not to be looked at: reading it will say why
                self._given.append(Source(given, 0))
            else:
                self._given.append(Source(given, size))

    def __iter__(self) -> Iterator[Source]:
        for given in self._given:
            if isinstance(given, Source):
                yield given
            else:
                for name, size in _folder_files(given, self._glob, self.skipped):
                    yield Source(name, size)


def _posix_name(given: str) -> str:
    """`given` as pathlib writes it (`PurePath(given).as_posix()`): with `/`, no part `.`,
    no empty part (`a//b/` is `a/b`), `.` for nothing, two leading slashes kept and more made
    one. Without pathlib where `/` is the separator: its import cost every run's start
    (tests/bench/cli_jobs.py)."""
    if os.sep != "/":
        from pathlib import PurePath

        return PurePath(given).as_posix()
    root = "//" if given[:2] == "//" and given[2:3] != "/" else "/" if given[:1] == "/" else ""
    return root + "/".join(part for part in given.split("/") if part not in ("", ".")) or "."


def _folder_files(
    folder: str | os.PathLike[str], glob: str | None, skipped: list[str] | None = None
) -> Iterator[tuple[str, int]]:
    """The regular files under `folder` with their sizes, as they are found: each folder's
    own files in sorted order, then its subfolders' in sorted order (as `os.walk` gives them,
    which does not follow a link to a folder; as `find -type f`, what is no regular file is
    skipped, said in `skipped`), named as `folder` was given, with `/` (`_posix_name`). By
    `os.scandir` and strings, not a `Path` per file, which cost as much as cutting a short
    file (tests/bench/pipelines.py, the command line's rows)."""
    root = _posix_name(os.fspath(folder))
    start = "" if root == "." else root.rstrip("/") + "/"
    return _walk(root, start, "", _matcher(glob), [] if skipped is None else skipped)


def _matcher(glob: str | None) -> Callable[[str], bool] | None:
    """Whether a file's path under the folder matches `glob`, as `PurePath.match` says."""
    if glob is None:
        return None
    from pathlib import PurePath  # only for a --glob: its import costs every run's start

    return lambda relative: PurePath(relative).match(glob)


# A folder walked as its files are taken gives them this many at a time: one at a time, each
# looked up between two files cut, the listing cost more (tests/bench/cli_jobs.py); a few
# hundred are found in little time beside the batches they make.
_FOUND_TOGETHER = 256

# What a folder's entry is, when it is no regular file or folder.
_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def _walk(
    path: str,
    shown: str,
    relative: str,
    matches: Callable[[str], bool] | None,
    skipped: list[str],
) -> Iterator[tuple[str, int]]:
    try:
        with os.scandir(path) as listing:
            entries = sorted(listing, key=_name)
    except OSError:  # as os.walk: a folder that cannot be listed is passed over
        return
    folders = []
    found: list[tuple[str, int]] = []
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
        if name.startswith(".") or (matches is not None and not matches(relative + name)):
            continue
        try:
            status = entry.stat()  # through a link: a link to a file is read
        except OSError:
            found.append((shown + name, 0))  # reading it will say what is wrong (a broken link)
            continue
        if not stat.S_ISREG(status.st_mode):
            kind = next((k for test, k in _KINDS if test(status.st_mode)), "a special file")
            skipped.append(f"{shown + name}: skipped: {kind}, not a regular file")
            continue
        found.append((shown + name, status.st_size))
        if len(found) == _FOUND_TOGETHER:
            yield from found
            found = []
    yield from found
    for entry in folders:
        name = entry.name
        yield from _walk(entry.path, shown + name + "/", relative + name + "/", matches, skipped)


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name


def read_text(source: Source, decoding: Decoding) -> str:
    """The text of `source` as `decoding` reads it (a byte-order mark kept); `InputError` if
    it cannot be read or decoded."""
    data = source.data
    if data is None:
        try:
            data = _read_bytes(source.name)
        except OSError as error:
            raise InputError(f"{source.name}: cannot read: {error.strerror or error}") from None
    return decoding.decode(source.name, data)


def _read_bytes(name: str) -> bytes:
    """The bytes of the file `name`, by `os.open` and `os.read`: a buffered file object, or a
    `Path`, a file was slower to read the command line's many small files
    (tests/bench/pipelines.py)."""
    descriptor = os.open(name, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        parts = []
        while part := os.read(descriptor, 1 << 20):
            parts.append(part)
    finally:
        os.close(descriptor)
    return b"".join(parts)
