"""`LiveDocument`: after any edits its chunks are a fresh chunking of its text, every field;
each edit's `Change` accounts for every old and new chunk; and an edit re-cuts the region it
can reach, not the text (docs/live.md)."""

from __future__ import annotations

import dataclasses
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.strategies import PIECES, SEPARATORS, semantic_options

from chunker import LiveDocument
from chunker.base.validation import field_of
from chunker.live import Change
from chunker.live.blocks import BlockText

# Pieces of Markdown that steer the chunkers (headings, fences, blank lines, sentences), beside
# the shared pieces that hit every rule.
MARKDOWN = [
    "# Guide",
    "## Install",
    "### Deep",
    "```",
    "```py",
    "Some words here.",
    "A sentence. Another one! A third?",
    "word " * 30,
    "| a | b |",
]
pieces = st.lists(
    st.tuples(st.sampled_from(MARKDOWN + PIECES), st.sampled_from(SEPARATORS)), max_size=60
).map(lambda parts: "".join(piece + sep for piece, sep in parts))
# Sections of paragraphs short and long, so that a section grows past `max_size` under an
# edit and its first part, alone, joins the chunk before.
PARAGRAPHS = [
    "Short.",
    "A sentence. Another one! A third?",
    "word " * 30,
    "A longer sentence with words. " * 8,
    "```\ncode\n# not a heading\n```",
]
sections = st.lists(
    st.tuples(
        st.sampled_from(["# ", "## ", "### "]),
        st.sampled_from(["Guide", "Install", "x"]),
        st.lists(st.sampled_from(PARAGRAPHS), max_size=4),
    ),
    max_size=12,
).map(
    lambda parts: "".join(
        f"{mark}{name}\n\n" + "\n\n".join(body) + "\n\n" for mark, name, body in parts
    )
)
documents = st.one_of(pieces, sections)
REPLACEMENTS = st.one_of(
    st.sampled_from(["", "x", "\n", "\n\n", "# New\n", "\n## New\n", "```\n", "\n```\n", ". "]),
    st.sampled_from(PARAGRAPHS).map(lambda text: "\n\n" + text + "\n\n"),
    pieces.map(lambda text: text[:80]),
)


def embed(sentences: list[str]) -> list[list[float]]:
    """A stand-in embedding: neighbours alike when they share their length's parity and
    their first letter's."""
    return [[len(s) % 2, float(ord(s.lstrip()[:1] or " ") % 3), 1.0] for s in sentences]


