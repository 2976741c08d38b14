"""Hypothesis strategies: texts built from the pieces that steer the chunkers, and options."""

from __future__ import annotations

from hypothesis import strategies as st

from chunker.base.limits import OVERLAP_BOUNDARIES

# Pieces that hit every rule: headings and near-headings, fences, tables, sentence ends,
# JavaScript-only and Python-only white space, long runs without white space, many scripts.
PIECES = [
    "# Title",
    "## Sub",
    "###### Six",
    "####### seven",
    "#word",
    "#",
    "# ",
    "#\t",
    "```",
    "```py",
    "  ```",
    "````",
    "| a | b |",
    "|---|",
    "x | y",
    "Hello world.",
    "Short.",
    "One! Two? Three.",
    "e.g. Mr. Smith.",
    "no end",
    "word " * 12,
    "x" * 90,
    "https://example.com/" + "p" * 70,
    "中文没有空格。",
    "Ελληνικά.",
    "naïve café",
    "Re\u0301sume\u0301",
    "😀 emoji 𠀀",
    "\u00a0",
    "\u3000",
    "\ufeff",
    "\x85",
    "\x1c",
    "\u2028",
    "\t",
    " ",
    "",
]
SEPARATORS = ["\n", "\n\n", " ", "\n \t\n", "\r\n", "\n\n\n", ". ", ""]

documents = st.lists(
    st.tuples(st.sampled_from(PIECES), st.sampled_from(SEPARATORS)), max_size=40
).map(lambda parts: "".join(piece + sep for piece, sep in parts))

texts = st.one_of(documents, st.text(max_size=300))

semantic_options = st.fixed_dictionaries(
    {},
    optional={
        "target_size": st.integers(1, 400),
        "max_size": st.integers(1, 800),
        "min_size": st.integers(0, 300),
        "overlap": st.integers(0, 120),
        "preserve_code_blocks": st.booleans(),
        "respect_headings": st.booleans(),
        "overlap_boundary": st.sampled_from(OVERLAP_BOUNDARIES),
    },
)


@st.composite
def engine_options(draw: st.DrawFn) -> dict:
    size = draw(st.integers(1, 300))
    return {
        "strategy": draw(st.sampled_from(["fixed", "semantic", "hierarchical", "layout"])),
        "chunk_size": size,
        "chunk_overlap": draw(st.integers(0, size - 1)),
    }


# Turn texts: any text, documents, and blank ones of JavaScript's white space, with characters
# that only look blank (U+0085, U+180E, U+200B are not white space to `trim()`).
turn_texts = st.one_of(
    st.text(max_size=60),
    documents,
    st.text(st.sampled_from(" \t\n\r\x0b\x0c\u00a0\u1680\u2000\u2028\u3000\ufeff"), max_size=4),
    st.text(st.sampled_from(" \t\u0085\u180e\u200b"), min_size=1, max_size=3),
)

# Transcripts as callers send them: seqs out of order or repeated, ids repeated or missing,
# times anywhere (out of order, or on some turns only).
turns = st.lists(
    st.fixed_dictionaries(
        {"seq": st.integers(-3, 20), "text": turn_texts},
        optional={
            "itemId": st.sampled_from(["a", "b", "m1", "\u00e9"]),
            "startMs": st.one_of(st.integers(0, 10**6), st.floats(0, 1e6)),
            "endMs": st.one_of(st.integers(0, 10**6), st.floats(0, 1e6)),
        },
    ),
    max_size=30,
)
