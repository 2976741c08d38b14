"""Worker processes that answer a function's results in input order, and stop cleanly.

`concurrent.futures.ProcessPoolExecutor` hung the parent in `Process.join` when a second
Ctrl-C landed during its shutdown, and left its workers behind on a third. This pool is
small enough to stop in a known way: each worker has a pipe in and a pipe out; the parent
sends a batch to whichever worker has the fewest in flight and reads whichever answers.
Stopping, for any reason (the end, an error, Ctrl-C, the consumer leaving), closes the pipes,
terminates what still runs, waits a bounded time and kills what is left, with SIGINT and
SIGTERM held back until it is done (docs/processes.md).

A worker ignores SIGINT (Ctrl-C reaches the whole process group; the parent alone decides),
ends with its parent (on Linux as soon as the parent ends, `_exit_with_parent`; elsewhere at
its next read of the closed pipe), and is sent a batch while busy only if it fits in its pipe
beside those it may leave unread (`_Worker.offer`), so the parent never waits on a worker that
waits for the parent to read its answer.

A worker's answer crosses as a pickle, but for the buffers the pickle hands out of band
(protocol 5's `PickleBuffer`, such as the command line's output bytes: `tasks.Done`), which are
written to the pipe as they are and read into the objects the parent keeps: not copied into
the pickle, and out of it again (`_send_answer`, `_Worker.receive`).
"""

from __future__ import annotations

import mmap
import os
import signal
import struct
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from itertools import count, islice
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

__all__ = ["WorkerError", "map_in_order", "BATCHES_AHEAD"]

Item = TypeVar("Item")
Result = TypeVar("Result")

# Batches answered or in flight, per process, not yet yielded: what memory holds at most.
# Four, not two: room for a worker's queue beside the batches this process cuts; 3 and 4
# were best side by side in tests/bench/pipelines.py (jobs=2), 4 by a little.
BATCHES_AHEAD = 4

# Batches sent to a worker and not answered: the one it cuts and up to two more, waiting in
# its pipe where they fit, so it never waits for this process, busy cutting a batch itself,
# to send one (tests/bench/pipelines.py, jobs=2).
QUEUED_A_WORKER = 3

# The unit of a pipe's room (`_Worker.offer`).
_PAGE_BYTES = mmap.PAGESIZE

# An answer's frame on its pipe: the length of its pickle and the number of its out-of-band
# buffers, then each buffer's length, then the pickle, then the buffers.
_FRAME = struct.Struct("=QI")
_LENGTH = struct.Struct("=Q")

# How long stopping waits for workers told to end before it kills them.
_GRACE_SECONDS = 2.0

_HELD = {signal.SIGINT, signal.SIGTERM}


class WorkerError(RuntimeError):
    """A worker process ended without answering (killed, or out of memory)."""


def map_in_order(
    function: Callable[[Any, Item], Result],
    items: Iterable[Item],
    jobs: int,
    shared: Any,
    here: Callable[[Item], Any],
) -> Iterator[tuple[Item, Any, bool]]:
    """`(item, outcome, done_here)` for each item, in input order, over `jobs` processes:
    this one and `jobs - 1` workers. A worker's outcome is `function(shared, item)`; when
    every worker is busy, this process takes the next item itself, and its outcome is
    `here(item)` (`done_here`): on two cores, a parent that only sends, receives and waits
    left the second core half idle and was slower than one process (tests/bench/pipelines.py).
    At most `jobs * BATCHES_AHEAD` items are taken and not yet yielded, so the input is read
    only as fast as results are taken. An exception is raised here, for its item, after the
    items before it."""
    pool = _Pool(function, shared, jobs - 1)
    try:
        yield from pool.run(iter(items), here)
    finally:
        pool.stop()


