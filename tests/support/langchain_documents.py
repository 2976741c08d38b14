"""What the LangChain adapter's documents hold, read back by the adapter tests."""

from __future__ import annotations

from langchain_core.documents import Document


def body_of(document: Document) -> str:
    """A LangChain document's text after its heading path and the blank line after it."""
    path = document.metadata.get("heading_path")
    if path is None:
        return document.page_content
    assert document.page_content.startswith(f"{path}\n\n"), document
    return document.page_content[len(path) + 2 :]
