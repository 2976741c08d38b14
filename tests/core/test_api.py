"""The public surface: one-shot functions, typed records, inputs in either naming, no deps."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import FrozenInstanceError

import pytest

import chunker
from chunker import (
    Chunk,
    ChunkingEngine,
    DocumentChunk,
    SemanticChunker,
    Turn,
    chunk,
    chunk_turns,
)


def test_one_shot_chunk_equals_the_class():
    text = "# A\n\nOne. Two.\n\n## B\n\nThree."
    assert chunk(text, {"k": 1}, target_size=20, overlap=5) == SemanticChunker(
        target_size=20, overlap=5
    ).chunk(text, {"k": 1})


def test_records_are_frozen_and_metadata_is_the_object_passed():
    metadata = {"source": "a.md"}
    chunks = chunk("Hello.\n\n# Two\n\nWorld.", metadata, min_size=0)
    assert all(c.metadata is metadata for c in chunks)
    with pytest.raises(FrozenInstanceError):
        chunks[0].text = "changed"  # type: ignore[misc]


def test_chunks_built_through_drafts_are_plain_frozen_records():
    made = chunk("# A\n\nOne. Two.")[0]
    rebuilt = Chunk(*(getattr(made, field) for field in Chunk.__slots__))
    assert type(made) is Chunk and made == rebuilt and hash(made) == hash(rebuilt)


@pytest.mark.parametrize("strategy", ["fixed", "hierarchical"])
def test_document_chunks_built_through_drafts_are_plain_frozen_records(strategy):
    text = "# A\n\nshort\n\n## B\n\n" + "body " * 30  # a short section and a long one
    documents = ChunkingEngine().chunk(text, strategy=strategy, chunk_size=40, chunk_overlap=5)
    for document in documents:
        assert type(document) is DocumentChunk
        assert document == DocumentChunk(
            document.content, document.index, document.heading, document.metadata
        )
    with pytest.raises(FrozenInstanceError):
        documents[0].content = "changed"  # type: ignore[misc]


def test_metadata_absent_from_json_when_not_given():
    (only,) = chunk("Hello.")
    assert only == Chunk("Hello.\n", 0, 0, 7, "paragraph", None)
    assert "metadata" not in only.to_dict()


def test_turn_records_and_snake_case_keys_read_like_the_original_keys():
    as_records = [Turn(1, "Hi.", item_id="a", start_ms=0, end_ms=5), Turn(2, "Bye.", "b", 6, 9)]
    as_snake = [
        {"seq": 1, "text": "Hi.", "item_id": "a", "start_ms": 0, "end_ms": 5},
        {"seq": 2, "text": "Bye.", "item_id": "b", "start_ms": 6, "end_ms": 9},
    ]
    as_camel = [
        {"seq": 1, "text": "Hi.", "itemId": "a", "startMs": 0, "endMs": 5},
        {"seq": 2, "text": "Bye.", "itemId": "b", "startMs": 6, "endMs": 9},
    ]
    expected = chunk_turns(as_camel)
    assert chunk_turns(as_records) == expected == chunk_turns(as_snake)
    assert json.loads(json.dumps([p.to_dict() for p in expected]))[0]["itemIds"] == ["a", "b"]


def test_version_and_repr():
    assert chunker.__version__.count(".") == 2
    assert repr(SemanticChunker(overlap=0)).startswith("SemanticChunker(target_size=1000")


def test_imports_nothing_outside_the_standard_library():
    probe = (
        "import sys; before = set(sys.modules); import chunker, chunker.bridge; "
        "[getattr(chunker, name) for name in chunker.__all__]; "
        "print('\\n'.join(sorted(set(sys.modules) - before)))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    third_party = [
        name
        for name in loaded
        if not name.startswith("chunker") and name.split(".")[0] not in sys.stdlib_module_names
    ]
    assert third_party == []


def test_every_exported_name_resolves_and_is_listed():
    names = set(dir(chunker))
    for name in chunker.__all__:
        assert getattr(chunker, name) is not None
        assert name in names
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        chunker.nope  # noqa: B018


def test_the_worker_imports_only_semantic_chunkers_modules_at_start():
    # The browser worker imports chunker.bridge before it reports ready; the other
    # operations' modules (and their patterns and dataclasses) load on their first call.
    probe = (
        "import sys, json, chunker.bridge as b; "
        "first = sorted(m for m in sys.modules if m.startswith('chunker')); "
        "b.handle('lexicalTokens', json.dumps({'text': 'x'})); "
        "print(json.dumps([first, sorted(m for m in sys.modules if m.startswith('chunker'))]))"
    )
    first, later = json.loads(
        subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True
        ).stdout
    )
    assert first == [
        "chunker",
        "chunker.base",
        "chunker.base.collector",
        "chunker.base.limits",
        "chunker.base.validation",
        "chunker.base.whitespace",
        "chunker.bridge",
        "chunker.bridge.operations",
        "chunker.bridge.options",
        "chunker.bridge.packing",
        "chunker.bridge.protocol",
        "chunker.bridge.utf16",
        "chunker.semantic_chunker",
        "chunker.text",
        "chunker.text.records",
        "chunker.text.sourcemap",
        "chunker.text.structure",
    ]
    assert "chunker.search.lexical" in later and "chunker.engine" not in later


def test_type_hints_resolve():
    import typing

    assert typing.get_type_hints(chunker.chunk)["return"] == list[chunker.Chunk]
