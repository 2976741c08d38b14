"""The cyclic collector is paused while a chunker cuts, and left as the caller had it."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from chunker import ChunkingEngine, SemanticChunker
from chunker.base.collector import collector_paused
from chunker.bridge import JsString, handle

TEXT = "# Title\n\nOne paragraph. Another sentence.\n\n```\ncode\n```\n\n| a | b |\n|---|---|\n"

SEMANTIC = SemanticChunker(overlap=10)
ENGINE = ChunkingEngine()
CUTS: dict[str, Callable[[str], object]] = {
    "SemanticChunker": SEMANTIC.chunk,
    **{
        strategy: (lambda text, strategy=strategy: ENGINE.chunk(text, strategy))
        for strategy in ("fixed", "hierarchical", "layout", "semantic")
    },
    # The worker's call: the chunks packed, then freed, all before the collector is back.
    "bridge": lambda text: handle("SemanticChunker.chunk", "{}", "text", JsString(text, ())),
}


@pytest.fixture
def collector_state() -> Iterator[None]:
    was, threshold = gc.isenabled(), gc.get_threshold()
    yield
    gc.set_threshold(*threshold)
    if was:
        gc.enable()
    else:
        gc.disable()


def collections_during(call: Callable[[], object]) -> int:
    """How many times the collector ran during `call`, set to run at nearly every allocation."""
    runs = 0

    def count(phase: str, info: dict) -> None:
        nonlocal runs
        runs += phase == "start"

    call()  # anything made once, on first use, made now
    gc.collect()  # the count of allocations since the last run starts at 0
    gc.callbacks.append(count)
    gc.set_threshold(1)
    try:
        call()
    finally:
        gc.callbacks.remove(count)
    return runs


# Counted in an interpreter of its own: what earlier tests leave behind (Hypothesis's state, on
# Python 3.10) can add a collection to one count and not the other.
COUNT_IN_A_FRESH_PYTHON = """
import gc, json, sys
import test_collector as here
cut = here.CUTS[sys.argv[1]]
gc.enable()
short = here.collections_during(lambda: cut(here.TEXT))
long = here.collections_during(lambda: cut(here.TEXT * 100))
print(json.dumps([short, long, gc.isenabled()]))
"""


@pytest.mark.parametrize("name", sorted(CUTS))
def test_the_collector_does_not_run_more_for_a_longer_text(name: str) -> None:
    here = Path(__file__).resolve().parent  # tests/core/, below the root that holds chunker/
    path = os.pathsep.join([str(here.parents[1]), str(here)])
    done = subprocess.run(
        [sys.executable, "-c", COUNT_IN_A_FRESH_PYTHON, name],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path},
        check=True,
    )
    short, long, enabled = json.loads(done.stdout)
    assert long == short  # unpaused, a hundred times the records make it run far more often
    assert enabled


@pytest.mark.parametrize("name", sorted(CUTS))
def test_the_collector_does_not_run_as_a_call_ends(name: str, collector_state: None) -> None:
    cut = CUTS[name]
    long = TEXT * 5000
    cut(long)  # anything made once, on first use, made now
    gc.enable()
    runs = 0

    def count(phase: str, info: dict) -> None:
        nonlocal runs
        runs += phase == "start"

    gc.collect()  # the count of allocations since the last run starts at 0
    gc.callbacks.append(count)
    try:
        chunks = cut(long)
    finally:
        gc.callbacks.remove(count)
    # The call counted enough allocations for a run, and left it to the caller's next one.
    assert gc.get_count()[0] > gc.get_threshold()[0]
    assert runs == 0
    del chunks


@pytest.mark.parametrize("name", sorted(CUTS))
def test_a_collector_turned_off_stays_off(name: str, collector_state: None) -> None:
    gc.disable()
    CUTS[name](TEXT)
    assert not gc.isenabled()


def test_the_collector_comes_back_after_an_error(collector_state: None) -> None:
    gc.enable()
    with pytest.raises(RuntimeError), collector_paused():
        assert not gc.isenabled()
        raise RuntimeError("inside")
    assert gc.isenabled()


def test_pauses_nest(collector_state: None) -> None:
    gc.enable()
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
