"""Worker processes that answer a function's results in input order, and stop cleanly.

`concurrent.futures.ProcessPoolExecutor` hung the parent in `Process.join` when a second
Ctrl-C landed during its shutdown, and left its workers behind on a third. This pool is
small enough to stop in a known way: each worker has a pipe in and a pipe out; the parent
sends a batch to whichever worker has the fewest in flight and reads whichever answers.
Stopping, for any reason (the end, an error, Ctrl-C, the consumer leaving), closes the pipes,
terminates what still runs, waits a bounded time and kills what is left, with SIGINT and
SIGTERM held back until it is done (docs/processes.md).

Workers are forked here (`os.fork`, `_Forked`) where that is how they start (`start_method`),
without multiprocessing, whose import cost a run's start before its first worker could start
(tests/bench/cli_jobs.py); multiprocessing starts them any other way. What crosses their
pipes is framed by wire.py. A worker ignores SIGINT (Ctrl-C reaches the whole process group;
the parent alone decides), ends with its parent (on Linux as soon as the parent ends,
`_exit_with_parent`; elsewhere at its next read of the closed pipe), and is sent a batch while
busy only if it fits in its pipe beside those it may leave unread (`_Worker.offer`), so the
parent never waits on a worker that waits for the parent to read its answer.
"""

from __future__ import annotations

import mmap
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from itertools import count, islice
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from chunker.pipelines import wire

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

__all__ = ["WorkerError", "map_in_order", "start_method", "BATCHES_AHEAD"]

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

# How long stopping waits for workers told to end before it kills them.
_GRACE_SECONDS = 2.0

_HELD = {signal.SIGINT, signal.SIGTERM}


class WorkerError(RuntimeError):
    """A worker process ended without answering (killed, or out of memory)."""


def start_method(own_process: bool = False) -> str:
    """How worker processes start: as multiprocessing was told (`set_start_method`); else, for
    a caller that owns its process (`own_process`: the command line, which runs no thread
    that a fork could leave stuck), by `fork` on Linux, without importing multiprocessing;
    else as multiprocessing does by default (`fork` on Linux before Python 3.14, a fork
    server from it; `spawn` on macOS and Windows)."""
    imported = sys.modules.get("multiprocessing")
    if imported is not None:
        # Read without fixing it, which `get_start_method()` would do (a user's later
        # `set_start_method` would fail).
        told: str | None = imported.get_start_method(allow_none=True)
        if told is not None:
            return told
    if own_process and sys.platform.startswith("linux"):
        return "fork"
    import multiprocessing  # unset: the default is the first of them all

    return multiprocessing.get_all_start_methods()[0]


def map_in_order(
    function: Callable[[Any, Item], Result],
    items: Iterable[Item],
    jobs: int,
    shared: Any,
    here: Callable[[Item], Any],
    method: str | None = None,
) -> Iterator[tuple[Item, Any, bool]]:
    """`(item, outcome, done_here)` for each item, in input order, over `jobs` processes:
    this one and `jobs - 1` workers, started by `method` (default: `start_method()`). A
    worker's outcome is `function(shared, item)`; when every worker is busy, this process
    takes the next item itself, and its outcome is `here(item)` (`done_here`): on two cores, a
    parent that only sends, receives and waits left the second core half idle and was slower
    than one process (tests/bench/pipelines.py). At most `jobs * BATCHES_AHEAD` items are
    taken and not yet yielded, so the input is read only as fast as results are taken. An
    exception is raised here, for its item, after the items before it."""
    pool = _Pool(function, shared, jobs - 1, method or start_method())
    try:
        yield from pool.run(iter(items), here)
    finally:
        pool.stop()


class _Process(Protocol):
    """What the pool asks of a worker's process: a `multiprocessing.Process`, or `_Forked`."""

    @property
    def pid(self) -> int | None: ...
    @property
    def exitcode(self) -> int | None: ...
    def join(self, timeout: float | None = None) -> None: ...
    def terminate(self) -> None: ...
    def kill(self) -> None: ...


