"""`chunker evaluate`: score chunkings on an evaluation set (Chroma's folder or our JSON),
one setting or a sweep (a comma list of values sweeps that option), as a table sorted by the
metric or as JSON holding the Python figures unrounded."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chunker.cli.flags import CHOICE_OPTIONS, flag
from chunker.cli.output import write_standard_output
from chunker.evaluation import METRICS, EvaluationSet, SweepCell, sweep
from chunker.recipe import PIPELINE_STRATEGIES, options_of

__all__ = ["add_evaluate_arguments", "run_evaluate"]


def _numbers(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        message = f"must be an integer or a comma list of them: {text!r}"
        raise argparse.ArgumentTypeError(message) from None


def _names(choices: tuple[str, ...]) -> Callable[[str], list[str]]:
    """A reader of a comma list of `choices` (`chars,word`), refusing any other name."""

    def read(text: str) -> list[str]:
        names = text.split(",")
        for name in names:
            if name not in choices:
                listed = ", ".join(choices)
                raise argparse.ArgumentTypeError(f"{name!r} is not one of {listed}: {text!r}")
        return names

    return read


def add_evaluate_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the `evaluate` command's arguments to its parser."""
    parser.add_argument("path", metavar="FOLDER_OR_JSON", help="Chroma's folder, or our JSON")
    parser.add_argument("--strategy", choices=PIPELINE_STRATEGIES, default="semantic")
    group = parser.add_argument_group("chunker options (a comma list sweeps the option)")
    names = {**options_of("semantic"), **options_of("fixed")}
    for name, default in names.items():
        if isinstance(default, bool):
            group.add_argument(flag(name), dest=name, action=argparse.BooleanOptionalAction)
        elif name in CHOICE_OPTIONS:
            choices = CHOICE_OPTIONS[name]
            metavar = f"{{{','.join(choices)}}}[,...]"
            group.add_argument(flag(name), dest=name, type=_names(choices), metavar=metavar)
        else:
            group.add_argument(flag(name), dest=name, type=_numbers, metavar="N[,N...]")
    parser.add_argument("--k", type=int, default=5, help="chunks retrieved a question (5)")
    parser.add_argument(
        "--edits",
        type=int,
        default=0,
        metavar="N",
        help="also the share of chunks kept under N random one-paragraph edits of each "
        "corpus (0: not measured)",
    )
    parser.add_argument(
        "--edit-seed", type=int, default=0, metavar="N", help="what draws the edits (0)"
    )
    parser.add_argument("--metric", choices=METRICS, default="iou", help="to sort by (iou)")
    parser.add_argument("--format", choices=("table", "json"), default="table")


def run_evaluate(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run `evaluate`: 0 when it ran, 1 when the set cannot be read (named), 2 for bad usage;
    `OutputError` when its answer cannot be written."""
    if args.k < 1:
        parser.error(f"argument --k: must be at least 1, got {args.k}")
    for name in ("edits", "edit_seed"):
        if getattr(args, name) < 0:
            parser.error(f"argument {flag(name)}: must be at least 0, got {getattr(args, name)}")
    known = options_of(args.strategy)
    grid: dict[str, list[Any]] = {}
    for name in {**options_of("semantic"), **options_of("fixed")}:
        value = getattr(args, name, None)
        if value is None:
            continue
        if name not in known:
            parser.error(f"argument {name.replace('_', '-')}: not an option of {args.strategy}")
        grid[name] = value if isinstance(value, list) else [value]
    path = Path(args.path)
    try:
        if path.is_dir():
            data = EvaluationSet.from_chroma(path)
        else:
            data = EvaluationSet.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError, KeyError) as error:
        print(f"chunker: {path}: {error}", file=sys.stderr)
        return 1
    measured = {"edits": args.edits, "edit_seed": args.edit_seed} if args.edits else {}
    result = sweep(data, grid, k=args.k, strategy=args.strategy, metric=args.metric, **measured)
    if args.format == "json":
        shown = json.dumps(result.to_dict(), ensure_ascii=False)
    else:
        shown = _table(list(result.cells), args.metric)
    write_standard_output(shown + "\n")  # as the other commands write (output.py)
    return 0


def _table(cells: list[SweepCell], metric: str) -> str:
    ran = sorted(
        (c for c in cells if c.report is not None),
        key=lambda c: -getattr(c.report, metric),
    )
    stable = any(c.report.stability is not None for c in ran if c.report is not None)
    head = ["settings", "chunks", "mean size", *METRICS, *(["stability"] * stable), "seconds"]
    rows = [head]
    for cell in ran:
        report = cell.report
        assert report is not None
        shown = [*METRICS, *(["stability"] * stable)]
        figures = [_percent(getattr(report, m), getattr(report, m + "_std")) for m in shown]
        rows.append(
            [
                _settings(cell) or "defaults",
                str(report.chunk_count),
                f"{report.mean_chunk_length:.0f}",
                *figures,
                f"{report.seconds:.2f}",
            ]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = [
        "  ".join(text.ljust(width) for text, width in zip(row, widths)).rstrip() for row in rows
    ]
    lines += [f"{_settings(c)}: makes no sense: {c.warning}" for c in cells if c.warning]
    lines += [f"{_settings(c)}: refused: {c.error}" for c in cells if c.report is None]
    return "\n".join(lines)


def _percent(mean: float | None, deviation: float | None) -> str:
    """A figure and its standard deviation in percent; a dash when not measured."""
    return "—" if mean is None or deviation is None else f"{100 * mean:.1f} ± {100 * deviation:.1f}"


def _settings(cell: SweepCell) -> str:
    return " ".join(f"{name}={value}" for name, value in cell.settings.items())
