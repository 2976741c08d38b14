"""The limits of the chunkers' options, as data: the checks read them, and so does the build
that writes the playground's option table (tools/playground_options.py), so the two cannot
differ.

`MINIMUMS`: the least value each integer option takes; a smaller one is refused at
construction (`require_int`). `CHOICES`: the names an option of names takes, its default
first; another is refused at construction (`require_choice`). `AT_ODDS`: pairs of options a
chunker takes but that defeat each other, which the playground warns about at the field (the
chunker runs them as asked).
Each table is keyed by the chunker's Python name, its options by their Python names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NamedTuple, get_args

__all__ = [
    "MINIMUMS",
    "CHOICES",
    "OverlapBoundary",
    "OVERLAP_BOUNDARIES",
    "Boundaries",
    "BOUNDARIES",
    "AT_ODDS",
    "AtOdds",
]

# target_size 0 would cut empty parts forever, as would chunk_size 0 windows of nothing; a
# passage holds at least one turn, so max_chars 0 is no limit but a mistake. The others
# count what is added or repeated, where none is a choice.
MINIMUMS: Mapping[str, Mapping[str, int]] = {
    "SemanticChunker": {"target_size": 1, "max_size": 1, "min_size": 0, "overlap": 0},
    "ChunkingEngine": {"chunk_size": 1, "chunk_overlap": 0},
    "chunk_turns": {"max_chars": 1, "overlap_turns": 0},
}

# Where `SemanticChunker`'s overlap may start (docs/spans.md, "Overlap that starts at a word"):
# anywhere, as the original ("chars"), or at the first word or sentence start within it.
OverlapBoundary = Literal["chars", "word", "sentence"]
OVERLAP_BOUNDARIES: tuple[OverlapBoundary, ...] = get_args(OverlapBoundary)

# Where `ChunkingEngine`'s `fixed` windows end (docs/spans.md, "Windows that end at the text's
# own words"): by position, as the original ("position"), or where its words choose.
Boundaries = Literal["position", "content"]
BOUNDARIES: tuple[Boundaries, ...] = get_args(Boundaries)

CHOICES: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "SemanticChunker": {"overlap_boundary": OVERLAP_BOUNDARIES},
    "ChunkingEngine": {"boundaries": BOUNDARIES},
}


class AtOdds(NamedTuple):
    """`name` should stand in `relation` to `other` (`overlap < max_size`), or, taken, it
    defeats what `other` asks for."""

    name: str
    """The option to change (where a form says why)."""
    relation: Literal["<", "<="]
    """How `name`'s value should compare with `other`'s."""
    other: str
    """The option it is compared with."""
    why: str
    """What the values do otherwise, as the end of a sentence."""


# A chunk's own text is at most max_size (short ones joined aside), and the overlap is cut
# from the chunk before: an overlap that long repeats the whole chunk before. Short chunks join
# the one before whatever its size, so a min_size above the max grows chunks past the max; and
# parts are gathered and cut to the target, so a target above the max cuts parts past the max.
AT_ODDS: Mapping[str, tuple[AtOdds, ...]] = {
    "SemanticChunker": (
        AtOdds("overlap", "<", "max_size", "or each chunk repeats the whole chunk before it"),
        AtOdds("min_size", "<=", "max_size", "or short chunks join into ones past the max"),
        AtOdds("target_size", "<=", "max_size", "or parts are cut longer than the max"),
    ),
}