class _Pool(Generic[Item, Result]):
    def __init__(
        self, function: Callable[[Any, Item], Result], shared: Any, jobs: int, method: str
    ) -> None:
        self.workers: list[_Worker] = []
        context = None
        if method != "fork":
            import multiprocessing  # heavy, and absent in the browser, which never gets here

            context = multiprocessing.get_context(method)
            _helpers_started(method)
        else:  # what forked workers take first (wire.py), imported once for all
            import pickle  # noqa: F401
            import select  # noqa: F401
        with _signals_held():  # a Ctrl-C now would leave a worker half started
            for _ in range(jobs):
                if context is None:
                    self.workers.append(_forked(function, shared, self.workers))
                else:
                    self.workers.append(_started(context, function, shared))

    def run(
        self, items: Iterator[Item], here: Callable[[Item], Any]
    ) -> Iterator[tuple[Item, Any, bool]]:
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
            for reader in wire.readable(list(by_reader), 0 if busy else None):
                worker = by_reader[reader]
                # Every answer it has ready, not one a pass: each is room for a batch more,
                # sent before this process cuts one (tests/bench/pipelines.py, jobs=2).
                while True:
                    number, item, outcome, failed = worker.receive()
                    waiting[number] = (item, outcome, False, failed)
                    if not (worker.in_flight and wire.readable([worker.results], 0)):
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


class _Worker:
    __slots__ = ("process", "tasks", "results", "in_flight", "pipe_pages")

    def __init__(self, process: _Process, tasks: wire.Channel, results: wire.Channel) -> None:
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
        parts = wire.framed(item)
        taken = _pipe_pages_taken(sum(len(part) for part in parts))
        if self.in_flight and room < taken:
            return False
        try:
            wire.send(self.tasks, parts)
        except OSError:  # its reading end closed: the worker is gone
            raise self._ended() from None
        self.in_flight.append((number, item, taken))
        return True

    def receive(self) -> tuple[int, Any, Any, bool]:
        """The oldest item in flight, its outcome, and whether that is an exception."""
        try:
            failed, outcome = wire.received(self.results)
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
        for channel in (self.tasks, self.results):
            wire.close(channel)
        if self.process.exitcode is None:
            # Not waited for to finish its batch: nobody will take what it answers.
            self.process.terminate()


def _forked(function: Callable[[Any, Any], Any], shared: Any, others: list[_Worker]) -> _Worker:
    """A worker forked here, given `function` and `shared` as they are (a fork copies this
    process), `others` the workers forked before it, whose pipes it lets go of."""
    tasks_out, tasks_in = os.pipe()
    results_out, results_in = os.pipe()
    ended_out, ended_in = os.pipe()  # ends (reads as ended) when the worker does
    _widen(results_in)
    pid = os.fork()
    if pid == 0:
        try:
            for descriptor in (tasks_in, results_out, ended_out):
                os.close(descriptor)
            for other in others:  # so that its pipes end when its parent or it ends them
                wire.close(other.tasks)
                wire.close(other.results)
                os.close(cast(_Forked, other.process).ended)
            _serve(tasks_out, results_in, function, shared)
        finally:
            os._exit(1)
    for descriptor in (tasks_out, results_in, ended_in):
        os.close(descriptor)
    return _Worker(_Forked(pid, ended_out), tasks_in, results_out)


def _started(context: BaseContext, function: Callable[[Any, Any], Any], shared: Any) -> _Worker:
    """A worker multiprocessing starts by `context`'s way, sent `function` and `shared` (by
    pickle, unless it forks)."""
    tasks_out, tasks_in = context.Pipe(duplex=False)
    results_out, results_in = context.Pipe(duplex=False)
    _widen(results_in)
    process = context.Process(  # type: ignore[attr-defined]  # every context has one
        target=_serve,
        args=(tasks_out, results_in, function, shared),
        daemon=True,  # multiprocessing ends it at exit, should all else fail
    )
    process.start()
    tasks_out.close()
    results_in.close()
    if wire.DESCRIPTORS:  # this end's descriptors, kept by the worker (`_Worker.close`)
        return _Worker(process, _detached(tasks_in), _detached(results_out))
    return _Worker(process, tasks_in, results_out)


