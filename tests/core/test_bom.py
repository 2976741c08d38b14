"""A leading byte-order mark is no part of the text: every chunker cuts the text after it, and
its chunks' spans and offsets, one later, index the text as given (docs/spans.md). For any
text `t` that does not start with one, `"\\ufeff" + t` gives `t`'s chunks shifted by one."""

from __future__ import annotations

import asyncio

from hypothesis import given
from hypothesis import strategies as st
from support.strategies import engine_options, semantic_options
from test_spans import embed, span_texts

from chunker import ChunkColumns, ChunkingEngine, SemanticChunker

BOM = "\ufeff"

# Texts with no leading mark (which the mark's own rule would then read as text).
texts = span_texts.filter(lambda text: not text.startswith(BOM))


def words(text: str) -> int:
    """A tokenizer: the words of `text`."""
    return len(text.split())


def one_later(span):
    return None if span is None else (span[0] + 1, span[1] + 1)


def semantic_record(chunk, shift=0):
    """A `SemanticChunker` chunk's every field, its places `shift` later."""
    record = chunk.to_dict(spans=True)
    if shift:
        record["startOffset"] += shift
        record["endOffset"] += shift
        record["span"] = {key: at + shift for key, at in record["span"].items()}
        if record["overlapSpan"] is not None:
            record["overlapSpan"] = {key: at + shift for key, at in record["overlapSpan"].items()}
    return record


def engine_record(chunk, shift=0):
    record = chunk.to_dict(spans=True)
    record["span"] = {key: at + shift for key, at in record["span"].items()}
    return record


@given(texts, semantic_options, st.sampled_from([None, 3, 40]))
def test_semantic_chunker_cuts_the_text_after_the_mark(text, options, max_tokens):
    if max_tokens is not None:
        options = {**options, "max_tokens": max_tokens, "tokenizer": words}
    chunker = SemanticChunker(**options)
    marked = [semantic_record(chunk) for chunk in chunker.chunk(BOM + text)]
    assert marked == [semantic_record(chunk, 1) for chunk in chunker.chunk(text)]


@given(st.lists(st.tuples(texts, st.booleans()), max_size=4), semantic_options)
def test_chunk_columns_after_the_mark_place_the_texts_in_the_input(texts_marked, options):
    chunker = SemanticChunker(**options)
    batch = ChunkColumns()
    for text, marked in texts_marked:
        given_text = BOM + text if marked else text
        first = len(batch)
        chunker.chunk_columns(given_text, into=batch)
        alone = chunker.chunk_columns(given_text)
        # A text's chunks, wherever they are in the batch, are its own, placed in it.
        assert batch.chunk_texts(given_text)[first:] == alone.chunk_texts(given_text)
        assert alone.chunk_texts(given_text) == [c.text for c in chunker.chunk(given_text)]
        plain = chunker.chunk_columns(text)
        shift = 1 if marked else 0
        assert alone.offsets == [at + shift for at in plain.offsets]
        assert alone.spans == [at + shift for at in plain.spans]
        assert alone.overlap_spans == [at + shift if at >= 0 else at for at in plain.overlap_spans]
        assert alone.places == [at + shift if at >= 0 else at for at in plain.places]
        assert (alone.boundaries, alone.texts) == (plain.boundaries, plain.texts)


@given(texts, engine_options(), st.booleans(), st.sampled_from([None, 5]))
def test_the_engine_cuts_the_text_after_the_mark(text, options, embedded, max_tokens):
    if embedded:
        options = {**options, "embed_fn": embed}
    if max_tokens is not None:
        options = {**options, "max_tokens": max_tokens, "tokenizer": words}
    engine = ChunkingEngine()
    marked = [engine_record(chunk) for chunk in engine.chunk(BOM + text, **options)]
    assert marked == [engine_record(chunk, 1) for chunk in engine.chunk(text, **options)]
    awaited = asyncio.run(engine.achunk(BOM + text, **options))
    assert [engine_record(chunk) for chunk in awaited] == marked


def test_the_first_heading_is_a_heading_after_the_mark():
    # As an editor on Windows saves it: a byte-order mark, CRLF line endings.
    text = "\ufeff# Title\r\n\r\nIntro.\r\n\r\n## Sub\r\n\r\nText.\r\n"
    sections = ChunkingEngine().chunk(text, "hierarchical")
    assert [(c.heading, c.content, c.span) for c in sections] == [
        ("Title", "Intro.", (12, 18)),
        ("Sub", "Text.", (32, 37)),
    ]
    assert sections[1].metadata == {"headingLevel": 2, "ancestorHeadings": ["Title"]}
    chunks = SemanticChunker(min_size=0, overlap=0).chunk(text)
    assert [c.boundary_type for c in chunks] == ["heading", "heading"]
    assert chunks[0].text == "# Title\r\n\r\nIntro.\r\n\r\n" and chunks[0].span[0] == 1
    assert text[slice(*chunks[0].span)] == "# Title\r\n\r\nIntro."
    assert (chunks[0].start_offset, chunks[1].start_offset) == (1, 22)
    # One mark only: a second is text's (ZWNBSP, white space to the original), as is one
    # after text.
    twice = SemanticChunker(overlap=0).chunk("\ufeff\ufeff# Title\n\nText.")
    assert [(c.boundary_type, c.span) for c in twice] == [("paragraph", (2, 16))]
    later = SemanticChunker(overlap=0).chunk("Intro.\n\ufeff# Title")
    assert [c.span for c in later] == [(0, 15)]
    assert SemanticChunker().chunk("\ufeff") == [] == ChunkingEngine().chunk("\ufeff \n")
