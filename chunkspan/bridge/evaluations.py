"""The facade's evaluation sets: each kept here, in the worker, under an id, so that a sweep
sends its corpora once and each of its cells is one call (chunker-evaluation.js runs the
cells, so the page can stop between them and stays free while each runs).

The set crosses in `EvaluationSet.to_json`'s shape with its excerpts in JavaScript (UTF-16)
indices, and a report's retrieved spans go back in them; settings go both ways under the
original's option names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..validation import ArgumentTypeError
from .options import OPTION_NAMES, python_options
from .registry import Registry
from .utf16 import code_point_offsets, utf16_offsets

if TYPE_CHECKING:
    from ..evaluation import EvaluationSet
    from .calls import Arguments, Astral, Operation

__all__ = ["EVALUATION_OPERATIONS"]

# Python's option names back to the facade's, for a report's settings.
_JS_NAMES = {python: js for js, python in OPTION_NAMES["evaluate"].items()}


@dataclass(slots=True)
class Kept:
    """A set, and its corpora's UTF-16 conversions as the reports need them."""

    data: EvaluationSet
    js_spans: dict[str, dict[int, int]] = field(default_factory=dict)


_SETS: Registry[Kept] = Registry("EvaluationSet", "set")


def _create(args: Arguments, _astral: Astral) -> dict[str, int]:
    from ..evaluation import EvaluationSet

    data = EvaluationSet.from_json(_in_code_points(args.get("data")))
    _SETS.add(Kept(data), args.get("set"))
    return {
        "corpusCount": len(data.corpora),
        "questionCount": len(data.questions),
        "characters": sum(map(len, data.corpora.values())),
    }


def _in_code_points(data: Any) -> Any:
    """The set `data` with its excerpts' JavaScript indices as Python's."""
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        return data  # EvaluationSet.from_json says what is wrong
    corpora = data.get("corpora")
    questions = []
    for row, question in enumerate(data["questions"]):
        text = corpora.get(question.get("corpusId")) if isinstance(corpora, dict) else None
        references = question.get("references") if isinstance(question, dict) else None
        if not isinstance(text, str) or not isinstance(references, list):
            questions.append(question)
            continue
        flat = [offset for span in references for offset in _pair(span, row)]
        where = f"questions[{row}].references"
        offsets = iter(code_point_offsets(text, flat, "questions", where))
        questions.append({**question, "references": [[a, next(offsets)] for a in offsets]})
    return {**data, "questions": questions}


def _pair(span: Any, row: int) -> tuple[int, int]:
    if isinstance(span, list) and len(span) == 2 and all(type(offset) is int for offset in span):
        return span[0], span[1]
    raise ArgumentTypeError(
        "questions",
        f"questions[{row}].references must be [start, end] pairs of ints, got {span!r:.80}",
    )


def _evaluate(args: Arguments, _astral: Astral) -> dict[str, Any]:
    from ..evaluation import evaluate, no_sense

    kept = _SETS.get(args.get("set"))
    options = python_options("evaluate", args.get("options"))
    report = evaluate(kept.data, **options).to_dict()
    report["settings"] = {_JS_NAMES.get(name, name): v for name, v in report["settings"].items()}
    for question in report["questions"]:
        for hit in question["retrieved"]:
            hit["start"], hit["end"] = _js(kept, hit["corpusId"], hit["start"], hit["end"])
    options.pop("k", None)
    doubt = no_sense(options.pop("strategy", "semantic"), options)
    # Under its Python name, as an error's `field` (chunker.js says so).
    warning = None if doubt is None else {"field": doubt[0], "message": doubt[1]}
    return {"report": report, "warning": warning}


def _js(kept: Kept, corpus_id: str, start: int, end: int) -> tuple[int, int]:
    """`(start, end)` in corpus `corpus_id` as JavaScript indices (each offset converted
    once a set: a sweep's cells retrieve the same chunks again and again)."""
    known = kept.js_spans.setdefault(corpus_id, {})
    missing = [offset for offset in (start, end) if offset not in known]
    if missing:
        known.update(zip(missing, utf16_offsets(kept.data.corpora[corpus_id], missing)))
    return known[start], known[end]


def _dispose(args: Arguments, _astral: Astral) -> bool:
    return _SETS.dispose(args.get("set"))


EVALUATION_OPERATIONS: dict[str, Operation] = {
    "EvaluationSet.create": _create,
    "EvaluationSet.evaluate": _evaluate,
    "EvaluationSet.dispose": _dispose,
}
