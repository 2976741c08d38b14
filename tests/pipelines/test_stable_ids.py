"""Stable ids through the real LangChain and LlamaIndex (`stable_ids=True`): a document's or
node's id is `text.ids`' of its source and text, so after a one-paragraph edit a vector
store's upsert by id, LangChain's `index()` and LlamaIndex's `IngestionPipeline` (a docstore,
`DocstoreStrategy.UPSERTS`) embed only the chunks the edit changed, counted where the
embedding model receives them."""

from __future__ import annotations

import itertools

import pytest
from langchain_core.embeddings import Embeddings
from langchain_core.indexing import InMemoryRecordManager, index
from langchain_core.vectorstores import InMemoryVectorStore
from llama_index.core import Document as LlamaDocument
from llama_index.core.embeddings import MockEmbedding
from llama_index.core.ingestion import DocstoreStrategy, IngestionPipeline
from llama_index.core.schema import MetadataMode, NodeRelationship
from llama_index.core.storage.docstore import SimpleDocumentStore
from llama_index.core.vector_stores import SimpleVectorStore

from chunker.base.validation import field_of
from chunker.langchain import ChunkerTextSplitter
from chunker.llama_index import ChunkerNodeParser
from chunker.text.ids import chunk_ids

SETTINGS = [
    ("semantic", {"target_size": 150, "min_size": 20, "max_size": 300}),
    ("semantic", {"target_size": 150, "min_size": 20, "max_size": 300, "overlap": 0}),
    ("fixed", {"chunk_size": 200, "chunk_overlap": 0}),
    ("hierarchical", {"chunk_size": 200}),
]
SAME = "See the note above for the details."


def paragraphs() -> list[str]:
    """A document of distinct paragraphs under headings, one of them twice."""
    out = []
    for section in range(6):
        out.append(f"## Section {section}")
        out.extend(
            f"Paragraph {section}.{n}: " + " ".join(f"word{section}{n}{w}" for w in range(18))
            for n in range(3)
        )
        out.append(SAME)
    return out


def edited(parts: list[str]) -> list[str]:
    """One paragraph in the middle replaced."""
    return [*parts[:13], "A new paragraph, written today. " * 3, *parts[14:]]


def most_changed(strategy: str) -> int:
    """The chunks the edit may change: those around the paragraph, but with `fixed`, whose
    windows follow each other by position, every window from the edit on (those before it
    are kept)."""
    return 12 if strategy == "fixed" else 3


def text_of(parts: list[str]) -> str:
    return "\n\n".join(parts)


