"""`SemanticChunker`: cut Markdown and prose at headings, paragraphs, sentences, then sizes.

The four steps are the spec's (README, "Method"):

1. read line by line into heading, paragraph and code-block segments;
2. split a segment longer than `max_size` at blank lines, then sentence ends, then every
   `target_size` characters;
3. add a segment shorter than `min_size` to the one before it;
4. start each chunk with the last `overlap` characters of the chunk before.

Every step is linear in the length of the text: step 1 visits only the lines that can end a
segment, merged segments are joined once, and each search is bounded to the window it may
answer from.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from .records import BoundaryType, Chunk, new_chunk
from .structure import Segment, split_by_structure
from .validation import require_bool, require_int, require_text
from .whitespace import JS_WHITESPACE, WS_CLASS, is_blank, js_trim

__all__ = ["SemanticChunker"]

# A paragraph break: a line feed, any white space, another line feed.
# "a\n\nb", "a\n \t\nb" and "a\n\n\n\nb" each split into "a" and "b".
PARAGRAPH_BREAK_RE = re.compile(rf"\n[{WS_CLASS}]*\n")

# A sentence break: the white space after `.`, `!` or `?`. "Hi. There" -> "Hi.", "There".
SENTENCE_BREAK_RE = re.compile(rf"(?<=[.!?])[{WS_CLASS}]+")

# The spaces a fixed split skips before the next part starts (spaces only, as the original).
SPACES_RE = re.compile(" *")


class SemanticChunker:
    """Cut text at its natural boundaries into chunks of about `target_size` characters.

    Args:
        target_size: characters a chunk gathers before a blank line ends it, and the size
            the splits pack to.
        max_size: characters above which a chunk is split again.
        min_size: characters (white space aside) below which a chunk joins the one before.
        overlap: characters of the chunk before that each chunk starts with.
        preserve_code_blocks: keep each fenced code block as one chunk.
        respect_headings: start a chunk at each Markdown heading.

    Example:
        >>> chunker = SemanticChunker(overlap=0)
        >>> [c.boundary_type for c in chunker.chunk("# A\\n\\nOne.\\n\\n# B\\n\\nTwo.")]
        ['heading', 'heading']
    """

    __slots__ = (
        "target_size",
        "max_size",
        "min_size",
        "overlap",
        "preserve_code_blocks",
        "respect_headings",
    )

    def __init__(
        self,
        target_size: int = 1000,
        max_size: int = 2000,
        min_size: int = 200,
        overlap: int = 100,
        preserve_code_blocks: bool = True,
        respect_headings: bool = True,
    ) -> None:
        # target_size 0 would cut empty parts forever; the others have no such limit.
        self.target_size = require_int("target_size", target_size, minimum=1)
        self.max_size = require_int("max_size", max_size, minimum=1)
        self.min_size = require_int("min_size", min_size, minimum=0)
        self.overlap = require_int("overlap", overlap, minimum=0)
        self.preserve_code_blocks = require_bool("preserve_code_blocks", preserve_code_blocks)
        self.respect_headings = require_bool("respect_headings", respect_headings)

    def __repr__(self) -> str:
        options = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"SemanticChunker({options})"

    def chunk(self, text: str, metadata: Mapping[str, Any] | None = None) -> list[Chunk]:
        """Cut `text` into chunks, in order; `[]` for empty or white-space-only text.

        Example:
            >>> SemanticChunker().chunk("Hello.")[0].text
            'Hello.\\n'
        """
        require_text("text", text)
        if metadata is not None and not isinstance(metadata, Mapping):
            raise TypeError(f"metadata must be a mapping or None, got {type(metadata).__name__}")
        if is_blank(text):
            return []
        max_size, overlap = self.max_size, self.overlap
        segments: list[Segment] = []
        structure = split_by_structure(
            text, self.target_size, self.preserve_code_blocks, self.respect_headings
        )
        for segment in structure:
            if len(segment[0]) <= max_size:
                segments.append(segment)
            else:
                segments += self._split_oversized(segment[0], segment[1])
        chunks: list[Chunk] = []
        previous = ""
        for index, (own, offset, boundary) in enumerate(self._merge_small(segments)):
            lead = previous[-overlap:] if index and overlap else ""
            chunks.append(
                new_chunk(lead + own, index, offset, offset + len(own), boundary, metadata)
            )
            previous = own
        return chunks

    def _split_oversized(self, text: str, offset: int) -> list[Segment]:
        """Step 2: split at blank lines, falling back to sentences for what is still long."""
        paragraphs = PARAGRAPH_BREAK_RE.split(text)
        if len(paragraphs) == 1:
            return self._split_sentences(text, offset)
        return self._pack(paragraphs, "\n\n", offset, "paragraph", self._split_sentences)

    def _split_sentences(self, text: str, offset: int) -> list[Segment]:
        """Step 2, second level: split at sentence ends, falling back to fixed sizes."""
        sentences = SENTENCE_BREAK_RE.split(text)
        if len(sentences) == 1:
            return self._split_fixed(text, offset)
        return self._pack(sentences, " ", offset, "sentence", self._split_fixed)

    def _pack(
        self,
        pieces: list[str],
        joiner: str,
        offset: int,
        boundary: BoundaryType,
        split_further: Callable[[str, int], list[Segment]],
    ) -> list[Segment]:
        """Gather pieces up to `target_size`; a gathered part over `max_size` is split further.

        Offsets assume each break was exactly `joiner`, as the original's do.
        """
        results: list[Segment] = []

        def flush(gathered: str, at: int) -> None:
            if len(gathered) > self.max_size:
                results.extend(split_further(gathered, at))
            else:
                results.append((gathered, at, boundary))

        gathered = ""
        gathered_at = offset
        running = offset
        for piece in pieces:
            if gathered and len(gathered) + len(piece) + len(joiner) > self.target_size:
                flush(gathered, gathered_at)
                gathered, gathered_at = piece, running
            elif gathered:
                gathered += joiner + piece
            else:
                gathered, gathered_at = piece, running
            running += len(piece) + len(joiner)
        if not is_blank(gathered):
            flush(gathered, gathered_at)
        return results

    def _split_fixed(self, text: str, offset: int) -> list[Segment]:
        """Step 2, last level: every `target_size` characters, back to a space if one is near."""
        results: list[Segment] = []
        position = 0
        length = len(text)
        while position < length:
            end = min(position + self.target_size, length)
            if end < length:
                # Only a space more than min_size characters in counts, so search just there.
                space = text.rfind(" ", position + self.min_size + 1, end + 1)
                if space != -1:
                    end = space
            part = js_trim(text[position:end])
            if part:
                results.append((part, offset + position, "fixed"))
            position = SPACES_RE.match(text, end).end()
        return results

    def _merge_small(self, segments: list[Segment]) -> list[Segment]:
        """Step 3: add each short paragraph, sentence or fixed part to the segment before."""
        if len(segments) <= 1:
            return segments
        min_size, whitespace = self.min_size, JS_WHITESPACE
        # Each group: [offset, boundary, text, ("\n\n", text)...], joined once at the end.
        groups: list[list[Any]] = []
        for text, offset, boundary in segments:
            if (
                groups
                and boundary != "heading"
                and boundary != "code-block"
                and len(text.strip(whitespace)) < min_size
            ):
                groups[-1] += ("\n\n", text)
            else:
                groups.append([offset, boundary, text])
        return [
            ("".join(group[2:]) if len(group) > 3 else group[2], group[0], group[1])
            for group in groups
        ]
