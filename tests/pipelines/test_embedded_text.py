"""What the LangChain and LlamaIndex adapters hand to an embedding model: within the token
budget as tiktoken itself counts it, and `token_count` its count: LangChain's `page_content`,
and what LlamaIndex embeds, `get_content(MetadataMode.EMBED)`, the document's metadata with
the text. Over real documents for every strategy, on random texts, and on the cases where it
once ran past the budget; a chunk under a heading embedded with its heading path, counted;
nothing lost."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from llama_index.core import Document as LlamaDocument
from llama_index.core.ingestion import IngestionPipeline
from llama_index.core.node_parser import MarkdownNodeParser
from llama_index.core.schema import MetadataMode
from support.langchain_documents import body_of
from support.real_documents import real_documents
from support.strategies import semantic_options
from support.strategies import texts as chunker_texts
from support.tiktoken_local import tiktoken_encoding

from chunker.base.validation import ArgumentValueError, field_of
from chunker.base.whitespace import JS_WHITESPACE
from chunker.langchain import ChunkerTextSplitter
from chunker.llama_index import ChunkerNodeParser
from chunker.recipe import PIPELINE_STRATEGIES, Recipe, covered, fields

# Lines indented with white space that the chunker's own text normalises.
STEPS = {
    sep: "".join(f"Step {i} is done.{sep}" for i in range(300)) for sep in ("\n    ", "\n\t\t")
}

GUIDE = (
    "# Guide\n\nWhat the guide is for. It explains things.\n\n"
    "## Install\n\nRun the installer. Then check it works.\n\n"
    "### On Debian\n\nUse apt to install the package, then run it once.\n\n"
    "## Use\n\nCall it with a file.\n"
)


@pytest.fixture(scope="module")
def tokens(tmp_path_factory: pytest.TempPathFactory):
    """The tokens tiktoken itself (its Rust encoder, OpenAI's ranks) counts in a text."""
    encoding = tiktoken_encoding("cl100k_base", tmp_path_factory.mktemp("ranks"))
    return lambda text: len(encoding.encode(text, disallowed_special=()))


def embedded(node) -> str:
    return node.get_content(metadata_mode=MetadataMode.EMBED)


def lost(text: str, ranges, kept) -> str:
    """The visible characters of `text` within `ranges` that no range of `kept` holds."""
    marks = bytearray(len(text))
    for start, end in kept:
        marks[start:end] = b"\1" * (end - start)
    missing = []
    for start, end in ranges:
        at = marks.find(0, start, end)
        while at != -1:
            if text[at] not in JS_WHITESPACE:
                missing.append(text[at])
            at = marks.find(0, at + 1, end)
    return "".join(missing)


def unbudgeted_ranges(recipe: Recipe, text: str) -> list[tuple[int, int]]:
    """The ranges the chunks cover when cut without the budget: what the pieces must hold."""
    options = {
        k: v for k, v in (recipe.options or {}).items() if k not in ("max_tokens", "tokenizer")
    }
    return [covered(fields(chunk)) for chunk in Recipe(recipe.strategy, options).cut(text)]


def assert_langchain_budget(tokens, text, documents, max_tokens, recipe) -> None:
    """Each document within the budget as tiktoken counts `page_content`, `token_count` that
    count, its text the slice its indices give, and every visible character kept."""
    for document in documents:
        assert document.metadata["token_count"] == tokens(document.page_content) <= max_tokens
        start, end = document.metadata["start_index"], document.metadata["end_index"]
        assert body_of(document) == text[start:end], document
    ranges = [(d.metadata["start_index"], d.metadata["end_index"]) for d in documents]
    assert lost(text, unbudgeted_ranges(recipe, text), ranges) == ""


def assert_llama_budget(tokens, document, nodes, max_tokens, recipe) -> None:
    """Each node within the budget as tiktoken counts what LlamaIndex embeds, `token_count`
    that count, its text the slice its indices give, and every visible character kept."""
    text = document.text
    for node in nodes:
        assert node.metadata["token_count"] == tokens(embedded(node)) <= max_tokens, node
        assert node.text == text[node.start_char_idx : node.end_char_idx]
    ranges = [(n.start_char_idx, n.end_char_idx) for n in nodes]
    assert lost(text, unbudgeted_ranges(recipe, text), ranges) == ""


# Texts where the adapters' embedded text once ran past the budget.


@pytest.mark.parametrize("sep", STEPS, ids=["spaces", "tabs"])
def test_langchain_counts_the_page_content_it_sends(tokens, sep):
    splitter = ChunkerTextSplitter.from_tiktoken_encoder(chunk_size=100, add_start_index=True)
    documents = splitter.create_documents([STEPS[sep]])
    assert len(documents) > 20
    assert_langchain_budget(tokens, STEPS[sep], documents, 100, splitter.recipe)
    assert splitter.split_text(STEPS[sep]) == [d.page_content for d in documents]


def test_llama_index_counts_what_it_embeds_with_the_documents_metadata(tokens):
    document = LlamaDocument(
        text=STEPS["\n    "],
        metadata={"file_name": "steps.txt", "file_path": "/srv/notes/steps.txt"},
    )
    made: list[int] = []

    def id_func(i, doc):
        made.append(i)
        return f"{doc.doc_id}-{i}"

    parser = ChunkerNodeParser(max_tokens=100, tokenizer="cl100k_base", id_func=id_func)
    for run in (
        parser.get_nodes_from_documents,
        lambda documents: IngestionPipeline(transformations=[parser]).run(documents=documents),
    ):
        made.clear()
        nodes = run([document])
        assert len(nodes) > 20
        assert all("file_name: steps.txt" in embedded(n) for n in nodes)
        assert_llama_budget(tokens, document, nodes, 100, Recipe("semantic", parser.options))
        # The user's id_func makes the nodes' ids, and nothing else (what is embedded is
        # measured on a node of our own).
        assert made == list(range(len(nodes)))
        assert [n.node_id for n in nodes] == [f"{document.doc_id}-{k}" for k in range(len(nodes))]


# Real documents, every strategy, both adapters, at the sizes of a small embedding model.


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    """A third of the real documents on this machine (support/real_documents.py), spread over
    them all: Debian's, Python's and npm's docs, Markdown, reStructuredText and plain text."""
    texts = real_documents()[::3]
    assert len(texts) > 100 and sum(map(len, texts)) > 1_000_000
    return texts


@pytest.mark.parametrize("strategy", PIPELINE_STRATEGIES)
def test_langchain_keeps_the_budget_on_real_documents(tokens, corpus, strategy):
    splitter = ChunkerTextSplitter.from_tiktoken_encoder(
        chunk_size=256, chunk_overlap=20, strategy=strategy, add_start_index=True
    )
    total = 0
    for text in corpus:
        documents = splitter.create_documents([text])
        assert_langchain_budget(tokens, text, documents, 256, splitter.recipe)
        total += len(documents)
    assert total > 5000


@pytest.mark.parametrize("strategy", PIPELINE_STRATEGIES)
def test_llama_index_keeps_the_budget_on_real_documents(tokens, corpus, strategy):
    # The metadata LlamaIndex's SimpleDirectoryReader gives a file and embeds with each node.
    documents = [
        LlamaDocument(
            text=text,
            metadata={"file_path": f"/srv/corpus/{n:04}.md", "file_name": f"{n:04}.md"},
        )
        for n, text in enumerate(corpus)
    ]
    parser = ChunkerNodeParser(strategy, max_tokens=256, tokenizer="cl100k_base")
    recipe = Recipe(strategy, parser.options)
    nodes = parser.get_nodes_from_documents(documents)
    assert len(nodes) > 5000
    by_document = itertools.groupby(nodes, key=lambda node: node.ref_doc_id)
    for document, (doc_id, mine) in itertools.zip_longest(documents, by_document):
        assert doc_id == document.doc_id
        assert_llama_budget(tokens, document, list(mine), 256, recipe)


# Random texts, options, budgets and metadata.

# Texts that put chunks over small budgets too: long words, emoji, CJK, code, headings.
HARD = st.sampled_from(
    [
        "x" * 200,
        "😀👩‍👩‍👧👍🏽",
        "中文没有空格。" * 8,
        "def f(x):\n    return [y**2 for y in x]  # squares\n",
        "One. Two! Three? " * 6,
        "\n    indented line\n    another\n",
        "# A heading\n\nbody text here.\n\n## Below it\n\nmore text.\n",
    ]
)
texts = st.one_of(
    chunker_texts, st.lists(st.one_of(HARD, chunker_texts), min_size=2, max_size=8).map("".join)
)
# Each strategy as often, the engine's at sizes up to many budgets.
engine_sizes = st.integers(1, 2000).flatmap(
    lambda size: st.fixed_dictionaries(
        {"chunk_size": st.just(size), "chunk_overlap": st.integers(0, min(size - 1, 200))}
    )
)
recipes = st.sampled_from(PIPELINE_STRATEGIES).flatmap(
    lambda strategy: st.tuples(
        st.just(strategy), semantic_options if strategy == "semantic" else engine_sizes
    )
)
metadatas = st.sampled_from([{}, {"file_name": "a.md"}, {"source": "web", "lang": "en"}])


@settings(max_examples=150)
@given(texts, recipes, st.integers(32, 64), st.booleans(), metadatas, st.booleans())
def test_both_adapters_keep_the_budget_on_any_text(
    tokens, text, recipe, max_tokens, heading_path, metadata, include_metadata
):
    strategy, options = recipe
    options = {**options, "max_tokens": max_tokens, "tokenizer": "cl100k_base"}
    try:
        checked = Recipe(strategy, options)
    except ValueError:
        assume(False)
    splitter = ChunkerTextSplitter(
        strategy, add_start_index=True, heading_path=heading_path, **options
    )
    documents = splitter.create_documents([text])
    assert_langchain_budget(tokens, text, documents, max_tokens, checked)
    parser = ChunkerNodeParser(
        strategy, heading_path=heading_path, include_metadata=include_metadata, **options
    )
    document = LlamaDocument(text=text, metadata=metadata)
    nodes = parser.get_nodes_from_documents([document])
    assert_llama_budget(tokens, document, nodes, max_tokens, checked)
    if include_metadata:
        assert all(
            f"{key}: {value}" in embedded(n) for n in nodes for key, value in metadata.items()
        )
    # Where nothing is embedded beside the text, the adapters cut as the chunker does.
    if strategy != "hierarchical" or not heading_path:
        original = ChunkerTextSplitter(
            strategy, content="original", heading_path=heading_path, **options
        )
        assert original.split_text(text) == [fields(c)["text"] for c in checked.cut(text)]
    if strategy != "hierarchical" and not (include_metadata and metadata):
        assert [(n.start_char_idx, n.end_char_idx) for n in nodes] == [
            (d.metadata["start_index"], d.metadata["end_index"]) for d in documents
        ]


# The heading path.


def test_hierarchical_documents_and_nodes_embed_their_heading_path(tokens):
    splitter = ChunkerTextSplitter("hierarchical", add_start_index=True)
    documents = splitter.create_documents([GUIDE])
    nodes = ChunkerNodeParser("hierarchical").get_nodes_from_documents(
        [LlamaDocument(text=GUIDE, metadata={"file_name": "guide.md"})]
    )
    paths = ["Guide", "Guide > Install", "Guide > Install > On Debian", "Guide > Use"]
    assert [d.metadata["heading_path"] for d in documents] == paths
    assert [n.metadata["heading_path"] for n in nodes] == paths
    for document, node, path in zip(documents, nodes, paths):
        start, end = document.metadata["start_index"], document.metadata["end_index"]
        assert document.page_content == f"{path}\n\n{GUIDE[start:end]}"
        assert embedded(node) == f"file_name: guide.md\nheading_path: {path}\n\n{node.text}"
        assert node.text == GUIDE[start:end]
        assert "heading_path" not in node.excluded_embed_metadata_keys
    # Off: the slices alone, as before, the heading kept in the metadata (not embedded).
    plain = ChunkerTextSplitter("hierarchical", add_start_index=True, heading_path=False)
    assert [d.page_content for d in plain.create_documents([GUIDE])] == [
        GUIDE[d.metadata["start_index"] : d.metadata["end_index"]] for d in documents
    ]
    off = ChunkerNodeParser("hierarchical", heading_path=False)
    assert off.to_dict()["heading_path"] is False
    for node in off.get_nodes_from_documents([LlamaDocument(text=GUIDE)]):
        assert embedded(node) == node.text and "heading_path" not in node.metadata
    with pytest.raises(TypeError, match="heading_path must be True or False") as raised:
        ChunkerTextSplitter("hierarchical", heading_path="yes")
    assert field_of(raised.value) == "heading_path"


def test_a_section_with_no_body_is_headed_by_its_ancestors():
    # A heading with no body is a chunk holding the heading: its path is its ancestors'.
    text = "# Guide\n\n## Empty\n\n## Full\n\nSome text.\n"
    documents = ChunkerTextSplitter("hierarchical").create_documents([text])
    assert [d.page_content for d in documents] == [
        "Guide",
        "Guide\n\nEmpty",
        "Guide > Full\n\nSome text.",
    ]


def test_the_heading_path_embeds_what_markdown_node_parser_embeds_of_the_headings(corpus):
    # LlamaIndex's MarkdownNodeParser embeds a section's heading line and its ancestors'
    # `header_path`; ours embeds each chunk's path, every heading above its text.
    markdown = [t for t in corpus if t.lstrip().startswith("#")][:40]
    assert len(markdown) >= 10
    ours = ChunkerNodeParser("hierarchical", chunk_size=4000, chunk_overlap=0)
    theirs = MarkdownNodeParser()
    for text in markdown:
        document = LlamaDocument(text=text)
        with_headings = [
            n for n in ours.get_nodes_from_documents([document]) if "heading" in n.metadata
        ]
        assert with_headings
        for node in with_headings:
            headings = [*node.metadata.get("ancestor_headings", []), node.metadata["heading"]]
            content = embedded(node)
            assert all(heading in content for heading in headings), node
        # Theirs, on the same text, embeds the headings as well: the convention we follow.
        for node in theirs.get_nodes_from_documents([document])[1:]:
            assert node.text.startswith("#")


def test_a_long_heading_path_keeps_to_half_the_budget(tokens):
    badges = "cssesc " + " ".join(
        f"[![{name}](https://img.shields.io/badge/{name}-passing-green.svg)](https://ci/{name})"
        for name in ("build", "coverage", "downloads", "license")
    )
    deep = "".join(f"{'#' * level} Part {level} of the book\n\n" for level in range(1, 6))
    text = f"# {badges}\n\nA short note under a long title.\n\n{deep}The body of the deepest.\n"
    assert tokens(badges) > 32
    splitter = ChunkerTextSplitter.from_tiktoken_encoder(
        chunk_size=64, chunk_overlap=0, strategy="hierarchical", add_start_index=True
    )
    documents = splitter.create_documents([text])
    assert_langchain_budget(tokens, text, documents, 64, splitter.recipe)
    # The badge title alone is over half of 64: no path.
    assert "heading_path" not in documents[0].metadata
    assert documents[0].page_content == "A short note under a long title."
    # The deepest section's path loses its outermost headings until it, and the blank line
    # after it, are within 32 tokens.
    last = documents[-1].metadata
    full = " > ".join([*last["ancestor_headings"], last["heading"]])
    assert len(full) > len(last["heading_path"]) and full.endswith(last["heading_path"])
    assert tokens(last["heading_path"] + "\n\n") <= 32 < tokens(full)
    assert last["heading_path"].startswith("Part ")
    # In LlamaIndex, with the document's metadata beside it: all that is embedded beside the
    # text is within half the budget, so the path is shorter still.
    document = LlamaDocument(text=text, metadata={"file_path": "/srv/docs/cssesc/README.md"})
    parser = ChunkerNodeParser("hierarchical", max_tokens=64, tokenizer="cl100k_base")
    nodes = parser.get_nodes_from_documents([document])
    assert_llama_budget(tokens, document, nodes, 64, Recipe("hierarchical", parser.options))
    assert "heading_path" not in nodes[0].metadata
    for node in nodes:
        assert tokens(node.get_metadata_str(MetadataMode.EMBED)) <= 32
    path = nodes[-1].metadata["heading_path"]
    assert last["heading_path"].endswith(path) and len(path) < len(last["heading_path"])


# What is embedded beside the text, as LlamaIndex builds it.


def test_llama_index_counts_its_templates_and_leaves_out_excluded_keys(tokens):
    metadata = {"title": "Steps", "notes": "word " * 500}
    document = LlamaDocument(
        text=STEPS["\n\t\t"],
        metadata=metadata,
        excluded_embed_metadata_keys=["notes"],
        metadata_template="<{key}>{value}</{key}>",
        text_template="{content}\n----\n{metadata_str}",
    )
    parser = ChunkerNodeParser("fixed", max_tokens=60, tokenizer="cl100k_base")
    nodes = parser.get_nodes_from_documents([document])
    assert len(nodes) > 20
    assert_llama_budget(tokens, document, nodes, 60, Recipe("fixed", parser.options))
    assert all(embedded(n).endswith("\n----\n<title>Steps</title>") for n in nodes)
    # Without the document's metadata in the nodes, none of it is embedded or counted.
    alone = ChunkerNodeParser("fixed", max_tokens=60, include_metadata=False)
    for node in alone.get_nodes_from_documents([document]):
        assert embedded(node) == node.text and node.metadata["token_count"] == tokens(node.text)


def test_metadata_that_leaves_no_room_for_text_is_an_error_naming_max_tokens():
    document = LlamaDocument(text=GUIDE, metadata={"summary": "word " * 40})
    with pytest.raises(ArgumentValueError, match=r"invalid max_tokens 30 .*summary") as raised:
        ChunkerNodeParser(max_tokens=30).get_nodes_from_documents([document])
    assert field_of(raised.value) == "max_tokens"
