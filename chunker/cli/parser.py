"""The command line's arguments. Each chunker option becomes a flag named after its Python
name (`target_size` is `--target-size`), read from the function's signature, so a new option
appears here by itself; flags left out keep the chunker's own defaults."""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Callable
from typing import Any

from chunker import __version__
from chunker.cli.flags import CHOICE_OPTIONS, flag
from chunker.cli.inputs import ERROR_HANDLERS, encoding_name
from chunker.recipe import PIPELINE_STRATEGIES, options_of

__all__ = [
    "build_parser",
    "EXIT_CODES",
    "given_options",
    "turns_options",
    "snippet_options",
]

EXIT_CODES = {
    0: "every input was cut",
    1: "some inputs could not be read or cut (each is named on standard error); the rest were "
    "(if none was, the -o file was not written: an earlier one is kept)",
    2: "usage error: a bad command, flag or option value, or a --since file that is no output "
    "of chunker chunk (nothing was read)",
    3: "no inputs: the folders given hold no files (matching --glob); the -o file was not written",
    4: "the output could not be written, at a write or at its close (named on standard "
    "error, and why); an earlier -o file is kept",
    5: "a worker process ended without answering (killed, as when memory runs out; named on "
    "standard error): as 130",
    130: "interrupted by Ctrl-C (SIGINT): no worker process is left, the -o file was not "
    "written (an earlier one is kept)",
    143: "ended by SIGTERM, as 130",
    141: "standard output was closed before the end (its reader, such as head, left): stopped "
    "quietly, as a tool that SIGPIPE ends",
}


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose help ends with the exit codes (`EXIT_CODES`), written only
    when help is: wrapped by textwrap, whose import cost every run's start."""

    def format_help(self) -> str:
        import textwrap

        self.epilog = "exit codes:\n" + "\n".join(
            textwrap.fill(text, 79, initial_indent=f"  {code:<4} ", subsequent_indent=" " * 7)
            for code, text in EXIT_CODES.items()
        )
        return super().format_help()


# Options whose values are names, not numbers (`--tokenizer cl100k_base`).
_NAMED_OPTIONS = {"tokenizer": "NAME"}


def _add_options(parser: argparse.ArgumentParser, title: str, defaults: dict[str, Any]) -> None:
    group = parser.add_argument_group(title)
    for name, default in defaults.items():
        if name in _NAMED_OPTIONS:
            group.add_argument(
                flag(name),
                dest=name,
                default=None,
                metavar=_NAMED_OPTIONS[name],
                help=f"(default: {default})",
            )
        elif name in CHOICE_OPTIONS:
            group.add_argument(
                flag(name),
                dest=name,
                choices=CHOICE_OPTIONS[name],
                default=None,
                help=f"(default: {default})",
            )
        elif isinstance(default, bool):
            group.add_argument(
                flag(name),
                dest=name,
                action=argparse.BooleanOptionalAction,
                default=None,
                help=f"(default: {default})",
            )
        else:
            group.add_argument(
                flag(name),
                dest=name,
                type=int,
                default=None,
                metavar="N",
                help=f"(default: {default})",
            )


def _signature_defaults(function: Callable[..., Any], *skip: str) -> dict[str, Any]:
    return {
        name: parameter.default
        for name, parameter in inspect.signature(function).parameters.items()
        if name not in skip
    }


def turns_options() -> dict[str, Any]:
    """`chunk_turns`' options and their defaults."""
    from chunker.turns import chunk_turns

    return _signature_defaults(chunk_turns, "turns")


def snippet_options() -> dict[str, Any]:
    """`snippet_around`'s options and their defaults."""
    from chunker.search.lexical import snippet_around

    return _signature_defaults(snippet_around, "text", "words")


def given_options(args: argparse.Namespace, names: Any) -> dict[str, Any]:
    """The options among `names` given on the command line."""
    return {name: getattr(args, name) for name in names if getattr(args, name, None) is not None}


def _add_run_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write here (put in place only when complete), not standard output",
    )
    parser.add_argument(
        "--format",
        choices=("jsonl", "json"),
        default="jsonl",
        help="JSON Lines, one record a line (default), or one JSON array",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        default=None,
        help="processes (default: one per core when there is more than one input)",
    )
    parser.add_argument(
        "--progress",
        action="store_true",
        help="show the progress line even when standard error is not a terminal",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress line and no summary (errors are still reported)",
    )
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="also name each entry of a folder skipped for not being a regular file (a FIFO, "
        "a socket, a device)",
    )


