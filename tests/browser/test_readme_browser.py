"""The README's first command, which serves the playground, and its "In the browser" example,
run as written in Chromium against the built site: each statement's answer is what CPython
answers for the same call, and the page asks for nothing outside its origin."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import urllib.request
from typing import Any

from support.paths import ROOT
from support.readme import readme_block

from chunker import ChunkingEngine, LexicalIndex, SemanticChunker, chunk_turns

COMMANDS = readme_block("python3 build.py serve")
EXAMPLE = readme_block("import { loadChunker } from '/chunker.js';")
# A statement whose answer the example shows or uses: an `await` or a `text.slice`, alone on its
# line. Example: `await index.dispose();   // frees it in the worker`.
ANSWER_RE = re.compile(r"^((?:await |text\.slice\().*?);(\s*//.*)?$", re.MULTILINE)


def as_page_runs_it(example: str) -> str:
    """The example's module code inside a function body: the static import made dynamic
    (`page.evaluate` runs no module), each answer kept in `answers`."""
    body = example.replace(
        "import { loadChunker } from '/chunker.js';",
        "const { loadChunker } = await import('/chunker.js');",
    )
    assert body != example
    return ANSWER_RE.sub(r"answers.push(\1);", body)


def test_the_browser_example_answers_as_python_does(new_page, site_url):
    page, recorder = new_page()
    page.goto(f"{site_url}/_test/blank.html")
    got: Any = page.evaluate(
        f"""async () => {{
          const answers = [];
          {as_page_runs_it(EXAMPLE)}
          return {{ text, turns, answers }};
        }}"""
    )
    text, answers = got["text"], got["answers"]
    own, sections_shown, passages_shown, added, hits, disposed = answers
    first = SemanticChunker(target_size=800).chunk(text)[0]
    assert own == text[first.span[0] : first.span[1]] and own
    sections = ChunkingEngine().chunk(text, strategy="hierarchical", chunk_size=512)
    assert sections_shown == [section.to_dict() for section in sections]
    passages = chunk_turns(got["turns"], max_chars=1200, overlap_turns=1)
    assert passages_shown == [passage.to_dict() for passage in passages]
    index = LexicalIndex()
    for chunk in SemanticChunker(target_size=800).chunk(text):
        index.add_documents([{"id": str(chunk.index), "text": chunk.text}])
    expected = index.search("card refund", 10, prefix=True)
    assert [(hit["id"], hit["score"]) for hit in hits] == [(h.id, h.score) for h in expected]
    # The shape its comment shows: [{id, score, snippet: {at, text, spans}}] (no metadata given).
    assert hits and all(set(hit) == {"id", "score", "snippet"} for hit in hits)
    assert all(
        set(hit["snippet"]) == {"at", "text", "spans"} and hit["snippet"]["spans"] for hit in hits
    )
    assert added is None and disposed is True
    assert recorder.foreign() == []


def test_the_first_command_serves_the_playground(built_site):
    command = COMMANDS.splitlines()[0].split("#")[0].split()
    assert command == ["python3", "build.py", "serve"]
    # On another port than the README's 8000, which another program may hold on this machine.
    server = subprocess.Popen(
        [sys.executable, *command[1:], "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        # Its build's lines (up to date here), then where it serves; none if it ended.
        announced = (
            re.search(r"Serving site/ at (http://[\d.:]+/)", line) for line in server.stdout
        )
        url = next(filter(None, announced), None)
        assert url is not None, server.wait(timeout=60)
        with urllib.request.urlopen(url[1], timeout=60) as answer:
            page = answer.read().decode()
            assert "default-src 'none'" in answer.headers["Content-Security-Policy"]
        assert "<title>chunker playground</title>" in page
    finally:
        server.send_signal(signal.SIGINT)  # as Ctrl-C: it closes its socket and ends
        ended = server.wait(timeout=60)
    assert ended == 0
