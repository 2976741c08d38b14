"""One input's work for each command, done where it is sent (this process or a worker):
read it, cut it, write its records as the bytes of the output. The parent only puts them in
order and writes them out: made there, records would cost it as much as cutting them
(tests/bench/pipelines.py, `chunker chunk --jobs 2`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from chunker.cli.inputs import Decoding, InputError, Source, read_text
from chunker.cli.jsonl import ChunkLines
from chunker.cli.output import record_bytes, runs_joined

if TYPE_CHECKING:
    from chunker.cli.since import Changes

__all__ = [
    "Outcome",
    "Done",
    "Job",
    "run_batch",
    "run_one",
    "TurnsJob",
    "SnippetJob",
    "chunk_source",
    "turns_source",
    "snippet_source",
]


# Tuples, not dataclasses: each class is made as the command line starts, before a worker
# can, and a dataclass cost several times as much to make, its methods compiled from source
# (tests/bench/cli_jobs.py).


class Outcome(NamedTuple):
    """What one input gave: its records, or why it gave none."""

    source: Source
    records: list[str]
    """One JSON object each, without the line feed."""
    error: str | None = None


class Done(NamedTuple):
    """Inputs done, in order, as a worker answers them: their records as the output's bytes
    (`record_bytes`), and why those that gave none did not."""

    data: bytes
    records: int
    """How many records `data` holds."""
    errors: tuple[str, ...]
    files: int
    size: int
    """The inputs' bytes (`Source.size`), for the progress line."""

    def __reduce__(self) -> tuple[type[Done], tuple[Any, ...]]:
        # Its bytes out of band: a worker writes them to its pipe as they are, and the parent
        # reads them into the bytes it writes out (pool.py), where a pickle of them would copy
        # them in and out again.
        from pickle import PickleBuffer  # in a worker, where multiprocessing imported it

        return Done, (PickleBuffer(self.data), self.records, self.errors, self.files, self.size)


class TurnsJob(NamedTuple):
    """`chunk_turns`' options, checked by the command line before any input is read."""

    options: dict[str, Any]


class SnippetJob(NamedTuple):
    """The query's words and `snippet_around`'s options."""

    words: list[str]
    options: dict[str, Any]


class Job(NamedTuple):
    """A command's work on each input: what a worker process is sent once."""

    task: Callable[[Any, Source, str], Outcome]
    """What makes an input's text its records: `chunk_source`, `turns_source` or
    `snippet_source`."""
    shared: Any
    """What `task` takes first: the same for every input."""
    decoding: Decoding
    """How each input's bytes are read."""
    format: str
    """How records are written (`--format`: `jsonl` or `json`)."""
    since: Changes | None = None
    """`--since`'s previous output: each input's records become the lines of what changed."""


def run_batch(job: Job, batch: list[Source]) -> Done:
    """A command's task over a batch of inputs (what goes to a worker process at once), each
    read first: one that cannot be gives its error instead of records. Each input's records
    become bytes alone (`record_bytes`), and those are put together: a batch's records joined
    as one text first took that text's widest character for all of it, and twice as long
    to encode (tests/bench/cli_jobs.py)."""
    runs: list[bytes] = []
    records = 0
    errors: list[str] = []
    size = 0
    for source in batch:
        size += source.size
        try:
            text = read_text(source, job.decoding)
        except InputError as error:
            errors.append(str(error))
            continue
        outcome = job.task(job.shared, source, text)
        if outcome.error is not None:
            errors.append(outcome.error)
            continue
        lines = outcome.records
        if job.since is not None:
            lines = job.since.lines(source.name, lines)
        if lines:
            runs.append(record_bytes(lines, job.format))
            records += len(lines)
    return Done(runs_joined(runs, job.format), records, tuple(errors), len(batch), size)


def run_one(job: Job, source: Source) -> Done:
    """`run_batch` over one input: what this process does with each, as it comes."""
    return run_batch(job, [source])


def _encoded(source: Source, record: dict[str, Any]) -> str:
    return json.dumps({"source": source.name, **record}, ensure_ascii=False)


def chunk_source(lines: ChunkLines, source: Source, text: str) -> Outcome:
    """`chunker chunk`: a record per chunk, with its spans and the original's fields."""
    return Outcome(source, lines(source.name, text))


def turns_source(job: TurnsJob, source: Source, text: str) -> Outcome:
    """`chunker turns`: a transcript (a JSON list of turns, or JSON Lines) into passages."""
    from chunker.turns import chunk_turns

    try:
        turns = _transcript(source.name, text)
        passages = chunk_turns(turns, **job.options)
    except (InputError, TypeError, ValueError) as error:
        message = str(error)
        return Outcome(
            source, [], message if message.startswith(source.name) else f"{source.name}: {message}"
        )
    return Outcome(source, [_encoded(source, p.to_dict(spans=True)) for p in passages])


def _transcript(name: str, text: str) -> list[Any]:
    # A transcript's spans index its turns, not the file: a byte-order mark before the JSON
    # (which RFC 8259 lets a reader ignore, and `json` refuses) is no part of them.
    text = text.removeprefix("\ufeff")
    try:
        whole = json.loads(text)
    except json.JSONDecodeError as error:
        if error.msg != "Extra data":
            raise InputError(f"{name}: not JSON ({error.msg}, line {error.lineno})") from None
    else:
        return whole if isinstance(whole, list) else [whole]
    turns = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                turns.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise InputError(f"{name}: line {number} is not JSON ({error.msg})") from None
    return turns


def snippet_source(job: SnippetJob, source: Source, text: str) -> Outcome:
    """`chunker snippet`: the snippet of the first match, and where the words match in it."""
    from chunker.search.lexical import match_spans, snippet_around, word_re

    snippet = snippet_around(text, job.words, **job.options)
    record: dict[str, Any] = snippet.to_dict()
    # The matched word's span in the input: from `at` to the end of the word found there.
    record["match"] = (
        None
        if snippet.at < 0
        else {
            "start": snippet.at,
            "end": word_re().match(text, snippet.at).end(),  # type: ignore[union-attr]
        }
    )
    # Where the words fall in the snippet's own text, for the reader to highlight.
    record["spans"] = [{"start": s, "end": e} for s, e in match_spans(snippet.text, job.words)]
    return Outcome(source, [_encoded(source, record)])
