"""Where the command line writes: standard output, or a file put in place only when complete;
and the progress line on standard error."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator, TextIO

__all__ = ["open_output", "Progress"]


@contextmanager
def open_output(target: str | None) -> Iterator[BinaryIO]:
    """Standard output (`target` None or `-`), or a temporary file beside `target` that
    replaces it only if the block completes: an error or an interruption removes it, and an
    existing `target` is left as it was."""
    if target is None or target == "-":
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    path = Path(target)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as file:
            yield file
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


class Progress:
    """`files 3/12, 4.1/9.8 MB, 2.3 MB/s, 0:03 left` on standard error, rewritten in place at
    most ten times a second; silent when not `enabled`."""

    __slots__ = (
        "enabled",
        "stream",
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
        self.total_files, self.total_bytes = total_files, total_bytes
        self.files = self.bytes = 0
        self.started = self.shown_at = time.monotonic()

    def advance(self, size: int) -> None:
        """One more input done, of `size` bytes."""
        self.files += 1
        self.bytes += size
        now = time.monotonic()
        if self.enabled and (now - self.shown_at >= 0.1 or self.files == self.total_files):
            self.shown_at = now
            self.stream.write("\r" + self.line(now - self.started) + "\x1b[K")
            self.stream.flush()

    def say(self, message: str) -> None:
        """Print `message` on its own line, the progress line (if shown) cleared first."""
        if self.enabled:
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
        """End the line, so what follows starts on its own."""
        if self.enabled and self.files:
            self.stream.write("\n")
            self.stream.flush()
