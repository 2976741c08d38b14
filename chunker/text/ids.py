"""Stable chunk ids: a chunk's id comes from its source's id, its text and how many chunks of
the same text come before it in that source, never from its place. So an edit elsewhere in
the source leaves a kept chunk's id as it was, two equal chunks of one source still differ,
and a pipeline upserting by id re-embeds only what changed (docs/pipelines.md, "Stable ids").

The rule, to be reproduced anywhere: the SHA-256 of the UTF-8 bytes of
`f"{len(source)}:{source}:{occurrence}:{text}"` (`len` in code points, lone surrogates as
UTF-8 would write them, `surrogatepass`), its first 16 bytes written as a UUID of version 8
(RFC 9562's custom kind: the version and variant bits set, the rest the hash's). A UUID,
as some vector stores (Qdrant, Weaviate) take no other string as an id. `hashlib`, not
`hash()`: Python's string hash changes with each process.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

__all__ = ["chunk_id", "chunk_ids"]

# RFC 9562's bits, set in the hash's hexadecimal digits: the version, 8, is digit 12; the
# variant, binary 10, the top two bits of digit 16, whose two low bits stay the hash's.
_VARIANT_DIGITS = "89ab"


def chunk_id(source: str, text: str, occurrence: int = 0) -> str:
    """The id of the chunk holding `text` in the source whose id is `source`, the
    `occurrence`-th chunk of that text there (from 0).

    Example:
        >>> chunk_id("guide.md", "Run the installer.")
        'ee1d9442-b15f-8857-b1bd-71aa5163f7f2'
        >>> chunk_id("guide.md", "Run the installer.", 1)
        '13189fdb-50fd-8513-b738-304a29e8b295'
    """
    # The length first: `source` may hold ':' itself, and the text is the rest.
    head = f"{len(source)}:{source}:{occurrence}:"
    digits = hashlib.sha256((head + text).encode("utf-8", "surrogatepass")).hexdigest()
    variant = _VARIANT_DIGITS[int(digits[16], 16) & 3]
    return f"{digits[:8]}-{digits[8:12]}-8{digits[13:16]}-{variant}{digits[17:20]}-{digits[20:32]}"


def chunk_ids(source: str, texts: Iterable[str]) -> list[str]:
    """The ids of a source's chunks, whose texts are `texts` in order: each numbered among
    the chunks of the same text before it.

    Example:
        >>> first, second = chunk_ids("notes.md", ["See above.", "See above."])
        >>> first == chunk_id("notes.md", "See above.") and first != second
        True
    """
    seen: dict[str, int] = {}
    ids = []
    for text in texts:
        occurrence = seen.get(text, 0)
        seen[text] = occurrence + 1
        ids.append(chunk_id(source, text, occurrence))
    return ids
