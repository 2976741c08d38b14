"""Spans through the facade in Chromium: `text.slice(start, end)` in JavaScript selects what
`text[start:end]` selects in Python, for every chunk's span and overlap span, for
`SemanticChunker` and every engine strategy, over many random texts with emoji and lone
surrogates; without `spans: true` the results are the original's plain objects.

The texts are drawn from a seeded generator (the seed is in each failure's message) and all
go to the page in one call: Pyodide boots once per module, and a page call costs far more
than a chunking of a short text.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from support.offsets import as_javascript, code_units, utf16_offset
from support.strategies import PIECES, SEPARATORS

from chunker import ChunkingEngine, SemanticChunker

STRATEGIES = ["fixed", "hierarchical", "layout", "semantic"]
SEEDS = [11, 12, 13]
CASES_PER_SEED = 40

# Characters where offsets go wrong: astral ones (two units in JavaScript), lone surrogates
# (one unit each), a high surrogate right before a pair, white space of both languages.
AWKWARD = ["😀", "𝒜", "👨‍👩‍👧", "\ud83d", "\ude00", "\ud83d😀", "\u00a0", "\u2028", "\r\n", "é"]


def random_text(rng: random.Random) -> str:
    """A document of the pieces that steer the chunkers, with awkward characters between."""
    parts = []
    for _ in range(rng.randint(0, 40)):
        parts.append(rng.choice(PIECES + AWKWARD))
        parts.append(rng.choice(SEPARATORS + AWKWARD[:3]))
    # As JavaScript holds it: a high then a low surrogate are one character.
    return as_javascript("".join(parts))


def random_case(rng: random.Random) -> dict[str, Any]:
    size = rng.randint(1, 300)
    return {
        "text": random_text(rng),
        "semantic": {
            "target_size": rng.randint(1, 300),
            "max_size": rng.randint(300, 800),
            "min_size": rng.choice([0, 0, 20, 200]),
            "overlap": rng.choice([0, 3, 20, 100]),
        },
        "engine": {"chunk_size": size, "chunk_overlap": rng.randint(0, size - 1)},
    }


# For each case: its text built from code units, then per chunker the JavaScript spans and
# what `text.slice` selects at each (as code units, which a lone surrogate survives).
RUN_CASES = """async (cases) => {
  const units = (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
  const cut = (text, span) => (span === null ? null : [span.start, span.end,
    units(text.slice(span.start, span.end))]);
  const out = [];
  for (const { codes, semantic, engine } of cases) {
    const text = String.fromCharCode(...codes);
    const chunks = await new api.SemanticChunker({ ...semantic, spans: true }).chunk(text);
    const answer = { SemanticChunker: chunks.map((c) => [units(c.text), cut(text, c.span),
      cut(text, c.overlapSpan)]) };
    for (const strategy of engine.strategies) {
      const options = { ...engine.options, strategy, spans: true };
      const found = await new api.ChunkingEngine().chunk(text, options);
      answer[strategy] = found.map((c) => [units(c.content), cut(text, c.span)]);
    }
    out.push(answer);
  }
  return out;
}"""


def python_cut(text: str, span: tuple[int, int] | None) -> list[Any] | None:
    """What `RUN_CASES`'s `cut` should answer for the Python span `span`."""
    if span is None:
        return None
    start, end = span
    return [utf16_offset(text, start), utf16_offset(text, end), code_units(text[start:end])]


@pytest.mark.parametrize("seed", SEEDS)
def test_javascript_slices_select_what_python_spans_select(chunker_page, seed):
    rng = random.Random(seed)
    cases = [random_case(rng) for _ in range(CASES_PER_SEED)]
    sent = [
        {
            "codes": code_units(case["text"]),
            "semantic": {
                "targetSize": case["semantic"]["target_size"],
                "maxSize": case["semantic"]["max_size"],
                "minSize": case["semantic"]["min_size"],
                "overlap": case["semantic"]["overlap"],
            },
            "engine": {
                "strategies": STRATEGIES,
                "options": {
                    "chunkSize": case["engine"]["chunk_size"],
                    "chunkOverlap": case["engine"]["chunk_overlap"],
                },
            },
        }
        for case in cases
    ]
    answers = chunker_page.evaluate(RUN_CASES, sent)
    chunk_count = 0
    for number, (case, answer) in enumerate(zip(cases, answers)):
        text, where = case["text"], f"seed {seed}, case {number}: {case!r:.300}"
        expected = [
            [code_units(c.text), python_cut(text, c.span), python_cut(text, c.overlap_span)]
            for c in SemanticChunker(**case["semantic"]).chunk(text)
        ]
        assert answer["SemanticChunker"] == expected, where
        chunk_count += len(expected)
        for strategy in STRATEGIES:
            chunks = ChunkingEngine().chunk(text, strategy=strategy, **case["engine"])
            expected = [[code_units(c.content), python_cut(text, c.span)] for c in chunks]
            assert answer[strategy] == expected, f"{strategy}, {where}"
            chunk_count += len(expected)
    assert chunk_count > 10 * CASES_PER_SEED  # the texts make real chunks, not empty answers


@pytest.mark.parametrize("boundary", ["word", "sentence"])
def test_an_overlap_that_starts_at_a_word_or_sentence_crosses_as_python_cuts_it(
    chunker_page, boundary
):
    # `overlapBoundary` reaches Python under its Python name, and the texts and spans of
    # overlaps shortened to a boundary (or left out) cross to JavaScript indices exactly.
    rng = random.Random(f"{boundary}-overlap")
    cases = [random_case(rng) for _ in range(CASES_PER_SEED)]
    for case in cases:
        case["semantic"]["overlap"] = rng.choice([5, 12, 20, 100])
    sent = [
        {
            "codes": code_units(case["text"]),
            "semantic": {
                "targetSize": case["semantic"]["target_size"],
                "maxSize": case["semantic"]["max_size"],
                "minSize": case["semantic"]["min_size"],
                "overlap": case["semantic"]["overlap"],
                "overlapBoundary": boundary,
            },
            "engine": {"strategies": [], "options": {}},
        }
        for case in cases
    ]
    answers = chunker_page.evaluate(RUN_CASES, sent)
    changed = 0
    for number, (case, answer) in enumerate(zip(cases, answers)):
        text, where = case["text"], f"{boundary}, case {number}: {case!r:.300}"
        chunks = SemanticChunker(**case["semantic"], overlap_boundary=boundary).chunk(text)
        expected = [
            [code_units(c.text), python_cut(text, c.span), python_cut(text, c.overlap_span)]
            for c in chunks
        ]
        assert answer["SemanticChunker"] == expected, where
        changed += chunks != SemanticChunker(**case["semantic"]).chunk(text)
    assert changed > CASES_PER_SEED // 4  # the option changed many answers


PLAIN_KEYS = """async (text) => {
  const semantic = await new api.SemanticChunker({ targetSize: 20, minSize: 0 }).chunk(text);
  const asked = await new api.SemanticChunker({ targetSize: 20, spans: false }).chunk(text);
  const engine = await new api.ChunkingEngine().chunk(text, { strategy: 'hierarchical' });
  const keys = (chunks) => chunks.map((c) => Object.keys(c));
  return [keys(semantic), keys(asked), keys(engine)];
}"""


def test_without_spans_the_results_are_the_originals_plain_objects(chunker_page):
    text = "# A 😀\n\nOne \ud83d two.\n\n## B\n\nThree four five six seven eight nine.\n"
    semantic, asked, engine = chunker_page.evaluate(PLAIN_KEYS, text)
    plain = ["text", "index", "startOffset", "endOffset", "boundaryType"]
    assert semantic and all(keys == plain for keys in semantic)
    assert asked and all(keys == plain for keys in asked)
    expected = [list(c.to_dict()) for c in ChunkingEngine().chunk(text, strategy="hierarchical")]
    assert engine == expected and ["content", "index", "heading", "metadata"] in expected


BOM_LED = """async (text) => {
  const chunks = await new api.SemanticChunker({ minSize: 0, overlap: 0, spans: true })
    .chunk(text);
  const sections = await new api.ChunkingEngine()
    .chunk(text, { strategy: 'hierarchical', spans: true });
  return [
    chunks.map((c) => [c.boundaryType, c.startOffset, c.span.start, c.span.end]),
    sections.map((c) => [c.heading, c.metadata, c.span.start, c.span.end]),
  ];
}"""


def test_a_leading_bom_is_no_part_of_the_text_in_the_facade(chunker_page):
    # A file an editor on Windows saved, as the page reads it: the mark hides no heading, and
    # the spans index the text with it, in JavaScript indices (the emoji is two).
    text = "\ufeff# Title 😀\r\n\r\nIntro.\r\n\r\n## Sub\r\n\r\nText.\r\n"
    chunks, sections = chunker_page.evaluate(BOM_LED, text)
    assert chunks == [
        [c.boundary_type, *(utf16_offset(text, at) for at in (c.start_offset, *c.span))]
        for c in SemanticChunker(min_size=0, overlap=0).chunk(text)
    ]
    assert [c[:2] for c in chunks] == [["heading", 1], ["heading", 25]]
    assert chunks[0][2] == 1
    assert [s[:2] for s in sections] == [
        ["Title 😀", {"headingLevel": 1}],
        ["Sub", {"headingLevel": 2, "ancestorHeadings": ["Title 😀"]}],
    ]
