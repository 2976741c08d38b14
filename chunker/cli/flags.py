"""How a chunker option is spelt on the command line, for every command's parser: its flag,
and the names an option of a few choices takes."""

from __future__ import annotations

from chunker.base.limits import CHOICES

__all__ = ["CHOICE_OPTIONS", "flag"]

# Options that take one of a few names (`--overlap-boundary word`), each with them.
CHOICE_OPTIONS = {name: names for table in CHOICES.values() for name, names in table.items()}


def flag(name: str) -> str:
    """`target_size` -> `--target-size`."""
    return "--" + name.replace("_", "-")