class CountingEmbeddings(Embeddings):
    """LangChain embeddings that record every text they are asked to embed."""

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.embedded.extend(texts)
        return [[float(len(t)), 1.0] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return [float(len(text)), 1.0]


@pytest.mark.parametrize(("strategy", "options"), SETTINGS)
def test_langchain_documents_carry_the_ids_of_their_source_and_content(strategy, options):
    splitter = ChunkerTextSplitter(strategy, stable_ids=True, **options)
    documents = splitter.create_documents([text_of(paragraphs())], [{"source": "guide.md"}])
    contents = [d.page_content for d in documents]
    assert [d.id for d in documents] == chunk_ids("guide.md", contents)
    assert len({d.id for d in documents}) == len(documents)
    assert all("chunk_index" not in d.metadata for d in documents)
    assert all(d.metadata["source"] == "guide.md" for d in documents)
    # Without the option, nothing changes: no ids, the place in the metadata.
    plain = ChunkerTextSplitter(strategy, **options).create_documents([text_of(paragraphs())])
    assert [d.id for d in plain] == [None] * len(plain)
    assert [d.metadata["chunk_index"] for d in plain] == list(range(len(plain)))


def test_equal_chunks_of_one_source_get_different_ids():
    text = text_of([SAME * 4] * 4)
    documents = ChunkerTextSplitter(
        target_size=140, min_size=10, overlap=0, stable_ids=True
    ).create_documents([text], [{"source": "notes.md"}])
    nodes = ChunkerNodeParser(
        target_size=140, min_size=10, overlap=0, stable_ids=True
    ).get_nodes_from_documents([LlamaDocument(text=text, id_="notes.md")])
    for made in ([(d.id, d.page_content) for d in documents], [(n.id_, n.text) for n in nodes]):
        assert [content for _, content in made] == [SAME * 4] * 4
        assert len({made_id for made_id, _ in made}) == 4


@pytest.mark.parametrize(("strategy", "options"), SETTINGS)
def test_an_in_memory_vector_store_upserting_by_id_embeds_only_what_changed(strategy, options):
    splitter = ChunkerTextSplitter(strategy, stable_ids=True, **options)
    embeddings = CountingEmbeddings()
    store = InMemoryVectorStore(embedding=embeddings)
    before = splitter.create_documents([text_of(paragraphs())], [{"source": "guide.md"}])
    assert store.add_documents(before) == [d.id for d in before]  # the ids are the store's
    assert len(embeddings.embedded) == len(before)

    after = splitter.create_documents([text_of(edited(paragraphs()))], [{"source": "guide.md"}])
    stored = {d.id for d in store.get_by_ids([d.id for d in after])}
    embeddings.embedded.clear()
    store.add_documents([d for d in after if d.id not in stored])
    store.delete([d.id for d in before if d.id not in {a.id for a in after}])

    old_contents = [d.page_content for d in before]
    changed = [d.page_content for d in after if d.page_content not in old_contents]
    assert embeddings.embedded == changed
    assert 0 < len(changed) <= most_changed(strategy) < len(after)
    # The store now holds what a fresh one would: the new documents, by their ids.
    held = store.get_by_ids([d.id for d in after])
    assert [(d.id, d.page_content) for d in held] == [(d.id, d.page_content) for d in after]
    assert len(store.store) == len(after)
    # Adding the same documents again replaces them in place.
    store.add_documents(after)
    assert len(store.store) == len(after)


def test_langchain_index_skips_the_kept_documents_as_their_metadata_holds_no_place():
    record_manager = InMemoryRecordManager("ids")
    record_manager.create_schema()
    embeddings = CountingEmbeddings()
    store = InMemoryVectorStore(embedding=embeddings)
    splitter = ChunkerTextSplitter(target_size=150, min_size=20, max_size=300, stable_ids=True)
    # Two paragraphs in place of one: every chunk after it moves by one place.
    grown = [*paragraphs()[:13], "One new paragraph. " * 4, "And another one. " * 4]
    grown += paragraphs()[14:]
    for parts in (paragraphs(), grown):
        documents = splitter.create_documents([text_of(parts)], [{"source": "guide.md"}])
        embeddings.embedded.clear()
        result = index(
            documents,
            record_manager,
            store,
            cleanup="incremental",
            key_encoder="sha256",
            source_id_key="source",
        )
    assert result["num_added"] == len(embeddings.embedded) <= 3
    assert result["num_skipped"] > 10


def test_langchain_stable_ids_need_each_texts_source():
    splitter = ChunkerTextSplitter(stable_ids=True)
    with pytest.raises(ValueError, match=r"metadatas\[1\] has no 'source'") as refused:
        splitter.create_documents(["One.", "Two."], [{"source": "a.md"}, {"title": "b"}])
    assert field_of(refused.value) == "metadatas"
    with pytest.raises(TypeError, match=r"metadatas\[0\]\['source'\] must be a string") as typed:
        splitter.create_documents(["One."], [{"source": 7}])
    assert field_of(typed.value) == "metadatas"
    with pytest.raises(TypeError, match="stable_ids") as flag:
        ChunkerTextSplitter(stable_ids="yes")
    assert field_of(flag.value) == "stable_ids"


def test_langchain_split_documents_takes_the_loaders_source():
    from langchain_core.documents import Document

    splitter = ChunkerTextSplitter("fixed", chunk_size=20, chunk_overlap=0, stable_ids=True)
    loaded = [Document("One two three four five six.", metadata={"source": "/data/a.txt"})]
    documents = splitter.split_documents(loaded)
    assert [d.id for d in documents] == chunk_ids(
        "/data/a.txt", [d.page_content for d in documents]
    )


# What `CountingEmbedding` was asked to embed (a pydantic model keeps no plain attribute).
LLAMA_EMBEDDED: list[str] = []


class CountingEmbedding(MockEmbedding):
    """A LlamaIndex embedding model that records every text it is asked to embed."""

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        LLAMA_EMBEDDED.extend(texts)
        return [[float(len(t))] * self.embed_dim for t in texts]


def llama_nodes(parser: ChunkerNodeParser, parts: list[str]):
    document = LlamaDocument(
        text=text_of(parts), id_="guide.md", metadata={"file_name": "guide.md"}
    )
    return parser.get_nodes_from_documents([document])


@pytest.mark.parametrize(("strategy", "options"), SETTINGS)
def test_llama_index_nodes_carry_the_ids_of_their_document_and_text(strategy, options):
    parser = ChunkerNodeParser(strategy, stable_ids=True, **options)
    nodes = llama_nodes(parser, paragraphs())
    assert [n.id_ for n in nodes] == chunk_ids("guide.md", [n.text for n in nodes])
    assert len({n.id_ for n in nodes}) == len(nodes)
    assert all("chunk_index" not in n.metadata for n in nodes)
    # The relationships name the stable ids too.
    assert all(n.ref_doc_id == "guide.md" for n in nodes)
    for previous, node in itertools.pairwise(nodes):
        assert node.relationships[NodeRelationship.PREVIOUS].node_id == previous.id_
        assert previous.relationships[NodeRelationship.NEXT].node_id == node.id_
    # Set after the parser was made, as the other fields.
    parser.stable_ids = False
    assert llama_nodes(parser, paragraphs())[0].id_ != nodes[0].id_


@pytest.mark.parametrize(("strategy", "options"), SETTINGS)
def test_an_ingestion_pipeline_with_upserts_embeds_only_the_changed_nodes(strategy, options):
    parser = ChunkerNodeParser(strategy, stable_ids=True, **options)
    embedding = CountingEmbedding(embed_dim=2)
    pipeline = IngestionPipeline(
        transformations=[embedding],
        docstore=SimpleDocumentStore(),
        vector_store=SimpleVectorStore(),
        docstore_strategy=DocstoreStrategy.UPSERTS,
    )
    runs = []
    for parts in (paragraphs(), edited(paragraphs())):
        nodes = llama_nodes(parser, parts)
        for node in nodes:  # LlamaIndex upserts by `ref_doc_id`: each node its own unit
            del node.relationships[NodeRelationship.SOURCE]
        LLAMA_EMBEDDED.clear()
        pipeline.run(nodes=nodes)
        runs.append((nodes, list(LLAMA_EMBEDDED)))
    (before, first), (after, second) = runs
    assert len(first) == len(before)
    old = {n.id_ for n in before}
    changed = [n.get_content(MetadataMode.EMBED) for n in after if n.id_ not in old]
    assert second == changed
    assert 0 < len(second) <= most_changed(strategy) < len(after)
    assert pipeline.docstore.get_all_document_hashes()  # what it compared
