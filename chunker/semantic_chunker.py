"""`SemanticChunker`: cut Markdown and prose at headings, paragraphs, sentences, then sizes.

The four steps are the spec's (README, "Method"):

1. read line by line into heading, paragraph and code-block segments;
2. split a segment longer than `max_size` at blank lines, then sentence ends, then every
   `target_size` characters;
3. add a segment shorter than `min_size` to the one before it;
4. start each chunk with the last `overlap` characters of the chunk before.

Every step is linear in the length of the text: strings are built from lists of parts, and
each search is bounded to the window it may answer from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .records import BoundaryType, Chunk
from .validation import require_bool, require_int, require_text
from .whitespace import WS_CLASS, is_blank, js_trim

__all__ = ["SemanticChunker"]

# A heading line: one to six `#` at the start of the line, then white space.
# "## Setup" and "#\tx" are headings; "#word" and "####### x" are not.
HEADING_LINE_RE = re.compile(rf"#{{1,6}}[{WS_CLASS}]")

# A paragraph break: a line feed, any white space, another line feed.
# "a\n\nb", "a\n \t\nb" and "a\n\n\n\nb" each split into "a" and "b".
PARAGRAPH_BREAK_RE = re.compile(rf"\n[{WS_CLASS}]*\n")

# A sentence break: the white space after `.`, `!` or `?`. "Hi. There" -> "Hi.", "There".
SENTENCE_BREAK_RE = re.compile(rf"(?<=[.!?])[{WS_CLASS}]+")

# The spaces a fixed split skips before the next part starts (spaces only, as the original).
SPACES_RE = re.compile(" *")

CODE_FENCE = "```"


@dataclass(slots=True)
class _Segment:
    """A piece of the input on its way to becoming a chunk; `parts` join into its text."""

    parts: list[str]
    offset: int
    boundary: BoundaryType
    length: int = field(default=0)

    @classmethod
    def of(cls, text: str, offset: int, boundary: BoundaryType) -> _Segment:
        return cls([text], offset, boundary, len(text))

    @property
    def text(self) -> str:
        if len(self.parts) > 1:
            self.parts = ["".join(self.parts)]
        return self.parts[0]


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
        segments: list[_Segment] = []
        for segment in self._split_by_structure(text):
            if segment.length <= self.max_size:
                segments.append(segment)
            else:
                segments.extend(self._split_oversized(segment.text, segment.offset))
        merged = self._merge_small(segments)
        chunks: list[Chunk] = []
        previous = ""
        for index, segment in enumerate(merged):
            own = segment.text
            lead = previous[-self.overlap :] if index > 0 and self.overlap > 0 else ""
            chunks.append(
                Chunk(
                    text=lead + own,
                    index=index,
                    start_offset=segment.offset,
                    end_offset=segment.offset + len(own),
                    boundary_type=segment.boundary,
                    metadata=metadata,
                )
            )
            previous = own
        return chunks

    def _split_by_structure(self, text: str) -> list[_Segment]:
        """Step 1: segments at headings, fences and blank lines after `target_size`."""
        segments: list[_Segment] = []
        current: list[str] = []
        current_length = 0
        current_has_text = False
        segment_start = 0
        boundary: BoundaryType = "paragraph"
        code: list[str] | None = None  # the open code block's lines, None outside one
        code_start = 0
        offset = 0
        for line in text.split("\n"):
            line_offset = offset
            offset += len(line) + 1
            trimmed = js_trim(line)
            if self.preserve_code_blocks and trimmed.startswith(CODE_FENCE):
                if code is None:
                    # The gathering chunk is flushed but kept: if the block never closes,
                    # it comes out again at the end (a quirk of the original, kept).
                    if current_has_text:
                        segments.append(_Segment.of("".join(current), segment_start, boundary))
                    code = [line, "\n"]
                    code_start = line_offset
                else:
                    code.append(line)
                    segments.append(_Segment.of("".join(code), code_start, "code-block"))
                    code = None
                    current, current_length, current_has_text = [], 0, False
                    segment_start, boundary = offset, "paragraph"
                continue
            if code is not None:
                code += (line, "\n")
                continue
            if self.respect_headings and HEADING_LINE_RE.match(line):
                if current_has_text:
                    segments.append(_Segment.of("".join(current), segment_start, boundary))
                current, current_length, current_has_text = [line, "\n"], len(line) + 1, True
                segment_start, boundary = line_offset, "heading"
                continue
            if not trimmed and current_has_text and current_length >= self.target_size:
                segments.append(_Segment.of("".join(current), segment_start, boundary))
                current, current_length, current_has_text = [], 0, False
                segment_start, boundary = offset, "paragraph"
                continue
            current += (line, "\n")
            current_length += len(line) + 1
            current_has_text = current_has_text or bool(trimmed)
        if code is not None:
            # Never blank: its first line holds the fence.
            segments.append(_Segment.of("".join(code), code_start, "code-block"))
        if current_has_text:
            segments.append(_Segment.of("".join(current), segment_start, boundary))
        return segments

    def _split_oversized(self, text: str, offset: int) -> list[_Segment]:
        """Step 2: split at blank lines, falling back to sentences for what is still long."""
        paragraphs = PARAGRAPH_BREAK_RE.split(text)
        if len(paragraphs) == 1:
            return self._split_sentences(text, offset)
        return self._pack(paragraphs, "\n\n", offset, "paragraph", self._split_sentences)

    def _split_sentences(self, text: str, offset: int) -> list[_Segment]:
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
        split_further: Callable[[str, int], list[_Segment]],
    ) -> list[_Segment]:
        """Gather pieces up to `target_size`; a gathered part over `max_size` is split further.

        Offsets assume each break was exactly `joiner`, as the original's do.
        """
        results: list[_Segment] = []

        def flush(gathered: str, at: int) -> None:
            if len(gathered) > self.max_size:
                results.extend(split_further(gathered, at))
            else:
                results.append(_Segment.of(gathered, at, boundary))

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

    def _split_fixed(self, text: str, offset: int) -> list[_Segment]:
        """Step 2, last level: every `target_size` characters, back to a space if one is near."""
        results: list[_Segment] = []
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
                results.append(_Segment.of(part, offset + position, "fixed"))
            position = SPACES_RE.match(text, end).end()
        return results

    def _merge_small(self, segments: list[_Segment]) -> list[_Segment]:
        """Step 3: add each short paragraph, sentence or fixed part to the segment before."""
        if len(segments) <= 1:
            return segments
        merged: list[_Segment] = []
        for segment in segments:
            if (
                merged
                and segment.boundary not in ("heading", "code-block")
                and len(js_trim(segment.text)) < self.min_size
            ):
                previous = merged[-1]
                previous.parts += ("\n\n", segment.text)
                previous.length += 2 + segment.length
            else:
                merged.append(segment)
        return merged
