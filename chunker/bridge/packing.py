"""`SemanticChunker.chunk`'s result packed: where each chunk's text lies, for chunker.js.

Why packed: chunk texts are mostly ASCII or the input's own characters (the overlap and then
the chunk's own text). Joined ASCII texts cross as their bytes, which JavaScript decodes in
one call and slices, a slice of the input costs JavaScript nothing, and the spans go as ints,
read where they lie (an `Int32Array`); writing 1 MB of chunk texts as JSON in Pyodide and
parsing it back cost about as much as the chunking itself.
"""

from __future__ import annotations

from typing import Any, Sequence, get_args

from ..records import BoundaryType, Chunk
from .utf16 import utf16_offsets

__all__ = ["BOUNDARY_TYPES", "SECTIONS", "Packed", "pack_chunks"]

# The packed reply's layout, defined here only: the sections of `Packed.ints`, in order, each
# with its name (as chunker.js and the tests read it) and its ints per entry. An entry is a
# chunk, except in "leads": a chunk whose text is not in `ascii`. The result lists each
# section's name and length (`sections`), so a reader finds each by its name. To add one:
# its line here, its ints under its name in `pack_chunks`, and read it by name in chunker.js.
SECTIONS: tuple[tuple[str, int], ...] = (
    ("offsets", 2),  # startOffset and endOffset (JavaScript indices)
    ("boundaryIndex", 1),  # the index of the chunk's boundaryType in `boundaryTypes`
    ("asciiLength", 1),  # the length of the chunk's text in `ascii`, or -1: not there
    ("leads", 2),  # leadFrom and leadTo (JavaScript indices; -1: the next of `texts`)
)

# The boundary types a packed chunk names by their index here (chunker.js gets the list).
BOUNDARY_TYPES: tuple[str, ...] = get_args(BoundaryType)
_BOUNDARY_INDEX = {name: index for index, name in enumerate(BOUNDARY_TYPES)}


class Packed:
    """An operation's result in three parts, which chunker.js puts together: `ints` cross as
    32-bit ints and `ascii` as ASCII bytes, beside the JSON of `result`."""

    # Plain and slotted, as `JsString` (utf16.py says why).
    __slots__ = ("ints", "ascii", "result")

    def __init__(self, ints: Sequence[int], ascii: str, result: Any) -> None:
        self.ints = ints
        self.ascii = ascii
        self.result = result


def pack_chunks(
    text: str, chunks: Sequence[Chunk], astral: Sequence[int] | None = None
) -> Packed:
    """`SemanticChunker` chunks of `text` as spans of it or ASCII, for chunker.js to cut out.

    `ints` holds the sections of `SECTIONS`, in its order, each in the chunks' order; the
    result lists their names and lengths (`sections`), and holds the chunks' `count`, the
    `boundaryTypes` and the `texts` that come whole as JSON.

    A chunk whose text is ASCII (most, in most documents) is the next that many characters
    of `ascii`, which joins those texts. Another is `text.slice(leadFrom, leadTo) +
    text.slice(startOffset, endOffset)`: usually its overlap ends where it starts (one
    slice), or where the chunk before ended. One that is not the input's own characters (a
    merge joins its parts with a blank line, the last line gains a line feed) has `leadFrom`
    -1 and is the next of `texts`. The index is the position and `metadata` the caller's
    own object. `astral` is as for `utf16_offsets`.

    Why ASCII whole: in Pyodide comparing a chunk's text with the input (or writing it as
    JSON) reads it character by character, while joining ASCII texts and writing them out
    are copies of their bytes; chunker.js decodes them in one call. An ASCII text is as long
    in JavaScript as in Python, and `str.isascii` is free.

    Example (the first chunk is ASCII; the second, "o.\\n" where the first ended then
    "# B\\n\\nThree 🙂.\\n", is not; 🙂 is two units in JavaScript):
        >>> from chunker import SemanticChunker
        >>> text = "# A\\n\\nOne two.\\n\\n# B\\n\\nThree 🙂.\\n"
        >>> chunker = SemanticChunker(target_size=8, min_size=0, overlap=3)
        >>> packed = pack_chunks(text, chunker.chunk(text))
        >>> packed.ints
        [0, 14, 15, 30, 0, 0, 14, -1, 11, 14]
        >>> packed.ascii
        '# A\\n\\nOne two.\\n'
        >>> packed.result["count"], packed.result["texts"]
        (2, [])
        >>> packed.result["sections"]
        [['offsets', 4], ['boundaryIndex', 2], ['asciiLength', 2], ['leads', 2]]
    """
    spans: list[int] = []  # startOffset and endOffset of each chunk
    lengths: list[int] = []
    ascii_texts: list[str] = []
    leads: list[int] = []  # leadFrom and leadTo of each chunk not in `ascii_texts`
    texts: list[str] = []
    previous_end = 0
    for chunk in chunks:
        whole, start, end = chunk.text, chunk.start_offset, chunk.end_offset
        spans += (start, end)
        if whole.isascii():
            lengths.append(len(whole))
            ascii_texts.append(whole)
        else:
            lengths.append(-1)
            leads += _lead(text, whole, start, end, previous_end)
            if leads[-1] < 0:
                texts.append(whole)
        previous_end = end
    sections = {
        "offsets": utf16_offsets(text, spans, astral),
        "boundaryIndex": [_BOUNDARY_INDEX[chunk.boundary_type] for chunk in chunks],
        "asciiLength": lengths,
        "leads": utf16_offsets(text, leads, astral),
    }
    ints: list[int] = []
    for name, _ in SECTIONS:
        ints += sections[name]
    result = {
        "count": len(chunks),
        "boundaryTypes": BOUNDARY_TYPES,
        "texts": texts,
        "sections": [[name, len(sections[name])] for name, _ in SECTIONS],
    }
    return Packed(ints, "".join(ascii_texts), result)


def _lead(text: str, whole: str, start: int, end: int, previous_end: int) -> tuple[int, int]:
    """Where the overlap of the chunk `whole` (own text at `start`-`end`) lies in `text`,
    when `whole` is `text`'s own characters; else (-1, -1)."""
    lead = len(whole) - (end - start)
    if 0 <= lead <= start and text.startswith(whole, start - lead):
        return start - lead, start
    if (
        0 <= lead <= previous_end
        and text.startswith(whole[lead:], start)
        and text.startswith(whole[:lead], previous_end - lead)
    ):
        return previous_end - lead, previous_end
    return -1, -1
