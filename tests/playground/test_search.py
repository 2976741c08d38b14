"""The playground's ranked search in Chromium: the hits are LexicalIndex's
for the chunks shown, in its order, with its scores; the any/all and prefix switches; the
index made again when the chunks change; no JavaScript copy of the word rule left."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from support.paths import ROOT
from support.playground import GUIDE, on_the_guide, runs, set_settings, settled, wait_until

from chunker import LexicalIndex, SemanticChunker, lexical_tokens, match_spans, snippet_around


@pytest.fixture(scope="module")
def page(browser, site_url):
    with on_the_guide(browser, site_url) as page:
        yield page


def shown_hits(page: Any) -> list[dict[str, Any]]:
    return page.evaluate(
        """() => [...document.querySelectorAll('#search-results .hit')].map((hit) => ({
             index: Number(hit.dataset.index),
             score: hit.querySelector('.hit-score').textContent,
             snippet: hit.querySelector('.hit-snippet').textContent,
             marks: [...hit.querySelectorAll('mark')].map((m) => m.textContent)}))"""
    )


def search(page: Any, query: str, *, all_words: bool = False, prefix: bool = False) -> list:
    """Type `query` with the switches set; answer the hits once the page has drawn them."""
    page.set_checked("#query-all", all_words)
    page.set_checked("#query-prefix", prefix)
    before = searches(page)
    page.fill("#query", query)
    return searched(page, before, query)


def searches(page: Any) -> int:
    """How many searches the page has drawn."""
    return int(page.evaluate("Number(document.body.dataset.searches || 0)"))


def searched(page: Any, before: int, query: str) -> list[dict[str, Any]]:
    """The hits, once a search after the `before`th is drawn for `query`, its words shown. A
    switch's change searches at once what the box held before; the page drops a search a later
    one overtakes, so what is drawn for `query` is with the switches as they are."""
    words = json.dumps(lexical_tokens(query), separators=(",", ":"))  # as JSON.stringify
    wait_until(
        page,
        f"Number(document.body.dataset.searches || 0) > {before} && JSON.stringify([...document"
        f".querySelectorAll('#query-tokens .token')].map((t) => t.textContent)) === {words!r}",
    )
    return shown_hits(page)


def expected_hits(chunks, query: str, **options: Any) -> list[dict[str, Any]]:
    index = LexicalIndex()
    index.add_documents({"id": str(chunk.index), "text": chunk.text} for chunk in chunks)
    tokens = lexical_tokens(query)
    out = []
    for hit in index.search(query, 20, **options):
        snippet = snippet_around(chunks[int(hit.id)].text, tokens, before=60, after=140)
        out.append(
            {
                "index": int(hit.id),
                "score": f"score {hit.score:.3f}",
                "snippet": snippet.text,
                "marks": [
                    snippet.text[start:end] for start, end in match_spans(snippet.text, tokens)
                ],
            }
        )
    return out


CHUNKS = SemanticChunker().chunk(GUIDE)


@pytest.mark.parametrize(
    ("query", "options"),
    [
        ("chunk overlap", {}),
        ("chunk overlap", {"match": "all"}),
        ("ove tok", {"prefix": True}),
        ("ove tok", {"prefix": True, "match": "all"}),
        ("ove", {}),
    ],
)
def test_hits_are_the_index_ranking_with_scores_snippets_and_marks(page, query, options):
    got = search(
        page, query, all_words=options.get("match") == "all", prefix=options.get("prefix", False)
    )
    expected = expected_hits(CHUNKS, query, **options)
    assert got == expected
    if query == "ove":  # a beginning alone is no word of the guide
        assert got == [] and "No chunk holds" in page.text_content("#search-count")
    else:
        assert 1 <= len(got) <= 20


def test_all_words_leaves_out_the_chunks_missing_one(page):
    any_hits = search(page, "refund chunk")
    all_hits = search(page, "refund chunk", all_words=True)
    assert {hit["index"] for hit in all_hits} < {hit["index"] for hit in any_hits}


def test_new_chunks_are_indexed_again(page):
    search(page, "overlap tokens")
    before, drawn = runs(page), searches(page)
    page.fill("#setting-targetSize", "300")  # the other settings keep their defaults
    settled(page, before)
    chunks = SemanticChunker(target_size=300).chunk(GUIDE)
    assert len(chunks) != len(CHUNKS)
    assert searched(page, drawn, "overlap tokens") == expected_hits(chunks, "overlap tokens")


def test_chunks_cut_as_before_keep_their_index_and_hits(page):
    """A step that moves no cut (target 300 -> 301 on the guide) keeps the index and the hits
    drawn: the page neither indexes nor searches again."""
    set_settings(page, targetSize=300)
    hits = search(page, "overlap tokens")
    chunks = SemanticChunker(target_size=301).chunk(GUIDE)
    assert chunks == SemanticChunker(target_size=300).chunk(GUIDE)
    before, drawn = runs(page), searches(page)
    page.fill("#setting-targetSize", "301")
    settled(page, before)
    # That nothing starts is seen only by waiting: longer than the page's pause before a
    # search (150 ms), which a search the step started would follow.
    page.wait_for_timeout(400)
    assert searches(page) == drawn
    assert shown_hits(page) == hits == expected_hits(chunks, "overlap tokens")


def test_a_click_on_a_hit_selects_its_chunk(page):
    hits = search(page, "overlap")
    assert len(hits) > 1
    chosen = hits[-1]["index"]
    page.click("#search-results .hit >> nth=-1")
    wait_until(
        page,
        f"document.getElementById('chunk-row-{chosen}')?.getAttribute('aria-selected') === 'true'",
    )


def test_the_line_counting_the_hits_is_not_counted_as_one(page):
    """A screen reader counts a list's items: every item is a hit, and the line that counts
    them names the list."""
    hits = search(page, "chunk overlap")
    shown = page.text_content('#stats [data-stat="count"] dd')  # earlier tests set the size
    counted = f"The best {len(hits)} of {shown} chunks"
    assert page.text_content("#search-count") == counted
    listed = page.get_by_role("list", name=counted)
    assert listed.count() == 1
    assert listed.get_by_role("listitem").count() == len(hits)
    assert listed.get_by_role("button").count() == len(hits)


def test_the_page_keeps_no_copy_of_the_word_rule():
    playground = ROOT / "web" / "playground"
    assert not (playground / "words.js").exists()
    for path in playground.glob("*.js"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"\\p\{[LNM]", source), f"{path.name} holds a word rule"
        assert "normalize('NFC')" not in source, path.name
