"""The README and docs/, as the tests that run their code blocks read them, and the runner that
checks the results their Python blocks show in comments."""

from __future__ import annotations

import ast
import contextlib
import doctest
import io
import re
import tokenize
from dataclasses import dataclass
from typing import Any

from .paths import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
# A fenced block: its language and its text.
BLOCK_RE = re.compile(r"^```([a-z]*)\n(.*?)^```", re.DOTALL | re.MULTILINE)


# What an example may import beyond the core: its block runs where these are installed.
EXTRAS = (
    *("langchain_core", "langchain_text_splitters", "llama_index", "pyspark"),
    *("chunker.langchain", "chunker.llama_index", "chunker.spark"),
)


def readme_block(first_line: str, text: str = README, name: str = "README") -> str:
    """The fenced code block of the README (or of `text`) that starts with `first_line`."""
    for _, block in BLOCK_RE.findall(text):
        if block.startswith(first_line):
            return block
    raise AssertionError(f"{name} has no code block starting {first_line!r}")


def doc_text(page: str) -> str:
    """The text of `docs/<page>`."""
    return (ROOT / "docs" / page).read_text(encoding="utf-8")


def doc_block(page: str, first_line: str) -> str:
    """The fenced code block of `docs/<page>` that starts with `first_line`."""
    return readme_block(first_line, doc_text(page), f"docs/{page}")


def docs_blocks(page: str) -> list[str]:
    """The Python blocks of `docs/<page>` a reader can paste into one session, in order."""
    return pasted(
        [block for language, block in BLOCK_RE.findall(doc_text(page)) if language == "python"]
    )


def readme_blocks(language: str) -> list[str]:
    """The README's fenced code blocks in `language`, in order."""
    return [block for found, block in BLOCK_RE.findall(README) if found == language]


# The Python blocks of docs/ run by another test, as written, because running them as a reader
# pasting them cannot work: the server serves forever, the Spark job is for spark-submit. By
# first line: the page that holds it, and the test that runs it.
RUN_ELSEWHERE = {
    "# serve.py": (
        "browser.md",
        "tests/tools/test_npm_package.py (serves the site built from the package)",
    ),
    "# chunk_corpus.py": ("pipelines.md", "tests/pipelines/test_spark_submit.py"),
}


def pasted(blocks: list[str]) -> list[str]:
    """Of the Python `blocks`, those a reader can paste into one session, in order."""
    return [block for block in blocks if not block.startswith(tuple(RUN_ELSEWHERE))]


def runnable_blocks() -> list[str]:
    """The README's Python blocks a reader can paste into one session, in order."""
    return pasted(readme_blocks("python"))


def needs_extras(block: str) -> bool:
    """Whether the Python `block` imports something of `EXTRAS`."""
    imported = [
        name
        for node in ast.walk(ast.parse(block))
        for name in (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else []
        )
    ]
    return any(
        name == extra or name.startswith(extra + ".") for name in imported for extra in EXTRAS
    )


@dataclass(frozen=True)
class Shown:
    """A statement of a block and what its comments say it answers."""

    line: int
    source: str
    # The comment on its last line (for an expression: what it answers; otherwise prose).
    inline: str | None
    # The comment lines right below it: what it answers or prints (None: none).
    below: str | None


def statements(block: str) -> list[Shown]:
    """The block's top-level statements, each with the comments that show its result."""
    comments: dict[int, str] = {}
    alone: set[int] = set()  # lines holding a comment and nothing else
    for token in tokenize.generate_tokens(io.StringIO(block).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string[1:].strip()
            if not token.line[: token.start[1]].strip():
                alone.add(token.start[0])
    lines = block.splitlines()
    found = []
    for node in ast.parse(block).body:
        end = node.end_lineno or node.lineno
        source = "\n".join(lines[node.lineno - 1 : end])
        below = []
        while end + 1 + len(below) in alone:
            below.append(comments[end + 1 + len(below)])
        inline = comments[end] if end in comments and end not in alone else None
        found.append(Shown(node.lineno, source, inline, "\n".join(below) if below else None))
    return found


CHECKER = doctest.OutputChecker()
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def run_block(block: str, namespace: dict[str, Any]) -> list[str]:
    """Run `block` statement by statement in `namespace`, as a reader pasting it would; answer
    each mismatch between what a statement gives and what its comments show. An expression's
    result is its `repr` (`...` in the comment matches anything, as in doctest), or what it
    printed; another statement's is what it printed. A statement that answers or prints
    something must show it."""
    mismatches = []
    for shown in statements(block):
        tree = ast.parse(shown.source)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            if isinstance(tree.body[0], ast.Expr):
                value = eval(
                    compile(ast.Expression(tree.body[0].value), "README.md", "eval"), namespace
                )
            else:
                exec(compile(tree, "README.md", "exec"), namespace)
                value = None
        got = printed.getvalue() if value is None else repr(value) + "\n"
        # An expression shows its result beside it or below; another statement, what it prints.
        shows = (shown.inline or shown.below) if isinstance(tree.body[0], ast.Expr) else shown.below
        if shows is None:
            if got:
                mismatches.append(f"line {shown.line}: {shown.source!r} shows no result: {got!r}")
        elif not CHECKER.check_output(shows + "\n", got, FLAGS):
            mismatches.append(
                f"line {shown.line}: {shown.source!r}\n  shows {shows!r}\n  gives {got!r}"
            )
    return mismatches
