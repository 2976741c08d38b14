"""The `fixed` strategy: windows of `chunk_size` characters cut back to white space, overlapping.

The other strategies call it for their long sections and prose.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..records import DocumentChunk, new_document_chunk
from ..whitespace import JS_WHITESPACE, LAST_WHITESPACE_RE

__all__ = ["fixed_chunks"]


def fixed_chunks(
    content: str,
    chunk_size: int,
    chunk_overlap: int,
    start_index: int = 0,
    metadata: Mapping[str, Any] | None = None,
    heading: str | None = None,
) -> list[DocumentChunk]:
    """Cut `content` into windows of at most `chunk_size` characters, trimmed.

    A window ends at the last white space within `chunk_size` characters, or is cut hard when
    there is none; the next starts `chunk_overlap` characters before that end. The original
    loops forever when the only white space in reach is where the window before ended (a cut
    just before a run of `chunk_size - chunk_overlap` characters without white space): here
    white space at or before the previous end does not count, so that window is cut hard too.
    Wherever the original ends, the two agree.

    Each chunk gets its own copy of `metadata` when it is given (even empty), as the original,
    and `heading` (for `hierarchical`'s long sections).
    """
    chunks: list[DocumentChunk] = []
    # Locals, as this loop runs once per window.
    append, last_whitespace, whitespace = chunks.append, LAST_WHITESPACE_RE.match, JS_WHITESPACE
    length = len(content)
    position = 0
    previous_end = 0
    while position < length:
        end = position + chunk_size
        if end >= length:
            end = length
        else:
            floor = position if position > previous_end else previous_end
            found = last_whitespace(content, floor + 1, end + 1)
            if found is not None:
                end = found.end() - 1
        part = content[position:end].strip(whitespace)
        if part:
            copy = None if metadata is None else dict(metadata)
            append(new_document_chunk(part, start_index + len(chunks), heading, copy))
        if end == length:
            break
        position = end - chunk_overlap
        if position <= 0:
            position = end
        previous_end = end
    return chunks
