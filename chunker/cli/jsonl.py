"""`chunker chunk`'s records as JSON Lines, written from the chunks' facts by f-strings.

Each line is the text of `json.dumps({"source": name, **chunk.to_dict(spans=True)},
ensure_ascii=False)`, but without a dict per chunk and a walk of it by the encoder, which
took longer than cutting (tests/bench/pipelines.py). `SemanticChunker`'s chunks come as
columns (`chunk_columns`: no record made); with a token budget, and for the engine's
strategies, from the records. Strings go through `json`'s own encoders of strings (`quoted`),
so they are escaped as `json.dumps` escapes them; tests/pipelines/test_cli_jsonl.py holds the
two equal for every strategy.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any

from chunker.recipe import Recipe
from chunker.text.records import Chunk, DocumentChunk

__all__ = ["ChunkLines", "quoted"]


def quoted(text: str) -> str:
    """`text` as `json.dumps(text, ensure_ascii=False)` writes it, by json's own encoders
    (their C ones where built). Most chunks are ASCII, which `str.isascii` reads off a flag,
    and for them json's ASCII encoder writes the same (but DEL, which it escapes) and is
    faster: the JSON of a chunk's text is a large part of `chunker chunk -o`
    (tests/bench/pipelines.py)."""
    if text.isascii() and "\x7f" not in text:
        return encode_basestring_ascii(text)
    return encode_basestring(text)


class ChunkLines:
    """The JSON Lines of a text's chunks as `recipe` cuts them; the chunker made on first use
    and kept (it is sent to worker processes as its recipe)."""

    __slots__ = ("recipe", "_lines")

    def __init__(self, recipe: Recipe) -> None:
        self.recipe = recipe
        self._lines: Callable[[str, str], list[str]] | None = None

    def __reduce__(self) -> tuple[type[ChunkLines], tuple[Recipe]]:
        return ChunkLines, (self.recipe,)

    def __call__(self, name: str, text: str) -> list[str]:
        """The records of `text`'s chunks, one JSON object each, `source` being `name`."""
        if self._lines is None:
            self._lines = self._writer()
        return self._lines(name, text)

    def _writer(self) -> Callable[[str, str], list[str]]:
        recipe = self.recipe
        if recipe.strategy == "semantic" and not recipe.has_budget:
            from chunker.semantic_chunker import SemanticChunker

            return _columns_writer(SemanticChunker(**(recipe.options or {})))
        return _records_writer(recipe.cutter())


def _columns_writer(chunker: Any) -> Callable[[str, str], list[str]]:
    def lines(name: str, text: str) -> list[str]:
        columns = chunker.chunk_columns(text)
        offsets, spans, overlaps = columns.offsets, columns.spans, columns.overlap_spans
        head = f'{{"source": {quoted(name)}, "text": '
        out = []
        for index, (chunk_text, boundary) in enumerate(
            zip(columns.chunk_texts(text), columns.boundaries)
        ):
            two = 2 * index
            overlap_from = overlaps[two]
            overlap = (
                "null"
                if overlap_from < 0
                else f'{{"start": {overlap_from}, "end": {overlaps[two + 1]}}}'
            )
            out.append(
                f'{head}{quoted(chunk_text)}, "index": {index}, '
                f'"startOffset": {offsets[two]}, "endOffset": {offsets[two + 1]}, '
                f'"boundaryType": "{boundary}", '
                f'"span": {{"start": {spans[two]}, "end": {spans[two + 1]}}}, '
                f'"overlapSpan": {overlap}}}'
            )
        return out

    return lines


def _records_writer(cut: Callable[[str], Any]) -> Callable[[str, str], list[str]]:
    def lines(name: str, text: str) -> list[str]:
        source = f'{{"source": {quoted(name)}, '
        return [_record_line(source, chunk) for chunk in cut(text)]

    return lines


def _record_line(source: str, chunk: Chunk | DocumentChunk) -> str:
    """One record's line, its keys in `to_dict(spans=True)`'s order."""
    start, end = chunk.span
    if isinstance(chunk, Chunk):
        line = (
            f'{source}"text": {quoted(chunk.text)}, "index": {chunk.index}, '
            f'"startOffset": {chunk.start_offset}, "endOffset": {chunk.end_offset}, '
            f'"boundaryType": "{chunk.boundary_type}"'
        )
    else:
        line = f'{source}"content": {quoted(chunk.content)}, "index": {chunk.index}'
        if chunk.heading is not None:
            line += f', "heading": {quoted(chunk.heading)}'
    if chunk.metadata is not None:
        line += f', "metadata": {json.dumps(dict(chunk.metadata), ensure_ascii=False)}'
    if chunk.token_count is not None:
        line += f', "tokenCount": {chunk.token_count}'
    line += f', "span": {{"start": {start}, "end": {end}}}'
    if isinstance(chunk, Chunk):
        overlap = chunk.overlap_span
        line += (
            ', "overlapSpan": null'
            if overlap is None
            else f', "overlapSpan": {{"start": {overlap[0]}, "end": {overlap[1]}}}'
        )
    return line + "}"
