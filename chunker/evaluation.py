"""Exact retrieval evaluation of a chunking, as Chroma's "Evaluating Chunking Strategies for
Retrieval" scores it: questions with gold excerpts as character spans, and recall, precision,
IoU and precision_Omega on character ranges.

Chroma's code finds each chunk again with `str.find`; here every chunk's span is known (our
chunkers' `span`, or `locate_chunks` for texts from elsewhere), so the figures are exact.
Retrieval is BM25 over every corpus's chunks pooled in one `LexicalIndex` (ids are positions
in that pool), or cosine similarity with an `embed_fn`.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import operator
import statistics
import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chunker.base.limits import AT_ODDS
from chunker.base.validation import (
    ArgumentTypeError,
    ArgumentValueError,
    field_of,
    require_callable,
    require_int,
    require_mapping,
    require_nonempty_text,
    require_sequence,
    require_text,
)
from chunker.recipe import PipelineStrategy, Recipe, covered, fields, options_of
from chunker.search.lexical_index import LexicalIndex
from chunker.search.locate import locate_chunks
from chunker.stability import kept_shares
from chunker.text.records import Chunk, DocumentChunk

__all__ = [
    "Question",
    "EvaluationSet",
    "QuestionResult",
    "EvaluationReport",
    "SweepCell",
    "SweepReport",
    "evaluate",
    "sweep",
    "METRICS",
]

Span = tuple[int, int]
EmbedFn = Callable[[list[str]], list[list[float]]]
METRICS = ("recall", "precision", "iou", "precision_omega")
_CAMEL = {"precision_omega": "precisionOmega"}


@dataclass(frozen=True, slots=True)
class Question:
    """A question and the excerpts of its corpus that answer it, checked when made (that
    each excerpt lies inside its corpus, `EvaluationSet` checks)."""

    text: str
    """The question (not empty)."""
    corpus_id: str
    """The id of the corpus its excerpts are in."""
    references: tuple[Span, ...]
    """The excerpts, at least one, each `(start, end)` in code points of the corpus, integers
    with `0 <= start < end` (a list of lists is taken, and kept as tuples)."""

    def __post_init__(self) -> None:
        require_nonempty_text("text", self.text)
        require_text("corpus_id", self.corpus_id)
        object.__setattr__(self, "references", _excerpts("references", self.references))


def _excerpts(name: str, value: Any, *, field: str = "") -> tuple[Span, ...]:
    """`value` as excerpts, or an error naming `name` (and carrying `field`, when `name` is a
    part of it): a list of at least one pair of integers, each `0 <= start < end`. A bool
    or a float is no offset, and an empty excerpt answers no question."""
    field = field or name
    spans = []
    for number, pair in enumerate(require_sequence(name, value, of="excerpts", field=field)):
        where = f"{name}[{number}]"
        if not (
            isinstance(pair, (tuple, list))
            and len(pair) == 2
            and all(isinstance(o, int) and not isinstance(o, bool) for o in pair)
        ):
            raise ArgumentTypeError(
                field,
                f"{where} must be a (start, end) pair of integers, "
                f"got {type(pair).__name__} {pair!r:.80}",
            )
        start, end = pair
        if not 0 <= start < end:
            raise ArgumentValueError(
                field,
                f"invalid {where} ({start}, {end}) (must be 0 <= start < end: an excerpt "
                "holds at least one character)",
            )
        spans.append((start, end))
    if not spans:
        raise ArgumentValueError(field, f"{name} holds no excerpt (a question needs one)")
    return tuple(spans)


@dataclass(frozen=True, slots=True)
class EvaluationSet:
    """Corpora by id (in the order they first appear) and questions on them, checked when made."""

    corpora: Mapping[str, str]
    questions: Sequence[Question]

    def __post_init__(self) -> None:
        if not isinstance(self.corpora, Mapping):
            raise ArgumentTypeError(
                "corpora", f"corpora must be a mapping, got {self.corpora!r:.80}"
            )
        for corpus_id, text in self.corpora.items():
            require_text("corpora's ids", corpus_id, field="corpora")
            require_text(f"corpora[{corpus_id!r}]", text, field="corpora")
        questions = tuple(require_sequence("questions", self.questions, of="Questions"))
        if not questions:
            raise ArgumentValueError("questions", "an evaluation set needs at least one question")
        for row, question in enumerate(questions):
            where = f"questions[{row}]"
            if not isinstance(question, Question):
                raise ArgumentTypeError(
                    "questions", f"{where} must be a Question, got {question!r:.80}"
                )
            corpus = self.corpora.get(question.corpus_id)
            if corpus is None:
                raise ArgumentValueError(
                    "questions",
                    f"{where} is on corpus {question.corpus_id!r}, which the set has not",
                )
            for start, end in question.references:  # each 0 <= start < end (`Question`)
                if end > len(corpus):
                    raise ArgumentValueError(
                        "questions",
                        f"{where} has the excerpt ({start}, {end}), outside corpus "
                        f"{question.corpus_id!r} of {len(corpus)} characters",
                    )
        object.__setattr__(self, "corpora", dict(self.corpora))
        object.__setattr__(self, "questions", questions)

    @classmethod
    def from_chroma(cls, folder: str | Path) -> EvaluationSet:
        """Read Chroma's layout: `questions_df.csv` (question, references, corpus_id) and
        `corpora/<corpus_id>.md`. Each excerpt's `content` must be its span's text."""
        folder = Path(folder)
        corpora: dict[str, str] = {}
        questions: list[Question] = []
        table = folder / "questions_df.csv"
        with table.open(encoding="utf-8", newline="") as file:
            for row, record in enumerate(csv.DictReader(file), start=2):
                where = f"{table}, row {row}"
                corpus_id = record["corpus_id"]
                if corpus_id not in corpora:
                    path = folder / "corpora" / f"{corpus_id}.md"
                    if not path.is_file():
                        raise ArgumentValueError(
                            "folder", f"{where}: corpus {corpus_id!r} has no file {path}"
                        )
                    corpora[corpus_id] = path.read_text(encoding="utf-8")
                corpus = corpora[corpus_id]
                excerpts = json.loads(record["references"])
                offsets = [(e["start_index"], e["end_index"]) for e in excerpts]
                spans = _excerpts(f"{where}: references", offsets, field="folder")
                for span, excerpt in zip(spans, excerpts):
                    if corpus[span[0] : span[1]] != excerpt["content"]:
                        raise ArgumentValueError(
                            "folder",
                            f"{where}: the excerpt {span} is not its content in {corpus_id!r}",
                        )
                question = require_nonempty_text(
                    f"{where}: question", record["question"], field="folder"
                )
                questions.append(Question(question, corpus_id, spans))
        return cls(corpora, questions)

    def to_json(self) -> dict[str, Any]:
        """`{"corpora": {id: text}, "questions": [{"question", "corpusId", "references":
        [[start, end], ...]}]}`."""
        return {
            "corpora": dict(self.corpora),
            "questions": [
                {
                    "question": q.text,
                    "corpusId": q.corpus_id,
                    "references": [list(s) for s in q.references],
                }
                for q in self.questions
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EvaluationSet:
        """The set `to_json` wrote, checked as `Question` checks (an error names the place
        by the JSON's keys, `questions[2].references[0]`, and carries `field="questions"`):
        nothing is turned into what it is not, so `"2"`, `2.5` or `true` is no offset."""
        if not isinstance(data, Mapping) or "corpora" not in data or "questions" not in data:
            raise ArgumentValueError("data", "an evaluation set needs 'corpora' and 'questions'")
        entries = require_sequence("questions", data["questions"], of="questions")
        questions = []
        for row, entry in enumerate(entries):
            where = f"questions[{row}]"
            holding = "with 'question', 'corpusId' and 'references'"
            require_mapping(where, entry, field="questions", holding=holding)
            missing = [key for key in ("question", "corpusId", "references") if key not in entry]
            if missing:
                raise ArgumentValueError(
                    "questions", f"{where} has no {', '.join(map(repr, missing))}"
                )
            text = require_nonempty_text(f"{where}.question", entry["question"], field="questions")
            corpus_id = require_text(f"{where}.corpusId", entry["corpusId"], field="questions")
            spans = _excerpts(f"{where}.references", entry["references"], field="questions")
            questions.append(Question(text, corpus_id, spans))
        return cls(data["corpora"], questions)


@dataclass(frozen=True, slots=True)
class QuestionResult:
    """One question's figures and what was retrieved for it."""

    recall: float
    precision: float
    iou: float
    precision_omega: float
    retrieved: tuple[tuple[str, int, int], ...]
    """`(corpus_id, start, end)` of each chunk retrieved, best first."""
    scores: tuple[float, ...] = ()
    """The retriever's score of each (BM25, or the cosine similarity), in the same order."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {_CAMEL.get(m, m): getattr(self, m) for m in METRICS}
        out["retrieved"] = [
            {"corpusId": c, "start": s, "end": e, "score": score}
            for (c, s, e), score in zip(self.retrieved, self.scores or [None] * len(self.retrieved))
        ]
        return out


@dataclass(frozen=True, slots=True)
class EvaluationReport:
    """The means and (population) standard deviations over the questions, as Chroma's code."""

    recall: float
    precision: float
    iou: float
    precision_omega: float
    recall_std: float
    precision_std: float
    iou_std: float
    precision_omega_std: float
    questions: tuple[QuestionResult, ...]
    chunk_count: int
    mean_chunk_length: float
    max_chunk_length: int
    settings: Mapping[str, Any]
    """The strategy, options and k (or `chunks: "given"`), and the edits when measured."""
    seconds: float
    stability: float | None = None
    """The mean share of chunks kept under random one-paragraph edits (`edits`), or None."""
    stability_std: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data with camelCase keys, for JSON and the facade."""
        out: dict[str, Any] = {}
        for metric in METRICS:
            key = _CAMEL.get(metric, metric)
            out[key] = getattr(self, metric)
            out[key + "Std"] = getattr(self, metric + "_std")
        out.update(
            chunkCount=self.chunk_count,
            meanChunkLength=self.mean_chunk_length,
            maxChunkLength=self.max_chunk_length,
            settings=dict(self.settings),
            seconds=self.seconds,
            stability=self.stability,
            stabilityStd=self.stability_std,
            questions=[q.to_dict() for q in self.questions],
        )
        return out


def evaluate(
    data: EvaluationSet,
    *,
    chunks: Mapping[str, Sequence[Any]] | None = None,
    k: int = 5,
    strategy: PipelineStrategy = "semantic",
    embed_fn: EmbedFn | None = None,
    edits: int = 0,
    edit_seed: int = 0,
    **options: Any,
) -> EvaluationReport:
    """Cut every corpus of `data` with `strategy` and `options` (`chunk_many`'s names), or take
    `chunks` (for each corpus id: spans, texts placed with `locate_chunks`, or our records),
    retrieve the top `k` chunks for each question and score them.

    With `edits`, the report's `stability` is the mean share of chunks kept under that many
    random one-paragraph edits of each corpus, drawn from `edit_seed` (`chunker.stability`;
    docs/evaluation.md): the same edits for every setting of the same set.

    Example:
        >>> question = Question("dogs", "a", ((11, 21),))
        >>> data = EvaluationSet({"a": "Cats purr. Dogs bark."}, [question])
        >>> report = evaluate(data, chunks={"a": [(0, 10), (11, 21)]}, k=1)
        >>> report.recall, report.precision
        (1.0, 1.0)
    """
    began = time.perf_counter()
    _check_call(data, embed_fn)
    require_int("k", k, minimum=1)
    require_int("edits", edits, minimum=0)
    require_int("edit_seed", edit_seed, minimum=0)
    shares = None
    if chunks is None:
        recipe = Recipe(strategy, options)
        spans = {cid: _record_spans(recipe.cut(text)) for cid, text in data.corpora.items()}
        settings: dict[str, Any] = {"strategy": strategy, **options, "k": k}
        if edits:
            shares = kept_shares(recipe.cutter(), list(data.corpora.values()), edits, edit_seed)
            settings.update(edits=edits, edit_seed=edit_seed)
    elif edits:
        raise ArgumentValueError(
            "edits", f"edits {edits!r} needs a chunker to cut the edited texts, not chunks="
        )
    else:
        spans = _given_spans(data, chunks)
        settings = {"chunks": "given", "k": k}
    pool = [(cid, s, e) for cid in data.corpora for s, e in spans[cid]]
    texts = [data.corpora[cid][s:e] for cid, s, e in pool]
    retrieve = _bm25(texts) if embed_fn is None else _cosine(texts, embed_fn)
    corpora = {cid: CorpusSpans(corpus_spans) for cid, corpus_spans in spans.items()}
    results = []
    for question in data.questions:
        hits = retrieve(question.text, k)
        found = tuple(pool[i] for i, _ in hits)
        scores = tuple(s for _, s in hits)
        results.append(score(question, found, corpora[question.corpus_id], scores=scores))
    lengths = [e - s for _, s, e in pool]
    figures: dict[str, float] = {}
    for metric in METRICS:
        values = [getattr(r, metric) for r in results]
        figures[metric] = statistics.fmean(values)
        figures[metric + "_std"] = statistics.pstdev(values)
    return EvaluationReport(
        **figures,
        questions=tuple(results),
        chunk_count=len(pool),
        mean_chunk_length=statistics.fmean(lengths) if lengths else 0.0,
        max_chunk_length=max(lengths, default=0),
        settings=settings,
        seconds=time.perf_counter() - began,
        stability=statistics.fmean(shares) if shares else None,
        stability_std=statistics.pstdev(shares) if shares else None,
    )


def score(
    question: Question,
    retrieved: Sequence[tuple[str, int, int]],
    corpus_chunks: Sequence[Span] | CorpusSpans,
    *,
    scores: Sequence[float] = (),
) -> QuestionResult:
    """One question's four figures, as the data set's README defines them; `scores`, the
    retriever's of each chunk retrieved, are kept with them. `corpus_chunks`: the spans of
    every chunk of the question's corpus (a `CorpusSpans` of them, made once a corpus, finds
    those touching the excerpts without visiting all)."""
    if not isinstance(corpus_chunks, CorpusSpans):
        corpus_chunks = CorpusSpans(corpus_chunks)
    excerpts = question.references
    own = [(s, e) for cid, s, e in retrieved if cid == question.corpus_id]
    hits = [hit for r in own for x in excerpts if (hit := _intersection(r, x)) is not None]
    found = _union_length(hits)
    retrieved_length = sum(e - s for _, s, e in retrieved)
    excerpt_length = sum(e - s for s, e in excerpts)
    missed = [piece for x in excerpts for piece in _difference(x, own)]
    missed_length = sum(e - s for s, e in missed)
    touching = corpus_chunks.touching(excerpts)
    omega_hits = [hit for c in touching for x in excerpts if (hit := _intersection(c, x))]
    omega_missed = [piece for x in excerpts for piece in _difference(x, touching)]
    return QuestionResult(
        recall=_ratio(found, excerpt_length),
        precision=_ratio(found, retrieved_length),
        iou=_ratio(found, retrieved_length + missed_length),
        precision_omega=_ratio(
            _union_length(omega_hits), _union_length([*touching, *omega_missed])
        ),
        retrieved=tuple(retrieved),
        scores=tuple(scores),
    )


class CorpusSpans:
    """The spans of a corpus's chunks, sorted by start once, so that those touching a range
    are found by bisection: precision_Omega asks it of every question, and visiting every
    chunk each time was most of `evaluate`'s scoring (tests/bench/evaluation.py)."""

    __slots__ = ("spans", "_order", "_starts", "_longest")

    def __init__(self, spans: Sequence[Span]) -> None:
        self.spans = spans
        self._order = sorted(range(len(spans)), key=lambda number: spans[number][0])
        self._starts = [spans[number][0] for number in self._order]
        self._longest = max((end - start for start, end in spans), default=0)

    def touching(self, ranges: Sequence[Span]) -> list[Span]:
        """The spans that touch any of `ranges` (`_intersection` is not None), in their order.

        A span ends at most `_longest` past its start, so one reaching a range's start starts
        no more than that before it.
        """
        found: set[int] = set()
        for start, end in ranges:
            if start > end:  # an empty range meets nothing
                continue
            first = bisect_left(self._starts, start - self._longest)
            for place in range(first, bisect_right(self._starts, end)):
                number = self._order[place]
                if self.spans[number][1] >= start:
                    found.add(number)
        return [self.spans[number] for number in sorted(found)]


@dataclass(frozen=True, slots=True)
class SweepCell:
    """One cell of a grid: its settings, and its report or why it makes no sense."""

    settings: Mapping[str, Any]
    report: EvaluationReport | None
    error: str | None = None
    """Why the chunker refused the settings (then `report` is None)."""
    field: str | None = None
    """The option `error` or `warning` is about."""
    warning: str | None = None
    """Why settings the chunker takes make no sense (`no_sense`); the report is still made."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "settings": dict(self.settings),
            "report": None if self.report is None else self.report.to_dict(),
            "error": self.error,
            "field": self.field,
            "warning": self.warning,
        }


@dataclass(frozen=True, slots=True)
class SweepReport:
    """Every cell in grid order, and the index of the best by `metric` (None if none ran)."""

    cells: tuple[SweepCell, ...]
    metric: str
    best: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "cells": [c.to_dict() for c in self.cells],
            "metric": _CAMEL.get(self.metric, self.metric),
            "best": self.best,
        }


def sweep(
    data: EvaluationSet,
    grid: Mapping[str, Sequence[Any]],
    *,
    k: int = 5,
    strategy: PipelineStrategy = "semantic",
    metric: str = "iou",
    progress: Callable[[int, int], None] | None = None,
    embed_fn: EmbedFn | None = None,
    **fixed: Any,
) -> SweepReport:
    """`evaluate` on every cell of `grid` (the product of its values, in its order), with the
    `fixed` options; a cell whose settings the chunker refuses is reported with its error.
    `progress(done, total)` is called after each cell. `grid` maps each option's name to a
    list of its values (a string is no list of values: `{"target_size": "400"}` is refused).
    """
    _check_call(data, embed_fn)
    if metric not in METRICS:
        raise ArgumentValueError(
            "metric", f"unknown metric {metric!r} (must be one of {', '.join(METRICS)})"
        )
    if progress is not None:
        require_callable("progress", progress, rule="a function of (done, total)")
    axes = _axes(grid)
    cells_settings = [dict(zip(axes, values)) for values in itertools.product(*axes.values())]
    cells: list[SweepCell] = []
    for done, settings in enumerate(cells_settings, start=1):
        try:
            report = evaluate(data, k=k, strategy=strategy, embed_fn=embed_fn, **fixed, **settings)
            doubt = no_sense(strategy, {**fixed, **settings})
            field, warning = doubt if doubt else (None, None)
            cells.append(SweepCell(settings, report, field=field, warning=warning))
        except (TypeError, ValueError) as error:
            cells.append(SweepCell(settings, None, str(error), field_of(error)))
        if progress is not None:
            progress(done, len(cells_settings))
    ran = [i for i, cell in enumerate(cells) if cell.report is not None]
    best = max(ran, key=lambda i: getattr(cells[i].report, metric), default=None)
    return SweepReport(tuple(cells), metric, best)


def _check_call(data: Any, embed_fn: Any) -> None:
    """What `evaluate` and `sweep` check of the arguments they share, before any work."""
    if not isinstance(data, EvaluationSet):
        raise ArgumentTypeError("data", f"data must be an EvaluationSet, got {data!r:.80}")
    if embed_fn is not None:
        require_callable("embed_fn", embed_fn, rule="a function from texts to their vectors")


def _axes(grid: Any) -> dict[str, list[Any]]:
    """`grid` checked: option names, each with a list of at least one value."""
    axes: dict[str, list[Any]] = {}
    for name, values in require_mapping("grid", grid, holding="of option names to lists").items():
        require_text("grid's option names", name, field="grid")
        axes[name] = list(require_sequence(f"grid[{name!r}]", values, of="values", field="grid"))
        if not axes[name]:
            raise ArgumentValueError("grid", f"grid[{name!r}] holds no value (a cell needs one)")
    return axes


# How each relation of `chunker.base.limits.AT_ODDS` is tested, and said when it fails.
_RELATIONS: dict[str, tuple[Callable[[Any, Any], bool], str]] = {
    "<": (operator.lt, "must be less than"),
    "<=": (operator.le, "must not be more than"),
}


def no_sense(strategy: str, options: Mapping[str, Any]) -> tuple[str, str] | None:
    """`(option, why)` when `options` make no sense for `strategy` (the pairs at odds of
    `chunker.base.limits`, which the playground flags too), else None."""
    if strategy != "semantic":
        return None
    values = {**options_of("semantic"), **options}
    for rule in AT_ODDS["SemanticChunker"]:
        holds, said = _RELATIONS[rule.relation]
        if not holds(values[rule.name], values[rule.other]):
            name, other = rule.name, rule.other
            return name, f"{name} {values[name]} {said} {other} {values[other]}, {rule.why}"
    return None


def _record_spans(records: Sequence[Chunk] | Sequence[DocumentChunk]) -> list[Span]:
    # The range each chunk covers, its overlap included; chunks covering nothing are left out.
    return [span for record in records if (span := covered(fields(record)))[0] < span[1]]


def _given_spans(data: EvaluationSet, chunks: Any) -> dict[str, list[Span]]:
    require_mapping("chunks", chunks, holding="of corpus ids to their chunks")
    spans: dict[str, list[Span]] = {}
    for cid, text in data.corpora.items():
        if cid not in chunks:
            raise ArgumentValueError("chunks", f"chunks has no entry for corpus {cid!r}")
        where = f"chunks[{cid!r}]"
        of = "spans, texts or chunks"
        given = list(require_sequence(where, chunks[cid], of=of, field="chunks"))
        if all(isinstance(c, (Chunk, DocumentChunk)) for c in given):
            spans[cid] = _record_spans(given)
        elif all(isinstance(c, str) for c in given):
            placed = locate_chunks(text, given)
            for number, span in enumerate(placed):
                if span is None:
                    raise ArgumentValueError(
                        "chunks",
                        f"{where}[{number}] cannot be placed in its corpus: {given[number]!r:.80}",
                    )
            spans[cid] = [span for span in placed if span is not None]
        else:
            spans[cid] = []
            for number, span in enumerate(given):
                try:
                    start, end = span
                except (TypeError, ValueError):
                    start = end = -1
                if not (
                    all(isinstance(o, int) and not isinstance(o, bool) for o in (start, end))
                    and 0 <= start <= end <= len(text)
                ):
                    raise ArgumentValueError(
                        "chunks",
                        f"{where}[{number}] is not a span (start, end) of its corpus: {span!r:.80}",
                    )
                spans[cid].append((start, end))
    return spans


# A retriever: the top `k` chunks for a query, as (position in the pool, score), best first.
Retrieve = Callable[[str, int], list[tuple[int, float]]]


def _bm25(texts: list[str]) -> Retrieve:
    index = LexicalIndex()
    index.add_documents({"id": str(i), "text": t} for i, t in enumerate(texts) if t.strip())
    return lambda query, k: [(int(hit.id), hit.score) for hit in index.search(query, k)]


def _cosine(texts: list[str], embed_fn: EmbedFn) -> Retrieve:
    vectors = [_unit(v) for v in embed_fn(texts)] if texts else []

    def retrieve(query: str, k: int) -> list[tuple[int, float]]:
        q = _unit(embed_fn([query])[0])
        scores = [sum(a * b for a, b in zip(q, v)) for v in vectors]
        best = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:k]
        return [(i, scores[i]) for i in best]

    return retrieve


def _unit(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector] if norm else list(vector)


def _intersection(a: Span, b: Span) -> Span | None:
    # Touching ranges intersect, with length 0, as Chroma's code has it.
    start, end = max(a[0], b[0]), min(a[1], b[1])
    return (start, end) if start <= end else None


def _difference(excerpt: Span, chunks: Sequence[Span]) -> list[Span]:
    """The parts of `excerpt` no chunk covers."""
    pieces = [excerpt]
    for cs, ce in chunks:
        pieces = [
            part
            for s, e in pieces
            for part in ((s, min(e, cs)), (max(s, ce), e))
            if part[0] < part[1]
        ]
    return pieces


def _union_length(spans: Sequence[Span]) -> int:
    total, reach = 0, -1
    for start, end in sorted(spans):
        if end > reach:
            total += end - max(start, reach)
            reach = end
    return total


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 0.0
