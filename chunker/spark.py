"""`chunk_dataframe`: a PySpark DataFrame of documents into a DataFrame of chunks, cut on the
executors with the pure-Python core (`pip install 'chunkspan[spark]'`; on a cluster, ship the
wheel with `spark-submit --py-files`). The core never imports this module.

Nothing is collected to the driver: the documents' partitions are cut where they are. Where
PySpark's Arrow path is there (pyarrow and pandas installed, `pyspark[sql]`), the executors
take the documents as Arrow batches and answer the chunks as Arrow columns (`mapInArrow`),
`SemanticChunker`'s from its columns with no record made; without it, rows of Python
objects (`rdd.mapPartitions`). Both give the same rows (tests/pipelines/test_spark.py); the
Arrow path spends less than half as long moving them (tests/bench/pipelines.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import partial
from typing import Any

from chunker.base.extras import require
from chunker.base.validation import ArgumentTypeError, ArgumentValueError
from chunker.recipe import FIELDS, Recipe, fields

require("pyspark", "spark", "chunker.spark")

from pyspark.sql import DataFrame  # noqa: E402
from pyspark.sql import types as T  # noqa: E402

__all__ = ["chunk_dataframe", "chunk_schema", "arrow_ready"]

# Each field's Spark type. Offsets are longs: a document may hold more than 2**31 characters.
_SPARK_TYPES: dict[type, T.DataType] = {
    int: T.LongType(),
    str: T.StringType(),
    list: T.ArrayType(T.StringType()),
}


def chunk_schema(id_field: T.StructField) -> T.StructType:
    """The chunks' columns: the document's id (as its own column), then `recipe.FIELDS`."""
    columns = [T.StructField(id_field.name, id_field.dataType, id_field.nullable)]
    columns += [T.StructField(name, _SPARK_TYPES[kind], True) for name, kind in FIELDS]
    columns[2] = T.StructField("text", T.StringType(), False)  # every chunk has a text
    return T.StructType(columns)


def chunk_dataframe(
    df: DataFrame,
    text_col: str = "text",
    id_col: str = "id",
    strategy: str = "semantic",
    **options: Any,
) -> DataFrame:
    """A DataFrame with a row per chunk of each document of `df`.

    Args:
        df: the documents, one a row.
        text_col: the column holding each document's text (a string; a null text has no
            chunks).
        id_col: the column identifying each document, copied onto its chunks' rows.
        strategy: `semantic` (`SemanticChunker`), or the engine's `fixed`, `hierarchical`,
            `layout`.
        options: the strategy's options by their Python names, checked here, on the driver.

    Columns: `id_col`, then `index`, `text`, `start`, `end` (the chunk's span),
    `overlap_start`, `overlap_end`, `boundary_type` (semantic), `heading`, `heading_level`,
    `ancestor_headings` (hierarchical), `block_type` (layout) and `token_count` (with a
    `tokenizer` or `max_tokens`), null where a strategy has no such field.

    Example (on a session `spark`)::

        documents = spark.createDataFrame([("a", "# One\n\nTwo.")], ["id", "text"])
        chunk_dataframe(documents, overlap=0).select("id", "index", "start", "end").collect()
        # [Row(id='a', index=0, start=0, end=11)]
    """
    recipe = Recipe(strategy, options)
    schema = {field.name: field for field in df.schema.fields}
    for argument, column in (("text_col", text_col), ("id_col", id_col)):
        if column not in schema:
            raise ArgumentValueError(
                argument, f"{argument} {column!r} is not a column of df (it has {list(schema)})"
            )
    if not isinstance(schema[text_col].dataType, T.StringType):
        raise ArgumentTypeError(
            "text_col",
            f"text_col {text_col!r} must be a string column, got {schema[text_col].dataType}",
        )
    if id_col in dict(FIELDS):
        raise ArgumentValueError(
            "id_col", f"id_col {id_col!r} would clash with the chunks' own column {id_col!r}"
        )
    columns = chunk_schema(schema[id_col])
    documents = df.select(id_col, text_col)
    if arrow_ready():
        from pyspark.sql.pandas.types import to_arrow_schema

        arrow_schema = to_arrow_schema(columns)
        return documents.mapInArrow(partial(_chunk_batches, recipe, arrow_schema), columns)
    rows = documents.rdd.mapPartitions(lambda partition: _chunk_rows(recipe, partition))
    return df.sparkSession.createDataFrame(rows, columns)


def arrow_ready() -> bool:
    """Whether PySpark's Arrow path can run here: pyarrow and pandas importable (PySpark
    checks both before it runs `mapInArrow`)."""
    from importlib.util import find_spec

    return find_spec("pyarrow") is not None and find_spec("pandas") is not None


def _chunk_batches(recipe: Recipe, schema: Any, batches: Iterable[Any]) -> Iterator[Any]:
    """On an executor: each Arrow batch of `(id, text)` as a batch of its chunks' columns,
    in `chunk_schema`'s order."""
    import pyarrow as pa

    semantic_columns = recipe.strategy == "semantic" and not recipe.has_budget
    if semantic_columns:
        from chunker.semantic_chunker import SemanticChunker

        chunker = SemanticChunker(**(recipe.options or {}))
    else:
        cut = recipe.cutter()
    names = [name for name, _ in FIELDS]
    for batch in batches:
        ids, texts = batch.column(0).to_pylist(), batch.column(1).to_pylist()
        out: dict[str, list[Any]] = {name: [] for name in ("id", *names)}
        for key, text in zip(ids, texts):
            if text is None:
                continue
            if semantic_columns:
                _add_semantic(out, key, text, chunker.chunk_columns(text))
                continue
            for chunk in cut(text):
                out["id"].append(key)
                flat = fields(chunk)
                for name in names:
                    out[name].append(flat[name])
        yield pa.RecordBatch.from_arrays(
            [pa.array(out[name], type=field.type) for name, field in zip(out, schema)],
            schema=schema,
        )


def _add_semantic(out: dict[str, list[Any]], key: Any, text: str, columns: Any) -> None:
    """`SemanticChunker`'s columns (`ChunkColumns`) as the fields `recipe.fields` gives."""
    count = len(columns)
    spans, overlaps = columns.spans, columns.overlap_spans
    out["id"] += [key] * count
    out["index"] += range(count)
    out["text"] += columns.chunk_texts(text)
    out["start"] += spans[0::2]
    out["end"] += spans[1::2]
    out["overlap_start"] += [None if at < 0 else at for at in overlaps[0::2]]
    out["overlap_end"] += [None if at < 0 else at for at in overlaps[1::2]]
    out["boundary_type"] += columns.boundaries
    for name in ("heading", "heading_level", "ancestor_headings", "block_type", "token_count"):
        out[name] += [None] * count


def _chunk_rows(recipe: Recipe, documents: Iterable[Any]) -> Iterator[tuple[Any, ...]]:
    """On an executor: a tuple per chunk, in `chunk_schema`'s order."""
    names = [name for name, _ in FIELDS]
    for key, text in documents:
        if text is None:
            continue
        for chunk in recipe.cut(text):
            flat = fields(chunk)
            yield (key, *(flat[name] for name in names))
