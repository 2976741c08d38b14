"""`chunk_many`: texts or (id, text) pairs cut in order, over processes or not, with options
checked before any work and the input read only as fast as results are taken."""

from __future__ import annotations

import itertools
import multiprocessing
import operator
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.paths import ROOT

from chunker import ChunkedText, SemanticChunker, chunk_many
from chunker.pipelines import many, pool, wire
from chunker.pipelines.many import BATCH_ITEMS
from chunker.pipelines.pool import BATCHES_AHEAD
from chunker.recipe import Recipe

TEXTS = [f"# Doc {n}\n\n" + f"Sentence {n} 😀 of the text. " * (n % 40 + 1) for n in range(300)]


def test_texts_come_back_in_order_with_their_positions_as_ids():
    results = list(chunk_many(TEXTS, jobs=1, target_size=80, overlap=10))
    assert [r.id for r in results] == list(range(len(TEXTS)))
    assert all(isinstance(r, ChunkedText) for r in results)
    chunker = SemanticChunker(target_size=80, overlap=10)
    assert [list(r.chunks) for r in results] == [chunker.chunk(t) for t in TEXTS]


OPTIONS = {
    "semantic": {"target_size": 80, "overlap": 10},
    "fixed": {"chunk_size": 60, "chunk_overlap": 6},
    "hierarchical": {"chunk_size": 60, "chunk_overlap": 6},
    "layout": {"chunk_size": 60, "chunk_overlap": 6},
}


@pytest.fixture
def small_batches(monkeypatch):
    """Batches of a few texts, so that TEXTS make dozens and every process gets some."""
    monkeypatch.setattr(many, "BATCH_CHARS", 5_000)


@pytest.mark.parametrize("jobs", [1, 2, 3, None])
@pytest.mark.parametrize("strategy", ["semantic", "fixed", "hierarchical", "layout"])
def test_every_strategy_and_jobs_value_gives_the_plain_loops_records(small_batches, strategy, jobs):
    pairs = [(f"id-{n}", text) for n, text in enumerate(TEXTS)]
    recipe = Recipe(strategy, OPTIONS[strategy])
    plain = [tuple(recipe.cut(text)) for _, text in pairs]
    results = list(chunk_many(iter(pairs), jobs=jobs, strategy=strategy, **OPTIONS[strategy]))
    assert [r.id for r in results] == [key for key, _ in pairs]
    assert [r.chunks for r in results] == plain
    # What equality leaves out (spans), and the records' own types (not drafts).
    assert [[(type(c), c.to_dict(spans=True)) for c in r.chunks] for r in results] == [
        [(type(c), c.to_dict(spans=True)) for c in chunks] for chunks in plain
    ]


@pytest.mark.parametrize("jobs", [1, 2])
def test_overlap_boundary_reaches_the_workers(small_batches, jobs):
    # Workers cut with `chunk_columns`, this process with `chunk`: both take the option.
    options = dict(target_size=80, max_size=100, min_size=0, overlap=13, overlap_boundary="word")
    results = list(chunk_many(TEXTS, jobs=jobs, **options))
    chunker = SemanticChunker(**options)
    assert [r.chunks for r in results] == [tuple(chunker.chunk(t)) for t in TEXTS]
    assert [[c.overlap_span for c in r.chunks] for r in results] == [
        [c.overlap_span for c in chunker.chunk(t)] for t in TEXTS
    ]
    default = SemanticChunker(**{**options, "overlap_boundary": "chars"})
    assert sum(list(r.chunks) != default.chunk(t) for r, t in zip(results, TEXTS)) > 100


def _answer_once_released(released, batch):
    """A worker's answer, given only once the file `released` exists (module level: a worker
    must unpickle it)."""
    deadline = time.monotonic() + 60  # only a failing test waits
    while not os.path.exists(released):
        assert time.monotonic() < deadline, "never released"
        time.sleep(0.005)
    return list(batch)


def _here(batch):
    return "here", batch


