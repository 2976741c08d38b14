"""The README's examples that need the pipelines' packages, run for real with LangChain and
LlamaIndex installed (the core's alone: core/test_readme.py; the Spark job:
pipelines/test_spark_submit.py), and its command lines run as shown."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

import pytest
from support.paths import DATASETS, ROOT
from support.readme import docs_blocks, needs_extras, readme_block, run_block, runnable_blocks

# The command line's examples run in a folder holding what they name.
COMMANDS = readme_block("chunker chunk docs/")
HANDBOOK = "# Refunds\n\nRefunds go back to the card that paid.\n\n# Shipping\n\nTwo days.\n"
TURNS = [{"seq": 1, "text": "Hello."}, {"seq": 2, "text": "My refund is late."}]


def test_the_pipeline_examples_run_and_answer_what_they_show():
    blocks = runnable_blocks()
    assert sum(needs_extras(block) for block in blocks) >= 2  # LangChain, LlamaIndex
    # One session, in order: the pipelines' examples cut the handbook of "In Python".
    namespace: dict[str, object] = {"__name__": "readme"}
    assert [found for block in blocks for found in run_block(block, namespace)] == []


@pytest.mark.parametrize("page", ["evaluation.md", "pipelines.md"])
def test_the_pipeline_examples_of_docs_run_and_answer_what_they_show(page, monkeypatch):
    # The whole page in one session, as its LangChain block scores the set its first reads.
    blocks = docs_blocks(page)
    assert any(needs_extras(block) for block in blocks)
    monkeypatch.chdir(DATASETS)
    namespace: dict[str, object] = {"__name__": "docs"}
    assert [found for block in blocks for found in run_block(block, namespace)] == []


def test_the_command_lines_run_as_shown(tmp_path):
    (tmp_path / "docs" / "guide").mkdir(parents=True)
    (tmp_path / "docs" / "handbook.md").write_text(HANDBOOK)
    (tmp_path / "docs" / "guide" / "cards.md").write_text("# Cards\n\nA card refund.\n")
    (tmp_path / "docs" / "skipped.txt").write_text("not Markdown, not matched by --glob")
    (tmp_path / "notes.md").write_text(HANDBOOK)
    (tmp_path / "call.json").write_text(json.dumps(TURNS))
    # `chunker` as the command the wheel installs: this checkout's, by `python -m`.
    define = f'chunker() {{ {shlex.quote(sys.executable)} -m chunker "$@"; }}\n'
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    answers = []
    for line in COMMANDS.splitlines():
        result = subprocess.run(
            ["bash", "-c", define + line], cwd=tmp_path, env=env, capture_output=True, timeout=120
        )
        assert result.returncode == 0, (line, result.stderr)
        answers.append(result.stdout.decode())
    written = (tmp_path / "chunks.jsonl").read_text().splitlines()
    sources = {json.loads(row)["source"] for row in written}
    assert sources == {"docs/handbook.md", "docs/guide/cards.md"}
    chunked, turns, snippets = answers[1:]
    assert [chunk["index"] for chunk in json.loads(chunked)] == [0]  # one fixed window
    assert [json.loads(row)["text"] for row in turns.splitlines()] == ["Hello.\nMy refund is late."]
    matched = {json.loads(row)["source"]: json.loads(row)["match"] for row in snippets.splitlines()}
    # Every file, this time (no --glob): a file without the words has no match.
    assert matched.pop("docs/skipped.txt") is None
    assert set(matched) == sources and all(matched.values()), matched
