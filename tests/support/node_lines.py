"""A Node process that runs a module's test script and answers one line of JSON a case, kept
for a test module's cases (starting Node per Hypothesis example would cost most of a run)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def node_answering(script: str, module: Path) -> Iterator[subprocess.Popen[str]]:
    """Node running `script` (an ES module's source, given `module`'s URL as its argument),
    its standard input and output text in UTF-8 that carries lone surrogates."""
    process = subprocess.Popen(
        ["node", "--input-type=module", "-e", script, module.as_uri()],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="surrogatepass",
    )
    try:
        yield process
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=30)