def workers_left() -> list[int]:
    """This process's worker processes still there, or not yet reaped: multiprocessing's, and
    those the pool forks itself, which run this program (a zombie's command line is empty)."""
    own = Path("/proc/self/cmdline").read_bytes()
    children = Path(f"/proc/self/task/{os.getpid()}/children").read_text().split()
    forked = []
    for child in map(int, children):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:  # reaped meanwhile
            continue
        if command in (own, b""):
            forked.append(child)
    return [process.pid for process in multiprocessing.active_children()] + forked


def _where(
    jobs, batches, monkeypatch, cores=2, speed=None, work=operator.concat, shared=None, here=_here
):
    """Where `spread` did each batch: "here" (this process) or "there" (a worker). Each of
    `batches` is one item, and a batch of its own (`BATCH_ITEMS` 1)."""
    monkeypatch.setattr(many, "default_jobs", lambda: cores)
    monkeypatch.setattr(many, "BATCH_ITEMS", 1)
    if speed is not None:
        monkeypatch.setattr(many, "PROCESSES_BELOW_CHARS_A_SECOND", speed)
    done = many.spread(
        iter(batches),
        jobs,
        lambda batch: sum(map(len, batch)),
        here,
        work,  # in a worker, by default: [] + [batch]
        [] if shared is None else shared,
        lambda batch, answer: [("there", item) for item in answer],
    )
    results = [result for results in done for result in results]
    assert [batch for _, batch in results] == batches  # in order, whoever did them
    assert not workers_left()
    return [where for where, _ in results]


def started_by(monkeypatch: pytest.MonkeyPatch, method: str) -> None:
    """Worker processes started by `method`, as if it were multiprocessing's default."""
    get_context = multiprocessing.get_context
    monkeypatch.setattr(
        multiprocessing, "get_context", lambda name=None: get_context(name or method)
    )
    monkeypatch.setattr(multiprocessing, "get_start_method", lambda allow_none=False: method)


@pytest.mark.parametrize("method", ["forkserver", "spawn"])
@pytest.mark.parametrize("strategy", ["semantic", "fixed", "hierarchical", "layout"])
def test_workers_started_any_way_give_the_plain_loops_records(
    small_batches, monkeypatch, strategy, method
):
    # Every other test's workers are forked (Linux's default before Python 3.14); a fork
    # server's (3.14's default) are not this process's children, and `spawn` (macOS's)
    # starts a new interpreter that imports what it is sent.
    started_by(monkeypatch, method)
    pairs = [(f"id-{n}", text) for n, text in enumerate(TEXTS)]
    recipe = Recipe(strategy, OPTIONS[strategy])
    plain = [[c.to_dict(spans=True) for c in recipe.cut(text)] for _, text in pairs]
    results = list(chunk_many(iter(pairs), jobs=3, strategy=strategy, **OPTIONS[strategy]))
    assert [[c.to_dict(spans=True) for c in r.chunks] for r in results] == plain


def words_of(text: str) -> int:  # at the top level of a module: it pickles
    return len(text.split())


class LockedCount:
    """A tokenizer holding a lock: multiprocessing sends one only as a worker starts, so plain
    pickle refuses it, and `chunk_many` must not."""

    def __init__(self):
        self.lock = multiprocessing.get_context().Lock()  # of the context workers start in

    def __call__(self, text: str) -> int:
        with self.lock:
            return len(text.split())


class WithPointer:
    """A tokenizer holding a ctypes pointer, which does not pickle."""

    def __init__(self):
        import ctypes

        self.pointer = ctypes.c_char_p(b"x")

    def __call__(self, text: str) -> int:
        return len(text.split())


@pytest.fixture
def decides_processes(monkeypatch):
    """`jobs=None` on two cores, deciding for processes once 20,000 characters are cut; and
    how many processes each run that started workers used (a list of `jobs`)."""
    monkeypatch.setattr(many, "default_jobs", lambda: 2)
    monkeypatch.setattr(many, "PROCESSES_FROM_CHARS", 20_000)
    monkeypatch.setattr(many, "PROCESSES_BELOW_CHARS_A_SECOND", float("inf"))
    map_in_order, called = pool.map_in_order, []

    def spy(work, batches, jobs, *rest):
        called.append(jobs)
        return map_in_order(work, batches, jobs, *rest)

    monkeypatch.setattr(pool, "map_in_order", spy)
    return called


