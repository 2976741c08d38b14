"""The local Spark session the Spark tests and the pipelines bench run on."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .paths import ROOT


def local_session(app_name: str) -> Any:
    """A `local[2]` session bound to 127.0.0.1, its UI off, whose Python workers import
    chunker from this checkout; the caller stops it. Imports pyspark only when called."""
    from pyspark.sql import SparkSession

    # Spark reads both when the session starts (the JVM it launches passes PYTHONPATH on to
    # the workers), and only then: set for the rest of the run, they made every later
    # subprocess import this checkout, and pip in a fresh venv take its chunkspan.egg-info
    # (left by `pip install .`) for chunker installed.
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    with _environment(PYTHONPATH=path, PYSPARK_PYTHON=sys.executable):
        session = (
            SparkSession.builder.master("local[2]")
            .appName(app_name)
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .getOrCreate()
        )
    session.sparkContext.setLogLevel("ERROR")
    return session


@contextmanager
def _environment(**values: str) -> Iterator[None]:
    """`os.environ` with `values` in the block, and as it was after it."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value
