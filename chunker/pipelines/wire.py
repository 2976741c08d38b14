"""What crosses a worker's pipes (pool.py): a message as a frame, pickled, but for the buffers
its pickle hands out of band (protocol 5's `PickleBuffer`, such as the command line's output
bytes, `cli.tasks.Done`), which are written to the pipe as they are and read into the objects
the other side keeps: not copied into the pickle, through a buffer and out of it again.

A frame: the pickle's length and the number of buffers (`_FRAME`), each buffer's length,
the pickle, the buffers. A pipe's end is a `Channel`: where processes have file descriptors
(POSIX), a descriptor, read and written at once; elsewhere (Windows, whose pipes are handles)
a `multiprocessing` connection, each part of a frame one of its messages.
"""

from __future__ import annotations

import os
import struct
from functools import partial
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

__all__ = ["Channel", "DESCRIPTORS", "framed", "send", "received", "readable", "close"]

Channel = Union[int, "Connection"]

# Whether a pipe's ends are file descriptors here.
DESCRIPTORS = os.name == "posix"

_FRAME = struct.Struct("=QI")
_LENGTH = struct.Struct("=Q")


def framed(message: Any) -> list[Any]:
    """`message` as the parts of its frame, its out-of-band buffers among them as they are."""
    import pickle  # where workers run: not for every start of the command line

    buffers: list[memoryview] = []
    pickled = pickle.dumps(message, 5, buffer_callback=lambda buffer: buffers.append(buffer.raw()))
    lengths = b"".join(_LENGTH.pack(buffer.nbytes) for buffer in buffers)
    return [_FRAME.pack(len(pickled), len(buffers)), lengths, pickled, *buffers]


def send(channel: Channel, parts: list[Any]) -> None:
    """Write a frame's `parts` (`framed`) to `channel`, waiting for room in its pipe."""
    if not isinstance(channel, int):
        for part in parts:
            channel.send_bytes(part)
        return
    parts = [part for part in parts if len(part)]
    while parts:  # a pipe takes as much as it has room for
        written = os.writev(channel, parts)
        while parts and written >= len(parts[0]):
            written -= len(parts.pop(0))
        if written:
            parts[0] = memoryview(parts[0])[written:]


def received(channel: Channel) -> Any:
    """The message framed on `channel` (`framed`), its buffers read into the bytes its objects
    hold; EOFError if the pipe ends first."""
    import pickle

    read = partial(_exactly, channel) if isinstance(channel, int) else partial(_message, channel)
    pickle_length, count = _FRAME.unpack(read(_FRAME.size))
    lengths = struct.unpack(f"={count}Q", read(_LENGTH.size * count))
    pickled = read(pickle_length)
    return pickle.loads(pickled, buffers=[read(length) for length in lengths])


def readable(channels: list[Channel], timeout: float | None) -> list[Channel]:
    """Those of `channels` with something to read (or ended), waiting at most `timeout`
    seconds for one (None: as long as it takes)."""
    if DESCRIPTORS:
        import select

        waiting = select.poll()
        for channel in channels:
            waiting.register(channel, select.POLLIN)
        return [ready for ready, _ in waiting.poll(None if timeout is None else timeout * 1000)]
    from multiprocessing.connection import wait

    return wait(channels, timeout)  # type: ignore[return-value]  # it answers what it got


def close(channel: Channel) -> None:
    if isinstance(channel, int):
        os.close(channel)
    else:
        channel.close()


def _exactly(descriptor: int, size: int) -> bytes:
    data = os.read(descriptor, size)
    if len(data) == size:
        return data  # all of it was in the pipe: no copy but the read's
    parts = [data]
    left = size - len(data)
    while left:
        if not data:
            raise EOFError
        data = os.read(descriptor, left)
        parts.append(data)
        left -= len(data)
    return b"".join(parts)


def _message(connection: Connection, size: int) -> bytes:
    return connection.recv_bytes()
