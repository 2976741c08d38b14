"""What a user's type checker sees: tests/types/user_code.py, which reads every public
attribute of chunker's classes and results, checks under `mypy --strict` and runs, and it
keeps reading every one as attributes are added; it marks the mistakes a checker must catch
(a misspelt strategy or option, an option of the other chunker, a chunk of the other kind),
and the typed options are the chunkers' own."""

from __future__ import annotations

import dataclasses
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest
from support.paths import ROOT

import chunker
from chunker import ChunkingEngine, SemanticChunker
from chunker.engine import ChunkingStrategy
from chunker.option_types import EngineOptions, SemanticOptions
from chunker.recipe import PIPELINE_STRATEGIES, EngineStrategy, PipelineStrategy

USER_CODE = ROOT / "tests" / "types" / "user_code.py"


def test_a_users_code_checks_strictly(tmp_path: Path) -> None:
    # The package's own modules are followed but not reported on, as for an installed package.
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--follow-imports=silent",
            "--cache-dir",
            str(tmp_path / "cache"),
            str(USER_CODE.relative_to(ROOT)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_users_code_runs() -> None:
    """What it reads is there at run time too, and the mistakes it marks raise."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, str(USER_CODE)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def public_attributes(cls: type) -> set[str]:
    """The attributes a user reaches on `cls`: its fields, slots, properties and methods,
    those of the package's own bases included, none of `object`'s or a dunder."""
    names = set()
    if dataclasses.is_dataclass(cls):
        names.update(field.name for field in dataclasses.fields(cls))
    for base in cls.__mro__:
        if base.__module__.startswith("chunker"):
            names.update(name for name in vars(base) if not name.startswith("_"))
    return names


def test_the_users_code_reads_every_public_attribute() -> None:
    code = USER_CODE.read_text(encoding="utf-8")
    missing = []
    for name in chunker.__all__:
        value = getattr(chunker, name)
        if not re.search(rf"\b{re.escape(name)}\b", code):
            missing.append(name)
        if inspect.isclass(value):
            missing += [
                f"{name}.{attribute}"
                for attribute in sorted(public_attributes(value))
                if not re.search(rf"\.{attribute}\b", code)
            ]
    assert not missing, f"not read in {USER_CODE.name}: {missing}"


@pytest.mark.parametrize(
    ("typed", "call", "left_out"),
    [
        (SemanticOptions, SemanticChunker.__init__, {"self"}),
        (EngineOptions, ChunkingEngine.chunk, {"self", "content", "strategy", "embed_fn"}),
    ],
    ids=["SemanticOptions", "EngineOptions"],
)
def test_the_typed_options_are_the_chunkers_own(typed, call, left_out):
    """What a checker reads for `chunk` and `chunk_many`'s options: each option the chunker
    takes, with the type its signature gives, and no other."""
    parameters = inspect.signature(call).parameters
    wanted = {name: p.annotation for name, p in parameters.items() if name not in left_out}
    declared = {name: hint.__forward_arg__ for name, hint in typed.__annotations__.items()}
    assert declared == wanted
    assert typed.__optional_keys__ == frozenset(wanted)  # each may be left out


def test_the_typed_strategies_are_the_pipelines_own():
    assert get_args(PipelineStrategy) == PIPELINE_STRATEGIES
    # The engine's own `semantic` needs an embed_fn, which a pipeline cannot send.
    assert set(get_args(EngineStrategy)) == set(chunker.STRATEGIES) - {"semantic"}
    assert get_args(ChunkingStrategy) == chunker.STRATEGIES


def test_the_option_types_are_the_checkers_alone():
    # A TypedDict costs as its module loads: nothing the package runs imports them.
    probe = (
        "import sys, chunker, chunker.evaluation, chunker.cli, chunker.bridge; "
        "list(chunker.chunk_many(['One.'], jobs=1)); chunker.chunk('One.'); "
        "print('chunker.option_types' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    assert result.stdout.strip() == "False"
