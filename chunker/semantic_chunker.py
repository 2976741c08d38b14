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
from itertools import chain
from typing import Any, Callable, Mapping

from .records import BoundaryType, Chunk, ChunkDraft
from .structure import Segment, split_by_structure
from .validation import ArgumentTypeError, require_bool, require_int, require_text
from .whitespace import JS_WHITESPACE, WS_CLASS, is_blank, js_trim

__all__ = ["SemanticChunker"]

# A paragraph break: a line feed, any white space, another line feed.
# "a\n\nb", "a\n \t\nb" and "a\n\n\n\nb" each split into "a" and "b".
PARAGRAPH_BREAK_RE = re.compile(rf"\n[{WS_CLASS}]*\n")

# A sentence end: a full stop and the white space after it. "Hi. There" holds ". ".
# `!` and `?` end sentences too; they are searched as full stops (see `split_sentences`).
SENTENCE_END_RE = re.compile(rf"\.[{WS_CLASS}]+")

# The spaces a fixed split skips before the next part starts (spaces only, as the original).
SPACES_RE = re.compile(" *")

# The options of SemanticChunker, in the constructor's order.
_OPTIONS = (
    "target_size",
    "max_size",
    "min_size",
    "overlap",
    "preserve_code_blocks",
    "respect_headings",
)

# After the last segment: a heading, which joins nothing and is never built.
_END: tuple[Segment] = ("", -1, "heading"),


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

    __slots__ = _OPTIONS

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
        options = {
            "target_size": require_int("target_size", target_size, minimum=1),
            "max_size": require_int("max_size", max_size, minimum=1),
            "min_size": require_int("min_size", min_size, minimum=0),
            "overlap": require_int("overlap", overlap, minimum=0),
            "preserve_code_blocks": require_bool("preserve_code_blocks", preserve_code_blocks),
            "respect_headings": require_bool("respect_headings", respect_headings),
        }
        for name, value in options.items():
            object.__setattr__(self, name, value)

    # Options are checked once, at construction: one set later, unchecked, could make chunk()
    # loop forever (target_size 0) or fail deep inside. A subclass's own attributes are free.
    def __setattr__(self, name: str, value: Any) -> None:
        if name in _OPTIONS:
            raise AttributeError(
                f"SemanticChunker options cannot change after construction (tried {name}="
                f"{value!r:.80}); make a new SemanticChunker({name}=...)"
            )
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in _OPTIONS:
            raise AttributeError(f"SemanticChunker options cannot be deleted (tried {name})")
        object.__delattr__(self, name)

    def __reduce__(self) -> tuple[Callable[..., SemanticChunker], tuple[Any, ...]]:
        # copy and pickle remake it with its options checked again (setting them is refused).
        return _remake, (type(self), {name: getattr(self, name) for name in _OPTIONS})

    def __repr__(self) -> str:
        options = ", ".join(f"{name}={getattr(self, name)!r}" for name in _OPTIONS)
        return f"{type(self).__name__}({options})"

    def chunk(self, text: str, metadata: Mapping[str, Any] | None = None) -> list[Chunk]:
        """Cut `text` into chunks, in order; `[]` for empty or white-space-only text.

        Example:
            >>> SemanticChunker().chunk("Hello.")[0].text
            'Hello.\\n'
        """
        require_text("text", text)
        if metadata is not None and not isinstance(metadata, Mapping):
            raise ArgumentTypeError(
                "metadata",
                "metadata must be a mapping or None, "
                f"got {type(metadata).__name__} {metadata!r:.80}"
            )
        if is_blank(text):
            return []
        max_size = self.max_size
        segments: list[Segment] = []
        append = segments.append
        structure = split_by_structure(
            text, self.target_size, self.preserve_code_blocks, self.respect_headings
        )
        for segment in structure:
            if len(segment[0]) <= max_size:
                append(segment)
            else:
                segments += self._split_oversized(segment[0], segment[1])
        return self._build(segments, metadata)

    def _split_oversized(self, text: str, offset: int) -> list[Segment]:
        """Step 2: split at blank lines, falling back to sentences for what is still long."""
        paragraphs = PARAGRAPH_BREAK_RE.split(text)
        if len(paragraphs) == 1:
            return self._split_sentences(text, offset)
        return self._pack(paragraphs, "\n\n", offset, "paragraph", self._split_sentences)

    def _split_sentences(self, text: str, offset: int) -> list[Segment]:
        """Step 2, second level: split at sentence ends, falling back to fixed sizes."""
        sentences = split_sentences(text)
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

    def _build(self, segments: list[Segment], metadata: Mapping[str, Any] | None) -> list[Chunk]:
        """Steps 3 and 4: add each short paragraph, sentence or fixed part to the segment
        before, then make each segment a chunk that starts with the end of the one before."""
        min_size, overlap, whitespace = self.min_size, self.overlap, JS_WHITESPACE
        chunks: list[Chunk] = []
        append = chunks.append
        previous = ""  # the own text of the chunk before
        own, own_at, own_boundary = "", 0, "paragraph"  # the segment becoming a chunk
        joined: list[str] = []  # its texts while short segments join it, to join once
        # The heading after the end closes the last chunk as any heading would.
        for text, offset, boundary in chain(segments, _END):
            if (
                own
                and boundary != "heading"
                and boundary != "code-block"
                and (len(text) < min_size or len(text.strip(whitespace)) < min_size)
            ):
                if not joined:
                    joined.append(own)
                joined += ("\n\n", text)
                continue
            if own:
                if joined:
                    own = "".join(joined)
                    joined.clear()
                # A draft, not Chunk(...): this runs once per chunk (see records.py).
                chunk = ChunkDraft()
                chunk.text = previous[-overlap:] + own if overlap else own
                chunk.index = len(chunks)
                chunk.start_offset = own_at
                chunk.end_offset = own_at + len(own)
                chunk.boundary_type = own_boundary
                chunk.metadata = metadata
                chunk.__class__ = Chunk
                append(chunk)  # type: ignore[arg-type]
                previous = own
            own, own_at, own_boundary = text, offset, boundary
        return chunks


def _remake(cls: type[SemanticChunker], options: dict[str, Any]) -> SemanticChunker:
    """A `cls` with `options`, whatever the constructor of a subclass takes (see `__reduce__`)."""
    chunker = cls.__new__(cls)
    SemanticChunker.__init__(chunker, **options)
    return chunker


def split_sentences(text: str) -> list[str]:
    """`text` cut at the white space after each `.`, `!` and `?`, which is dropped.

    Example:
        >>> split_sentences("Hi. Who? Me!  Yes")
        ['Hi.', 'Who?', 'Me!', 'Yes']
    """
    # A pattern that starts with one literal character lets `re` jump between its
    # occurrences; one that starts with a class such as [.!?] tests every character, which
    # cost ten times more. So search a copy in which `!` and `?` read as `.`.
    marked = text.replace("!", ".").replace("?", ".")
    sentences: list[str] = []
    append = sentences.append
    start = 0
    for end in SENTENCE_END_RE.finditer(marked):
        append(text[start : end.start() + 1])
        start = end.end()
    append(text[start:])
    return sentences
