"""Interrupts end a run over worker processes promptly and leave nothing behind: one Ctrl-C,
two in quick succession, SIGTERM to the process group or to the parent alone, for
`chunker chunk --jobs 3 -o FILE` and for a script iterating `chunk_many(jobs=3)`: three
processes, the parent and two workers (the parent cuts too), so that more than one worker
is stopped; a closed pipe for `--jobs 2`; and a worker killed (SIGKILL, as the system does
when memory runs out), which ends the command line with exit 5.

Ctrl-C is sent as a terminal sends it, to the whole process group. Each case runs several
times (the hang this guards against came 21 times in 30), under each way multiprocessing
starts a process: `fork` (Linux's default before Python 3.14), `forkserver` (its default from
3.14: the workers are a server's children, not the run's) and `spawn` (macOS's). No timed
assertion: the harness's timeouts only stop a hung run from hanging the suite."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from support.paths import ROOT

ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
}
TRIES = 4
HARNESS_TIMEOUT = 60  # seconds: far beyond a prompt end, so only a hang reaches it

START_METHODS = ["fork", "forkserver", "spawn"]

# `python -m chunker`, and a user's script, under a start method given as sys.argv[1].
COMMAND_LINE = (
    "import multiprocessing, sys; multiprocessing.set_start_method(sys.argv.pop(1)); "
    "from chunker.cli import main; sys.exit(main())"
)
SCRIPT = """
import itertools, multiprocessing, sys
from chunker import chunk_many

multiprocessing.set_start_method(sys.argv[1])

def texts():
    for number in itertools.count():
        yield f"# {number}\\n\\n" + "A sentence of the corpus, long enough. " * 2000

for result in chunk_many(texts(), jobs=3):
    if result.id == 0:
        print("cutting", flush=True)
"""


def group_members(group: int) -> list[int]:
    """The live processes of process group `group` (zombies are dead)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        state, _, pgrp = stat.rsplit(")", 1)[1].split()[:3]
        if int(pgrp) == group and state != "Z":
            members.append(int(entry.name))
    return members


