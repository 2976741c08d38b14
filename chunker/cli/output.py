"""Where the command line writes: standard output, or a file put in place only when complete,
in UTF-8 (`encoded`); and the progress line on standard error. A write that fails, at any
step (a write, the flush, the close), is an `OutputError` naming the output."""

from __future__ import annotations

import io
import os
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import Any, BinaryIO, TextIO

__all__ = [
    "open_output",
    "write_standard_output",
    "writing",
    "encoded",
    "Discard",
    "OutputError",
    "RecordWriter",
    "record_bytes",
    "runs_joined",
    "Progress",
    "shown",
]


class OutputError(Exception):
    """The output cannot be written; the message names it and says why."""


class Discard(Exception):
    """Raised in `open_output`'s block: nothing worth writing, so the target is left as it was
    (the temporary file removed)."""


def open_output(target: str | None) -> AbstractContextManager[BinaryIO]:
    """Where to write, for a `with` block: standard output (`target` None or `-`); a
    `target` that is no regular file (`/dev/null`, a FIFO) as it is; else a temporary file
    beside `target` that replaces it only if the block completes: an error, an interruption
    or `Discard` removes it, and an existing `target` is left as it was. `OutputError` if
    it cannot be opened or put in place (the block's own writes: see `RecordWriter`)."""
    if target is None or target == "-":
        return _stream(sys.stdout.buffer, shown(target))
    if not _regular(target):  # replaced by a file, /dev/null would be one no more
        with writing(target):
            # Appending: through /dev/stdout, truncating would drop what a `>>` file held.
            device = open(target, "ab")  # noqa: SIM115 (closed by _stream)
        return _stream(device, target)
    return _replacing(target)


def encoded(text: str) -> bytes:
    """`text` (JSON, or `evaluate`'s table) in UTF-8, each lone surrogate, which UTF-8 cannot
    hold, as its JSON escape (`\\ud800`): a JSON reader gets the same string back, as from
    `json.dumps` (a transcript's `"\\ud800"`, a file read with `--errors surrogateescape`, a
    file name that is not UTF-8). UTF-8 holds every other character, so only those are
    escaped, and they stand only inside JSON strings.

    Example:
        >>> encoded('{"text": "Hello \\ud800 there, é"}')
        b'{"text": "Hello \\\\ud800 there, \\xc3\\xa9"}'
    """
    return text.encode("utf-8", "backslashreplace")


def write_standard_output(text: str) -> None:
    """Write `text` to standard output, `encoded`; `OutputError` if it cannot be."""
    with open_output(None) as out, writing(shown(None)):
        out.write(encoded(text))


@contextmanager
def _stream(stream: BinaryIO, name: str) -> Iterator[BinaryIO]:
    """`stream` for the block, flushed after it, and closed, unless it is standard output."""
    closing = stream is not sys.stdout.buffer
    try:
        with suppress(Discard):  # what went out is out
            yield stream
        with writing(name):
            stream.flush()
            if closing:
                stream.close()  # flushes again: a device may refuse only now
    finally:
        if closing and not stream.closed:
            with suppress(OSError):  # after an error, which is the one to tell
                stream.close()


@contextmanager
def _replacing(target: str) -> Iterator[BinaryIO]:
    """A temporary file beside `target`, put in its place if the block completes."""
    import tempfile  # for a file only: standard output, the common pipe, needs none

    path = os.path.realpath(target)  # through a symlink: its file replaced, the link kept
    mode = _mode_for(path)
    with writing(target):
        handle, temporary = tempfile.mkstemp(
            dir=os.path.dirname(path), prefix=f".{os.path.basename(path)}.", suffix=".part"
        )
    file = _WrittenBehind(io.FileIO(handle, "wb"))
    try:
        os.fchmod(handle, mode)
        yield file
        with writing(target):
            file.flush()
            os.fsync(handle)
            file.close()
            os.replace(temporary, path)
    except Discard:
        os.unlink(temporary)
    except BaseException:
        os.unlink(temporary)
        raise
    finally:
        if not file.closed:
            with suppress(OSError):  # after an error, which is the one to tell
                file.close()


class _WrittenBehind(io.BufferedWriter):
    """A file whose bytes the system is asked to start writing to the disk every
    `_BEHIND_BYTES` written, without waiting (`posix_fadvise`, which Linux answers so): the
    `fsync` that puts it in place then waits for the last of them alone, not for all of them
    (tests/bench/cli_jobs.py, the wall times)."""

    _start = _end = 0  # what is written and not yet asked for: from `_start` to `_end`

    def write(self, data: Any) -> int:
        written = super().write(data)
        self._end += written
        if self._end - self._start >= _BEHIND_BYTES and _ADVISE is not None:
            self.flush()
            with suppress(OSError):  # a file system that cannot: `fsync` does it all
                _ADVISE(self.fileno(), self._start, self._end - self._start, _DONE_WITH)
            self._start = self._end
        return written


# What `_WrittenBehind` writes before it asks for writing to the disk to start: large enough
# that each request costs little, small enough that what `fsync` waits for is little.
_BEHIND_BYTES = 2 << 20
# Asked of Linux, "POSIX_FADV_DONTNEED" starts writing a range's dirty pages to the disk (and
# drops from memory those it finds written already); elsewhere, nothing is asked.
_ADVISE = getattr(os, "posix_fadvise", None) if sys.platform.startswith("linux") else None
_DONE_WITH = getattr(os, "POSIX_FADV_DONTNEED", 0)


