"""The token budget (chunker/text/budget.py) on every chunker: no chunk over it, exact spans,
nothing lost, the chunks within it left as they were, and its errors."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.invariants import visible
from support.strategies import engine_options, semantic_options, turns
from support.strategies import texts as chunker_texts
from support.tiktoken_local import tiktoken_encoding
from support.work import python_lines

from chunker import Chunk, ChunkingEngine, SemanticChunker, chunk_turns
from chunker.base.validation import ArgumentValueError, field_of
from chunker.base.whitespace import JS_WHITESPACE
from chunker.tokens import count_tokens

# Texts that put chunks over small budgets: the chunkers' own, and long words, code, emoji,
# CJK and combining marks, which take many tokens a character.
HARD = st.sampled_from(
    [
        "x" * 200,
        "ab" * 150,
        "😀👩‍👩‍👧👍🏽",
        "中文没有空格。" * 8,
        "Re\u0301sume\u0301 e\u0301\u0301\u0301",
        "def f(x):\n    return [y**2 for y in x]  # squares\n",
        "One. Two! Three? " * 6,
        "word " * 40,
        "\n\n",
        " ",
        "ATGC" * 150,
        "a\ud800b \udcff\udcfe",  # lone surrogates
        "\ud83d\ude00 \ud83d",  # a pair of them, the one character they encode
    ]
)
texts = st.one_of(chunker_texts, st.lists(st.one_of(HARD, chunker_texts), max_size=6).map("".join))
budgets = st.integers(1, 60)


def too_small(error: ArgumentValueError, text: str, max_tokens: int) -> bool:
    """The one error a budget may raise: some character alone is over it."""
    return field_of(error) == "max_tokens" and any(
        count_tokens(ch) > max_tokens for ch in set(text) if ch not in JS_WHITESPACE
    )


def assert_tight(text: str, span: tuple[int, int], piece: str) -> None:
    """The span holds the piece's visible characters, without white space at its ends."""
    start, end = span
    assert visible(text[start:end]) == visible(piece)
    if start < end:
        assert text[start] not in JS_WHITESPACE and text[end - 1] not in JS_WHITESPACE


def own_text(chunk: Chunk) -> str:
    """A chunk's text after its overlap, as long as its offsets say."""
    return chunk.text[len(chunk.text) - (chunk.end_offset - chunk.start_offset) :]


@settings(max_examples=150, deadline=None)
@given(texts, semantic_options, budgets)
def test_semantic_chunks_keep_the_budget_with_exact_spans(text, options, max_tokens):
    try:
        chunks = SemanticChunker(**options, max_tokens=max_tokens).chunk(text)
    except ArgumentValueError as error:
        assert too_small(error, text, max_tokens)
        return
    before = SemanticChunker(**options).chunk(text)
    # After a code block left open the original repeats earlier text, and a chunk holding
    # both has a span covering both (docs/spans.md): its pieces take that span.
    hulls = {c.span for c in before if visible(text[slice(*c.span)]) != visible(own_text(c))}
    for number, chunk in enumerate(chunks):
        assert chunk.index == number
        assert chunk.token_count == count_tokens(chunk.text) <= max_tokens  # overlap inside
        own = own_text(chunk)
        if chunk.span not in hulls and (chunk.span != (0, 0) or visible(own)):
            assert_tight(text, chunk.span, own)
    if options.get("overlap", 100) == 0:  # nothing lost, in order
        assert visible("".join(c.text for c in chunks)) == visible("".join(c.text for c in before))
    # The chunks within the budget are left as they were.
    kept = [c for c in before if count_tokens(c.text) <= max_tokens]
    got = {(c.text, c.span, c.start_offset, c.boundary_type) for c in chunks}
    if options.get("overlap", 100) == 0:
        assert all((c.text, c.span, c.start_offset, c.boundary_type) in got for c in kept)


@settings(max_examples=150, deadline=None)
@given(texts, engine_options(), budgets)
def test_every_engine_strategy_keeps_the_budget_with_exact_spans(text, options, max_tokens):
    engine = ChunkingEngine()
    try:
        chunks = engine.chunk(text, **options, max_tokens=max_tokens)
    except ArgumentValueError as error:
        assert too_small(error, text, max_tokens)
        return
    before = engine.chunk(text, **options)
    for number, chunk in enumerate(chunks):
        assert chunk.index == number
        assert chunk.token_count == count_tokens(chunk.content) <= max_tokens
        assert_tight(text, chunk.span, chunk.content)
    # Nothing lost: each chunk's visible characters, in order, are its pieces'.
    assert visible("".join(c.content for c in chunks)) == visible(
        "".join(c.content for c in before)
    )
    kept = {(c.content, c.span) for c in chunks}
    for chunk in before:
        if count_tokens(chunk.content) <= max_tokens:
            assert (chunk.content, chunk.span) in kept


