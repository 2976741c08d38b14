"""Where the command line writes: standard output, or a file put in place only when complete;
and the progress line on standard error."""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator, TextIO

__all__ = ["open_output", "Discard", "Progress"]


class Discard(Exception):
    """Raised in `open_output`'s block: nothing worth writing, so the target is left as it was
    (the temporary file removed)."""


@contextmanager
def open_output(target: str | None) -> Iterator[BinaryIO]:
    """Standard output (`target` None or `-`), or a temporary file beside `target` that
    replaces it only if the block completes: an error, an interruption or `Discard` removes
    it, and an existing `target` is left as it was."""
    if target is None or target == "-":
        try:
            yield sys.stdout.buffer
        except Discard:
            pass  # what went out is out
        sys.stdout.buffer.flush()
        return
    path = Path(target)
    mode = _mode_for(path)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as file:
            os.fchmod(handle, mode)
            yield file
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except Discard:
        os.unlink(temporary)
    except BaseException:
        os.unlink(temporary)
        raise


def _mode_for(path: Path) -> int:
    """The permissions `path` gets: those it has (as `>` keeps them), or for a new file what
    the umask leaves of 0o666, as for any file the user makes (not mkstemp's private 0o600)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
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
        self.files += files
        self.bytes += size
        now = time.monotonic()
        if self.enabled and (now - self.shown_at >= self.every or self.files == self.total_files):
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
