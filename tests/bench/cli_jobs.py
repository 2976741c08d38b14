"""`chunker chunk --jobs 2 -o` beside `--jobs 1` over a folder of real documents.

    python tests/bench/cli_jobs.py [--documents N] [--folder PATH ...] [--rounds N]
                                   [--before CHECKOUT]

The corpus: the first `--documents` real documents of tests/bench/pipelines.py's corpus
(tests/support/real_documents.py, then each `--folder`), cycled if there are fewer (the first
line says how many are distinct), written to a temporary folder; each command reads it and
writes JSON Lines to a file with `-o` (a process start included, from cached bytecode).

- Wall time: `--jobs 1` and `--jobs 2` run in turn, once a round, after a warm-up round;
  each figure is a median over the rounds, and the ratio is the median of the rounds' own
  ratios (each pair ran back to back, so load that comes and goes falls on both). On two
  cores, the ratio means something only where nothing else runs (the load is printed), so
  it is given again over the quiet rounds alone: those in which the rest of the machine
  used under `QUIET` of a core during each run (Linux's /proc/stat, less the run's own CPU).
- CPU split: each command again, under a wrapper that times in CPU seconds, which a loaded
  machine stretches far less than wall time: `--jobs 1`'s process; and for `--jobs 2` the
  parent up to the worker's start (Python's start, the imports, the arguments, the first
  batches listed), starting it, the parent's own cutting (`run_one`, `run_batch`, reading
  included), the rest of its work after (listing the rest, sending, taking the answers,
  writing), and the worker's CPU. The parent's path is the longer on two free cores, so `--jobs 1` / parent
  bounds what `--jobs 2` gains there.

With `--before`, the same rows for another checkout (a `git worktree` of an older commit), in
the same rounds, each command taking its turn.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests" / "bench"), str(ROOT / "tests")]

from pipelines import corpus, write_folder  # noqa: E402

# Run as `python -c WRAPPER ARGS...`: the command line of the checkout on PYTHONPATH, timed by
# patching what the parent calls to cut a file and what starts the workers. Prints one JSON
# object on standard error.
WRAPPER = """
import json, resource, sys, time
import chunker.cli as cli
import chunker.pipelines.pool as pool
marks = {"cutting": 0.0}
def timed(cut):
    def timed_cut(*args):
        began = time.process_time()
        try:
            return cut(*args)
        finally:
            marks["cutting"] += time.process_time() - began
    return timed_cut
start = pool._Pool.__init__
def timed_start(self, *args):
    marks["worker_from"] = time.process_time()
    start(self, *args)
    marks["worker_to"] = time.process_time()
