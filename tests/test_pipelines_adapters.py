"""The LangChain and LlamaIndex adapters against the real packages, through their public APIs:
the chunks are ours, and every start/end index is where the chunk's text sits in its document,
also where a paragraph repeats, after emoji and across CRLF line ends."""

from __future__ import annotations

import subprocess
import sys

import pytest
from langchain_core.documents import Document as LangChainDocument
from langchain_text_splitters import TextSplitter
from llama_index.core import Document as LlamaDocument
from llama_index.core.ingestion import IngestionPipeline
from llama_index.core.node_parser import NodeParser
from llama_index.core.schema import MetadataMode, NodeRelationship

from chunkspan import ChunkingEngine, DocumentChunk, SemanticChunker
from chunkspan.langchain import ChunkerTextSplitter
from chunkspan.llama_index import ChunkerNodeParser
from chunkspan.recipe import Recipe, covered, fields

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
    ("fixed", {"chunk_size": 40, "chunk_overlap": 10}),
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
    own span, each reading like its part of the chunk's text, the same words (README, "Spans");
    an engine chunk's span holds its very content."""
    chunk = flat["chunk"]
    assert (start, end) == covered(flat)
    assert 0 <= start <= end <= len(text)
    own_start, own_end = chunk.span
    if isinstance(chunk, DocumentChunk):
        assert text[own_start:own_end] == chunk.content.strip()
        return
    own_length = chunk.end_offset - chunk.start_offset  # the README's rule for offsets
    overlap, own = chunk.text[:-own_length], chunk.text[-own_length:]
    assert text[own_start:own_end].split() == own.split()
    if chunk.overlap_span is None:
        assert overlap.strip() == ""
    else:
        overlap_start, overlap_end = chunk.overlap_span
        assert text[overlap_start:overlap_end].split() == overlap.split()


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
    assert [d.page_content for d in documents] == [flat["text"] for _, flat in expected]
    for document, (n, flat) in zip(documents, expected):
        metadata = document.metadata
        assert metadata["source"] == f"doc{n}" and metadata["nested"] == {"n": n}
        assert metadata["chunk_index"] == flat["index"]
        assert_exact_range(DOCUMENTS[n], flat, metadata["start_index"], metadata["end_index"])
        for key in ("boundary_type", "heading", "heading_level", "ancestor_headings", "block_type"):
            assert metadata.get(key) == flat[key]
    assert documents[0].metadata["nested"] is not metadatas[0]["nested"]  # copied, as LangChain
    assert splitter.split_text(DOCUMENTS[1]) == [
        f["text"] for f in ours(strategy, options, DOCUMENTS[1])
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
    assert [node.get_content(MetadataMode.NONE) for node in nodes] == [
        f["text"] for _, f in expected
    ]
    for position, (node, (n, flat)) in enumerate(zip(nodes, expected)):
        assert_exact_range(DOCUMENTS[n], flat, node.start_char_idx, node.end_char_idx)
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
    assert [n.text for n in nodes] == [f["text"] for f in flats]
    assert [(n.start_char_idx, n.end_char_idx) for n in nodes] == [covered(f) for f in flats]
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
        ("chunkspan.langchain", "langchain_text_splitters", "langchain"),
        ("chunkspan.llama_index", "llama_index", "llama-index"),
        ("chunkspan.spark", "pyspark", "spark"),
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
