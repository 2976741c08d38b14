"""The facade's evaluation sets: each kept here, in the worker, under an id, so that a sweep
sends its corpora once and each of its cells is one call (chunker-evaluation.js runs the
cells, so the page can stop between them and stays free while each runs).

The set crosses in `EvaluationSet.to_json`'s shape, and a report's retrieved spans go back,
in Python's offsets (chunker-evaluation.js converts them both ways); settings go both ways
under the original's option names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chunker.bridge.options import OPTION_NAMES, python_options
from chunker.bridge.registry import Registry

if TYPE_CHECKING:
    from chunker.bridge.calls import Arguments, Astral, Operation
    from chunker.evaluation import EvaluationSet

__all__ = ["EVALUATION_OPERATIONS"]

# Python's option names back to the facade's, for a report's settings.
_JS_NAMES = {python: js for js, python in OPTION_NAMES["evaluate"].items()}


_SETS: Registry[EvaluationSet] = Registry("EvaluationSet", "set")


def _create(args: Arguments, _astral: Astral) -> dict[str, int]:
    from chunker.evaluation import EvaluationSet

    data = EvaluationSet.from_json(args.get("data"))
    _SETS.add(data, args.get("set"))
    return {
        "corpusCount": len(data.corpora),
        "questionCount": len(data.questions),
        "characters": sum(map(len, data.corpora.values())),
    }


def _evaluate(args: Arguments, _astral: Astral) -> dict[str, Any]:
    from chunker.evaluation import evaluate, no_sense

    data = _SETS.get(args.get("set"))
    options = python_options("evaluate", args.get("options"))
    report = evaluate(data, **options).to_dict()
    report["settings"] = {_JS_NAMES.get(name, name): v for name, v in report["settings"].items()}
    options.pop("k", None)
    doubt = no_sense(options.pop("strategy", "semantic"), options)
    # Under its Python name, as an error's `field` (chunker.js says so).
    warning = None if doubt is None else {"field": doubt[0], "message": doubt[1]}
    return {"report": report, "warning": warning}


def _dispose(args: Arguments, _astral: Astral) -> bool:
    return _SETS.dispose(args.get("set"))


EVALUATION_OPERATIONS: dict[str, Operation] = {
    "EvaluationSet.create": _create,
    "EvaluationSet.evaluate": _evaluate,
    "EvaluationSet.dispose": _dispose,
}