class _Pool(Generic[Item, Result]):
    def __init__(self, function: Callable[[Any, Item], Result], shared: Any, jobs: int) -> None:
        import multiprocessing  # heavy, and absent in the browser, which never gets here

        context = multiprocessing.get_context()
        method = context.get_start_method()
        self.workers: list[_Worker] = []
        if method != "fork":
            _helpers_started(method)
        with _signals_held():  # a Ctrl-C now would leave a worker half started
            for _ in range(jobs):
                tasks_out, tasks_in = context.Pipe(duplex=False)
                results_out, results_in = context.Pipe(duplex=False)
                _widen(results_in)
                process = context.Process(
                    target=_serve,
                    args=(tasks_out, results_in, function, shared),
                    daemon=True,  # multiprocessing ends it at exit, should all else fail
                )
                process.start()
                tasks_out.close()
                results_in.close()
                self.workers.append(_Worker(process, tasks_in, results_out))

    def run(
        self, items: Iterator[Item], here: Callable[[Item], Any]
    ) -> Iterator[tuple[Item, Any, bool]]:
        from multiprocessing.connection import wait

        by_reader = {worker.results: worker for worker in self.workers}
        # Answered, not yet yielded: (item, outcome, done here, whether outcome is an error).
        waiting: dict[int, tuple[Item, Any, bool, bool]] = {}
        sent = count()
        next_sent = 0  # the number the next item taken gets
        next_out = 0  # the number of the next item to yield
        limit = (len(self.workers) + 1) * BATCHES_AHEAD
        exhausted = False

        # Read from `items` and not yet numbered: looked ahead at to see the input's end
        # coming, within `limit` (taken, not yet yielded, as the numbered ones).
        ahead: deque[Item] = deque()
        ended = False

        def take() -> Item:
            return ahead.popleft() if ahead else next(items, _END)

        def more_than(count: int) -> bool:
            """Whether more than `count` items are left to number (yes if `limit` leaves
            no room to look)."""
            nonlocal ended
            while len(ahead) <= count:
                if ended:
                    return False
                if next_sent + len(ahead) - next_out >= limit:
                    return True
                item = next(items, _END)
                if item is _END:
                    ended = True
                    return False
                ahead.append(item)
            return True

        def take_here(number: int, item: Item) -> None:
            try:
                waiting[number] = (item, here(item), True, False)
            except Exception as error:
                waiting[number] = (item, error, True, True)

        while True:
            refused = False  # an item too large to wait in a busy worker's pipe, cut here
            while not exhausted and next_sent - next_out < limit:
                worker = min(self.workers, key=_load)
                queued = len(worker.in_flight)
                if queued >= QUEUED_A_WORKER:
                    break
                # The input's last items stay here while the worker has as many to cut: sent
                # to it, this process would wait, idle, as it cut them one after another
                # (tests/bench/cli_jobs.py).
                if queued and not more_than(queued):
                    break
                item = take()
                if item is _END:
                    exhausted = True
                    break
                number = next(sent)
                next_sent = number + 1
                if not worker.offer(number, item):
                    take_here(number, item)
                    refused = True
                    break
            if next_out in waiting:
                while next_out in waiting:
                    item, outcome, done_here, failed = waiting.pop(next_out)
                    if failed:  # in its turn, after the items before it
                        raise outcome
                    yield item, outcome, done_here
                    next_out += 1
                continue  # room again: send more before waiting for answers
            if exhausted and next_out == next_sent:
                return
            # Every worker has work, so this process takes the next item, then reads answers
            # unwaited; after a refused item it has cut one, and reads first.
            busy = not exhausted and next_sent - next_out < limit
            if busy and not refused:
                item = take()
                if item is _END:
                    exhausted = True
                else:
                    number = next(sent)
                    next_sent = number + 1
                    take_here(number, item)
            for reader in wait(list(by_reader), 0 if busy else None):
                worker = by_reader[reader]  # type: ignore[index]  # wait() answers what it got
                # Every answer it has ready, not one a pass: each is room for a batch more,
                # sent before this process cuts one (tests/bench/pipelines.py, jobs=2).
                while True:
                    number, item, outcome, failed = worker.receive()
                    waiting[number] = (item, outcome, False, failed)
                    if not (worker.in_flight and worker.results.poll()):
                        break

    def stop(self) -> None:
        """End every worker, promptly, whatever the pool was doing."""
        with _signals_held():
            for worker in self.workers:
                worker.close()
            for worker in self.workers:
                worker.process.join(_GRACE_SECONDS)
                if worker.process.exitcode is None:
                    worker.process.kill()
                    worker.process.join()


