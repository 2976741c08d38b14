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

# White space within a line.
_WS_IN_LINE = WS_CLASS.replace("\\n", "")

# The lines that can change what step 1 gathers, each matched with the line feed before it
# (the text is scanned with one put in front), so the scan jumps from line feed to line feed:
# - fence: "```py" or "  ```", a line whose trimmed text starts with three backticks;
# - heading: one to six `#` at the start of the line, then white space ("## Setup", "#\\tx";
#   not "#word" nor "####### x");
# - blank: a run of lines holding white space alone.
# Each group ends where its (last) line does; other lines are never visited.
STRUCTURE_LINE_RE = re.compile(
    rf"""\n(?:
        (?P<fence>[{_WS_IN_LINE}]*```[^\n]*)
      | (?P<heading>\#{{1,6}}[{_WS_IN_LINE}][^\n]*)
      | (?P<blank>[{_WS_IN_LINE}]*(?:\n[{_WS_IN_LINE}]*)*)
    )(?=\n|\Z)""",
    re.VERBOSE,
)

# A paragraph break: a line feed, any white space, another line feed.
# "a\n\nb", "a\n \t\nb" and "a\n\n\n\nb" each split into "a" and "b".
PARAGRAPH_BREAK_RE = re.compile(rf"\n[{WS_CLASS}]*\n")

# A sentence break: the white space after `.`, `!` or `?`. "Hi. There" -> "Hi.", "There".
SENTENCE_BREAK_RE = re.compile(rf"(?<=[.!?])[{WS_CLASS}]+")

# The spaces a fixed split skips before the next part starts (spaces only, as the original).
SPACES_RE = re.compile(" *")


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
        """Step 1: segments at headings, fences and blank lines after `target_size`.

        A segment is always a run of whole lines, each with its line feed, so it is a slice
        of `text + "\\n"`; only the lines that can change the state are visited, a run of
        blank lines at once, which keeps this linear whatever the text.
        """
        padded = text + "\n"
        segments: list[_Segment] = []

        def emit(start: int, end: int, boundary: BoundaryType) -> None:
            segments.append(_Segment.of(padded[start:end], start, boundary))

        segment_start = 0
        segment_has_text = False
        boundary: BoundaryType = "paragraph"
        code_start = -1  # where the open code block starts; -1 outside one
        handled_to = -1  # the line feed (or end) of the last line handled
        # Positions in "\n" + text are one past those in text: a match starts at the line feed
        # before its line, which is where the line starts in text.
        for line in STRUCTURE_LINE_RE.finditer("\n" + text):
            start, kind = line.start(), line.lastgroup
            end = line.end(kind) - 1  # the line feed ending the (last) line, or the text's end
            if (kind == "fence" and not self.preserve_code_blocks) or (
                kind == "heading" and not self.respect_headings
            ):
                continue  # an ordinary line, counted below as one between those handled
            if code_start < 0 and start > handled_to + 1:
                segment_has_text = True  # ordinary, non-blank lines came since the last one
            handled_to = end
            if kind == "fence":
                if code_start < 0:
                    # The gathering segment is flushed but kept: if the block never closes,
                    # it comes out again at the end (a quirk of the original, kept).
                    if segment_has_text:
                        emit(segment_start, start, boundary)
                    code_start = start
                else:
                    emit(code_start, end, "code-block")
                    code_start = -1
                    segment_start, segment_has_text, boundary = end + 1, False, "paragraph"
            elif code_start >= 0:
                continue
            elif kind == "heading":
                if segment_has_text:
                    emit(segment_start, start, boundary)
                segment_start, segment_has_text, boundary = start, True, "heading"
            elif segment_has_text:
                # Blank lines: the first that starts once the segment holds target_size
                # characters ends it; the ones before it join it.
                ending = self._first_line_from(text, start, end, segment_start + self.target_size)
                if ending >= 0:
                    emit(segment_start, ending, boundary)
                    line_end = text.find("\n", ending, end + 1)
                    segment_start = (end if line_end < 0 else line_end) + 1
                    segment_has_text, boundary = False, "paragraph"
        if code_start >= 0:
            emit(code_start, len(padded), "code-block")  # never blank: it holds the fence
            segment_end = code_start
        else:
            segment_has_text = segment_has_text or len(text) > handled_to + 1
            segment_end = len(padded)
        if segment_has_text:
            emit(segment_start, segment_end, boundary)
        return segments

    @staticmethod
    def _first_line_from(text: str, start: int, end: int, least: int) -> int:
        """The first line start at or after `least` among the lines of `text[start:end]`, or -1."""
        if start >= least:
            return start
        feed = text.find("\n", least - 1, end)
        return feed + 1 if feed >= 0 else -1

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
