"""`evaluate`'s speed on Chroma's whole set (one setting, BM25, k=5) against its parts done by
hand through the public API: cut every corpus (`Recipe.cut`), index the chunks
(`LexicalIndex.add_documents`), 472 searches, and the figures (`score`).

    python tests/bench/evaluation.py [--runs N]

The two take turns run by run; each figure is the median of N runs (5 unless given), and
their ratio is taken within the run (the machine is shared).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from chunker import LexicalIndex
from chunker.evaluation import CorpusSpans, EvaluationSet, evaluate, score
from chunker.recipe import Recipe, covered, fields

CHROMA = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "chroma-general-evaluation"


def by_hand(data: EvaluationSet) -> None:
    recipe = Recipe("semantic", {})
    pool, spans = [], {}
    for cid, text in data.corpora.items():
        spans[cid] = CorpusSpans([covered(fields(c)) for c in recipe.cut(text)])
        pool += [(cid, s, e) for s, e in spans[cid].spans if s < e]
    index = LexicalIndex()
    index.add_documents(
        {"id": str(i), "text": data.corpora[c][s:e]} for i, (c, s, e) in enumerate(pool)
    )
    for question in data.questions:
        found = [pool[int(hit.id)] for hit in index.search(question.text, 5)]
        score(question, found, spans[question.corpus_id])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    data = EvaluationSet.from_chroma(CHROMA)
    whole, parts = [], []
    evaluate(data)  # warm-up
    for _ in range(runs):
        began = time.perf_counter()
        evaluate(data)
        whole.append(time.perf_counter() - began)
        began = time.perf_counter()
        by_hand(data)
        parts.append(time.perf_counter() - began)
    w, p = statistics.median(whole), statistics.median(parts)
    print(f"evaluate: {w:.3f} s; by hand: {p:.3f} s; ratio {w / p:.2f}x (medians of {runs})")


if __name__ == "__main__":
    main()
