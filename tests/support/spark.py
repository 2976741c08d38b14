"""The local Spark session the Spark tests and the pipelines bench run on."""

from __future__ import annotations

import os
import sys
from typing import Any

from .paths import ROOT


def local_session(app_name: str) -> Any:
    """A `local[2]` session bound to 127.0.0.1, its UI off, whose Python workers import
    chunker from this checkout; the caller stops it. Imports pyspark only when called."""
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])
    )
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

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