@pytest.mark.parametrize("method", ["forkserver", "spawn"])
def test_an_option_workers_cannot_be_sent_is_named_or_cut_here(
    small_batches, monkeypatch, decides_processes, method
):
    # Workers not forked are sent their recipe by pickle, and a lambda does not pickle.
    started_by(monkeypatch, method)
    counted = {"max_tokens": 12, "tokenizer": lambda text: len(text.split())}
    with pytest.raises(TypeError, match=r"^tokenizer=<function .*lambda.* jobs=1$") as caught:
        chunk_many(TEXTS, jobs=2, **counted)  # at the call, before any text is cut
    assert caught.value.field == "tokenizer"
    plain = [tuple(SemanticChunker(**counted).chunk(text)) for text in TEXTS]
    # None: processes would pay (see the fixture), but this work stays here.
    assert [r.chunks for r in chunk_many(TEXTS, **counted)] == plain
    assert decides_processes == []
    for tokenizer in (words_of, LockedCount()):  # these go
        sendable = {"max_tokens": 12, "tokenizer": tokenizer}
        assert [r.chunks for r in chunk_many(TEXTS, jobs=2, **sendable)] == plain
        assert [r.chunks for r in chunk_many(TEXTS, **sendable)] == plain
    assert decides_processes == [2, 2, 2, 2]


def test_only_what_multiprocessing_may_send_as_it_starts_passes_a_pickling_error():
    # A Lock refuses plain pickle with a RuntimeError and goes as a worker starts; a ctypes
    # pointer refuses it with a ValueError, and multiprocessing with the same.
    import ctypes

    from chunker.recipe import Recipe

    pointer = Recipe("semantic", {"tokenizer": WithPointer(), "max_tokens": 40}).unsendable()
    assert pointer is not None and pointer.field == "tokenizer"
    assert "ValueError" in str(pointer) and isinstance(WithPointer().pointer, ctypes.c_char_p)
    assert Recipe("semantic", {"tokenizer": LockedCount(), "max_tokens": 40}).unsendable() is None


def test_a_value_too_deep_to_pickle_is_named_not_left_to_multiprocessing():
    # A RecursionError is a RuntimeError, as multiprocessing's own refusal is; it stops the
    # value here, or jobs=None would start processes and fail as they started.
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    tokenizer = WithPointer()
    tokenizer.pointer = deep
    problem = Recipe("semantic", {"tokenizer": tokenizer, "max_tokens": 40}).unsendable()
    assert problem is not None and problem.field == "tokenizer"
    assert "RecursionError" in str(problem)


def _cut_in_a_pool_worker(texts):
    # As jobs=None would decide for processes, were they allowed (see the test below).
    many.PROCESSES_FROM_CHARS, many.PROCESSES_BELOW_CHARS_A_SECOND = 1_000, float("inf")
    many.BATCH_CHARS = 5_000  # dozens of batches: processes would have something to share
    return [r.chunks for r in chunk_many(texts)]


def test_jobs_none_in_a_daemonic_process_stays_there():
    # A multiprocessing.Pool's worker is daemonic and may start no process of its own.
    with multiprocessing.get_context("fork").Pool(1) as workers:
        cut = workers.apply(_cut_in_a_pool_worker, (TEXTS,))
    assert cut == [tuple(SemanticChunker().chunk(text)) for text in TEXTS]


