"""The `chunker` command line (`python -m chunker`): `chunk`, `turns` and `snippet` over files,
folders and standard input, JSON records out, over several processes. Standard library only;
the core never imports it. Exit codes: `parser.EXIT_CODES`."""

from __future__ import annotations

import argparse
import atexit
import contextlib
import io
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import chain
from typing import TYPE_CHECKING, Any, NoReturn

from chunker.cli.flags import flag
from chunker.cli.inputs import Decoding, Listing, Source
from chunker.cli.jsonl import ChunkLines
from chunker.cli.output import (
    Discard,
    OutputError,
    Progress,
    RecordWriter,
    open_output,
    record_bytes,
    writing,
)
from chunker.cli.parser import (
    COMMANDS,
    build_parser,
    given_options,
    snippet_options,
    turns_options,
)
from chunker.cli.tasks import (
    Done,
    Job,
    SnippetJob,
    TurnsJob,
    chunk_source,
    run_batch,
    run_one,
    snippet_source,
    turns_source,
)
from chunker.pipelines.many import spread
from chunker.pipelines.pool import WorkerError
from chunker.recipe import Recipe, options_of

if TYPE_CHECKING:
    from chunker.cli.since import Changes

__all__ = ["main", "command"]


class _Interrupted(BaseException):
    """Ctrl-C or SIGTERM, raised where the program is, so the output file and the worker
    processes are cleaned up; `number` is the signal's. Not an `Exception`: nothing that
    keeps an input's error for its turn (`pool.map_in_order`) may keep an interrupt."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def command() -> NoReturn:
    """`chunker` as a program (the console script, `python -m chunker`): `main` on the
    process's arguments, then the process ends with its exit code."""
    code = main()
    if sys.gettrace() is not None or sys.getprofile() is not None:
        sys.exit(code)  # a tracer or a profiler (coverage, cProfile) reports as Python exits
    # Ended at once, its exit handlers run and its output flushed: the interpreter's own
    # teardown (a last collection, and every object freed; after worker processes, each page
    # they shared written to again) took as long as cutting a few hundred short files
    # (tests/bench/cli_jobs.py).
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(code)  # Python's exit says what failed, as it always did
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with `argv` (default: `sys.argv[1:]`); answer the exit code."""
    given = sys.argv[1:] if argv is None else list(argv)
    # Only the command that runs is built in full (`build_parser`); `--help` builds them all.
    parser, commands = build_parser(given[0] if given and given[0] in COMMANDS else None)
    try:
        args = _parsed(parser, given)
        parser = commands[args.command]  # its usage line, in the errors below
        if args.command == "evaluate":
            from chunker.cli.evaluate import run_evaluate

            return run_evaluate(parser, args)
        if args.jobs is not None and args.jobs < 1:
            parser.error(f"argument --jobs: must be at least 1, got {args.jobs}")
        job = _plan(parser, args)._replace(since=_since(parser, args))
        signal.signal(signal.SIGTERM, _on_interrupt)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not ignored (`&`)
            signal.signal(signal.SIGINT, _on_interrupt)
        try:
            return _run(args, job)
        except _Interrupted as interrupt:
            print(f"chunker: interrupted{_not_written(args)}", file=sys.stderr)
            return 128 + interrupt.number  # as a shell reports a run the signal ended
        except WorkerError as error:
            print(f"chunker: {error}{_not_written(args)}", file=sys.stderr)
            return 5
    except BrokenPipeError:
        # The reader left (`chunker chunk docs | head`): stop quietly, with the status of a
        # tool that SIGPIPE ends (128 + 13), as `cat` would.
        _drop_standard_output()
        return 141
    except OutputError as error:
        _drop_standard_output()
        print(f"chunker: {error}", file=sys.stderr)
        return 4


def _parsed(parser: argparse.ArgumentParser, given: list[str]) -> argparse.Namespace:
    """`given` read by `parser`. `--help` and `--version` print and exit; argparse swallows an
    OSError as it writes (some Python releases, 3.11.7 among them), so what it prints is kept
    here and written by us, and a failing standard output is an `OutputError` too."""
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            return parser.parse_args(given)
    except SystemExit:
        with writing("standard output"):
            sys.stdout.write(printed.getvalue())
            sys.stdout.flush()
        raise


def _drop_standard_output() -> None:
    # What is still buffered goes to /dev/null: flushing it at exit would fail again, loudly.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _on_interrupt(number: int, frame: Any) -> None:
    # The first signal stops the run; those after it (a second Ctrl-C) are ignored, so the
    # cleaning up (workers ended, the temporary -o file removed) is never cut short.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise _Interrupted(number)


def _plan(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Job:
    """The work on each input, its options checked: a bad one is a usage error (exit 2)
    naming its flag, before any input is read."""
    decoding = Decoding(args.encoding, args.errors)
    if args.command == "chunk":
        return Job(chunk_source, ChunkLines(_recipe(parser, args)), decoding, args.format)
    if args.command == "turns":
        from chunker.turns import chunk_turns

        options = given_options(args, turns_options())
        _check(parser, options, lambda **some: chunk_turns([], **some))
        return Job(turns_source, TurnsJob(options), decoding, args.format)
    from chunker.search.lexical import lexical_tokens, snippet_around

    options = given_options(args, snippet_options())
    _check(parser, options, lambda **some: snippet_around("", [], **some))
    words = lexical_tokens(args.query)
    if not words:
        parser.error(f"QUERY {args.query!r} has no words to find")
    return Job(snippet_source, SnippetJob(words, options), decoding, args.format)


def _since(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Changes | None:
    """The previous output `--since` names, read before any input; a usage error (exit 2)
    naming the flag and the file if it cannot be read as one."""
    path = getattr(args, "since", None)
    if path is None:
        return None
    from chunker.cli.since import SinceError, read_since  # its ids hash: only when asked

    try:
        return read_since(path)
    except SinceError as error:
        parser.error(f"argument --since: {error}")


def _recipe(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Recipe:
    takes = options_of(args.strategy)
    every = {**options_of("semantic"), **options_of("fixed")}
    given = given_options(args, every)
    for name in given:
        if name not in takes:
            parser.error(
                f"{flag(name)} does not apply to --strategy {args.strategy} "
                f"(it takes {', '.join(flag(n) for n in takes)})"
            )
    _check(parser, given, lambda **some: Recipe(args.strategy, some))
    return Recipe(args.strategy, given)


def _check(
    parser: argparse.ArgumentParser, options: dict[str, Any], make: Callable[..., Any]
) -> None:
    """`make(**options)`, or a usage error: naming the flag whose value alone is wrong, else
    saying which rule between options failed (`chunk_overlap` below `chunk_size`)."""
    try:
        make(**options)
        return
    except (TypeError, ValueError) as together:
        problem = str(together)
    for name, value in options.items():
        try:
            make(**{name: value})
        except (TypeError, ValueError) as error:
            # Blamed only if the error is about it (validation.py's messages start so), not
            # about another option's default it clashes with.
            if str(error).startswith((f"invalid {name} ", f"{name} must")):
                parser.error(f"argument {flag(name)}: {error}")
    parser.error(problem)


def _run(args: argparse.Namespace, job: Job) -> int:
    glob = getattr(args, "glob", None)
    listing = Listing(args.paths, glob)
    problems = listing.problems
    shown = not args.quiet and (args.progress or sys.stderr.isatty())
    listed: Iterator[Source] = iter(listing)
    files_in_all = bytes_in_all = 0
    workers = args.jobs is not None and args.jobs > 1
    if shown or args.verbose or not workers:
        # Listed whole first: the progress line's totals; what is skipped said before any
        # input's message; and without `--jobs` N (one process, or the default's, which
        # starts workers only after timing its first files), no worker waits for the first
        # files, and a listing taken between cuts made the run slower
        # (tests/bench/cli_jobs.py). Else folders are walked as their files are taken, and
        # the workers start on the first.
        found = list(listed)
        files_in_all, bytes_in_all = len(found), sum(source.size for source in found)
        listed = iter(found)
        if args.verbose:
            for skipped in listing.skipped:
                print(f"chunker: {skipped}", file=sys.stderr)
    first = next(listed, None)
    if first is None and not problems:  # only folders, holding nothing to read
        found_none = f"match --glob {glob!r}" if glob else "(hidden files are skipped)"
        where = ", ".join(args.paths)
        print(
            f"chunker: no inputs: no files in {where} {found_none}{_not_written(args)}",
            file=sys.stderr,
        )
        return 3
    progress = Progress(files_in_all, bytes_in_all, enabled=shown)
    for problem in problems:
        progress.say(f"chunker: {problem}")
    sources = _Taken(listed if first is None else chain([first], listed), job.since is not None)
    failed = len(problems)
    try:
        with open_output(args.output) as out:
            writer = RecordWriter(out, args.format, args.output)
            for done in _done(iter(sources), args.jobs, job):
                files = size = 0
                for part in done:
                    for error in part.errors:
                        progress.say(f"chunker: {error}")
                    failed += len(part.errors)
                    writer.write(part.data, part.records)
                    files, size = files + part.files, size + part.size
                progress.advance(files, size)
            if job.since is not None:
                removed = job.since.rest(set(sources.names or ()))
                writer.write(record_bytes(removed, args.format), len(removed))
            writer.close()
            total = sources.count + len(problems)
            if failed == total:  # an earlier -o file is worth more than an empty one
                raise Discard
    finally:
        progress.close()
    not_written = _not_written(args) if failed == total else ""
    if failed and (not args.quiet or not_written):
        print(f"chunker: {failed} of {total} inputs failed{not_written}", file=sys.stderr)
    return 1 if failed else 0


class _Taken:
    """The sources as the run takes them (once), counted, and their names kept if asked
    (`--since` tells the sources gone once all are taken)."""

    __slots__ = ("_sources", "count", "names")

    def __init__(self, sources: Iterator[Source], keep_names: bool) -> None:
        self._sources = sources
        self.count = 0
        self.names: list[str] | None = [] if keep_names else None

    def __iter__(self) -> Iterator[Source]:
        names = self.names
        for source in self._sources:
            self.count += 1
            if names is not None:
                names.append(source.name)
            yield source


def _done(sources: Iterator[Source], jobs: int | None, job: Job) -> Iterator[list[Done]]:
    """The inputs done, in order, a file at a time here or a batch at a time from a worker
    process, as `chunk_many` decides (`spread`: `--jobs` or, by default, from the input's
    size, the work's speed and the cores). Counted on the progress line as they come: a file
    of a batch counted alone would be credited with the whole batch's time."""
    return spread(
        sources,
        jobs,
        _size_of,
        partial(run_one, job),
        run_batch,
        job,
        _answered,
        batch_here=partial(run_batch, job),
        own_process=True,
    )


def _answered(batch: list[Source], done: Done) -> list[Done]:
    return [done]


def _not_written(args: argparse.Namespace) -> str:
    return f"; {args.output} was not written" if args.output not in (None, "-") else ""


def _size_of(source: Source) -> int:
    return source.size