@settings(max_examples=150, deadline=None)
@given(turns, st.integers(1, 300), st.integers(0, 3), budgets)
def test_passages_keep_the_budget_and_say_where_their_turns_are(
    transcript, max_chars, overlap_turns, max_tokens
):
    try:
        passages = chunk_turns(transcript, max_chars, overlap_turns, max_tokens=max_tokens)
    except ArgumentValueError as error:
        assert too_small(error, "".join(t["text"] for t in transcript), max_tokens)
        return
    by_seq = {}
    for turn in transcript:
        by_seq.setdefault(turn["seq"], []).append(turn["text"])
    for number, passage in enumerate(passages):
        assert passage.index == number
        assert passage.token_count == count_tokens(passage.text) <= max_tokens
        assert passage.turns and passage.repeated_turns < len(passage.turns)
        assert (passage.first_seq, passage.last_seq) == (
            passage.turns[0].seq,
            passage.turns[-1].seq,
        )
        for span in passage.turns:  # each a part of one of that turn's texts
            part = passage.text[span.start : span.end]
            assert any(part in whole for whole in by_seq[span.seq])
    if overlap_turns == 0:
        before = chunk_turns(transcript, max_chars, 0)
        assert visible("".join(p.text for p in passages)) == visible(
            "".join(p.text for p in before)
        )


@settings(max_examples=60, deadline=None)
@given(texts, semantic_options, engine_options())
def test_a_budget_no_chunk_reaches_changes_nothing_but_the_counts(text, options, engine):
    plenty = dict(max_tokens=10**9, tokenizer="o200k_base")
    before = SemanticChunker(**options).chunk(text)
    after = SemanticChunker(**options, **plenty).chunk(text)
    assert [replace(c, token_count=None) for c in after] == before
    assert [(c.span, c.overlap_span) for c in after] == [(c.span, c.overlap_span) for c in before]
    assert [
        {k: v for k, v in c.to_dict(spans=True).items() if k != "tokenCount"} for c in after
    ] == [c.to_dict(spans=True) for c in before]
    documents = ChunkingEngine().chunk(text, **engine)
    counted = ChunkingEngine().chunk(text, **engine, **plenty)
    assert [replace(c, token_count=None) for c in counted] == documents
    assert [c.span for c in counted] == [c.span for c in documents]


def test_without_a_tokenizer_there_is_no_count_and_the_json_is_the_originals():
    chunk = SemanticChunker().chunk("Hello there.")[0]
    assert chunk.token_count is None and "tokenCount" not in chunk.to_dict(spans=True)
    counted = SemanticChunker(tokenizer="cl100k_base").chunk("Hello there.")[0]
    assert counted.to_dict()["tokenCount"] == counted.token_count == 3  # "Hello", " there", ".\n"
    passage = chunk_turns([{"seq": 1, "text": "Hi."}], tokenizer=lambda t: 7)[0]
    assert passage.to_dict()["tokenCount"] == 7


def test_an_over_long_chunk_is_cut_at_sentences_then_words_then_within_a_word():
    text = "First sentence here. Second one is here too. " + "y" * 120
    chunks = SemanticChunker(overlap=0, max_tokens=8).chunk(text)
    assert [c.text for c in chunks][:2] == ["First sentence here.", "Second one is here too."]
    assert [c.boundary_type for c in chunks][:2] == ["sentence", "sentence"]
    assert "".join(c.text for c in chunks[2:]) == "y" * 120  # the long word's prefixes
    assert all(c.token_count <= 8 for c in chunks)
    assert [text[slice(*c.span)] for c in chunks] == [c.text for c in chunks]


def test_the_overlap_counts_within_the_budget_and_stays_when_it_fits():
    # Paragraphs a chunk each, the long ones over the budget, the short ones not.
    text = "\n\n".join("Alpha beta gamma. " * n for n in (3, 12, 2, 9, 3) * 4)
    chunks = SemanticChunker(
        target_size=60, max_size=300, overlap=20, min_size=0, max_tokens=30
    ).chunk(text)
    assert all(count_tokens(c.text) <= 40 for c in chunks)
    with_overlap = [c for c in chunks if c.overlap_span is not None]
    assert with_overlap, "some first piece keeps its overlap"
    for chunk in with_overlap:
        start, end = chunk.overlap_span
        assert visible(text[start:end]) in visible(chunk.text)


@pytest.mark.parametrize(
    "run",
    [
        lambda: SemanticChunker(max_tokens=1).chunk("𠀀 wide"),
        lambda: ChunkingEngine().chunk("𠀀 wide", max_tokens=1),
        lambda: chunk_turns([{"seq": 1, "text": "𠀀 wide"}], max_tokens=1),
    ],
    ids=["semantic", "engine", "turns"],
)
def test_a_budget_too_small_for_one_character_is_an_error_not_a_loop(run):
    assert count_tokens("𠀀") > 1
    with pytest.raises(ArgumentValueError, match=r"invalid max_tokens 1 \(too small") as raised:
        run()
    assert field_of(raised.value) == "max_tokens" and "'𠀀'" in str(raised.value)


