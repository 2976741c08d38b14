"""`chunker chunk --since OLD`: what changed since a previous output, by stable chunk ids
(`text.ids`: a chunk's source, its text, and how many chunks of the same text come before
it there), so a pipeline re-embeds the added chunks and deletes the removed ones alone.

Each line of the run says its `change` (docs/pipelines.md, "What changed since an output"):
`added`, a chunk not in OLD, its record in full with its `id`; `kept`, a chunk in OLD, its
`source`, `id` and new place (`index`, `span`) alone; `removed`, a chunk of OLD that is gone,
its `source` and `id`. The kept and added lines are the whole new chunking, so this output is
an OLD for the next run. OLD may be either kind, JSON Lines or a JSON array (`--format`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from chunker.cli.jsonl import quoted
from chunker.text.ids import chunk_ids

__all__ = ["Changes", "SinceError", "read_since"]


class SinceError(Exception):
    """OLD cannot be read as a previous output; the message names it and says why."""


class Changes:
    """The ids of OLD's chunks by source, against which each source's new chunks are told
    added or kept (`lines`, in the worker that made them) and the sources gone (`rest`)."""

    __slots__ = ("_old",)

    def __init__(self, old: dict[str, list[str]]) -> None:
        self._old = old

    def lines(self, source: str, records: list[str]) -> list[str]:
        """The lines of `source`, whose chunks' records (JSON objects, in order) this run
        wrote: each added chunk's record with its id, each kept one's place, then each
        removed chunk of OLD. Called where the records are made, a worker process for most."""
        name = quoted(source)
        chunks = [json.loads(record) for record in records]
        ids = chunk_ids(source, [_text_of(chunk) for chunk in chunks])
        old = self._old.get(source, [])
        before = set(old)
        out = []
        for record, chunk, chunk_id in zip(records, chunks, ids):
            if chunk_id in before:
                span = chunk["span"]
                out.append(
                    f'{{"source": {name}, "id": "{chunk_id}", "change": "kept", '
                    f'"index": {chunk["index"]}, '
                    f'"span": {{"start": {span["start"]}, "end": {span["end"]}}}}}'
                )
            else:
                # The record as it is, two keys added before its closing brace.
                out.append(f'{record[:-1]}, "id": "{chunk_id}", "change": "added"}}')
        now = set(ids)
        out += [_removed(name, gone) for gone in old if gone not in now]
        return out

    def rest(self, inputs: set[str]) -> list[str]:
        """A removed line for each chunk of a source of OLD that is not among this run's
        `inputs` (an input that could not be read says nothing of its chunks: none removed)."""
        return [
            _removed(quoted(source), gone)
            for source, old in self._old.items()
            if source not in inputs
            for gone in old
        ]


def read_since(path: str) -> Changes:
    """The chunks of the previous output at `path`; `SinceError` if it cannot be read or
    holds what no output of `chunker chunk` holds."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8"
        raise SinceError(f"cannot read {path!r}: {reason or error}") from None
    old: dict[str, list[str]] = {}
    texts: dict[str, list[str]] = {}
    for where, record in _records(path, text):
        if not isinstance(record, dict) or not isinstance(record.get("source"), str):
            raise SinceError(f"{path!r} {where} is no record of chunker chunk (no source)")
        if record.get("change") == "removed":
            continue
        source, given = record["source"], record.get("id")
        if isinstance(given, str):
            old.setdefault(source, []).append(given)
            continue
        chunk_text = _text_of(record)
        if chunk_text is None:
            raise SinceError(f"{path!r} {where} is no record of chunker chunk (no text or id)")
        old.setdefault(source, []).append("")  # its id below, numbered among its source's
        texts.setdefault(source, []).append(chunk_text)
    for source, ids in texts.items():
        made = iter(chunk_ids(source, ids))
        old[source] = [given or next(made) for given in old[source]]
    return Changes(old)


def _records(path: str, text: str) -> Iterator[tuple[str, Any]]:
    """Each record of `text`, with where it is (`line 3`, `record 3`)."""
    if text.lstrip().startswith("["):  # `--format json`: one array
        try:
            whole = json.loads(text)
        except json.JSONDecodeError as error:
            raise SinceError(f"{path!r} is not JSON ({error.msg}, line {error.lineno})") from None
        if not isinstance(whole, list):
            raise SinceError(f"{path!r} is no output of chunker chunk")
        for number, record in enumerate(whole, 1):
            yield f"record {number}", record
        return
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise SinceError(f"{path!r} line {number} is not JSON ({error.msg})") from None
            yield f"line {number}", record


def _text_of(record: dict[str, Any]) -> Any:
    """A record's chunk text: `text` (`semantic`) or `content` (the engine's), else None."""
    text = record.get("text", record.get("content"))
    return text if isinstance(text, str) else None


def _removed(name: str, chunk_id: str) -> str:
    """The line of a removed chunk of the source `name` (JSON already)."""
    return f'{{"source": {name}, "id": "{chunk_id}", "change": "removed"}}'