def run_python(
    *arguments: str, standard_input: str | None = None
) -> subprocess.CompletedProcess[str]:
    """This Python run with `arguments` to its end, this checkout's chunker importable."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, *arguments],
        input=standard_input,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_a_function_of_a_main_without_a_file_is_named_too():
    # `python -c` (as the interactive prompt and a notebook): its functions pickle by name,
    # and a spawned worker cannot find them, so they count as not sendable.
    script = (
        "import multiprocessing, sys\n"
        "from chunker import chunk_many\nfrom chunker.pipelines import many\n"
        "multiprocessing.set_start_method('spawn')\n"
        "def words(text): return len(text.split())\n"
        "texts = ['A sentence of words. ' * 2000] * 40\n"
        "try:\n"
        "    chunk_many(texts, jobs=2, max_tokens=50, tokenizer=words)\n"
        "except TypeError as error:\n"
        "    print(error.field, 'defined in a __main__' in str(error))\n"
        "many.PROCESSES_BELOW_CHARS_A_SECOND = float('inf')\n"
        "print(len(list(chunk_many(texts, max_tokens=50, tokenizer=words))))\n"
    )
    done = run_python("-c", script)
    assert (done.returncode, done.stdout) == (0, "tokenizer True\n40\n"), done.stderr


@pytest.mark.parametrize("method", ["forkserver", "spawn"])
def test_a_script_read_from_standard_input_is_told_or_cut_here(method):
    # `python - < script.py`: such workers run __main__ again from its file, "<stdin>", and
    # each would die of it, whatever the options. jobs=2 is told so as they would start (a
    # small input needs none); jobs=None, deciding for processes, cuts here; forked workers
    # need no file. Two cores whatever this machine has: one would decide for none.
    script = (
        "import multiprocessing, sys\n"
        "from chunker import chunk_many\nfrom chunker.pipelines import many\n"
        "if __name__ == '__main__':\n"
        "    many.default_jobs = lambda: 2\n"
        "    texts = ['A sentence of words. ' * 2000] * 40\n"
        f"    multiprocessing.set_start_method({method!r})\n"
        "    results = chunk_many(texts, jobs=2)\n"
        "    try:\n"
        "        next(results)\n"
        "    except ValueError as error:\n"
        "        print(error.field, str(error).startswith(\n"
        f"            \"jobs=2 starts worker processes by '{method}'\"), \"'<stdin>'\" in str(error))\n"
        "    print(len(list(chunk_many(texts[:1], jobs=2))))\n"
        "    many.PROCESSES_FROM_CHARS = 1_000\n"
        "    many.PROCESSES_BELOW_CHARS_A_SECOND = float('inf')\n"
        "    print(len(list(chunk_many(texts))))\n"
        "    multiprocessing.set_start_method('fork', force=True)\n"
        "    print(len(list(chunk_many(texts, jobs=2))))\n"
    )
    done = run_python("-", standard_input=script)
    assert (done.returncode, done.stdout) == (0, "jobs True True\n1\n40\n40\n"), done.stderr
    assert "Traceback" not in done.stderr


def test_which_mains_workers_cannot_run_again(monkeypatch, tmp_path):
    # multiprocessing's rule: by module name, else from its file, but never for a frozen
    # program (its workers are the program) or IPython; no file, nothing to run again.
    import types

    def unreadable(file=None, spec_name=None, frozen=False):
        main = types.ModuleType("__main__")
        main.__spec__ = None if spec_name is None else types.SimpleNamespace(name=spec_name)
        if file is not None:
            main.__file__ = file
        monkeypatch.setitem(sys.modules, "__main__", main)
        monkeypatch.setattr(sys, "frozen", frozen, raising=False)
        return many._unreadable_main()

    there = tmp_path / "script.py"
    there.write_text("")
    gone = str(tmp_path / "gone.py")
    assert unreadable("<stdin>") == "<stdin>" and unreadable(gone) == gone
    assert unreadable(str(there)) is None and unreadable() is None
    assert unreadable(gone, spec_name="tool.cli") is None
    assert unreadable(gone, frozen=True) is None
    assert unreadable(str(tmp_path / "ipython.py")) is None


def test_forked_workers_take_any_option(small_batches, monkeypatch):
    started_by(monkeypatch, "fork")
    counted = {"max_tokens": 12, "tokenizer": lambda text: len(text.split())}
    plain = [tuple(SemanticChunker(**counted).chunk(text)) for text in TEXTS]
    assert [r.chunks for r in chunk_many(TEXTS, jobs=2, **counted)] == plain


def test_chunk_many_leaves_the_start_method_for_its_caller_to_set():
    # Reading the default with get_start_method() would fix it, and the script's own
    # set_start_method, after its first chunk_many, would fail.
    script = (
        "import multiprocessing; from chunker import chunk_many; "
        "list(chunk_many(['x. ' * 9] * 3, jobs=2, tokenizer=len)); "
        "multiprocessing.set_start_method('spawn'); print('set')"
    )
    done = run_python("-c", script)
    assert (done.returncode, done.stdout) == (0, "set\n"), done.stderr


def test_jobs_none_stays_in_this_process_for_a_small_input_or_fast_work_or_one_core(
    monkeypatch,
):
    small = [["x" * 10]] * 3
    large = [["x" * many.BATCH_CHARS]] * 8
    assert _where(None, small, monkeypatch) == ["here"] * 3
    # Work faster than the rule's speed stays here; slower starts workers after the first
    # PROCESSES_FROM_CHARS characters, which this process cut while timing them (and goes on
    # cutting beside them).
    slow = _where(None, large, monkeypatch, speed=float("inf"))
    assert slow[:5] == ["here"] * 4 + ["there"] and "there" in slow[4:]
    assert _where(None, large, monkeypatch, speed=1) == ["here"] * 8
    assert _where(None, large, monkeypatch, cores=1, speed=float("inf")) == ["here"] * 8


def test_jobs_given_starts_that_many_unless_the_input_is_one_batch(monkeypatch):
    large = [["x" * many.BATCH_CHARS]] * 8
    assert _where(1, large, monkeypatch) == ["here"] * 8
    # Two processes: a worker takes the first batch and the next two, which wait in its
    # pipe, and this one the fourth while it is busy.
    assert _where(2, large, monkeypatch)[:4] == ["there"] * pool.QUEUED_A_WORKER + ["here"]
    assert _where(3, large[:1], monkeypatch) == ["here"]


def test_the_inputs_last_batches_stay_here_while_the_worker_has_as_many_queued(
    monkeypatch, tmp_path
):
    # At the end, a batch goes to a busy worker only if more are left than it holds: sent
    # to it, this process would wait, idle, while the worker cut them in turn. The worker
    # holds its first until this process has cut the last.
    released = tmp_path / "released"
    large = [["x" * many.BATCH_CHARS] for _ in range(4)]

    def here(batch):
        if batch is large[-1]:
            released.touch()
        return "here", batch

    where = _where(
        2, large, monkeypatch, work=_answer_once_released, shared=str(released), here=here
    )
    assert where == ["there", "there", "here", "here"]


def test_a_batch_cut_here_can_be_answered_as_a_workers_is(monkeypatch):
    # The command line cuts its own batches as a worker does (`batch_here`), each batch's
    # output written at once, not a file at a time; the results are made alike.
    monkeypatch.setattr(many, "BATCH_ITEMS", 1)
    large = [["x" * many.BATCH_CHARS] for _ in range(8)]
    done = many.spread(
        iter(large),
        2,
        lambda batch: sum(map(len, batch)),
        _here,
        operator.concat,
        ["there"],
        lambda batch, answer: [(answer[0], item) for item in answer[1:]],
        batch_here=lambda batch: ["here", *batch],
    )
    results = [result for results in done for result in results]
    assert [batch for _, batch in results] == large  # in order, whoever did them
    assert {where for where, _ in results} == {"here", "there"}
    assert not workers_left()


class _OutOfBand:
    """An answer whose bytes a pickle hands out of band, as the command line's are."""

    def __init__(self, data):
        self.data = data

    def __reduce__(self):
        return _OutOfBand, (pickle.PickleBuffer(self.data),)


