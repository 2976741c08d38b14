"""The command line's JSON Lines writer (chunker/cli/jsonl.py) writes the text `json.dumps`
writes of each record, for every strategy, with and without a token budget, on real
documents and on generated ones, and after a trip through pickle (as it goes to a worker)."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.real_documents import real_documents
from support.strategies import engine_options, semantic_options, texts

from chunker.cli.jsonl import ChunkLines, quoted
from chunker.recipe import Recipe

RECIPES = {
    "semantic": Recipe("semantic"),
    "semantic, overlap": Recipe("semantic", {"overlap": 120, "target_size": 400}),
    "semantic, budget": Recipe("semantic", {"max_tokens": 40, "tokenizer": "cl100k_base"}),
    "fixed": Recipe("fixed", {"chunk_size": 300, "chunk_overlap": 40}),
    "hierarchical": Recipe("hierarchical"),
    "layout": Recipe("layout"),
    "layout, counted": Recipe("layout", {"tokenizer": "cl100k_base"}),
}


def dumped(recipe: Recipe, name: str, text: str) -> list[str]:
    return [
        json.dumps({"source": name, **chunk.to_dict(spans=True)}, ensure_ascii=False)
        for chunk in recipe.cut(text)
    ]


@pytest.fixture(scope="module")
def documents() -> list[str]:
    found = real_documents(400)
    assert len(found) >= 200, "too few real documents on this machine"
    return found


@pytest.mark.parametrize("name", list(RECIPES))
def test_real_documents_give_json_dumps_bytes(name, documents):
    recipe = RECIPES[name]
    lines = pickle.loads(pickle.dumps(ChunkLines(recipe)))
    step = 1 if "budget" not in name and "counted" not in name else 8  # counting is slower
    for number, text in enumerate(documents[::step]):
        source = f'docs/{number}-“quoted” \\ "name".md'
        assert lines(source, text) == dumped(recipe, source, text), (name, number)


@settings(max_examples=150, deadline=None)
@given(text=texts, options=semantic_options, name=st.text(max_size=12))
def test_semantic_lines_are_json_dumps_bytes(text, options, name):
    recipe = Recipe("semantic", options)
    assert ChunkLines(recipe)(name, text) == dumped(recipe, name, text)


@settings(max_examples=150, deadline=None)
@given(text=texts, options=engine_options(), name=st.text(max_size=12))
def test_engine_lines_are_json_dumps_bytes(text, options, name):
    options = dict(options)
    strategy = options.pop("strategy")
    if strategy == "semantic":  # the engine's own semantic needs an embed_fn: not a pipeline's
        strategy = "fixed"
    recipe = Recipe(strategy, options)
    assert ChunkLines(recipe)(name, text) == dumped(recipe, name, text)


def test_every_line_is_one_json_object_with_the_records_keys(documents):
    lines = ChunkLines(RECIPES["semantic, overlap"])
    for line in lines("a.md", documents[0]):
        record = json.loads(line)
        assert list(record)[:2] == ["source", "text"]
        assert "\n" not in line


# Each ASCII character alone and inside ASCII text (json's ASCII encoder takes those), and
# beside characters that are not ASCII (its other encoder takes those): DEL is the one
# character the two encoders write apart.
EVERY_ASCII = [chr(code) for code in range(128)]


@pytest.mark.parametrize("around", ["", "plain text ", "naïve 中文 🙂 "])
def test_quoted_writes_what_json_dumps_writes(around):
    for character in EVERY_ASCII:
        text = f"{around}{character}{around}"
        assert quoted(text) == json.dumps(text, ensure_ascii=False), repr(text)


@given(text=st.text())
def test_quoted_any_text(text):
    assert quoted(text) == json.dumps(text, ensure_ascii=False)
