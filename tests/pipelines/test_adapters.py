"""The LangChain and LlamaIndex adapters against the real packages, through their public APIs:
the chunks are ours, each document's or node's text is the slice of its document its chunk
covers and its indices that slice's, as LangChain's and LlamaIndex's own conventions say, also
where a paragraph repeats, after emoji and across CRLF line ends, over real files and random
texts; with `content="original"`, the chunkers' own texts at the same ranges. A LangChain
document of a chunk under a heading starts with its heading path (`heading_path`, the
default), and the rule holds for the rest (tests/pipelines/test_embedded_text.py tests the path)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from langchain_core.documents import Document as LangChainDocument
from langchain_text_splitters import TextSplitter
from llama_index.core import Document as LlamaDocument
from llama_index.core.ingestion import IngestionPipeline
from llama_index.core.node_parser import NodeParser
from llama_index.core.schema import MetadataMode, NodeRelationship
from support.langchain_documents import body_of
from support.strategies import engine_options, semantic_options, texts

from chunker import ChunkingEngine, DocumentChunk, SemanticChunker
from chunker.base.validation import field_of
from chunker.langchain import ChunkerTextSplitter
from chunker.llama_index import ChunkerNodeParser
from chunker.recipe import PIPELINE_STRATEGIES, Recipe, covered, fields

REPEATED = "The same sentence, word for word. It comes back later."
DOCUMENTS = [
    # A paragraph repeated under two headings, and again at the end.
    f"# One\n\n{REPEATED}\n\n# Two\n\n{REPEATED}\n\nSomething else.\n\n{REPEATED}\n",
    # Emoji (outside the BMP) before the repeats, so UTF-16 or byte offsets would drift.
    f"# 😀 Emoji 🎉\n\n{'🙂 ' * 30}\n\n{REPEATED} 😀\n\n{REPEATED} 😀\n\n## End\n\n{REPEATED}",
    # CRLF line ends throughout.
    f"# CRLF\r\n\r\n{REPEATED}\r\n\r\n{REPEATED}\r\n\r\n| a | b |\r\n| 1 | 2 |\r\n\r\n{REPEATED}",
    # Code blocks and a table, for layout.
    f"Intro. {REPEATED}\n\n```\nprint('x')\n```\n\n{REPEATED}\n\n```\nprint('x')\n```\n",
]
CASES = [
    ("semantic", {"target_size": 60, "min_size": 10, "overlap": 12}),
    ("semantic", {"target_size": 40, "max_size": 50, "min_size": 0, "overlap": 0}),
    # An overlap that starts at a word, passed through (it changes three documents' chunks).
    ("semantic", {"target_size": 60, "min_size": 10, "overlap": 12, "overlap_boundary": "word"}),
    ("fixed", {"chunk_size": 40, "chunk_overlap": 10}),
    # Windows that end at the text's own words, passed through.
    ("fixed", {"chunk_size": 40, "chunk_overlap": 10, "boundaries": "content"}),
    ("hierarchical", {"chunk_size": 50, "chunk_overlap": 5}),
    ("layout", {"chunk_size": 45, "chunk_overlap": 0}),
]
CASE_IDS = [f"{strategy}-{n}" for n, (strategy, _) in enumerate(CASES)]


def ours(strategy: str, options: dict, text: str) -> list[dict]:
    """Our chunks' `fields()`, each with the chunk itself under `chunk`."""
    if strategy == "semantic":
        chunks = SemanticChunker(**options).chunk(text)
    else:
        chunks = ChunkingEngine().chunk(text, strategy, **options)
    return [{**fields(chunk), "chunk": chunk} for chunk in chunks]


def assert_exact_range(text: str, flat: dict, start: int, end: int) -> None:
    """The range is the chunk's: from its overlap's span (where it has one) to the end of its
    own span, each reading like its part of the chunk's text, the same words (docs/spans.md);
    an engine chunk's span holds its very content."""
    chunk = flat["chunk"]
    assert (start, end) == covered(flat)
    assert 0 <= start <= end <= len(text)
    own_start, own_end = chunk.span
    if isinstance(chunk, DocumentChunk):
        assert text[own_start:own_end] == chunk.content.strip()
        return
    own_length = chunk.end_offset - chunk.start_offset  # the rule for offsets (docs/method.md)
    overlap, own = chunk.text[:-own_length], chunk.text[-own_length:]
    assert text[own_start:own_end].split() == own.split()
    if chunk.overlap_span is None:
        assert overlap.strip() == ""
    else:
        overlap_start, overlap_end = chunk.overlap_span
        assert text[overlap_start:overlap_end].split() == overlap.split()