_END: Any = object()


def _dumps(item: Any) -> memoryview:
    """`item` as `Connection.send` pickles it."""
    from multiprocessing.reduction import ForkingPickler

    return ForkingPickler.dumps(item)


class _Worker:
    __slots__ = ("process", "tasks", "results", "in_flight", "pipe_pages")

    def __init__(self, process: BaseProcess, tasks: Connection, results: Connection) -> None:
        self.process, self.tasks, self.results = process, tasks, results
        # Linux keeps a pipe's unread bytes in a ring of page buffers and blocks a write
        # when every one is taken, however little each holds: room is counted in them.
        self.pipe_pages = _widen(tasks) // _PAGE_BYTES  # 0: unknown, so an idle worker only
        # Sent, not answered, in order, each with the page buffers it may take in the pipe.
        self.in_flight: deque[tuple[int, Any, int]] = deque()

    def offer(self, number: int, item: Any) -> bool:
        """Send `item` if this worker is idle, or if it is busy and the item fits whole in
        its pipe beside those sent after the oldest; else send nothing and answer False.

        This process has every answer before the oldest item in flight, so the worker reads
        that item, or has: the most it leaves unread, should it wait for this process to read
        the item's answer, is the items after it. A write that fits with those is done
        without waiting; one that does not could wait on a worker that waits in its turn."""
        room = self.pipe_pages - sum(taken for _, _, taken in islice(self.in_flight, 1, None))
        if self.in_flight and room < _pipe_pages_taken(1):
            return False  # full whatever the item: not pickled for nothing
        data = _dumps(item)
        taken = _pipe_pages_taken(len(data))
        if self.in_flight and room < taken:
            return False
        try:
            self.tasks.send_bytes(data)
        except OSError:  # its reading end closed: the worker is gone
            raise self._ended() from None
        self.in_flight.append((number, item, taken))
        return True

    def receive(self) -> tuple[int, Any, Any, bool]:
        """The oldest item in flight, its outcome, and whether that is an exception."""
        try:
            failed, outcome = _received(self.results.fileno())
        except (EOFError, OSError):
            raise self._ended() from None
        number, item, _ = self.in_flight.popleft()
        return number, item, outcome, failed

    def _ended(self) -> WorkerError:
        self.process.join(_GRACE_SECONDS)
        return WorkerError(
            f"worker process {self.process.pid} ended without answering "
            f"(exit code {self.process.exitcode})"
        )

    def close(self) -> None:
        for connection in (self.tasks, self.results):
            connection.close()
        if self.process.exitcode is None:
            # Not waited for to finish its batch: nobody will take what it answers.
            self.process.terminate()


def _widen(connection: Connection) -> int:
    """Give a pipe Linux's largest buffer (1 MiB unless the system says otherwise, instead of
    64 KiB), so a batch crosses in a few writes instead of a switch between the processes
    every 64 KiB (a profile of the parent over tests/bench/pipelines.py's corpus shows its
    writes); answer the bytes it holds, 0 where that cannot be known."""
    try:
        import fcntl

        with suppress(OSError):  # a smaller limit
            fcntl.fcntl(connection.fileno(), fcntl.F_SETPIPE_SZ, 1 << 20)
        return int(fcntl.fcntl(connection.fileno(), fcntl.F_GETPIPE_SZ))
    except (ImportError, OSError, AttributeError):  # not Linux
        return 0