# A file, or a batch, cut here (a worker's batch goes through the pool's own reference).
cli.run_one, cli.run_batch = timed(cli.run_one), timed(cli.run_batch)
pool._Pool.__init__ = timed_start
code = cli.main(sys.argv[1:])
marks["total"] = time.process_time()
children = resource.getrusage(resource.RUSAGE_CHILDREN)
marks["workers"] = children.ru_utime + children.ru_stime
print(json.dumps(marks), file=sys.stderr)
sys.exit(code)
"""


# A round's wall times count as quiet if the rest of the machine used less than this much of a
# core during each of its two runs: on two cores, what another process takes comes out of
# `--jobs 2`'s time far more than out of `--jobs 1`'s, and a wall ratio means nothing then.
QUIET = 0.05


def environment(checkout: Path, scratch: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's command line starts from cached bytecode
    env["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache" / str(abs(hash(checkout))))
    return env


def command(jobs: int, folder: Path, output: Path) -> list[str]:
    return ["chunk", "--quiet", "--jobs", str(jobs), "-o", str(output), str(folder)]


def wall(checkout: Path, scratch: Path, arguments: list[str]) -> tuple[float, float]:
    """The command's wall time, and how much of a core the rest of the machine used meanwhile
    (the machine's busy time less the command's own; 0 where that cannot be read)."""
    env = environment(checkout, scratch)
    busy = machine_busy()
    began = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "chunker", *arguments], env=env, cwd=scratch)
    _, status, usage = os.wait4(process.pid, 0)
    taken = time.perf_counter() - began
    if status:
        raise SystemExit(f"the command failed: {arguments}")
    others = machine_busy() - busy - usage.ru_utime - usage.ru_stime
    return taken, max(others, 0.0) / taken


def machine_busy() -> float:
    """Seconds of CPU the machine's cores have spent busy since it started (Linux's
    /proc/stat), 0 elsewhere."""
    try:
        with open("/proc/stat") as stat:
            ticks = [int(field) for field in stat.readline().split()[1:]]
    except OSError:
        return 0.0
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")  # less idle, iowait


def split(checkout: Path, scratch: Path, arguments: list[str]) -> dict[str, float]:
    env = environment(checkout, scratch)
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, *arguments],
        env=env,
        cwd=scratch,  # not this checkout's folder, which `-c` and `-m` would import from
        check=True,
        stderr=subprocess.PIPE,
    )
    return json.loads(done.stderr.decode().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=2000, help="real documents (cycled)")
    parser.add_argument(
        "--folder", action="append", type=Path, default=[], help="a folder of documents to take"
    )
    parser.add_argument("--rounds", type=int, default=9, help="timed rounds")
    parser.add_argument("--before", type=Path, help="another checkout, timed beside this one")
    args = parser.parse_args()
    checkouts = [("this checkout", ROOT)]
    if args.before is not None:
        checkouts.append((f"before ({args.before})", args.before.resolve()))
    print(
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load {os.getloadavg()[0]:.1f} at the start"
    )
    texts = corpus(args.documents, tuple(args.folder))
    print(
        f"Corpus: {len(texts):,} real documents ({len(set(texts)):,} distinct), "
        f"{sum(map(len, texts)) / 1e6:.1f} M characters; {args.rounds} rounds"
    )
    with tempfile.TemporaryDirectory() as temporary:
        scratch = Path(temporary)
        folder = scratch / "in"
        folder.mkdir()
        write_folder(folder, texts)
        output = scratch / "out.jsonl"
        walls: dict[tuple[str, int], list[tuple[float, float]]] = {}
        splits: dict[tuple[str, int], list[dict[str, float]]] = {}
        for round_number in range(args.rounds + 1):
            for name, checkout in checkouts:
                for jobs in (1, 2):
                    taken = wall(checkout, scratch, command(jobs, folder, output))
                    marks = split(checkout, scratch, command(jobs, folder, output))
                    if round_number:  # the first round warms up (and compiles the bytecode)
                        walls.setdefault((name, jobs), []).append(taken)
                        splits.setdefault((name, jobs), []).append(marks)
    print(f"Load {os.getloadavg()[0]:.1f} at the end\n")
    print(
        "| checkout | `--jobs 1` s | `--jobs 2` s | `--jobs 1` / `--jobs 2` (wall) | "
        f"the same, rounds the rest used under {QUIET:.0%} of a core in | "
        "`--jobs 1` CPU s | parent before the worker starts | starting it | parent cutting | "
        "parent's other work after | worker | `--jobs 1` / parent (CPU) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, _ in checkouts:
        pairs = list(zip(walls[(name, 1)], walls[(name, 2)]))
        one, two = [a for (a, _), _ in pairs], [b for _, (b, _) in pairs]
        ratio = statistics.median(a / b for a, b in zip(one, two))
        quiet = [a / b for (a, rest_a), (b, rest_b) in pairs if max(rest_a, rest_b) < QUIET]
        quiet_ratio = f"{statistics.median(quiet):.2f}x ({len(quiet)})" if quiet else "none"
        alone = statistics.median(marks["total"] for marks in splits[(name, 1)])
        parts = splits[(name, 2)]

        def median(key: str, parts: list[dict[str, float]] = parts) -> float:
            return statistics.median(marks[key] for marks in parts)

        after = statistics.median(m["total"] - m["worker_to"] - m["cutting"] for m in parts)
        starting = statistics.median(m["worker_to"] - m["worker_from"] for m in parts)
        print(
            f"| {name} | {statistics.median(one):.3f} | {statistics.median(two):.3f} | "
            f"{ratio:.2f}x | {quiet_ratio} | {alone:.3f} | {median('worker_from'):.3f} | "
            f"{starting:.4f} | "
            f"{median('cutting'):.3f} | {after:.3f} | {median('workers'):.3f} | "
            f"{alone / median('total'):.2f}x |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
