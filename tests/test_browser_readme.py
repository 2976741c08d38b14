"""The README's "In the browser" example, run as written in Chromium against the built site:
each statement's answer is what CPython answers for the same call, and the page asks for
nothing outside its origin."""

from __future__ import annotations

import re
from typing import Any

from support.readme import readme_block

from chunkspan import ChunkingEngine, LexicalIndex, SemanticChunker, chunk_turns

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
    assert hits and all(hit["snippet"]["spans"] for hit in hits)
    assert added is None and disposed is True
    assert recorder.foreign() == []