def _regular(target: str) -> bool:
    """Whether `target` is a regular file, or nothing yet (to be made one), outside /dev and
    /proc (`/dev/stdout` and `/proc/self/fd/1` lead to the file standard output goes to, if
    it is one, and replacing that file would cut the shell's `>>` short)."""
    if os.path.abspath(target).startswith(("/dev/", "/proc/")):
        return False
    try:
        return stat.S_ISREG(os.stat(target).st_mode)
    except FileNotFoundError:
        return True


def record_bytes(records: list[str], format: str) -> bytes:
    """`records` (JSON objects, each without a line feed) as `RecordWriter` writes them in
    `format`, `encoded` at once: a line each for JSON Lines; for a JSON array, a line each
    with the array's commas between them (the writer puts the brackets, and a comma between
    runs). Made where the records are, a worker process for most."""
    if format == "json":
        return encoded(",\n".join(records))
    # The last line feed joined in, not added to the joined text: that would copy it whole.
    return encoded("\n".join([*records, ""]))


def runs_joined(runs: list[bytes], format: str) -> bytes:
    """Runs of records as `record_bytes` makes them, in `format`, as one run."""
    return (b",\n" if format == "json" else b"").join(runs)


class RecordWriter:
    """JSON Lines (a record a line), or one JSON array (a record a line inside it), on `out`,
    from runs of records as `record_bytes` makes them; `OutputError` naming `target` if a
    write fails (a reader that left is not such a failure: its `BrokenPipeError` passes, to
    end the run quietly)."""

    __slots__ = ("out", "name", "array", "written")

    def __init__(self, out: BinaryIO, format: str, target: str | None) -> None:
        self.out, self.name, self.array, self.written = out, shown(target), format == "json", 0

    def write(self, data: bytes, records: int) -> None:
        """Write `data`, `records` records made by `record_bytes` in this writer's format."""
        if not records:
            return
        try:  # as `writing` does, without a context manager for every input written
            if self.array:
                self.out.write(b"[\n" if not self.written else b",\n")
            self.out.write(data)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _failed(self.name, error) from None
        self.written += records

    def close(self) -> None:
        if self.array:
            with writing(self.name):
                self.out.write(b"\n]\n" if self.written else b"[]\n")


def shown(target: str | None) -> str:
    """The output as messages name it."""
    return "standard output" if target is None or target == "-" else target


@contextmanager
def writing(name: str) -> Iterator[None]:
    """A block that writes to the output `name`: an `OSError` in it becomes an `OutputError`
    naming it and why (but `BrokenPipeError`: its reader left, which ends the run quietly)."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as error:
        raise _failed(name, error) from None


def _failed(name: str, error: OSError) -> OutputError:
    return OutputError(f"cannot write {name}: {error.strerror or error}")


def _mode_for(path: str) -> int:
    """The permissions `path` gets: those it has (as `>` keeps them), or for a new file what
    the umask leaves of 0o666, as for any file the user makes (not mkstemp's private 0o600)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)  # the only way to read it; set back at once (no threads yet)
        os.umask(umask)
        return 0o666 & ~umask


class Progress:
    """`files 3/12, 4.1/9.8 MB, 2.3 MB/s, 0:03 left` on standard error: on a terminal,
    rewritten in place at most ten times a second; elsewhere (a log, with `--progress`), a
    plain line at most once a second, with no carriage return or escape code to garble it;
    silent when not `enabled`."""

    __slots__ = (
        "enabled",
        "stream",
        "terminal",
        "every",
        "total_files",
        "total_bytes",
        "files",
        "bytes",
        "started",
        "shown_at",
    )

    def __init__(
        self, total_files: int, total_bytes: int, *, enabled: bool, stream: TextIO | None = None
    ) -> None:
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.terminal = self.stream.isatty()
        self.every = 0.1 if self.terminal else 1.0  # seconds between lines
        self.total_files, self.total_bytes = total_files, total_bytes
        self.files = self.bytes = 0
        self.started = self.shown_at = time.monotonic()

    def advance(self, files: int, size: int) -> None:
        """`files` more inputs done, of `size` bytes in all. A batch comes back at once and
        is counted at once: counted file by file, the first line would give its first file
        the whole batch's time, and foretell minutes for a run of a second."""
        if not self.enabled:
            return
        self.files += files
        self.bytes += size
        now = time.monotonic()
        if now - self.shown_at >= self.every or self.files == self.total_files:
            self.shown_at = now
            line = self.line(now - self.started)
            self.stream.write("\r" + line + "\x1b[K" if self.terminal else line + "\n")
            self.stream.flush()

    def say(self, message: str) -> None:
        """Print `message` on its own line, the progress line (if shown) cleared first."""
        if self.enabled and self.terminal:
            self.stream.write("\r\x1b[K")
        self.stream.write(message + "\n")
        self.stream.flush()

    def line(self, elapsed: float) -> str:
        """The progress line after `elapsed` seconds."""
        rate = self.bytes / elapsed / 1e6 if elapsed > 0 else 0.0
        left = (self.total_bytes - self.bytes) / 1e6 / rate if rate > 0 else 0.0
        minutes, seconds = divmod(int(left + 0.5), 60)
        return (
            f"files {self.files}/{self.total_files}, "
            f"{self.bytes / 1e6:.1f}/{self.total_bytes / 1e6:.1f} MB, "
            f"{rate:.1f} MB/s, {minutes}:{seconds:02d} left"
        )

    def close(self) -> None:
        """End the terminal's line, so what follows starts on its own."""
        if self.enabled and self.terminal and self.files:
            self.stream.write("\n")
            self.stream.flush()