def expected_path(flat: dict) -> str | None:
    """The heading path a chunk's LangChain document starts with: its headings, outermost
    first, its ancestors' alone where it holds its heading alone (a section with no body)."""
    if flat["heading"] is None:
        return None
    headings = [*(flat["ancestor_headings"] or []), flat["heading"]]
    if flat["text"] == flat["heading"]:
        headings.pop()
    return " > ".join(headings) or None


def test_the_documents_defeat_str_find():
    # Were the indices found with str.find, some chunk of these would be put at the first copy.
    wrong = 0
    for text in DOCUMENTS:
        for flat in ours("fixed", {"chunk_size": 40, "chunk_overlap": 10}, text):
            wrong += text.find(flat["text"]) != flat["start"]
    assert wrong >= 3


@pytest.mark.parametrize(("strategy", "options"), CASES, ids=CASE_IDS)
def test_langchain_documents_are_our_chunks_at_exact_indices(strategy, options):
    splitter = ChunkerTextSplitter(strategy, add_start_index=True, **options)
    assert isinstance(splitter, TextSplitter)
    metadatas = [{"source": f"doc{n}", "nested": {"n": n}} for n in range(len(DOCUMENTS))]
    documents = splitter.create_documents(DOCUMENTS, metadatas)
    expected = [
        (n, flat) for n, text in enumerate(DOCUMENTS) for flat in ours(strategy, options, text)
    ]
    assert len(documents) == len(expected)
    for document, (n, flat) in zip(documents, expected):
        metadata = document.metadata
        assert metadata["source"] == f"doc{n}" and metadata["nested"] == {"n": n}
        assert metadata["chunk_index"] == flat["index"]
        start, end = metadata["start_index"], metadata["end_index"]
        assert_exact_range(DOCUMENTS[n], flat, start, end)
        assert body_of(document) == DOCUMENTS[n][start:end]  # the slice it covers
        assert document.metadata.get("heading_path") == expected_path(flat)
        for key in ("boundary_type", "heading", "heading_level", "ancestor_headings", "block_type"):
            assert metadata.get(key) == flat[key]
    assert documents[0].metadata["nested"] is not metadatas[0]["nested"]  # copied, as LangChain
    assert splitter.split_text(DOCUMENTS[1]) == [
        d.page_content for d in documents if d.metadata["source"] == "doc1"
    ]


def test_langchain_split_and_transform_documents_keep_metadata():
    splitter = ChunkerTextSplitter(target_size=50, min_size=0, overlap=0)
    given = [LangChainDocument(page_content=t, metadata={"n": n}) for n, t in enumerate(DOCUMENTS)]
    split = splitter.split_documents(given)
    assert splitter.transform_documents(given) == split
    assert [d.metadata["n"] for d in split] == sorted(d.metadata["n"] for d in split)
    assert "start_index" not in split[0].metadata
    assert [d.page_content for d in split if d.metadata["n"] == 2] == splitter.split_text(
        DOCUMENTS[2]
    )


def test_langchain_own_indices_go_wrong_on_repeats_and_ours_do_not():
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    # Sizes in words, as with a tokenizer: LangChain steps back `chunk_overlap` characters
    # before its str.find, lands past the chunk's start and finds a later copy, or none.
    text = " ".join([REPEATED] * 6)
    theirs = RecursiveCharacterTextSplitter(
        chunk_size=12,
        chunk_overlap=6,
        length_function=lambda s: len(s.split()),
        add_start_index=True,
    ).create_documents([text])
    starts = [d.metadata["start_index"] for d in theirs]
    assert -1 in starts or starts != sorted(starts)
    ours_ = ChunkerTextSplitter(
        target_size=60, max_size=70, min_size=0, overlap=25, add_start_index=True
    ).create_documents([text])
    flats = ours(
        "semantic", {"target_size": 60, "max_size": 70, "min_size": 0, "overlap": 25}, text
    )
    assert len(ours_) == len(flats) > 4
    for document, flat in zip(ours_, flats):
        assert_exact_range(
            text, flat, document.metadata["start_index"], document.metadata["end_index"]
        )
    starts = [d.metadata["start_index"] for d in ours_]
    assert starts == sorted(starts) and len(set(starts)) == len(starts)