def _out_of_band(shared, batch):
    return _OutOfBand(bytes(range(256)) * (len(batch[0]) // 256))


def test_an_answers_out_of_band_bytes_cross_as_they_are_larger_than_the_pipe():
    # Written to the pipe beside their pickle, not in it: several times the pipe's buffer, so
    # the parent reads them in pieces (and cuts its own batches meanwhile).
    batches = [["x" * (3 << 20)]] * 4
    answers = pool.map_in_order(_out_of_band, iter(batches), 2, None, lambda batch: None)
    received = [answer.data for _, answer, here in answers if not here]
    assert received and all(data == bytes(range(256)) * (3 << 12) for data in received)
    assert not workers_left()


def test_an_answer_frame_gives_its_pickle_and_its_buffers_back_read_in_pieces():
    reader, writer = os.pipe()
    answer = (False, [_OutOfBand(b"a" * 200_000), "in band", _OutOfBand(b"")])
    sender = threading.Thread(target=wire.send, args=(writer, wire.framed(answer)))
    sender.start()  # the pipe holds less than the frame: the writer waits for the reader
    try:
        failed, (first, text, empty) = wire.received(reader)
    finally:
        sender.join()
        os.close(writer)
    assert (failed, first.data, text, empty.data) == (False, b"a" * 200_000, "in band", b"")
    with pytest.raises(EOFError):  # the pipe ended
        wire.received(reader)
    os.close(reader)


def _pipe_of(monkeypatch, pages):
    """Every worker's pipe as wide as ever, said to hold `pages` page buffers."""
    widen = pool._widen
    monkeypatch.setattr(
        pool, "_widen", lambda connection: min(widen(connection), pages * pool._PAGE_BYTES)
    )


def test_a_batch_too_large_to_wait_in_a_busy_workers_pipe_is_cut_here(monkeypatch, tmp_path):
    # Written to a busy worker, it could wait on a worker waiting for this process to read
    # its answer; so it is cut here. And the next, and the next: while the worker holds its
    # first (until the seventh is cut here), every one is refused.
    released = tmp_path / "released"
    cut_here = []

    def here(batch):
        cut_here.append(batch)
        if len(cut_here) == 7:
            released.touch()
        return "here", batch

    large = [["x" * many.BATCH_CHARS]] * 8
    _pipe_of(monkeypatch, many.BATCH_CHARS // pool._PAGE_BYTES)  # less than a batch
    where = _where(
        2, large, monkeypatch, work=_answer_once_released, shared=str(released), here=here
    )
    assert where == ["there"] + ["here"] * 7


def test_after_cutting_a_refused_batch_this_process_reads_answers_before_cutting_another(
    monkeypatch,
):
    # The worker answered its batch while this process cut the refused one: it is idle, and
    # gets the next, which this process would otherwise cut too. (The last, left while the
    # worker holds one, may stay here.)
    def here(batch):
        time.sleep(1)  # long beside the worker's answer to a one-character batch
        return "here", batch

    huge, small = ["x" * 100_000], ["x"]
    _pipe_of(monkeypatch, 8)  # room for small batches, not the huge one
    where = _where(2, [small, huge, small, small], monkeypatch, here=here)
    assert where[:3] == ["there", "here", "there"]


def test_a_pipe_holds_as_many_batches_as_its_page_buffers_do_not_bytes(monkeypatch):
    # A length, then the bytes: a batch of a few bytes takes two page buffers, one of a
    # page and a byte three (a write joins the last buffer only with its tail).
    assert [
        pool._pipe_pages_taken(size) for size in (1, pool._PAGE_BYTES, pool._PAGE_BYTES + 1)
    ] == [2, 2, 3]
    # The worker may leave unread every batch sent after the one it cuts, should it wait to
    # write that one's answer: the pipe must hold them all, or the next is cut here. Three
    # pages hold the second batch (two) but not the third (four), though its bytes would fit.
    _pipe_of(monkeypatch, 3)
    assert _where(2, [["x"]] * 6, monkeypatch)[:3] == ["there", "there", "here"]


def _die(shared, item):
    os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's out-of-memory killer would


def test_a_worker_killed_mid_run_is_an_error_naming_it_not_a_hang():
    with pytest.raises(pool.WorkerError, match=r"worker process \d+ ended without answering"):
        list(pool.map_in_order(_die, iter(range(100)), 2, None, lambda item: time.sleep(0.01)))
    assert not workers_left()


def test_a_batch_sent_to_a_worker_that_is_gone_is_an_error_naming_it_not_a_broken_pipe():
    # Not `BrokenPipeError`: the command line takes that for its reader gone (`| head`), and
    # would end quietly with its output cut short.
    workers = pool._Pool(_die, None, 1, pool.start_method())
    try:
        worker = workers.workers[0]
        worker.process.kill()
        worker.process.join()
        with pytest.raises(pool.WorkerError, match=f"worker process {worker.process.pid} ended"):
            worker.offer(0, "a batch")
        assert not worker.in_flight  # not counted as sent
    finally:
        workers.stop()


def test_jobs_none_over_slow_work_gives_the_plain_loops_records(small_batches, monkeypatch):
    # The slow-work path of jobs=None: some batches cut here, the rest by workers.
    monkeypatch.setattr(many, "PROCESSES_FROM_CHARS", 20_000)
    monkeypatch.setattr(many, "PROCESSES_BELOW_CHARS_A_SECOND", float("inf"))
    monkeypatch.setattr(many, "default_jobs", lambda: 2)
    results = list(chunk_many(TEXTS, target_size=80, overlap=10))
    chunker = SemanticChunker(target_size=80, overlap=10)
    assert [list(r.chunks) for r in results] == [chunker.chunk(t) for t in TEXTS]


def test_bad_options_fail_before_any_text_is_read():
    taken = []

    def items():
        taken.append(1)
        yield "never read"

    for options, error, message in [
        ({"target_size": 0}, ValueError, "invalid target_size 0"),
        ({"chunk_size": 9}, TypeError, "unknown option 'chunk_size' for strategy 'semantic'"),
        ({"strategy": "fixed", "chunk_size": 5, "chunk_overlap": 5}, ValueError, "chunk_overlap 5"),
        ({"strategy": "sentences"}, ValueError, "unknown strategy 'sentences'"),
        ({"jobs": 0}, ValueError, "invalid jobs 0"),
        ({"jobs": 1.5}, TypeError, "jobs must be an integer"),
    ]:
        with pytest.raises(error, match=message):
            chunk_many(items(), **options)
    assert taken == []


@pytest.mark.parametrize(
    "items", ["hello", 5, {"a.md": "text"}, b"bytes"], ids=["str", "int", "dict", "bytes"]
)
def test_items_that_are_no_list_of_texts_are_refused_at_the_call(items):
    # A string is iterable: "hello" was cut as five texts of one character each; a mapping
    # as its keys alone. Refused as the call is made, before a result is asked for.
    with pytest.raises(TypeError) as caught:
        chunk_many(items, jobs=1)
    assert caught.value.field == "items"
    assert str(caught.value).startswith(
        f"items must be a list of texts or (id, text) pairs, got {type(items).__name__} "
    )


def test_a_wrong_item_is_named_by_its_position():
    with pytest.raises(TypeError, match=r"items\[2\] must be a text or an \(id, text\) pair"):
        list(chunk_many(["a", ("b", "text"), ("c", 3)], jobs=1))
    with pytest.raises(TypeError, match=r"items\[0\]"):
        list(chunk_many([b"bytes"], jobs=2))


class Counted:
    """An input that counts the texts taken from it."""

    def __init__(self, texts):
        self.texts, self.pulled = iter(texts), 0

    def __iter__(self):
        return self

    def __next__(self):
        text = next(self.texts)
        self.pulled += 1
        return text


def test_the_input_is_read_only_as_fast_as_results_are_taken():
    endless = Counted(f"Text {number}." for number in itertools.count())
    results = chunk_many(endless, jobs=2)
    first = next(results)
    assert first.id == 0
    # What is in flight: a few batches per process, and the batch being gathered.
    assert endless.pulled <= (2 * BATCHES_AHEAD + 2) * BATCH_ITEMS
    results.close()


@pytest.mark.parametrize("speed", [1, float("inf")])
def test_jobs_none_cuts_text_by_text_here_as_jobs_1_does(monkeypatch, speed):
    # While it decides, and after it decides to stay (speed 1: all work is faster than one
    # character a second, so it stays), jobs=None reads a text a result, as jobs=1 does: a
    # batch gathered and held made it slower than jobs=1 (tests/bench/pipelines.py).
    monkeypatch.setattr(many, "default_jobs", lambda: 2)
    monkeypatch.setattr(many, "PROCESSES_FROM_CHARS", 100)
    monkeypatch.setattr(many, "PROCESSES_BELOW_CHARS_A_SECOND", speed)
    texts = Counted(f"Text {number}." for number in range(2_000))
    results = chunk_many(texts)
    for taken in range(1, 40):  # past the first 100 characters, and on
        assert next(results).id == taken - 1
        if speed == 1 or taken * 8 < 100:  # staying here, or still deciding
            assert texts.pulled == taken
    results.close()


def test_a_generator_of_100000_documents_holds_a_few_batches_only():
    documents = Counted(f"# {number}\n\nText {number}. More text." for number in range(100_000))
    held = 0
    for taken, result in enumerate(chunk_many(documents, jobs=2), 1):  # noqa: B007
        held = max(held, documents.pulled - taken)
    assert taken == 100_000
    assert result.id == 99_999  # the last one taken
    # In flight: BATCHES_AHEAD per process, the batches read ahead to decide, the one gathered.
    assert BATCH_ITEMS <= held <= (2 * BATCHES_AHEAD + 2) * BATCH_ITEMS


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(alphabet="ab .\n#😀\r", max_size=300), max_size=40))
def test_any_texts_give_what_the_chunker_gives(texts):
    chunker = SemanticChunker(target_size=20, max_size=40, min_size=3, overlap=4)
    results = list(chunk_many(texts, jobs=1, target_size=20, max_size=40, min_size=3, overlap=4))
    assert [list(r.chunks) for r in results] == [chunker.chunk(t) for t in texts]


@pytest.mark.parametrize("failing", [0, 1, 3])  # 0 goes to the worker, 1 here, 3 either
def test_a_batch_that_fails_raises_in_its_turn_after_the_batches_before_it(monkeypatch, failing):
    large = [[f"{n}" + "x" * many.BATCH_CHARS] for n in range(8)]

    def here(batch):
        if batch[0].startswith(str(failing)):
            raise ValueError(f"batch {failing}")
        return "here", batch

    def there(shared, batch):  # in a worker: a batch of one item, each a batch of before
        if batch[0][0].startswith(str(failing)):
            raise ValueError(f"batch {failing}")
        return batch

    def made(batch, answer):
        return [("there", item) for item in answer]

    done = many.spread(iter(large), 2, lambda b: sum(map(len, b)), here, there, None, made)
    got = []
    with pytest.raises(ValueError, match=f"batch {failing}"):
        got.extend(batch for results in done for _, batch in results)
    assert got == large[:failing]
    assert not workers_left()


def _one_later(record: dict) -> dict:
    """A record (`to_dict(spans=True)`) with its spans and offsets one later."""
    moved = dict(record)
    for key in ("span", "overlapSpan"):
        if moved.get(key) is not None:
            moved[key] = {end: at + 1 for end, at in moved[key].items()}
    for key in ("startOffset", "endOffset"):
        if key in moved:
            moved[key] += 1
    return moved


@pytest.mark.parametrize("strategy", ["semantic", "fixed", "hierarchical", "layout"])
def test_a_leading_bom_is_cut_past_in_worker_processes_too(small_batches, strategy):
    # A worker answers places in each text (`chunk_columns`, spans): past the mark, in it.
    marked = ["\ufeff" + text if number % 3 == 0 else text for number, text in enumerate(TEXTS)]
    recipe = Recipe(strategy, OPTIONS[strategy])
    results = list(chunk_many(marked, jobs=2, strategy=strategy, **OPTIONS[strategy]))
    for text, result in zip(marked, results):
        got = [c.to_dict(spans=True) for c in result.chunks]
        plain = [c.to_dict(spans=True) for c in recipe.cut(text.removeprefix("\ufeff"))]
        assert got == ([_one_later(r) for r in plain] if text.startswith("\ufeff") else plain)
