"""Spans: every chunk knows the range of the input it came from, taken where it was cut.

The rules (docs/spans.md): a span is tight (it starts and ends on a character that is not
white space, or is empty for a text of white space alone), lies within the input, and reads
like its text: the same words with white space between them. Exact (`input[start:end]` is
the text trimmed) wherever the chunker copies one piece of the input.
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.strategies import PIECES, SEPARATORS, engine_options, semantic_options, texts

from chunker import Chunk, ChunkingEngine, DocumentChunk, SemanticChunker
from chunker.base.whitespace import JS_WHITESPACE, WS_CLASS

# Texts that stress spans: everything `strategies` builds, and pieces with long runs of
# white space of every kind, CRLF and lone CRs, blank-line runs, astral characters and lone
# surrogates (which `st.text` never draws).
WHITE_RUNS = [
    " " * 40,
    "\t" * 9,
    "\n" * 7,
    "\r\n" * 5,
    "\u00a0" * 6,
    "\ufeff" * 3,
    "\n \n \n",
    "\r",
    "\u2029\u1680\u202f",
]
LONG_PIECES = ["😀" * 30, "中" * 120, "word\tword " * 20, "\ud83d", "\ude00\ud83d" * 3]
span_texts = st.one_of(
    texts,
    st.lists(
        st.tuples(st.sampled_from(PIECES + LONG_PIECES), st.sampled_from(SEPARATORS + WHITE_RUNS)),
        max_size=50,
    ).map(lambda parts: "".join(piece + sep for piece, sep in parts)),
)

_WS_IN_LINE = WS_CLASS.replace("\\n", "")
FENCE_LINE_RE = re.compile(f"(?m)^[{_WS_IN_LINE}]*```")


def trim(text: str) -> str:
    return text.strip(JS_WHITESPACE)


def reads_like(piece: str, selected: str, *, blank_line_may_vanish: bool = False) -> bool:
    """Whether `selected` holds the words of `piece` with white space between each two.

    With `blank_line_may_vanish`, a run that is exactly the blank line a merge adds may stand
    where the input has none (parts cut hard inside a word, then merged).
    """
    words = re.split(f"([{WS_CLASS}]+)", trim(piece))
    pattern = "".join(
        re.escape(word)
        if number % 2 == 0
        else (f"[{WS_CLASS}]*" if blank_line_may_vanish and word == "\n\n" else f"[{WS_CLASS}]+")
        for number, word in enumerate(words)
    )
    return re.fullmatch(pattern, selected) is not None


def own_text(chunk: Chunk) -> str:
    return chunk.text[len(chunk.text) - (chunk.end_offset - chunk.start_offset) :]


def assert_tight(text: str, span: tuple[int, int], piece: str) -> None:
    start, end = span
    assert 0 <= start <= end <= len(text)
    if trim(piece):
        assert start < end
        assert text[start] not in JS_WHITESPACE and text[end - 1] not in JS_WHITESPACE
    else:
        assert start == end, "a text of white space alone has an empty span"


def unclosed_fence(text: str, options: dict) -> int:
    """Where the code block left open starts (the original repeats the text before it after
    it), or past the end."""
    fences = [found.start() for found in FENCE_LINE_RE.finditer(text)]
    if options.get("preserve_code_blocks", True) and len(fences) % 2:
        return fences[-1]
    return len(text) + 1


# SemanticChunker


@given(span_texts, semantic_options)
def test_semantic_chunker_spans_are_tight_ordered_and_read_like_their_text(text, options):
    chunks = SemanticChunker(**options).chunk(text)
    opener = unclosed_fence(text, options)
    previous: Chunk | None = None
    for chunk in chunks:
        own = own_text(chunk)
        assert_tight(text, chunk.span, own)
        if chunk.span[1] > opener:
            break  # the original's repeat of the text before an open block: see below
        start, end = chunk.span
        assert reads_like(own, text[start:end], blank_line_may_vanish=True), (own, chunk)
        lead = chunk.text[: len(chunk.text) - len(own)]
        if previous is None or not trim(lead):
            assert chunk.overlap_span is None
        else:
            assert chunk.overlap_span is not None
            lead_start, lead_end = chunk.overlap_span
            assert_tight(text, chunk.overlap_span, lead)
            # The overlap is the end of the own text before.
            assert lead_end == previous.span[1]
            assert previous.span[0] <= lead_start
            assert reads_like(lead, text[lead_start:lead_end], blank_line_may_vanish=True)
        if previous is not None:
            assert previous.span[0] <= start
            assert previous.span[1] <= end or not trim(own)
        previous = chunk


@given(span_texts, semantic_options)
def test_a_chunk_of_one_piece_of_the_input_is_exact(text, options):
    # No merges (min_size 0) and nothing to split (max_size past the text): every chunk is
    # one segment cut at structure, copied from the input.
    options.update(min_size=0, max_size=max(len(text) + 1, options.get("max_size", 1)))
    for chunk in SemanticChunker(**options).chunk(text):
        start, end = chunk.span
        assert text[start:end] == trim(own_text(chunk))


@given(span_texts, semantic_options)
def test_chunk_columns_are_the_chunks_with_their_texts_placed(text, options):
    # `chunk_columns` (what the bridge sends) holds `chunk`'s chunks field by field, and
    # places each text, overlap then own text, where the chunk was cut; a chunk it cannot
    # place gets -1s and its text in `texts`.
    chunker = SemanticChunker(**options)
    chunks = chunker.chunk(text)
    columns = chunker.chunk_columns(text)
    assert len(columns) == len(chunks)
    assert columns.offsets == [
        o for chunk in chunks for o in (chunk.start_offset, chunk.end_offset)
    ]
    assert columns.boundaries == [chunk.boundary_type for chunk in chunks]
    assert columns.spans == [o for chunk in chunks for o in chunk.span]
    assert columns.overlap_spans == [
        o for chunk in chunks for o in (chunk.overlap_span or (-1, -1))
    ]
    assert len(columns.places) == 4 * len(chunks)
    unplaced = iter(columns.texts)
    for chunk, at in zip(chunks, range(0, len(columns.places), 4)):
        lead_from, lead_to, own_from, own_to = columns.places[at : at + 4]
        if lead_from < 0:
            assert (lead_to, own_from, own_to) == (-1, -1, -1)
            assert next(unplaced) == chunk.text
            continue
        assert 0 <= lead_from <= lead_to <= len(text) and 0 <= own_from <= own_to <= len(text)
        assert text[lead_from:lead_to] + text[own_from:own_to] == chunk.text
        assert own_to - own_from == chunk.end_offset - chunk.start_offset
    assert next(unplaced, None) is None


@given(st.lists(span_texts, max_size=4), semantic_options)
def test_chunk_columns_into_holds_each_text_after_the_last(texts, options):
    # A batch's columns (what a worker answers): each text's columns one after another,
    # its places in that text.
    chunker = SemanticChunker(**options)
    batch = chunker.chunk_columns(texts[0]) if texts else None
    for text in texts[1:]:
        assert chunker.chunk_columns(text, into=batch) is batch
    alone = [chunker.chunk_columns(text) for text in texts]
    for name in ("offsets", "boundaries", "spans", "overlap_spans", "places", "texts"):
        assert getattr(batch, name, []) == [v for c in alone for v in getattr(c, name)]


def test_chunk_columns_check_metadata_as_chunk_does():
    with pytest.raises(TypeError, match="metadata must be a mapping or None, got list"):
        SemanticChunker().chunk_columns("Some text.", [1])


def test_most_chunks_of_markdown_are_placed():
    # Paragraphs and headings cut from the input are its own characters; the last chunk has
    # the line feed the original adds, a merge has its blank lines.
    text = "# A\n\nOne two.\n\n## B\n\nThree.\n\nFour five six.\n\n# C\n\nSeven.\n"
    chunker = SemanticChunker(target_size=5, min_size=0, overlap=4)
    assert chunker.chunk_columns(text).places[0::4].count(-1) == 0
    places = chunker.chunk_columns(text[:-1]).places
    assert places[-4:] == [-1, -1, -1, -1] and places[0:-4:4].count(-1) == 0


@given(
    st.text(alphabet="ab😀中\u00a0\ufeff\t ", max_size=400),
    st.integers(1, 60),
    st.integers(1, 120),
)
def test_fixed_parts_are_exact(text, target_size, max_size):
    # No sentence ends nor blank lines: an oversized text is cut at sizes alone, each part a
    # slice of the input; with min_size 0 none merges.
    chunker = SemanticChunker(target_size=target_size, max_size=max_size, min_size=0)
    for chunk in chunker.chunk(text):
        start, end = chunk.span
        assert text[start:end] == trim(own_text(chunk))


@given(span_texts, semantic_options)
def test_spans_do_not_depend_on_the_overlap(text, options):
    with_overlap = SemanticChunker(**options).chunk(text)
    without = SemanticChunker(**{**options, "overlap": 0}).chunk(text)
    assert [c.span for c in with_overlap] == [c.span for c in without]
    assert all(c.overlap_span is None for c in without)


def test_merge_runs_the_end_offset_past_the_span_is_right():
    text = "# Title\n\nA long enough paragraph here.\n\nShort tail."
    chunks = SemanticChunker(min_size=40, overlap=0).chunk(text)
    (only,) = chunks
    # The merge adds a blank line: end_offset counts it, and the added final line feed.
    assert only.end_offset == len(text) + 1
    assert only.span == (0, len(text))
    assert text[slice(*only.span)] == trim(only.text)


def test_a_fixed_part_of_packed_paragraphs_reads_like_its_span():
    # Packed up to target_size past max_size, the two paragraphs are split again; one
    # sentence, so by size, and the part holds the blank line the packing put for "\n \n".
    text = "aaaa\n \nbbbb cccc"
    (only,) = SemanticChunker(target_size=100, max_size=10, min_size=0, overlap=0).chunk(text)
    assert (only.text, only.boundary_type) == ("aaaa\n\nbbbb cccc", "fixed")
    assert only.span == (0, len(text))
    assert text[slice(*only.span)] != trim(only.text)
    assert reads_like(only.text, text[slice(*only.span)])


def test_split_at_long_white_space_the_offsets_lag_the_spans_do_not():
    first, second = ("alpha " * 15).strip(), ("omega " * 15).strip()
    text = first + "\n   \n\n\n" + second  # a break 5 longer than the "\n\n" counted
    # One segment (the first blank line comes before target_size), over max_size: split at
    # its blank line, and the second part's offset counts the break as "\n\n".
    chunks = SemanticChunker(target_size=100, max_size=120, min_size=0, overlap=0).chunk(text)
    assert [c.text for c in chunks] == [first, second + "\n"]
    assert chunks[1].start_offset == len(first) + 2
    assert chunks[1].span == (len(first) + 7, len(text))
    assert text[chunks[1].start_offset : chunks[1].end_offset] != chunks[1].text
    assert [text[slice(*c.span)] for c in chunks] == [first, second]


def test_the_last_chunks_end_offset_passes_the_text_its_span_does_not():
    text = "One line, no line feed."
    (only,) = SemanticChunker().chunk(text)
    assert only.end_offset == len(text) + 1
    assert only.span == (0, len(text))


def test_spans_count_code_points_across_crlf_and_astral_characters():
    text = "😀 emoji\r\n\r\n# Head 𠀀\r\nbody\r\n"
    chunks = SemanticChunker(min_size=0, overlap=0).chunk(text)
    assert [text[slice(*c.span)] for c in chunks] == ["😀 emoji", "# Head 𠀀\r\nbody"]


def test_overlap_span_ends_where_the_own_text_before_ends():
    text = "# A\n\nalpha beta gamma\n\n# B\n\ndelta"
    first, second = SemanticChunker(min_size=0, overlap=8).chunk(text)
    # The overlap "a gamma\n\n" + ... is taken from the end of the first chunk's own text,
    # the line feeds the chunker added included; its span holds the input's part of it.
    assert second.text.startswith(own_text(first)[-8:])
    assert second.overlap_span is not None
    assert second.overlap_span[1] == first.span[1]
    assert text[slice(*second.overlap_span)] == trim(own_text(first)[-8:])


def test_an_overlap_of_white_space_alone_has_no_span():
    # The own text before ends with the line feed the chunker adds; one character of it is
    # all the overlap takes.
    text = "# A\n\nalpha\n\n# B\n\nbeta"
    _first, second = SemanticChunker(min_size=0, overlap=1).chunk(text)
    assert second.text.startswith("\n") and second.overlap_span is None


def test_a_chunk_of_white_space_alone_has_an_empty_span_where_its_white_space_starts():
    # A long paragraph after white space: the white space is packed alone (min_size 0 keeps
    # it from joining), so a chunk holds white space alone, as in the original.
    text = "  \n\nabcdef"
    chunks = SemanticChunker(target_size=1, max_size=5, min_size=0, overlap=0).chunk(text)
    blank = [c for c in chunks if not trim(c.text)]
    assert blank and blank[0].span == (0, 0)
    assert all(text[slice(*c.span)] == trim(c.text) for c in chunks)


def test_parts_cut_hard_and_merged_read_with_the_added_blank_line():
    text = "x" * 2100  # no white space: cut at 1000 and 2000; the last 100 join the part before
    _first, second = SemanticChunker(overlap=0).chunk(text)
    assert own_text(second) == "x" * 1000 + "\n\n" + "x" * 100
    assert second.span == (1000, 2100)
    assert not reads_like(own_text(second), text[1000:2100])
    assert reads_like(own_text(second), text[1000:2100], blank_line_may_vanish=True)


def test_the_text_repeated_after_an_open_code_block_keeps_its_own_span():
    text = "# Intro\n```\ncode"
    chunks = SemanticChunker(overlap=0, min_size=0).chunk(text)
    assert [c.text for c in chunks] == ["# Intro\n", "```\ncode\n", "# Intro\n"]
    assert [c.span for c in chunks] == [(0, 7), (8, 16), (0, 7)]


def test_merged_with_the_repeat_the_span_covers_both():
    text = "Intro\n```\ncode"
    chunks = SemanticChunker(overlap=0).chunk(text)
    assert own_text(chunks[-1]) == "```\ncode\n\n\nIntro\n"
    assert chunks[-1].span == (0, len(text))


def test_an_overlap_over_the_block_and_the_repeat_covers_both():
    # The code block and the first sentence repeated after it make one chunk (the sentence is
    # under min_size); the next chunk's overlap starts in the block and ends in the repeat,
    # which lies before the block: its span was (14, 3), an end before its start.
    text = "Aa. Bbbbbbb.\n```\nc"
    chunks = SemanticChunker(target_size=5, max_size=10, min_size=4, overlap=10).chunk(text)
    assert [own_text(c) for c in chunks[2:]] == ["```\nc\n\n\nAa.", "Bbbbbbb."]
    assert chunks[2].span == (0, 18)
    assert chunks[3].text.startswith("``\nc\n\n\nAa.")
    assert chunks[3].overlap_span == (0, 18)


# Sentences before a code block left open, and sizes that split them: the first part of
# their repeat after the block may join the block's chunk, and the next chunk's overlap
# take from both.
before_open_block = st.lists(
    st.tuples(
        st.sampled_from(["A.", "Bb.", "Cc dd.", "Eeeeeeee.", "x" * 12, "😀 \u00a0é.", "# H"]),
        st.sampled_from([" ", "  ", "\t", "\n"]),
    ),
    min_size=2,
    max_size=5,
).map(lambda parts: "".join(piece + sep for piece, sep in parts))
small_options = st.fixed_dictionaries(
    {
        "target_size": st.integers(1, 10),
        "max_size": st.integers(1, 20),
        "min_size": st.integers(0, 10),
        "overlap": st.integers(0, 40),
    }
)


@given(
    st.one_of(before_open_block, span_texts),
    st.one_of(st.text("ab \n", max_size=8), span_texts),
    st.one_of(small_options, semantic_options),
)
def test_with_a_code_block_left_open_every_span_is_a_tight_range(before, block, options):
    # The repeat of the text before the block is out of order (the test above stops there):
    # its spans are still tight ranges of the input, and an overlap lies within the span of
    # the chunk it came from.
    text = before.replace("```", "") + "\n```\n" + block.replace("```", "")
    previous: Chunk | None = None
    for chunk in SemanticChunker(**options).chunk(text):
        own = own_text(chunk)
        assert_tight(text, chunk.span, own)
        if chunk.overlap_span is not None:
            assert previous is not None
            assert_tight(text, chunk.overlap_span, chunk.text[: len(chunk.text) - len(own)])
            assert previous.span[0] <= chunk.overlap_span[0]
            assert chunk.overlap_span[1] <= previous.span[1]
        previous = chunk


# ChunkingEngine


def embed(sentences: list[str]) -> list[list[float]]:
    # Neighbours of different lengths mod 3 point apart: groups of every size.
    return [[1.0, float(len(sentence) % 3)] for sentence in sentences]


async def embed_async(sentences: list[str]) -> list[list[float]]:
    return embed(sentences)


def assert_engine_spans(text: str, chunks: list[DocumentChunk], exact: bool, overlap: int) -> None:
    previous = (0, 0)
    for chunk in chunks:
        assert_tight(text, chunk.span, chunk.content)
        start, end = chunk.span
        # Ends never go back; starts only where the original's fixed windows step back (see
        # test_a_fixed_window_may_start_before_the_one_before), which needs an overlap.
        assert previous[1] <= end or not trim(chunk.content)
        assert previous[0] <= start or overlap
        assert reads_like(chunk.content, text[start:end])
        if exact:
            assert text[start:end] == trim(chunk.content)
        previous = chunk.span


@given(span_texts, engine_options())
def test_engine_spans_are_tight_ordered_and_exact(text, options):
    # Every strategy without embeddings copies the input: fixed windows, sections, blocks.
    chunks = ChunkingEngine().chunk(text, **options)
    assert_engine_spans(text, chunks, exact=True, overlap=options["chunk_overlap"])


@given(span_texts, engine_options())
def test_fixed_windows_are_the_input_itself(text, options):
    options["strategy"] = "fixed"
    for chunk in ChunkingEngine().chunk(text, **options):
        assert text[slice(*chunk.span)] == chunk.content


@given(span_texts, engine_options())
def test_semantic_spans_read_like_the_sentences_they_join(text, options):
    options["strategy"] = "semantic"
    chunks = ChunkingEngine().chunk(text, embed_fn=embed, **options)
    assert_engine_spans(text, chunks, exact=False, overlap=options["chunk_overlap"])
    awaited = asyncio.run(ChunkingEngine().achunk(text, embed_fn=embed_async, **options))
    assert [c.span for c in awaited] == [c.span for c in chunks]


@given(span_texts, engine_options())
def test_achunk_gives_the_same_spans(text, options):
    chunks = ChunkingEngine().chunk(text, **options)
    awaited = asyncio.run(ChunkingEngine().achunk(text, **options))
    assert [c.span for c in awaited] == [c.span for c in chunks]


@given(span_texts, engine_options())
def test_without_overlap_engine_spans_never_go_back(text, options):
    options["chunk_overlap"] = 0
    previous = (0, 0)
    for chunk in ChunkingEngine().chunk(text, embed_fn=embed, **options):
        assert previous[0] <= chunk.span[0] and previous[1] <= chunk.span[1]
        previous = chunk.span


def test_a_fixed_window_may_start_before_the_one_before():
    # The original's guard: a window ending within chunk_overlap of the start makes the next
    # start at that end, and the one after steps back. The spans say where each came from.
    text = "# Title\n# Title\n" + "x" * 90 + "\nHello world.\n"
    chunks = ChunkingEngine().chunk(text, "fixed", chunk_size=99, chunk_overlap=98)
    assert [c.span for c in chunks[:3]] == [(0, 15), (16, 112), (14, 112)]
    assert all(text[slice(*c.span)] == c.content for c in chunks)


def test_hierarchical_span_is_the_body_the_heading_is_apart():
    text = "# Top\n\nIntro text.\n\n## Empty\n\n## Long\n\n" + "word " * 30
    chunks = ChunkingEngine().chunk(text, "hierarchical", chunk_size=40, chunk_overlap=5)
    assert text[slice(*chunks[0].span)] == "Intro text." and chunks[0].heading == "Top"
    # A section with no body holds its heading, and so takes the heading's span.
    assert chunks[1].content == "Empty" and text[slice(*chunks[1].span)] == "Empty"
    long = chunks[2:]
    assert all(c.heading == "Long" for c in long)
    assert all(text[slice(*c.span)] == c.content for c in long)
    assert long[0].span[0] == text.index("word")


def test_hierarchical_without_headings_keeps_white_space_and_its_empty_span():
    (only,) = ChunkingEngine().chunk(" \n ", "hierarchical")
    assert only.content == " \n " and only.span == (0, 0)
    (padded,) = ChunkingEngine().chunk("  text  ", "hierarchical")
    assert padded.content == "  text  " and padded.span == (2, 6)


def test_layout_blocks_and_prose_are_placed():
    text = "Intro.\n\n```py\nx = 1\n```  \n| a | b |\n| 1 | 2 |\nOutro."
    chunks = ChunkingEngine().chunk(text, "layout", chunk_size=100, chunk_overlap=0)
    assert [text[slice(*c.span)] for c in chunks] == [
        "Intro.",
        "```py\nx = 1\n```",
        "| a | b |\n| 1 | 2 |",
        "Outro.",
    ]
    assert chunks[1].content == "```py\nx = 1\n```  "  # the block whole, as the original


def test_semantic_groups_longer_than_twice_the_size_are_cut_and_placed():
    text = "Alpha beta.\n\nAlpha gamma.  Alpha delta. Omega!"
    chunks = ChunkingEngine().chunk(text, "semantic", 10, 2, lambda s: [[1.0]] * len(s))
    assert chunks and all(reads_like(c.content, text[slice(*c.span)]) for c in chunks)
    one = ChunkingEngine().chunk("  One sentence only.  ", "semantic", embed_fn=embed)
    assert one[0].span == (2, 20)


# Records


def test_to_dict_keeps_the_originals_shape_and_adds_spans_on_request():
    text = "# A\n\nalpha\n\n# B\n\nbeta"
    first, second = SemanticChunker(min_size=0, overlap=4).chunk(text)
    assert set(second.to_dict()) == {"text", "index", "startOffset", "endOffset", "boundaryType"}
    assert first.to_dict(spans=True)["span"] == {"start": 0, "end": 10}
    assert first.to_dict(spans=True)["overlapSpan"] is None
    assert second.to_dict(spans=True)["overlapSpan"] == {"start": 8, "end": 10}  # "ha"
    document = ChunkingEngine().chunk("one two", chunk_size=8, chunk_overlap=0)[0]
    assert document.to_dict() == {"content": "one two", "index": 0}
    assert json.dumps(document.to_dict(spans=True)) == (
        '{"content": "one two", "index": 0, "span": {"start": 0, "end": 7}}'
    )


def test_spans_follow_the_original_fields_and_are_not_compared():
    # After the original's fields; then the token budget's count (docs/tokens.md).
    assert Chunk.__slots__[-3:] == ("span", "overlap_span", "token_count")
    assert DocumentChunk.__slots__[-2:] == ("span", "token_count")
    made = SemanticChunker().chunk("Hello.")[0]
    assert made.span == (0, 6)
    assert made == Chunk("Hello.\n", 0, 0, 7, "paragraph", None)  # records equal as JSON


@pytest.mark.parametrize("strategy", ["fixed", "semantic", "hierarchical", "layout"])
def test_every_strategy_sets_a_span(strategy):
    text = "# H\n\nSome prose. More prose here.\n\n```\ncode\n```\n| t |\n"
    for chunk in ChunkingEngine().chunk(text, strategy, chunk_size=12, chunk_overlap=2):
        assert text[slice(*chunk.span)] == trim(chunk.content)


def test_the_readme_example():
    text = "# Refunds\n\nRefunds go back to the card.\n\n\n\n# Shipping\n\nTwo days."
    chunks = SemanticChunker(min_size=0, overlap=8).chunk(text)
    assert [(c.span, text[c.span[0] : c.span[1]], c.overlap_span) for c in chunks] == [
        ((0, 39), "# Refunds\n\nRefunds go back to the card.", None),
        ((43, 64), "# Shipping\n\nTwo days.", (35, 39)),
    ]
    assert chunks[1].to_dict(spans=True)["span"] == {"start": 43, "end": 64}
