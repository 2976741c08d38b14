"""The README as a user reads it: short, its links and docs/'s going somewhere, and the Python
examples of both running as shown, each result in a comment checked (support.readme.run_block).
The README's examples that need LangChain or LlamaIndex run in pipelines/test_readme_pipelines.py, its
browser example and first command in browser/test_readme_browser.py."""

from __future__ import annotations

import re

import pytest
from support.paths import DATASETS, ROOT
from support.readme import (
    README,
    RUN_ELSEWHERE,
    doc_block,
    docs_blocks,
    needs_extras,
    readme_blocks,
    run_block,
    runnable_blocks,
)

CORE_BLOCKS = [block for block in runnable_blocks() if not needs_extras(block)]
# A link in Markdown: [text](target), the target without its #fragment.
LINK_RE = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_readme_stays_short():
    # What it is, install, a start per audience, the two
    # commands, links; the detail lives in docs/.
    assert len(README) <= 12_000


def test_the_blocks_left_to_other_tests_are_there_and_the_rest_run_here():
    for first_line, (page, _) in RUN_ELSEWHERE.items():  # as the tests that run them read them
        doc_block(page, first_line)
    assert len(readme_blocks("python")) == len(runnable_blocks())
    assert len(CORE_BLOCKS) >= 2


def test_the_python_examples_run_and_answer_what_they_show():
    # One namespace, in order, as a reader pasting them into one session: later blocks use
    # the handbook and the chunks of the first.
    namespace: dict[str, object] = {"__name__": "readme"}
    mismatches = [found for block in CORE_BLOCKS for found in run_block(block, namespace)]
    assert mismatches == []


DOCS = sorted((ROOT / "docs").glob("*.md"))


DOCS_WITH_PYTHON = [page.name for page in DOCS if "```python\n" in page.read_text(encoding="utf-8")]


@pytest.mark.parametrize("page", DOCS_WITH_PYTHON)
def test_the_python_examples_of_docs_run_and_answer_what_they_show(
    page: str, monkeypatch: pytest.MonkeyPatch
):
    # Those needing LangChain or LlamaIndex run in pipelines/test_readme_pipelines.py.
    blocks = [block for block in docs_blocks(page) if not needs_extras(block)]
    # Where a reader keeps Chroma's data set beside the code (docs/evaluation.md).
    monkeypatch.chdir(DATASETS)
    namespace: dict[str, object] = {"__name__": "docs"}
    assert [found for block in blocks for found in run_block(block, namespace)] == []


@pytest.mark.parametrize(
    ("block", "mismatch"),
    [
        ("x = 1\nx + 1   # 3\n", "shows '3'"),
        ("x = [1, 2]\nx   # [1, ...]\nx   # [2, ...]\n", "shows '[2, ...]'"),
        ("print('a')\n# b\n", "shows 'b'"),
        ("for i in range(2):\n    print(i)\n# 0\n# 2\n", "shows '0\\n2'"),
        ("len('ab')\n", "shows no result"),
    ],
    ids=["inline", "ellipsis", "printed", "printed-below", "unshown"],
)
def test_the_runner_catches_a_result_that_differs(block: str, mismatch: str):
    (found,) = run_block(block, {})
    assert mismatch in found


def test_the_runner_takes_what_matches():
    block = "x = [1, 2]   # prose beside an assignment\nx   # [1, ...]\nprint(x)\n# [1, 2]\n"
    assert run_block(block, {}) == []


@pytest.mark.parametrize("page", ["README.md", *(page.name for page in DOCS)])
def test_every_relative_link_leads_to_a_file(page: str):
    path = ROOT / page if page == "README.md" else ROOT / "docs" / page
    for target in LINK_RE.findall(path.read_text(encoding="utf-8")):
        if "://" not in target:
            assert (path.parent / target).exists(), (page, target)