# Each chunker with a budget, on one text.
BUDGETED = {
    "semantic": lambda text, budget: [
        (c.text, c.token_count) for c in SemanticChunker(max_tokens=budget).chunk(text)
    ],
    "engine": lambda text, budget: [
        (c.content, c.token_count)
        for c in ChunkingEngine().chunk(text, strategy="layout", max_tokens=budget)
    ],
    "turns": lambda text, budget: [
        (p.text, p.token_count) for p in chunk_turns([{"seq": 1, "text": text}], max_tokens=budget)
    ],
}


@pytest.mark.parametrize("name", BUDGETED)
@pytest.mark.parametrize("budget", [50, 3])
def test_surrogates_are_counted_as_tiktoken_counts_them(name, budget, tmp_path: Path):
    # Lone ones are U+FFFD to tiktoken, a high one and a low one side by side the character
    # they encode; with or without a budget, a chunker takes such text.
    encoding = tiktoken_encoding("cl100k_base", tmp_path)
    for text in ("Hello \ud800 world.", "Bytes \udcff\udcfe here. A pair \ud83d\ude00 there."):
        chunks = BUDGETED[name](text, budget)
        assert chunks
        for chunk_text, tokens in chunks:
            assert tokens == len(encoding.encode(chunk_text, disallowed_special=())) <= budget


@pytest.mark.parametrize("name", BUDGETED)
def test_a_long_run_over_the_budget_is_cut_in_work_linear_in_its_length(name):
    # DNA in a code block, cut with a budget of 256, took the layout engine most of
    # a minute at 60,000 characters. Work, not time: lines of Python run a character, one
    # bound from 4,000 characters to 32,000 (the quadratic merge ran 8,500 a character at
    # 4,000: lines counted, the same on any machine).
    for n in (1000, 8000):
        dna = "".join(random.Random(f"{name} {n}").choice("ACGT") for _ in range(4 * n))
        text = "# S\n\n```\n" + dna + "\n```\n"
        chunks: list = []
        lines = python_lines(lambda: chunks.extend(BUDGETED[name](text, 256)), 400 * len(text))
        assert lines <= 400 * len(text)
        assert all(tokens <= 256 for _, tokens in chunks)
        assert dna in "".join(chunk_text for chunk_text, _ in chunks)


@pytest.mark.parametrize(
    "make",
    [
        lambda: SemanticChunker(max_tokens=0),
        lambda: ChunkingEngine().chunk("x", max_tokens=0),
        lambda: chunk_turns([], max_tokens=0),
        lambda: SemanticChunker(tokenizer="nope"),
        lambda: ChunkingEngine().chunk("x", tokenizer="nope"),
        lambda: chunk_turns([], tokenizer="nope"),
    ],
)
def test_bad_budget_options_are_errors_at_the_boundary(make):
    with pytest.raises(ArgumentValueError) as raised:
        make()
    assert field_of(raised.value) in ("max_tokens", "tokenizer")


@pytest.mark.parametrize("strategy", ["fixed", "hierarchical", "layout", "semantic"])
def test_the_engine_keeps_the_budget_with_or_without_embeddings_async_or_not(strategy):
    # Each way through the engine: chunk() and achunk(), with an embed_fn and without.
    text = "# Title\n\n" + "One sentence here, then another one after it. " * 30

    def embed(sentences: list[str]) -> list[list[float]]:
        return [[1.0, float(n % 2)] for n in range(len(sentences))]

    async def embed_async(sentences: list[str]) -> list[list[float]]:
        return embed(sentences)

    engine = ChunkingEngine()
    runs = [
        engine.chunk(text, strategy, 300, 0, max_tokens=9),
        engine.chunk(text, strategy, 300, 0, embed_fn=embed, max_tokens=9),
        asyncio.run(engine.achunk(text, strategy, 300, 0, max_tokens=9)),
        asyncio.run(engine.achunk(text, strategy, 300, 0, embed_fn=embed_async, max_tokens=9)),
    ]
    for chunks in runs:
        assert chunks and all(c.token_count == count_tokens(c.content) <= 9 for c in chunks)


def test_chunk_columns_refuses_a_budget_it_does_not_apply():
    # Columns do not count tokens: asked to, they say so (the facade packs a budget's
    # chunks from their records instead, chunker.bridge.packing.columns_of).
    with pytest.raises(ArgumentValueError, match="use chunk\\(\\)") as raised:
        SemanticChunker(max_tokens=64).chunk_columns("Some text.")
    assert field_of(raised.value) == "max_tokens"
