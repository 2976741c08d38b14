"""Stable chunk ids (chunker/text/ids.py): the rule as docs/pipelines.md writes it, the same in
a fresh process, different for equal texts in one source, and kept under random
one-paragraph edits for the chunks the edit kept."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import uuid

from hypothesis import event, given
from hypothesis import strategies as st
from support.paths import ROOT

from chunker import ChunkingEngine, SemanticChunker
from chunker.text.ids import chunk_id, chunk_ids

# Paragraphs from a small pool, so a document often holds the same paragraph twice.
POOL = [
    "# Install",
    "Run the installer and follow the steps it shows.",
    "See above.",
    "The configuration lives in a file beside the program. " * 3,
    "```\nprint('same code')\n```",
    "A short note.",
]
paragraph = st.one_of(st.sampled_from(POOL), st.text("abc de.\n", min_size=1, max_size=120))
documents = st.lists(paragraph, min_size=1, max_size=25)


def documented_rule(source: str, text: str, occurrence: int) -> str:
    """docs/pipelines.md's rule, written again from the page."""
    data = f"{len(source)}:{source}:{occurrence}:{text}".encode("utf-8", "surrogatepass")
    # The variant and version bits as uuid sets them for version 4, then the version's digit.
    made = str(uuid.UUID(bytes=hashlib.sha256(data).digest()[:16], version=4))
    return made[:14] + "8" + made[15:]


@given(st.text(), st.text(), st.integers(min_value=0, max_value=10**6))
def test_the_id_is_the_documented_rule(source, text, occurrence):
    made = chunk_id(source, text, occurrence)
    assert made == documented_rule(source, text, occurrence)
    assert uuid.UUID(made).version == 8
    assert uuid.UUID(made).variant == uuid.RFC_4122


def test_a_source_holding_the_separator_is_not_another_source():
    assert chunk_id("a:1", "b") != chunk_id("a", "1:b")
    assert chunk_id("a", "1:b", 0) != chunk_id("a:1", "b", 0)


@given(st.text(max_size=20), st.lists(st.sampled_from(["x", "y", "", "x "]), max_size=30))
def test_equal_texts_in_one_source_have_different_ids(source, texts):
    ids = chunk_ids(source, texts)
    assert len(set(ids)) == len(ids)
    for number, text in enumerate(texts):
        assert ids[number] == chunk_id(source, text, texts[:number].count(text))


def test_the_ids_are_the_same_in_a_fresh_process():
    texts = ["One.", "Two 😀.", "One.", "\ud800 lone"]
    script = (
        f"from chunker.text.ids import chunk_ids; print(' '.join(chunk_ids('doc.md', {texts!r})))"
    )
    answers = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout.split()
        == chunk_ids("doc.md", texts)
        for seed in ("1", "2", "random")
    }
    assert answers == {True}


def kept_pairs(old, new, edit_start, edit_end, delta, text_of):
    """The (old, new) chunks an edit of old[edit_start:edit_end] (which it grew by `delta`)
    kept: the same text, wholly before the edit at the same span, or wholly after it at the
    span moved by `delta`."""
    by_place = {(c.span, text_of(c)): c for c in new}
    pairs = []
    for chunk in old:
        start, end = chunk.span
        if end < edit_start:
            place = chunk.span
        elif start > edit_end:
            place = (start + delta, end + delta)
        else:
            continue
        match = by_place.get((place, text_of(chunk)))
        if match is not None:
            pairs.append((chunk, match))
    return pairs


CHUNKERS = [
    (SemanticChunker(target_size=120, min_size=20, max_size=200).chunk, lambda c: c.text),
    (
        lambda text: ChunkingEngine().chunk(text, "hierarchical", chunk_size=120),
        lambda c: c.content,
    ),
]


@given(documents, st.data())
def test_a_kept_chunk_keeps_its_id_under_a_one_paragraph_edit(paragraphs, data):
    number = data.draw(st.integers(0, len(paragraphs) - 1))
    replacement = data.draw(paragraph)
    old_text = "\n\n".join(paragraphs)
    edited = [*paragraphs[:number], replacement, *paragraphs[number + 1 :]]
    new_text = "\n\n".join(edited)
    edit_start = len("\n\n".join(paragraphs[:number])) + (2 if number else 0)
    edit_end = edit_start + len(paragraphs[number])
    delta = len(replacement) - len(paragraphs[number])
    kept: list[str] = []
    for cut, text_of in CHUNKERS:
        old, new = cut(old_text), cut(new_text)
        old_ids = dict(zip(map(id, old), chunk_ids("doc.md", map(text_of, old))))
        new_ids = dict(zip(map(id, new), chunk_ids("doc.md", map(text_of, new))))
        for before, after in kept_pairs(old, new, edit_start, edit_end, delta, text_of):
            # Its class: how many chunks of its text come before it. The edit can change that
            # only by taking or making a chunk of the same text before it (documented).
            text = text_of(before)
            earlier_old = [text_of(c) for c in old if c.span < before.span].count(text)
            earlier_new = [text_of(c) for c in new if c.span < after.span].count(text)
            if earlier_old == earlier_new:
                assert new_ids[id(after)] == old_ids[id(before)]
                kept.append(text)
        assert len(set(new_ids.values())) == len(new)
    event(f"kept chunks checked: {min(len(kept), 5)}+")
