"""web/examples/search.html in Chromium, under the site's CSP: it loads, cuts and indexes its
documents, and answers as CPython does, with the words marked; it asks for nothing outside
its origin and logs no error; the playground links to it."""

from __future__ import annotations

import pytest
from support.paths import ROOT
from support.playground import wait_until

from chunker import LexicalIndex, SemanticChunker, lexical_tokens, match_spans, snippet_around

SOURCES = ["../samples/handbook.md", "../samples/indexer-guide.md"]


def expected_hits(query: str, prefix: bool) -> list[dict]:
    index = LexicalIndex()
    texts = {}
    for source in SOURCES:
        text = (ROOT / "web" / source.removeprefix("../")).read_text(encoding="utf-8")
        for chunk in SemanticChunker(target_size=400, overlap=0).chunk(text):
            texts[f"{source}#{chunk.index}"] = chunk.text
    index.add_documents({"id": id, "text": text} for id, text in texts.items())
    words = lexical_tokens(query)
    out = []
    for hit in index.search(query, 10, prefix=prefix):
        snippet = snippet_around(texts[hit.id], words)
        out.append(
            {
                "head": f"{hit.id} · score {hit.score:.2f}",
                "snippet": snippet.text,
                "marks": [
                    snippet.text[start:end] for start, end in match_spans(snippet.text, words)
                ],
            }
        )
    return out


@pytest.mark.parametrize(("query", "prefix"), [("refund card", True), ("chunk overlap", False)])
def test_the_example_searches_as_cpython_does(new_page, site_url, query, prefix):
    page, recorder = new_page()
    page.goto(f"{site_url}/examples/search.html")
    wait_until(page, "!document.getElementById('query').disabled", timeout=120)
    assert "chunks indexed" in page.text_content("#status")
    page.set_checked("#prefix", prefix)
    page.fill("#query", query)
    expected = expected_hits(query, prefix)
    assert len(expected) > 1
    got = wait_until(
        page,
        f"""(() => {{
          const items = [...document.querySelectorAll('#hits li')];
          if (items.length !== {len(expected)}) return null;
          return items.map((li) => ({{ head: li.querySelector('.source').textContent,
            snippet: li.querySelector('p').textContent,
            marks: [...li.querySelectorAll('mark')].map((m) => m.textContent) }}));
        }})()""",
    )
    assert got == expected
    assert recorder.problems() == []


def test_the_playground_links_to_the_example():
    page = (ROOT / "web" / "index.html").read_text(encoding="utf-8")
    assert 'href="examples/search.html"' in page
    example = (ROOT / "web" / "examples" / "search.html").read_text(encoding="utf-8")
    assert '<script type="module" src="search.js"></script>' in example
    assert "style=" not in example and "onclick" not in example  # nothing the CSP forbids
