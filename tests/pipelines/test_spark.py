"""`chunk_dataframe` on a real local Spark (`local[2]`, Java 17): over thousands of documents it
gives exactly the rows `chunk_many` gives, cut on the executors. One session for the module,
started and stopped here."""

from __future__ import annotations

import os
import shutil

import pytest
from pyspark.sql import types as T
from support.spark import local_session

from chunker import chunk_many
from chunker import spark as spark_module
from chunker.recipe import FIELDS, fields
from chunker.spark import chunk_dataframe

DOCUMENT_COUNT = 2_400
# What the session needs set only while it starts; read when this module is collected.
STARTING_ENVIRONMENT = {name: os.environ.get(name) for name in ("PYTHONPATH", "PYSPARK_PYTHON")}


def document(number: int) -> str:
    """Small documents of every shape: headings, repeats, emoji, CRLF, code, tables."""
    repeated = f"Paragraph {number % 7} says the same thing again."
    parts = [f"# Doc {number} 😀", repeated, repeated, "```\ncode()\n```", "| a | b |\n| 1 | 2 |"]
    text = "\n\n".join(parts[: 2 + number % 4]) + "\n\n## End\n\n" + "word " * (number % 50)
    return text.replace("\n", "\r\n") if number % 5 == 0 else text


@pytest.fixture(scope="module")
def spark():
    if shutil.which("java") is None:
        pytest.fail("Spark needs Java 17+ (`python3 build.py test` installs one: tools/java.py)")
    session = local_session("chunker-tests")
    yield session
    session.stop()


def test_the_session_leaves_the_environment_as_it_found_it(spark):
    # Left set, they made every later subprocess import this checkout, and a fresh venv's pip
    # take the checkout's chunkspan.egg-info for chunker installed.
    assert {name: os.environ.get(name) for name in STARTING_ENVIRONMENT} == STARTING_ENVIRONMENT


@pytest.fixture(scope="module")
def documents(spark):
    rows = [(f"doc-{n:05}", document(n)) for n in range(DOCUMENT_COUNT)]
    return rows, spark.createDataFrame(rows, ["id", "text"]).repartition(8)


def expected_rows(rows, strategy, **options):
    names = [name for name, _ in FIELDS]
    return sorted(
        (result.id, *(flat[name] for name in names))
        for result in chunk_many(rows, jobs=1, strategy=strategy, **options)
        for flat in map(fields, result.chunks)
    )


@pytest.mark.parametrize(
    ("strategy", "options"),
    [
        ("semantic", {"target_size": 60, "min_size": 10, "overlap": 15}),
        (
            "semantic",
            {"target_size": 60, "min_size": 10, "overlap": 15, "overlap_boundary": "sentence"},
        ),
        ("hierarchical", {"chunk_size": 40, "chunk_overlap": 8}),
        ("layout", {"chunk_size": 30, "chunk_overlap": 0}),
        (
            "semantic",
            {"target_size": 60, "overlap": 15, "max_tokens": 12, "tokenizer": "o200k_base"},
        ),
        ("fixed", {"chunk_size": 80, "chunk_overlap": 8, "max_tokens": 9}),
        ("fixed", {"chunk_size": 80, "chunk_overlap": 8, "boundaries": "content"}),
    ],
)
@pytest.mark.parametrize("arrow", [True, False], ids=["arrow", "rows"])
def test_spark_gives_exactly_the_rows_chunk_many_gives(
    documents, strategy, options, arrow, monkeypatch
):
    # Both paths: Arrow batches (mapInArrow) where pyarrow and pandas are installed, as they
    # are here, and rows of Python objects where they are not.
    assert spark_module.arrow_ready()
    monkeypatch.setattr(spark_module, "arrow_ready", lambda: arrow)
    rows, frame = documents
    chunks = chunk_dataframe(frame, strategy=strategy, **options)
    assert chunks.columns == ["id", *(name for name, _ in FIELDS)]
    plan = chunks._jdf.queryExecution().executedPlan().toString()
    assert ("MapInArrow" in plan) == arrow, plan
    got = sorted(tuple(row) for row in chunks.collect())
    expected = expected_rows(rows, strategy, **options)
    assert len(expected) > DOCUMENT_COUNT
    assert got == expected


def test_the_docstrings_example(spark):
    documents = spark.createDataFrame([("a", "# One\n\nTwo.")], ["id", "text"])
    rows = chunk_dataframe(documents, overlap=0).select("id", "index", "start", "end").collect()
    assert [tuple(row) for row in rows] == [("a", 0, 0, 11)]


def test_spark_columns_types_and_named_columns(spark):
    frame = spark.createDataFrame(
        [(7, "# Title\n\nBody text."), (8, None)],
        T.StructType([T.StructField("doc", T.LongType()), T.StructField("body", T.StringType())]),
    )
    chunks = chunk_dataframe(frame, text_col="body", id_col="doc", overlap=0)
    assert chunks.schema["doc"].dataType == T.LongType()
    assert chunks.schema["start"].dataType == T.LongType()
    assert chunks.schema["ancestor_headings"].dataType == T.ArrayType(T.StringType())
    assert [(r["doc"], r["index"], r["start"], r["boundary_type"]) for r in chunks.collect()] == [
        (7, 0, 0, "heading")
    ]


def test_spark_refuses_bad_arguments_on_the_driver(spark):
    frame = spark.createDataFrame([("a", 1)], ["id", "n"])
    with pytest.raises(ValueError, match="text_col 'text' is not a column"):
        chunk_dataframe(frame)
    with pytest.raises(TypeError, match="text_col 'n' must be a string column"):
        chunk_dataframe(frame, text_col="n")
    with pytest.raises(ValueError, match="invalid target_size 0"):
        chunk_dataframe(frame, text_col="id", target_size=0)
    with pytest.raises(ValueError, match="id_col 'index' would clash"):
        chunk_dataframe(frame.withColumnRenamed("n", "index"), text_col="id", id_col="index")