def _pipe_pages_taken(size: int) -> int:
    """The most page buffers a message of `size` bytes takes in a Linux pipe:
    `Connection.send_bytes` writes a 4-byte length and then the bytes (together or apart),
    and a write joins the last buffer only with its tail, the part past its whole pages.
    (Above 2 GiB the length is 12 bytes in two writes; no such message fits a pipe.)"""
    return 1 + -(-size // _PAGE_BYTES)


def _load(worker: _Worker) -> int:
    return len(worker.in_flight)


def _helpers_started(method: str) -> None:
    """Start, if not yet running, the processes multiprocessing starts once, on first use,
    for workers it does not fork: its resource tracker and, for `forkserver`, the server.
    Started later, while `_signals_held` holds SIGINT and SIGTERM, the fork server kept them
    held for every process it then forked, a user's own among them (`terminate()` did not
    end one), and the tracker's start released them in this process midway."""
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    if method == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


@contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held back in this block and delivered after it (a second Ctrl-C
    during stopping is acted on once stopping is done, not in its middle)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals go to the main thread only
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _serve(
    tasks: Connection,
    results: Connection,
    function: Callable[[Any, Any], Any],
    shared: Any,
) -> None:
    """A worker's life: each item read, `function(shared, item)` or its exception answered,
    until the parent closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's handler is no worker's
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)  # held by the parent as it started us
    _exit_with_parent()
    answers = results.fileno()
    while True:
        try:
            item = tasks.recv()
        except (EOFError, OSError):  # the parent closed the pipe, or is gone
            break
        try:
            answer: tuple[bool, Any] = (False, function(shared, item))
        except Exception as error:
            answer = (True, error)
        try:
            _send_answer(answers, answer)
        except OSError:  # the parent is gone or stopped listening
            break
    os._exit(0)  # no atexit, no flushing of what the parent's stdio held when it forked


def _exit_with_parent() -> None:
    """On Linux, end this worker as soon as the process that started it ends, even by SIGKILL,
    which it cannot act on: multiprocessing's parent sentinel is a pipe whose writing end that
    process holds (under a fork server too: the run, not the server), and a thread waits for
    its hang-up. (Under `fork` a worker started later also holds the ends of those started
    before it: it ends first, and they follow.) Linux's parent-death signal would do it as
    well, but only through ctypes, which took a worker longer to import than the rest of its
    start (tests/bench/cli_jobs.py)."""
    if not sys.platform.startswith("linux"):
        return  # a worker ends at its next read of the closed pipe
    from multiprocessing import parent_process

    parent = parent_process()
    if parent is not None:
        threading.Thread(target=_exit_at_hang_up, args=(parent.sentinel,), daemon=True).start()


def _exit_at_hang_up(sentinel: int) -> None:
    import select

    watch = select.poll()
    watch.register(sentinel, 0)  # no event asked: a hang-up (or an error) is told anyway
    watch.poll()
    os._exit(1)


def _send_answer(descriptor: int, answer: tuple[bool, Any]) -> None:
    """Write `answer` to the pipe `descriptor` as a frame (`_FRAME`), its out-of-band
    buffers as they are."""
    import io
    from multiprocessing.reduction import ForkingPickler

    buffers: list[memoryview] = []
    pickled = io.BytesIO()
    ForkingPickler(pickled, 5, True, lambda buffer: buffers.append(buffer.raw())).dump(answer)
    head = _FRAME.pack(pickled.tell(), len(buffers)) + b"".join(
        _LENGTH.pack(buffer.nbytes) for buffer in buffers
    )
    parts: list[Any] = [head, pickled.getbuffer(), *buffers]
    while parts:  # a pipe takes as much as it has room for
        written = os.writev(descriptor, parts)
        while parts and written >= len(parts[0]):
            written -= len(parts.pop(0))
        if written:
            parts[0] = memoryview(parts[0])[written:]


def _received(descriptor: int) -> tuple[bool, Any]:
    """The answer framed on the pipe `descriptor` by `_send_answer`, its buffers read into the
    bytes its objects hold; EOFError if the pipe ends first."""
    import pickle

    pickle_length, count = _FRAME.unpack(_read_exactly(descriptor, _FRAME.size))
    lengths = struct.unpack(f"={count}Q", _read_exactly(descriptor, _LENGTH.size * count))
    pickled = _read_exactly(descriptor, pickle_length)
    buffers = [_read_exactly(descriptor, length) for length in lengths]
    return pickle.loads(pickled, buffers=buffers)  # type: ignore[no-any-return]


def _read_exactly(descriptor: int, size: int) -> bytes:
    data = os.read(descriptor, size)
    if len(data) == size:
        return data  # the whole frame was in the pipe: no copy but the read's
    parts = [data]
    left = size - len(data)
    while left:
        if not data:
            raise EOFError
        data = os.read(descriptor, left)
        parts.append(data)
        left -= len(data)
    return b"".join(parts)