def test_langchain_options_are_checked_at_construction():
    with pytest.raises(ValueError, match="invalid target_size 0"):
        ChunkerTextSplitter(target_size=0)
    with pytest.raises(TypeError, match="unknown option 'chunk_size' for strategy 'semantic'"):
        ChunkerTextSplitter(chunk_size=10)
    with pytest.raises(ValueError, match="unknown strategy 'words'"):
        ChunkerTextSplitter("words")


@pytest.mark.parametrize(("strategy", "options"), CASES, ids=CASE_IDS)
def test_llama_index_nodes_are_our_chunks_at_exact_indices(strategy, options):
    parser = ChunkerNodeParser(strategy, **options)
    assert isinstance(parser, NodeParser)
    documents = [
        LlamaDocument(text=t, metadata={"file": f"doc{n}"}) for n, t in enumerate(DOCUMENTS)
    ]
    nodes = parser.get_nodes_from_documents(documents)
    expected = [
        (n, flat) for n, text in enumerate(DOCUMENTS) for flat in ours(strategy, options, text)
    ]
    assert len(nodes) == len(expected)
    for position, (node, (n, flat)) in enumerate(zip(nodes, expected)):
        assert_exact_range(DOCUMENTS[n], flat, node.start_char_idx, node.end_char_idx)
        content = node.get_content(MetadataMode.NONE)
        assert content == DOCUMENTS[n][node.start_char_idx : node.end_char_idx]
        assert node.metadata["file"] == f"doc{n}" and node.metadata["chunk_index"] == flat["index"]
        assert node.ref_doc_id == documents[n].doc_id
        assert node.relationships[NodeRelationship.SOURCE].node_id == documents[n].doc_id
        before = expected[position - 1][0] if position else None
        after = expected[position + 1][0] if position + 1 < len(expected) else None
        if before == n:
            assert (
                node.relationships[NodeRelationship.PREVIOUS].node_id == nodes[position - 1].node_id
            )
        else:
            assert NodeRelationship.PREVIOUS not in node.relationships
        if after == n:
            assert node.relationships[NodeRelationship.NEXT].node_id == nodes[position + 1].node_id
        else:
            assert NodeRelationship.NEXT not in node.relationships
        # Our keys stay out of what is embedded; the document's own metadata does not.
        embedded = node.get_content(MetadataMode.EMBED)
        assert "chunk_index" not in embedded and "file: doc" in embedded


def test_llama_index_relationships_match_its_own_parser():
    from llama_index.core.node_parser import SentenceSplitter

    document = LlamaDocument(text=DOCUMENTS[0])
    theirs = SentenceSplitter(chunk_size=15, chunk_overlap=0).get_nodes_from_documents([document])
    mine = ChunkerNodeParser(target_size=60, min_size=0, overlap=0).get_nodes_from_documents(
        [document]
    )

    def shape(nodes):
        return [sorted(r.name for r in n.relationships) for n in nodes]

    assert len(theirs) > 2 and len(mine) > 2
    assert shape(mine)[0] == shape(theirs)[0] and shape(mine)[1] == shape(theirs)[1]
    assert shape(mine)[-1] == shape(theirs)[-1]


def test_llama_index_ingestion_pipeline_and_options():
    parser = ChunkerNodeParser(
        "hierarchical", chunk_size=50, chunk_overlap=5, include_prev_next_rel=False
    )
    pipeline = IngestionPipeline(transformations=[parser])
    nodes = pipeline.run(documents=[LlamaDocument(text=DOCUMENTS[2])])
    flats = ours("hierarchical", {"chunk_size": 50, "chunk_overlap": 5}, DOCUMENTS[2])
    assert [(n.start_char_idx, n.end_char_idx) for n in nodes] == [covered(f) for f in flats]
    assert [n.text for n in nodes] == [DOCUMENTS[2][s:e] for s, e in map(covered, flats)]
    assert all(NodeRelationship.NEXT not in n.relationships for n in nodes)
    assert parser.options == {"chunk_size": 50, "chunk_overlap": 5}
    # The options as the model's own field, as LlamaIndex's `to_dict()` writes them.
    as_field = ChunkerNodeParser("hierarchical", options={"chunk_size": 50, "chunk_overlap": 5})
    assert as_field.to_dict()["options"] == parser.to_dict()["options"]
    with pytest.raises(ValueError, match="chunk_overlap 50 must be less than chunk_size 50"):
        ChunkerNodeParser("fixed", chunk_size=50, chunk_overlap=50)
    with pytest.raises(TypeError, match="unknown option 'target_size' for strategy 'layout'"):
        ChunkerNodeParser("layout", target_size=3)