class _Forked:
    """A worker forked by `_forked`: what the pool asks of a `multiprocessing.Process`."""

    __slots__ = ("pid", "ended", "_exitcode")

    def __init__(self, pid: int, ended: int) -> None:
        self.pid = pid
        self.ended = ended
        """A pipe's reading end, whose writing end the worker alone holds."""
        self._exitcode: int | None = None

    @property
    def exitcode(self) -> int | None:
        """As `os.waitstatus_to_exitcode` says, once it has ended; None while it runs."""
        if self._exitcode is None:
            self._reaped(os.WNOHANG)
        return self._exitcode

    def join(self, timeout: float | None = None) -> None:
        """Wait for it to end, `timeout` seconds at most (None: as long as it takes)."""
        if self._exitcode is None and (timeout is None or wire.readable([self.ended], timeout)):
            self._reaped(0)

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    def _signal(self, number: int) -> None:
        if self._exitcode is None:  # not reaped: its process id is still its own
            os.kill(self.pid, number)

    def _reaped(self, options: int) -> None:
        pid, status = os.waitpid(self.pid, options)
        if pid:
            self._exitcode = os.waitstatus_to_exitcode(status)
            os.close(self.ended)


def _widen(pipe: wire.Channel) -> int:
    """Give a pipe Linux's largest buffer (1 MiB unless the system says otherwise, instead of
    64 KiB), so a batch crosses in a few writes instead of a switch between the processes
    every 64 KiB (a profile of the parent over tests/bench/pipelines.py's corpus shows its
    writes); answer the bytes it holds, 0 where that cannot be known."""
    try:
        import fcntl

        descriptor = pipe if isinstance(pipe, int) else pipe.fileno()
        with suppress(OSError):  # a smaller limit
            fcntl.fcntl(descriptor, fcntl.F_SETPIPE_SZ, 1 << 20)
        return int(fcntl.fcntl(descriptor, fcntl.F_GETPIPE_SZ))
    except (ImportError, OSError, AttributeError):  # not Linux
        return 0


def _pipe_pages_taken(size: int) -> int:
    """The most page buffers a frame of `size` bytes takes in a Linux pipe: a write joins the
    last buffer only with its tail, the part past its whole pages, else gives it one of its
    own, and a write cut short by a signal and finished by another, one more."""
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


def _detached(connection: Any) -> int:
    """`connection`'s file descriptor, now this process's to close (`wire.close`)."""
    descriptor = os.dup(connection.fileno())
    connection.close()
    return descriptor


def _serve(tasks: Any, results: Any, function: Callable[[Any, Any], Any], shared: Any) -> None:
    """A worker's life: each item read from `tasks`, `function(shared, item)` or its exception
    answered on `results` (each a pipe's end: a descriptor where it was forked here, else a
    connection), until the parent closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's handler is no worker's
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)  # held by the parent as it started us
    if wire.DESCRIPTORS and not isinstance(tasks, int):
        tasks, results = _detached(tasks), _detached(results)
    _exit_with_parent(tasks)
    while True:
        try:
            item = wire.received(tasks)
        except (EOFError, OSError):  # the parent closed the pipe, or is gone
            break
        try:
            answer: tuple[bool, Any] = (False, function(shared, item))
        except Exception as error:
            answer = (True, error)
        try:
            wire.send(results, wire.framed(answer))
        except OSError:  # the parent is gone or stopped listening
            break
    os._exit(0)  # no atexit, no flushing of what the parent's stdio held when it forked


def _exit_with_parent(tasks: wire.Channel) -> None:
    """On Linux, end this worker as soon as its parent ends, even by SIGKILL, which it cannot
    act on: the parent alone holds the writing end of the pipe of `tasks` (a worker forked
    here lets go of the others'; multiprocessing's are given only their own end, through a
    fork server too), and a thread waits for that pipe's hang-up, which also comes when the
    parent closes it to stop the worker. Linux's parent-death signal would do it as well, but
    only through ctypes, which took a worker longer to import than the rest of its start
    (tests/bench/cli_jobs.py)."""
    if sys.platform.startswith("linux") and isinstance(tasks, int):
        threading.Thread(target=_exit_at_hang_up, args=(tasks,), daemon=True).start()
    # Elsewhere a worker ends at its next read of the closed pipe.


def _exit_at_hang_up(descriptor: int) -> None:
    import select

    watch = select.poll()
    watch.register(descriptor, 0)  # no event asked: a hang-up (or an error) is told anyway
    watch.poll()
    os._exit(1)