def children_of(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def workers_of(pid: int, method: str) -> list[int]:
    """The worker processes of run `pid` under start `method`: its children, or its fork
    server's, but not the resource tracker that `spawn` and `forkserver` start beside them.
    A child still holding the run's own command line is a fork: under `fork` a worker, under
    the others a helper between fork and exec (the resource tracker, under load), not yet
    anything to count or kill."""
    own = Path(f"/proc/{pid}/cmdline").read_bytes()
    found = []
    for child in children_of(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:  # gone
            continue
        if b"forkserver" in command:
            found += children_of(child)
        elif command == own:
            if method == "fork":
                found.append(child)
        elif b"resource_tracker" not in command:
            found.append(child)
    return found


def chunker_command(method: str, *arguments: str) -> list[str]:
    return [sys.executable, "-c", COMMAND_LINE, method, *arguments]


def start(
    command: list[str], method: str, ready: Callable[[subprocess.Popen], bool]
) -> subprocess.Popen:
    """`command` in a process group of its own, SIGINT at its default (a run started in the
    background inherits it ignored), once `ready(process)` and its two workers (started by
    `method`) are up (it runs with three jobs)."""
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
    )
    deadline = time.monotonic() + HARNESS_TIMEOUT
    is_ready = False
    while not (is_ready and len(workers_of(process.pid, method)) >= 2):
        is_ready = is_ready or ready(process)
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run never got going"
        time.sleep(0.01)
    return process


def send(process: subprocess.Popen, how: str) -> None:
    if how == "ctrl-c":
        os.killpg(process.pid, signal.SIGINT)
    elif how == "ctrl-c twice":
        os.killpg(process.pid, signal.SIGINT)
        time.sleep(0.02)  # within the window in which ProcessPoolExecutor's shutdown hung
        os.killpg(process.pid, signal.SIGINT)
    elif how == "sigterm":
        os.killpg(process.pid, signal.SIGTERM)
    else:  # "sigterm parent": the workers must not outlive it
        os.kill(process.pid, signal.SIGTERM)


def ended(process: subprocess.Popen) -> bytes:
    """Its standard error once it has exited and no process of its group is left."""
    _, stderr = process.communicate(timeout=HARNESS_TIMEOUT)
    deadline = time.monotonic() + HARNESS_TIMEOUT
    while group_members(process.pid):
        assert time.monotonic() < deadline, f"left behind: {group_members(process.pid)}"
        time.sleep(0.05)
    return stderr


def big_corpus(folder: Path) -> Path:
    corpus = folder / "big"
    corpus.mkdir()
    paragraph = "A sentence of the corpus, long enough. " * 30 + "\n\n"
    for number in range(300):
        (corpus / f"{number:04}.md").write_text(f"# {number}\n\n" + paragraph * 60)
    return corpus


@pytest.mark.parametrize(
    ("how", "code"),
    [("ctrl-c", 130), ("ctrl-c twice", 130), ("sigterm", 143), ("sigterm parent", 143)],
)
@pytest.mark.parametrize("method", START_METHODS)
def test_the_command_line_stops_its_workers_and_writes_no_partial_file(tmp_path, how, code, method):
    corpus = big_corpus(tmp_path)
    target = tmp_path / "out.jsonl"
    target.write_text("an earlier run\n")
    command = chunker_command(method, "chunk", "--jobs", "3", "-o", str(target))

    def writing(_: subprocess.Popen) -> bool:
        return any(p.name.endswith(".part") and p.stat().st_size for p in tmp_path.iterdir())

    for _ in range(TRIES):
        process = start([*command, str(corpus)], method, writing)
        send(process, how)
        stderr = ended(process)
        assert process.returncode == code, stderr
        assert stderr.endswith(f"chunker: interrupted; {target} was not written\n".encode())
        assert target.read_text() == "an earlier run\n"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["big", "out.jsonl"]


@pytest.mark.parametrize("method", START_METHODS)
def test_a_closed_pipe_ends_the_workers_quietly(tmp_path, method):
    corpus = big_corpus(tmp_path)
    for _ in range(TRIES):
        reader, writer = os.pipe()
        process = subprocess.Popen(
            chunker_command(method, "chunk", "--jobs", "2", str(corpus)),
            stdout=writer,
            stderr=subprocess.PIPE,
            env=ENV,
            start_new_session=True,
        )
        os.close(writer)
        assert os.read(reader, 1) == b"{"  # it is writing: the reader leaves, as `head` does
        os.close(reader)
        stderr = ended(process)
        assert (process.returncode, stderr) == (141, b"")


@pytest.mark.parametrize(
    ("how", "code"),
    [
        ("ctrl-c", -signal.SIGINT),
        ("ctrl-c twice", -signal.SIGINT),
        ("sigterm", -signal.SIGTERM),
        ("sigterm parent", -signal.SIGTERM),
    ],
)
@pytest.mark.parametrize("method", START_METHODS)
def test_a_script_over_chunk_many_ends_with_its_workers(how, code, method):
    def cutting(process: subprocess.Popen) -> bool:  # its first result is in: it is cutting
        assert process.stdout.readline() == b"cutting\n"
        return True

    for _ in range(TRIES):
        process = start([sys.executable, "-c", SCRIPT, method], method, cutting)
        send(process, how)
        stderr = ended(process)
        # Python ends an uncaught KeyboardInterrupt by SIGINT, after its traceback.
        assert process.returncode == code, stderr
        if how.startswith("ctrl-c"):
            assert stderr.rstrip().endswith(b"KeyboardInterrupt"), stderr


@pytest.mark.parametrize("method", START_METHODS)
def test_a_killed_worker_ends_the_command_line_with_its_name_and_no_partial_file(tmp_path, method):
    # As the system's out-of-memory killer ends a worker: the rest stop, and the run says so.
    corpus = big_corpus(tmp_path)
    target = tmp_path / "out.jsonl"
    target.write_text("an earlier run\n")
    command = chunker_command(method, "chunk", "--jobs", "3", "-o", str(target))
    for _ in range(TRIES):
        process = start([*command, str(corpus)], method, lambda _: True)
        victim = workers_of(process.pid, method)[0]
        os.kill(victim, signal.SIGKILL)
        stderr = ended(process)
        assert process.returncode == 5, stderr
        assert stderr.decode() == (
            f"chunker: worker process {victim} ended without answering (exit code -9); "
            f"{target} was not written\n"
        )
        assert target.read_text() == "an earlier run\n"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["big", "out.jsonl"]


AFTERWARDS = """
import multiprocessing, sys, time
from chunker import chunk_many

multiprocessing.set_start_method(sys.argv[1])
queue = multiprocessing.Queue()  # multiprocessing's helpers started first, as a program may
assert len(list(chunk_many(["A sentence of the corpus. " * 20_000] * 40, jobs=2))) == 40
own = multiprocessing.Process(target=time.sleep, args=(60,))
own.start()
time.sleep(0.2)  # the child started (its target must pickle under every start method: no signal)
own.terminate()
own.join(30)
print(own.exitcode)
"""


@pytest.mark.parametrize("method", ["forkserver", "spawn"])
def test_a_programs_own_processes_take_signals_after_chunk_many(method):
    # Started while the run held SIGINT and SIGTERM back, a fork server kept them held for
    # every process it forked later: a program's own process ignored terminate().
    done = subprocess.run(
        [sys.executable, "-c", AFTERWARDS, method],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=HARNESS_TIMEOUT,
    )
    assert (done.returncode, done.stdout) == (0, f"{-signal.SIGTERM}\n"), done.stderr


# Workers that wait ten minutes on each batch (a signal that never comes), and a parent that
# waits as long on its own, once it has one: as a run over long documents would.
WAITING = """
import multiprocessing, signal, sys
from chunker.pipelines.pool import map_in_order

multiprocessing.set_start_method(sys.argv[1])

def here(item):
    print("cutting", flush=True)
    signal.sigtimedwait([signal.SIGUSR1], 600)

list(map_in_order(signal.sigtimedwait, iter([600] * 20), 3, [signal.SIGUSR1], here))
"""


@pytest.mark.parametrize("method", START_METHODS)
def test_workers_end_with_a_parent_killed_in_the_middle_of_their_batches(method):
    # SIGKILL: no handler of the parent's stops them; each worker, busy, must see it go.
    def cutting(process: subprocess.Popen) -> bool:
        assert process.stdout.readline() == b"cutting\n"
        return True

    process = start([sys.executable, "-c", WAITING, method], method, cutting)
    process.kill()
    stderr = ended(process)
    assert process.returncode == -signal.SIGKILL, stderr