def test_recipe_is_what_the_adapters_cut_with():
    splitter = ChunkerTextSplitter("fixed", chunk_size=30, chunk_overlap=3)
    assert splitter.recipe == Recipe("fixed", {"chunk_size": 30, "chunk_overlap": 3})


@pytest.mark.parametrize(
    ("module", "package", "extra"),
    [
        ("chunker.langchain", "langchain_text_splitters", "langchain"),
        ("chunker.llama_index", "llama_index", "llama-index"),
        ("chunker.spark", "pyspark", "spark"),
    ],
)
def test_an_adapter_without_its_package_says_which_extra_to_install(module, package, extra):
    # A finder that refuses the package, as if it were not installed.
    probe = (
        "import sys\n"
        "class Refuse:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name.split('.')[0] == {package!r}: raise ImportError('absent')\n"
        "sys.meta_path.insert(0, Refuse())\n"
        f"import {module}\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 1
    assert f"pip install 'chunkspan[{extra}]'" in result.stderr
    assert "ImportError" in result.stderr


# The offset conventions. LangChain's own tests (test_create_documents_with_start_index) assert
# `text[start_index : start_index + len(page_content)] == page_content`, and its splitters make
# no empty document; LlamaIndex's (test_hierarchical_nodes_have_sibling_relationships_and_
# document_offsets) assert `text[start_char_idx:end_char_idx] == node.get_content(NONE)`.

OPEN_FENCE = (
    "First paragraph that is long enough to stay on its own here.\n\n```\ncode that never closes\n"
)

# Every strategy the adapters offer, at its defaults and at sizes that make many chunks.
CONVENTION_CASES = [
    ("semantic", {}),
    ("semantic", {"target_size": 200, "min_size": 20, "overlap": 40}),
    ("semantic", {"target_size": 80, "max_size": 120, "min_size": 0, "overlap": 60}),
    ("fixed", {}),
    ("fixed", {"chunk_size": 100, "chunk_overlap": 20}),
    ("hierarchical", {}),
    ("hierarchical", {"chunk_size": 100, "chunk_overlap": 20}),
    ("layout", {}),
    ("layout", {"chunk_size": 100, "chunk_overlap": 20}),
]
CONVENTION_IDS = [f"{strategy}-{n}" for n, (strategy, _) in enumerate(CONVENTION_CASES)]


def real_texts() -> list[tuple[str, str]]:
    """Real files a fresh machine with the pipeline tests' packages has, found at test time in
    a fixed order: this repository's Markdown, the READMEs of the installed packages (their
    METADATA), LlamaIndex's own Markdown and langchain_text_splitters' sources; each cut to its
    first 50,000 characters, which keeps the test quick."""
    import importlib.metadata
    from pathlib import Path

    import langchain_text_splitters
    import llama_index.core
    from support.paths import ROOT

    paths = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    paths += sorted(Path(llama_index.core.__file__).parent.rglob("*.md"))
    paths += sorted(Path(langchain_text_splitters.__file__).parent.glob("*.py"))[:8]
    found = [(path.name, path.read_text(encoding="utf-8")) for path in paths]
    found += [
        (name, importlib.metadata.distribution(name).read_text("METADATA") or "")
        for name in ("langchain-text-splitters", "langchain-core", "llama-index-core", "hypothesis")
    ]
    return [(name, text[:50_000]) for name, text in found if text.strip()]


def assert_langchain_convention(text: str, documents: list) -> None:
    for document in documents:
        start, content = document.metadata["start_index"], body_of(document)
        assert content, document
        assert text[start : start + len(content)] == content, document
        assert document.metadata["end_index"] == start + len(content)


def assert_llama_convention(text: str, nodes: list) -> None:
    for node in nodes:
        start, end = node.start_char_idx, node.end_char_idx
        assert start is not None and end is not None
        content = node.get_content(metadata_mode=MetadataMode.NONE)
        assert content and text[start:end] == content, node


def expected_range(flat: dict) -> tuple[int, int]:
    """The range a chunk covers: from its first character, its overlap's where that comes
    before its own text (not an overlap from later in the text: no one range holds both), to
    the end of its own text."""
    overlap_start = flat["overlap_start"]
    if overlap_start is not None and overlap_start < flat["start"]:
        return overlap_start, flat["end"]
    return flat["start"], flat["end"]


def not_empty(flats: list[dict]) -> list[dict]:
    """The chunks that cover some character: the others give no document or node."""
    return [f for f in flats if expected_range(f)[0] < expected_range(f)[1]]


@pytest.fixture(scope="module")
def corpus() -> list[tuple[str, str]]:
    texts = real_texts()
    assert len(texts) >= 10 and sum(len(text) for _, text in texts) > 100_000
    return texts


@pytest.mark.parametrize(("strategy", "options"), CONVENTION_CASES, ids=CONVENTION_IDS)
def test_langchain_meets_its_convention_on_real_files(corpus, strategy, options):
    splitter = ChunkerTextSplitter(strategy, add_start_index=True, **options)
    for _, text in corpus:
        documents = splitter.create_documents([text])
        assert_langchain_convention(text, documents)
        assert [d.page_content for d in documents] == splitter.split_text(text)
        flats = not_empty(ours(strategy, options, text))
        assert len(flats) == len(documents)
        for document, flat in zip(documents, flats):
            metadata = document.metadata
            assert metadata["chunk_index"] == flat["index"]
            assert (metadata["start_index"], metadata["end_index"]) == expected_range(flat)


@pytest.mark.parametrize(("strategy", "options"), CONVENTION_CASES, ids=CONVENTION_IDS)
def test_llama_index_meets_its_convention_on_real_files(corpus, strategy, options):
    parser = ChunkerNodeParser(strategy, **options)
    documents = [LlamaDocument(text=text, metadata={"file": name}) for name, text in corpus]
    nodes = parser.get_nodes_from_documents(documents)
    for document in documents:
        mine = [n for n in nodes if n.ref_doc_id == document.doc_id]
        assert_llama_convention(document.text, mine)
        flats = not_empty(ours(strategy, options, document.text))
        assert len(flats) == len(mine)
        for node, flat in zip(mine, flats):
            assert node.metadata["chunk_index"] == flat["index"]
            assert (node.start_char_idx, node.end_char_idx) == expected_range(flat)


# A strategy the adapters offer and its options: the engine's sizes without its strategy.
recipes = st.one_of(
    st.tuples(st.just("semantic"), semantic_options),
    st.tuples(
        st.sampled_from(PIPELINE_STRATEGIES[1:]),
        engine_options().map(
            lambda o: {"chunk_size": o["chunk_size"], "chunk_overlap": o["chunk_overlap"]}
        ),
    ),
)


@given(texts, recipes, st.sampled_from(["source", "original"]))
def test_both_adapters_meet_their_conventions_on_any_text(text, recipe, content):
    strategy, options = recipe
    try:
        Recipe(strategy, options)
    except ValueError:
        assume(False)
    kwargs = {} if content == "source" else {"content": content}
    documents = ChunkerTextSplitter(
        strategy, add_start_index=True, **kwargs, **options
    ).create_documents([text])
    nodes = ChunkerNodeParser(strategy, **kwargs, **options).get_nodes_from_documents(
        [LlamaDocument(text=text)]
    )
    flats = ours(strategy, options, text)
    if content == "source":
        assert_langchain_convention(text, documents)
        assert_llama_convention(text, nodes)
        flats = not_empty(flats)
    else:
        assert [body_of(d) for d in documents] == [f["text"] for f in flats]
        assert [n.get_content(MetadataMode.NONE) for n in nodes] == [f["text"] for f in flats]
    assert len(documents) == len(nodes) == len(flats)
    for document, node, flat in zip(documents, nodes, flats):
        start, end = document.metadata["start_index"], document.metadata["end_index"]
        assert (node.start_char_idx, node.end_char_idx) == (start, end) == expected_range(flat)


@pytest.mark.parametrize("content", ["source", "original"])
def test_no_adapter_gives_an_inverted_range_after_a_code_block_left_open(content):
    # The original repeats the paragraph after the open block, with an overlap from the block's
    # end: that chunk's overlap comes after its own text.
    options = {"min_size": 10, "overlap": 5}
    flats = ours("semantic", options, OPEN_FENCE)
    assert flats[-1]["overlap_start"] > flats[-1]["end"]
    kwargs = {} if content == "source" else {"content": content}
    documents = ChunkerTextSplitter(add_start_index=True, **kwargs, **options).create_documents(
        [OPEN_FENCE]
    )
    nodes = ChunkerNodeParser(**kwargs, **options).get_nodes_from_documents(
        [LlamaDocument(text=OPEN_FENCE)]
    )
    ranges = [(d.metadata["start_index"], d.metadata["end_index"]) for d in documents]
    assert ranges == [(n.start_char_idx, n.end_char_idx) for n in nodes]
    assert all(start <= end for start, end in ranges)
    assert ranges[-1] == flats[-1]["chunk"].span  # its own text: the overlap is not before it
    if content == "source":
        assert_langchain_convention(OPEN_FENCE, documents)
        assert_llama_convention(OPEN_FENCE, nodes)
        assert documents[-1].page_content == OPEN_FENCE[:60]


def test_llama_index_parser_cuts_as_its_fields_say_when_they_are_changed():
    from llama_index.core.ingestion import IngestionCache

    text = DOCUMENTS[0]
    parser = ChunkerNodeParser("fixed", chunk_size=30, chunk_overlap=0)
    cache = IngestionCache()
    pipeline = IngestionPipeline(transformations=[parser], cache=cache)
    before = [n.text for n in pipeline.run(documents=[LlamaDocument(text=text, doc_id="d")])]
    parser.strategy = "hierarchical"
    parser.options = {"chunk_size": 50, "chunk_overlap": 5}
    assert parser.to_dict()["strategy"] == "hierarchical"
    after = [n.text for n in pipeline.run(documents=[LlamaDocument(text=text, doc_id="d")])]
    fresh = ChunkerNodeParser("hierarchical", chunk_size=50, chunk_overlap=5)
    expected = [n.text for n in fresh.get_nodes_from_documents([LlamaDocument(text=text)])]
    assert after == expected != before
    # Changed in place, and the content: each call reads them.
    parser.options["chunk_size"] = 30
    parser.content = "original"
    nodes = parser.get_nodes_from_documents([LlamaDocument(text=text)])
    assert [n.text for n in nodes] == [
        f["text"] for f in ours("hierarchical", {"chunk_size": 30, "chunk_overlap": 5}, text)
    ]
    # LlamaIndex's own `from_dict` cannot read back the `id_func` its `to_dict` writes.
    again = ChunkerNodeParser.from_dict({**parser.to_dict(), "id_func": None})
    assert [n.text for n in again.get_nodes_from_documents([LlamaDocument(text=text)])] == [
        n.text for n in nodes
    ]
    parser.options = {"target_size": 10}
    with pytest.raises(TypeError, match="unknown option 'target_size' for strategy"):
        parser.get_nodes_from_documents([LlamaDocument(text=text)])


def test_langchain_splitter_settings_cannot_be_changed_behind_its_back():
    splitter = ChunkerTextSplitter("fixed", chunk_size=30, chunk_overlap=3, content="original")
    assert splitter.content == "original"
    for name in ("recipe", "content", "heading_path"):
        with pytest.raises(AttributeError):
            setattr(splitter, name, None)
    with pytest.raises(ValueError, match="unknown content 'text' \\(must be one of") as error:
        ChunkerTextSplitter(content="text")
    assert field_of(error.value) == "content"
    with pytest.raises(ValueError, match="unknown content 'text' \\(must be one of"):
        ChunkerNodeParser(content="text")


@pytest.mark.parametrize(("strategy", "options"), CASES, ids=CASE_IDS)
def test_original_content_keeps_the_chunkers_text_at_the_same_range(strategy, options):
    splitter = ChunkerTextSplitter(strategy, add_start_index=True, content="original", **options)
    parser = ChunkerNodeParser(strategy, content="original", **options)
    assert parser.to_dict()["content"] == "original"
    assert ChunkerNodeParser.from_dict({**parser.to_dict(), "id_func": None}).content == "original"
    for text in DOCUMENTS:
        flats = ours(strategy, options, text)
        documents = splitter.create_documents([text])
        nodes = parser.get_nodes_from_documents([LlamaDocument(text=text)])
        assert splitter.split_text(text) == [d.page_content for d in documents]
        assert [body_of(d) for d in documents] == [f["text"] for f in flats]
        assert [n.get_content(MetadataMode.NONE) for n in nodes] == [f["text"] for f in flats]
        for document, node, flat in zip(documents, nodes, flats):
            start, end = document.metadata["start_index"], document.metadata["end_index"]
            assert (node.start_char_idx, node.end_char_idx) == (start, end)
            assert (start, end) == expected_range(flat)