SETTINGS: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "semantic": semantic_options,
    "semantic-small": st.fixed_dictionaries(
        {"target_size": st.integers(20, 120), "min_size": st.integers(0, 60)},
        optional={"overlap": st.integers(0, 30), "max_size": st.integers(120, 240)},
    ),
    "semantic-budget": st.fixed_dictionaries(
        {
            "max_tokens": st.integers(8, 60),
            "target_size": st.integers(40, 300),
            "tokenizer": st.just("cl100k_base"),
        },
        optional={"overlap": st.integers(0, 40)},
    ),
    **{
        strategy: st.fixed_dictionaries(
            {"strategy": st.just(strategy), "chunk_size": st.integers(20, 200)},
            optional={"max_tokens": st.integers(8, 60)},
        ).map(lambda o: {**o, "chunk_overlap": o["chunk_size"] // 4})
        for strategy in ("fixed", "hierarchical", "layout")
    },
    "engine-semantic": st.fixed_dictionaries(
        {"strategy": st.just("engine-semantic"), "chunk_size": st.integers(20, 200)},
        optional={"embed_fn": st.just(embed)},
    ).map(lambda o: {**o, "chunk_overlap": o["chunk_size"] // 4}),
}


def every_field(chunk: Any, index: bool = True) -> tuple[Any, ...]:
    """A chunk's every field (spans too, which `==` leaves out), the index if asked."""
    names = [f.name for f in dataclasses.fields(chunk) if index or f.name != "index"]
    return (type(chunk).__name__, *(getattr(chunk, name) for name in names))


def moved(chunk: Any, by: int) -> tuple[Any, ...]:
    """`every_field` of `chunk` moved `by` characters, without its index."""
    values = dataclasses.asdict(chunk)
    values.pop("index")
    for name in ("span", "overlap_span"):
        if values.get(name) is not None:
            values[name] = (values[name][0] + by, values[name][1] + by)
    for name in ("start_offset", "end_offset"):
        if name in values:
            values[name] += by
    return (type(chunk).__name__, *values.values())


@st.composite
def edit_of(draw: st.DrawFn, text: str) -> tuple[int, int, str]:
    """An edit of `text`: anywhere, at a heading or fence line, at the start or the end, or
    one that empties it."""
    places = [0, len(text)] + [
        at for at in range(len(text)) if text.startswith(("\n#", "\n```"), at)
    ]
    kind = draw(st.sampled_from(["anywhere", "at a mark", "empty"]))
    if kind == "empty":
        return 0, len(text), ""
    if kind == "at a mark":
        start = draw(st.sampled_from(places))
    else:
        start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, min(len(text), start + draw(st.sampled_from([0, 1, 5, 60])))))
    return start, end, draw(REPLACEMENTS)


def check_change(before: list[Any], after: list[Any], change: Change, start: int, delta: int):
    """`kept` and `added` are the new chunks, `removed` the old ones not kept."""
    kept, added = list(change.kept), change.added
    assert sorted(every_field(c) for c in kept + added) == sorted(every_field(c) for c in after)
    assert len(kept) + len(added) == len(after)
    assert sorted(c.index for c in kept + added) == list(range(len(after)))
    removed = {c.index for c in change.removed}
    assert [every_field(c) for c in change.removed] == [
        every_field(c) for c in before if c.index in removed
    ]
    carried = [c for c in before if c.index not in removed]
    assert [moved(c, 0 if c.span[0] < start else delta) for c in carried] == [
        every_field(c, index=False) for c in kept
    ]


@pytest.mark.parametrize("name", SETTINGS)
@settings(max_examples=40)
@given(data=st.data())
def test_after_any_edits_the_chunks_are_a_fresh_chunking(name: str, data: st.DataObject):
    options = dict(data.draw(SETTINGS[name], label="options"))
    strategy = options.pop("strategy", "semantic")
    text = data.draw(documents, label="text")
    # Blocks of a few characters, so that searches and edits cross them.
    block = data.draw(st.sampled_from([1 << 16, 1, 2, 7]), label="block")
    with mock.patch("chunker.live.blocks.BLOCK_CHARS", block):
        document = LiveDocument(text, strategy, **options)
        edit_and_compare(document, text, strategy, options, data)


def edit_and_compare(
    document: LiveDocument, text: str, strategy: str, options: dict[str, Any], data: st.DataObject
) -> None:
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        before = document.chunks
        start, end, replacement = data.draw(edit_of(document.text), label="edit")
        change = document.edit(start, end, replacement)
        expected = text[:start] + replacement + text[end:]
        text = expected
        assert document.text == expected
        fresh = LiveDocument(expected, strategy, **options).chunks
        assert [every_field(c) for c in document.chunks] == [every_field(c) for c in fresh]
        check_change(before, fresh, change, start, len(replacement) - (end - start))


@settings(max_examples=60)
@given(text=documents, new_text=documents, options=semantic_options)
def test_replace_text_finds_the_edit_itself(text: str, new_text: str, options: dict[str, Any]):
    document = LiveDocument(text, **options)
    before = document.chunks
    change = document.replace_text(new_text)
    fresh = LiveDocument(new_text, **options).chunks
    assert document.text == new_text
    assert [every_field(c) for c in document.chunks] == [every_field(c) for c in fresh]
    assert len(change.kept) + len(change.added) == len(fresh)
    assert len(change.kept) + len(change.removed) == len(before)


@settings(max_examples=200)
@given(
    text=st.text("ab\n#`", max_size=40),
    block=st.integers(1, 9),
    sub=st.sampled_from(["\n#", "```", "\n", "a"]),
    places=st.lists(st.integers(0, 45), min_size=3, max_size=3),
    replacement=st.text("ab\n#`", max_size=12),
)
def test_a_text_in_blocks_answers_as_the_string(text, block, sub, places, replacement):
    with mock.patch("chunker.live.blocks.BLOCK_CHARS", block):
        blocks = BlockText.of(text).replaced(0, 0, "")  # joined only when asked
    assert (blocks.whole is None or not text) and len(blocks) == len(text)
    at, end, other = (min(place, len(text)) for place in places)
    start, stop = min(at, end), max(at, end)
    assert blocks[start:stop] == text[start:stop]
    assert blocks.find(sub, at) == text.find(sub, at)
    assert blocks.rfind(sub, 0, at) == text.rfind(sub, 0, at)
    if at < len(text):
        assert blocks[at] == text[at]
    with mock.patch("chunker.live.blocks.BLOCK_CHARS", block):
        edited = blocks.replaced(start, stop, replacement)
    assert str(edited) == text[:start] + replacement + text[stop:]
    assert edited.find(sub, other) == str(edited).find(sub, other)


def test_an_edit_keeps_the_chunks_around_it():
    document = LiveDocument("# A\n\nOne.\n\n# B\n\nTwo.\n\n# C\n\nThree.\n", overlap=0)
    change = document.edit(16, 20, "Deux.")
    assert [c.text for c in change.removed] == ["# B\n\nTwo.\n\n"]
    assert [c.text for c in change.added] == ["# B\n\nDeux.\n\n"]
    assert [(c.text, c.index, c.span) for c in change.kept] == [
        ("# A\n\nOne.\n\n", 0, (0, 9)),
        ("# C\n\nThree.\n\n", 2, (23, 34)),
    ]
    assert change.kept == [document.chunks[0], document.chunks[2]]  # compared as a list


def section(number: int) -> str:
    return (
        f"## Part {number}\n\n" + f"Sentence {number} of this part, with some words. " * 12 + "\n\n"
    )


LONG = "# Book\n\n" + "".join(section(number) for number in range(300))
# `hierarchical` starts again at a first-level heading, where the path of headings is empty.
CHAPTERS = "".join(section(number)[1:] for number in range(300))


def recut_characters(document: LiveDocument, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The lengths of the texts `document` cuts from now on."""
    lengths: list[int] = []
    cut = document._cut

    def counting(text: str) -> Any:
        lengths.append(len(text))
        return cut(text)

    monkeypatch.setattr(document, "_cut", counting)
    return lengths


# `layout` starts again at a code block, where the prose before it ends.
EXAMPLES = "".join(section(number) + "```\nrun()\n```\n\n" for number in range(300))


@pytest.mark.parametrize("strategy", ["semantic", "hierarchical", "layout"])
def test_an_edit_recuts_a_few_sections_not_the_text(strategy, monkeypatch):
    text = {"semantic": LONG, "hierarchical": CHAPTERS, "layout": EXAMPLES}[strategy]
    document = LiveDocument(text, strategy)
    lengths = recut_characters(document, monkeypatch)
    at = text.index("Sentence 150 of")
    document.edit(at, at + 1, "s")
    assert 0 < sum(lengths) < 6 * len(section(150))


def test_a_code_block_left_open_recuts_to_the_end(monkeypatch):
    document = LiveDocument(LONG)
    lengths = recut_characters(document, monkeypatch)
    at = LONG.index("## Part 150")
    document.edit(at, at, "```\n")
    assert lengths[-1] >= len(LONG) - at
    assert document.chunks == LiveDocument(document.text).chunks
    document.edit(at, at + 4, "")  # closed again: bounded again
    lengths.clear()
    document.edit(at + 20, at + 21, "x")
    assert sum(lengths) < 6 * len(section(150))


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda d: d.edit(-1, 0, ""), "start"),
        (lambda d: d.edit(5, 5, ""), "start"),
        (lambda d: d.edit(2, 1, ""), "end"),
        (lambda d: d.edit(0, 5, ""), "end"),
        (lambda d: d.edit("0", 1, ""), "start"),
        (lambda d: d.edit(0, 1.0, ""), "end"),
        (lambda d: d.edit(0, 1, None), "replacement"),
        (lambda d: d.replace_text(b"text"), "new_text"),
    ],
)
def test_a_bad_edit_names_its_argument_and_changes_nothing(call, field):
    document = LiveDocument("text")
    with pytest.raises((ValueError, TypeError)) as raised:
        call(document)
    assert field_of(raised.value) == field
    assert document.text == "text" and document.chunks == LiveDocument("text").chunks


@pytest.mark.parametrize(
    ("arguments", "options", "field"),
    [
        ((None,), {}, "text"),
        (("a", "fast"), {}, "strategy"),
        (("a", "fixed"), {"target_size": 10}, "options"),
        (("a", "engine-semantic"), {"embed_fn": 3}, "embed_fn"),
        (("a",), {"overlap": -1}, "overlap"),
    ],
)
def test_bad_settings_name_their_argument(arguments, options, field):
    with pytest.raises((ValueError, TypeError)) as raised:
        LiveDocument(*arguments, **options)
    assert field_of(raised.value) == field


def test_a_heading_joined_to_the_chunk_before_is_no_place_to_start_again():
    # Each section is over `max_size`, so its heading, alone under `min_size`, joins the
    # chunk before: no chunk starts at those headings, and none may be where the chunks that
    # stand end, or where the window is cut from (a bug Hypothesis found).
    options = {"target_size": 20, "min_size": 20, "overlap": 0, "max_size": 120}
    section = "# Guide\n\n" + "word " * 30 + "\n\n"
    text = "# Guide\n\n\n\n" + section * 2
    document = LiveDocument(text, **options)
    document.edit(333, 333, "x")
    fresh = LiveDocument(document.text, **options).chunks
    assert [every_field(c) for c in document.chunks] == [every_field(c) for c in fresh]


def test_a_section_grown_past_max_size_gives_its_heading_to_the_chunk_before():
    # Split, the section's first part is its heading alone, under `min_size`: it joins the
    # chunk before, which lies before the edit (the old `keep_to` bug).
    options = {"target_size": 30, "max_size": 120, "min_size": 20, "overlap": 10}
    text = (
        "# A\n\nAlpha para here.\n\n## B\n\n" + "word " * 20 + "\n\n## C\n\nGamma.\n\n## D\n\nD.\n"
    )
    document = LiveDocument(text, **options)
    at = text.index("word")
    document.edit(at, at, "word " * 10)
    fresh = LiveDocument(document.text, **options).chunks
    assert "## B" in fresh[0].text  # the case this test is for
    assert [every_field(c) for c in document.chunks] == [every_field(c) for c in fresh]


def test_a_budget_piece_at_a_closing_fence_is_no_block_for_layout():
    # With a budget the block is cut into pieces, the last its closing fence "```py", a
    # code chunk starting at a line of backticks, as a block would (a bug Hypothesis found).
    options = {"chunk_size": 20, "max_tokens": 8, "chunk_overlap": 5}
    text = "# Guide\n" * 5 + "```\n" + "x" * 90 + "\n中文没有空格。\n \t\n```py\n"
    document = LiveDocument(text, "layout", **options)
    document.edit(len(text), len(text), "")
    fresh = LiveDocument(document.text, "layout", **options).chunks
    assert fresh[-1].content == "```py"  # the case this test is for
    assert [every_field(c) for c in document.chunks] == [every_field(c) for c in fresh]


def test_a_text_of_many_blocks_emptied_then_edited_again():
    with mock.patch("chunker.live.blocks.BLOCK_CHARS", 4):
        doc = LiveDocument("# A\n\nOne.\n\n# B\n\nTwo.\n")
        doc.edit(0, len(doc.text), "")
        doc.edit(0, 0, "\n\n# C\n\nThree.\n")
    assert doc.chunks == LiveDocument(doc.text).chunks