def _add_input_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("reading the inputs (the spans index the text so read)")
    group.add_argument(
        "--encoding",
        type=encoding_name,
        default="utf-8",
        metavar="NAME",
        help="their encoding, as Python names it: latin-1, cp1252, utf-16, ... (default: utf-8)",
    )
    group.add_argument(
        "--errors",
        choices=ERROR_HANDLERS,
        default="strict",
        help="a byte not in that encoding: refuse the file (strict, the default), U+FFFD "
        "(replace), dropped (ignore), a lone surrogate written as \\udcXX (surrogateescape), "
        "\\xNN as text (backslashreplace)",
    )


# Each command's one-line help, in the order `--help` lists them.
COMMANDS = {
    "chunk": "cut files into chunks",
    "turns": "cut transcripts (a JSON list of turns, or JSON Lines) into passages",
    "snippet": "the snippet around each file's first match of QUERY's words",
    "evaluate": "score chunkings on questions with gold excerpts (Chroma's folder or our JSON)",
}
_PATHS_HELP = "files, folders (read recursively) or - for standard input"


def build_parser(
    only: str | None = None,
) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The parser, and each command's own parser by name (for its usage line in errors).

    With `only` (the command about to run), only that command's flags are made; the others
    are listed with their help alone. Making them all imports the turns, snippet and
    evaluation modules and reads their signatures, a large part of a run of the command line
    on one file (timed as such in tests/bench/NOTES.md, 2026-12-03)."""
    parser: argparse.ArgumentParser = _Parser(
        prog="chunker",
        description="Cut text files into chunks, transcripts into passages, or find snippets; "
        "JSON records out.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"chunker {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    made: dict[str, argparse.ArgumentParser] = {}
    for name, summary in COMMANDS.items():
        made[name] = command = commands.add_parser(
            name,
            help=summary,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        if only is None or only == name:
            _ARGUMENTS[name](command)
    return parser, made


def _chunk_arguments(chunking: argparse.ArgumentParser) -> None:
    chunking.add_argument("paths", nargs="+", metavar="PATH", help=_PATHS_HELP)
    chunking.add_argument(
        "--glob", metavar="PATTERN", help="in folders, only files matching this (e.g. '*.md')"
    )
    chunking.add_argument(
        "--strategy",
        choices=PIPELINE_STRATEGIES,
        default="semantic",
        help="semantic (SemanticChunker, the default) or an engine strategy",
    )
    semantic, engine = options_of("semantic"), options_of("fixed")
    shared = {name: default for name, default in semantic.items() if name in engine}
    for title, options in (
        ("semantic options", semantic),
        ("fixed, hierarchical and layout options", engine),
    ):
        _add_options(chunking, title, {n: d for n, d in options.items() if n not in shared})
    _add_options(chunking, "token budget (every strategy; docs/tokens.md)", shared)
    _add_input_flags(chunking)
    _add_run_flags(chunking)
    chunking.add_argument(
        "--since",
        metavar="OLD",
        help="a previous output: write only what changed since it, by stable ids (each line's "
        "change: added, in full; kept, its id and place; removed, its id)",
    )


def _turns_arguments(turns: argparse.ArgumentParser) -> None:
    turns.add_argument("paths", nargs="+", metavar="FILE", help="transcripts, or - for stdin")
    _add_options(turns, "passage options", turns_options())
    _add_input_flags(turns)
    _add_run_flags(turns)


def _snippet_arguments(snippets: argparse.ArgumentParser) -> None:
    snippets.add_argument("query", metavar="QUERY", help="the words to find")
    snippets.add_argument("paths", nargs="+", metavar="PATH", help=_PATHS_HELP)
    snippets.add_argument("--glob", metavar="PATTERN", help="in folders, only files matching this")
    _add_options(snippets, "snippet options", snippet_options())
    _add_input_flags(snippets)
    _add_run_flags(snippets)


def _evaluate_arguments(evaluating: argparse.ArgumentParser) -> None:
    from chunker.cli.evaluate import add_evaluate_arguments

    add_evaluate_arguments(evaluating)


_ARGUMENTS: dict[str, Callable[[argparse.ArgumentParser], None]] = {
    "chunk": _chunk_arguments,
    "turns": _turns_arguments,
    "snippet": _snippet_arguments,
    "evaluate": _evaluate_arguments,
}
