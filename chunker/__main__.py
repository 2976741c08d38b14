"""`python -m chunker`: the command line (see `chunker.cli`)."""

from chunker.cli import command

command()
