"""Invariants of every function over random texts and options: each call ends, indexes run
0..n-1, nothing of the input is lost, offsets stay where docs/method.md says, JSON round-trips."""

from __future__ import annotations

import json
import unicodedata

from hypothesis import given
from hypothesis import strategies as st
from support.invariants import is_subsequence, visible
from support.strategies import documents, engine_options, semantic_options, texts, turns

from chunker import (
    ChunkingEngine,
    SemanticChunker,
    chunk_turns,
    lexical_tokens,
    locate_chunks,
    snippet_around,
)
from chunker.base.whitespace import JS_WHITESPACE, is_blank
from chunker.search.lexical import word_re


def round_trips(records) -> bool:
    dicts = [r.to_dict() for r in records]
    return json.loads(json.dumps(dicts)) == dicts


@given(texts, semantic_options)
def test_semantic_chunker_invariants(text, options):
    chunker = SemanticChunker(**options)
    metadata = {"source": "doc.md"}
    chunks = chunker.chunk(text, metadata)
    if not visible(text):
        assert chunks == []
        return
    assert [c.index for c in chunks] == list(range(len(chunks)))
    own_texts = []
    for number, c in enumerate(chunks):
        own_length = c.end_offset - c.start_offset
        assert 0 <= c.start_offset <= len(text)
        assert 0 < own_length <= len(c.text)
        own, lead = c.text[len(c.text) - own_length :], c.text[: len(c.text) - own_length]
        if number == 0 or chunker.overlap == 0:
            assert lead == ""
        else:
            assert len(lead) <= chunker.overlap and own_texts[-1].endswith(lead)
        assert c.boundary_type in ("heading", "paragraph", "sentence", "code-block", "fixed")
        assert c.metadata is metadata
        own_texts.append(own)
    assert is_subsequence(visible(text), visible("".join(own_texts)))
    assert round_trips(chunks)


@given(texts, engine_options())
def test_chunking_engine_invariants(content, options):
    chunks = ChunkingEngine().chunk(content, **options)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    if options["strategy"] == "hierarchical":
        # Heading markers go; heading words live in `heading`.
        produced = "".join((c.heading or "") + c.content for c in chunks)
        assert is_subsequence(visible(content, "#"), visible(produced, "#"))
    else:
        assert is_subsequence(visible(content), visible("".join(c.content for c in chunks)))
    if options["strategy"] == "fixed":
        assert all(0 < len(c.content) <= options["chunk_size"] for c in chunks)
    assert round_trips(chunks)


@given(texts, engine_options())
def test_locate_chunks_finds_every_engine_chunk(content, options):
    chunks = ChunkingEngine().chunk(content, **options)
    spans = locate_chunks(content, [c.content for c in chunks])
    for chunk, span in zip(chunks, spans):
        if not chunk.content:
            assert span is None
            continue
        assert span is not None, chunk
        assert " ".join(_words(content[span[0] : span[1]])) == " ".join(_words(chunk.content))


vectors = st.lists(st.integers(-3, 3), min_size=3, max_size=3)


@given(documents, engine_options(), st.data())
def test_semantic_strategy_with_any_embeddings(content, options, data):
    def embed(sentences):
        return [data.draw(vectors) for _ in sentences]

    options["strategy"] = "semantic"
    chunks = ChunkingEngine().chunk(content, embed_fn=embed, **options)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert is_subsequence(visible(content), visible("".join(c.content for c in chunks)))


@given(turns, st.integers(1, 200), st.integers(0, 5))
def test_chunk_turns_invariants(entries, max_chars, overlap_turns):
    passages = chunk_turns(entries, max_chars=max_chars, overlap_turns=overlap_turns)
    assert [p.index for p in passages] == list(range(len(passages)))
    assert round_trips(passages)
    # seq is the caller's (repeated, out of order): the same turns numbered by position
    # give the same passages, and tell which turns each passage holds.
    numbered = [{**turn, "seq": number} for number, turn in enumerate(entries)]
    by_position = chunk_turns(numbered, max_chars=max_chars, overlap_turns=overlap_turns)
    assert len(by_position) == len(passages)
    kept = [n for n, turn in enumerate(entries) if not is_blank(turn["text"])]
    previous: list[int] = []
    for p, positions in zip(passages, ([s.seq for s in q.turns] for q in by_position)):
        held = [entries[n] for n in positions]
        assert positions and all(n in kept for n in positions), "no blank turn in a passage"
        assert positions == kept[kept.index(positions[0]) :][: len(positions)], "a run of turns"
        assert [s.seq for s in p.turns] == [t["seq"] for t in held]
        assert p.text == "\n".join(t["text"] for t in held)
        assert [p.text[s.start : s.end] for s in p.turns] == [t["text"] for t in held]
        assert [s.item_id for s in p.turns] == list(p.item_ids)
        assert list(p.item_ids) == [t.get("itemId") for t in held]
        assert (p.start_ms, p.end_ms) == (held[0].get("startMs"), held[-1].get("endMs"))
        assert (p.first_seq, p.last_seq) == (held[0]["seq"], held[-1]["seq"])
        assert len(p.text) <= max_chars or len(held) - p.repeated_turns == 1
        if previous:
            assert positions[0] > previous[0], "first turns never go back"
            assert positions[-1] > previous[-1], "each passage brings a turn the last did not"
        shared = len(set(positions) & set(previous))
        assert positions[:shared] == previous[len(previous) - shared :], "overlap leads"
        assert p.repeated_turns == shared <= overlap_turns
        following = kept.index(positions[-1]) + 1
        if following < len(kept):
            grown = "\n".join([p.text, entries[kept[following]]["text"]])
            assert len(grown) > max_chars, "a passage takes every turn that fits"
        previous = positions
    assert sorted({n for q in by_position for n in (s.seq for s in q.turns)}) == kept


@given(texts)
def test_lexical_tokens_read_composed_and_decomposed_alike(text):
    tokens = lexical_tokens(text)
    assert all(tokens)
    assert lexical_tokens(unicodedata.normalize("NFD", text)) == lexical_tokens(
        unicodedata.normalize("NFC", text)
    )
    folded = unicodedata.normalize("NFC", text).lower()
    assert is_subsequence("".join(tokens), folded)


@given(texts, st.lists(st.text(max_size=5), max_size=3), st.integers(0, 150), st.integers(0, 150))
def test_snippet_around_invariants(text, words, before, after):
    snippet = snippet_around(text, words, before=before, after=after)
    collapsed = " ".join(_words(text))
    assert snippet.text in collapsed
    if snippet.at >= 0:
        # The word alone, as the spec compares it: a final sigma stays final.
        word = unicodedata.normalize("NFC", word_re().match(text, snippet.at).group()).lower()
        folded = [unicodedata.normalize("NFC", w).lower() for w in words if w]
        assert any(word.startswith(prefix) for prefix in folded)
        assert any(m.start() == snippet.at for m in word_re().finditer(text)), "a word start"
    if not any(ch in JS_WHITESPACE for ch in text):
        assert snippet.text == text


def _words(text: str) -> list[str]:
    """`text` split at JavaScript white space runs."""
    out, word = [], ""
    for ch in text:
        if ch in JS_WHITESPACE:
            if word:
                out.append(word)
            word = ""
        else:
            word += ch
    return out + ([word] if word else [])
