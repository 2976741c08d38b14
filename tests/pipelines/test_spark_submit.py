"""docs/pipelines.md's `spark-submit` of its `chunk_corpus.py`, as written: the wheel, under a .zip
name, is all the job and its executors get of chunker. Its own file, so that it runs after the
other Spark module stopped its JVM."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pyspark
from support.readme import doc_block

from chunker import chunk_many
from chunker.recipe import fields
from tools.wheel import build_wheel


def document(number: int) -> str:
    repeated = f"Paragraph {number % 3} says the same thing again. 😀"
    # Long enough for the job's options to cut most documents more than once.
    text = f"# Doc {number}\n\n{repeated}\n\n{repeated}\n\n## End\n\n" + "word " * (number * 20)
    return text.replace("\n", "\r\n") if number % 2 else text


SUBMITTED_JOB = doc_block("pipelines.md", "# chunk_corpus.py")
# The options the job gives chunk_dataframe, read from it: the expected chunks use the same.
OPTIONS = next(
    {keyword.arg: ast.literal_eval(keyword.value) for keyword in node.keywords}
    for node in ast.walk(ast.parse(SUBMITTED_JOB))
    if isinstance(node, ast.Call) and ast.unparse(node.func) == "chunk_dataframe"
)


def test_spark_submit_with_the_wheel_as_py_files(tmp_path):
    wheel = build_wheel()
    copied = doc_block("pipelines.md", "cp dist/")  # as the docs copy it
    assert f"cp dist/{wheel.name} chunker.zip" in copied
    shipped = tmp_path / "chunker.zip"
    shipped.write_bytes(wheel.read_bytes())
    job = tmp_path / "chunk_corpus.py"
    job.write_text(SUBMITTED_JOB)
    rows = [(f"d{n}", document(n)) for n in range(40)]
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"id": key, "text": text}) + "\n" for key, text in rows))
    spark_submit = Path(pyspark.__file__).parent / "bin" / "spark-submit"
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    env["PYSPARK_PYTHON"] = sys.executable
    result = subprocess.run(
        [
            str(spark_submit),
            "--master",
            "local[2]",
            "--conf",
            "spark.ui.enabled=false",
            "--conf",
            "spark.driver.host=127.0.0.1",
            "--conf",
            "spark.driver.bindAddress=127.0.0.1",
            "--py-files",
            str(shipped),
            str(job),
            str(corpus),
            str(tmp_path / "chunks"),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    written = [
        json.loads(line)
        for part in sorted((tmp_path / "chunks").glob("part-*.json"))
        for line in part.read_text().splitlines()
    ]
    expected = [
        {"id": r.id, **{k: v for k, v in fields(c).items() if v is not None}}
        for r in chunk_many(rows, jobs=1, **OPTIONS)
        for c in r.chunks
    ]
    assert len(expected) > 2 * len(rows)  # documents cut, most more than once
    key = lambda row: (row["id"], row["index"])  # noqa: E731
    assert sorted(written, key=key) == sorted(expected, key=key)
