"""Where each strategy's state is known whatever came before: the anchors an edit is re-cut
from and to (docs/live.md has the rule for each)."""

from __future__ import annotations

import heapq
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator

from chunker.base.whitespace import JS_WHITESPACE, LINE_TERMINATORS, WS_CLASS
from chunker.live.blocks import BlockText
from chunker.live.runs import Runs
from chunker.text.records import Chunk, DocumentChunk
from chunker.text.structure import HEADING_START_RE, fence_lines

__all__ = ["Anchors", "MarkdownAnchors", "SectionAnchors", "BlockAnchors", "line_end"]


def line_end(text: BlockText, at: int) -> int:
    """Where the line starting at `at` ends, past its line feed (past the text without one)."""
    found = text.find("\n", at)
    return len(text) + 1 if found < 0 else found + 1


class Anchors:
    """Where a chunker's state is known whatever came before: for a strategy with none, no
    place (every edit is re-cut from the start to the end)."""

    __slots__ = ("text",)

    def __init__(self, text: BlockText) -> None:
        self.text = text

    def edited(self, start: int, end: int, replacement: str, text: BlockText) -> Anchors:
        """The anchors of `text`, this text with `[start:end]` replaced."""
        return type(self)(text)

    def same_state_after(self, new: Anchors, start: int, end: int, delta: int) -> bool:
        """Whether the state a chunker carries past `[start:end]` (what the edit replaced)
        is the same in `new`'s text as in this one."""
        return True

    def is_anchor(self, at: int) -> bool:
        return False

    def down(self, before: int) -> Iterator[int]:
        """The anchors before `before`, last first."""
        return iter(())

    def restart(self, start: int, chunks: Runs) -> tuple[int, int]:
        """Where to re-cut from for an edit at `start`, given this text's `chunks`: the
        place before which every chunk stands as it is, and a place at or before it where
        the chunker starts as it would in the whole text, so that what it cuts from the
        first is as in the whole text (0 and 0: the start)."""
        keep_to = 0
        down = self.down(start)
        for at in down:
            if line_end(self.text, at) <= start:
                keep_to = at
                break
        return (keep_to, next(down, 0)) if keep_to else (0, 0)

    def settles(self, at: int, chunks: Runs) -> bool:
        """Whether, at the anchor `at`, everything after it is a function of the text from
        there and the chunk before (given this text's `chunks`)."""
        return self.is_anchor(at)

    def up(self, after: int) -> Iterator[int]:
        """The anchors after `after`, in order."""
        return iter(())


class MarkdownAnchors(Anchors):
    """`SemanticChunker`'s: a heading line (with `respect_headings`) or a fence that opens a
    code block (with `preserve_code_blocks`), outside a code block. Step 1 starts a segment
    there whatever it was gathering, step 3 never joins it to the chunk before, and only the
    overlap, cut from the chunk before, carries over."""

    __slots__ = ("headings", "budget", "fences")

    def __init__(
        self,
        text: BlockText,
        headings: bool,
        codes: bool,
        budget: bool,
        fences: list[int] | None = None,
    ) -> None:
        super().__init__(text)
        self.headings = headings
        self.budget = budget
        self.fences = fences if fences is not None else fence_lines(str(text)) if codes else []

    def edited(self, start: int, end: int, replacement: str, text: BlockText) -> Anchors:
        old, fences = self.text, self.fences
        if not fences and "```" not in replacement:
            return MarkdownAnchors(text, self.headings, False, self.budget, [])
        # The fence lines of the lines the edit touched, found again; the later ones moved.
        lines_from = old.rfind("\n", 0, start) + 1
        lines_to = min(line_end(old, end), len(old))
        delta = len(replacement) - (end - start)
        touched = fence_lines(text[lines_from : lines_to + delta])
        first, after = bisect_left(fences, lines_from), bisect_left(fences, lines_to)
        moved = [
            *fences[:first],
            *(lines_from + at for at in touched),
            *(at + delta for at in fences[after:]),
        ]
        return MarkdownAnchors(text, self.headings, True, self.budget, moved)

    def same_state_after(self, new: Anchors, start: int, end: int, delta: int) -> bool:
        assert isinstance(new, MarkdownAnchors)
        # Each fence line opens or closes a block in turn: the edit leaves every line after
        # it inside or outside a block as it was when it adds or removes an even number. (A
        # block left open repeats, after it, the segment gathering as it opened: the
        # anchors, all before that segment, still hold.)
        past = min(line_end(self.text, end), len(self.text))
        return (bisect_left(self.fences, past) - bisect_left(new.fences, past + delta)) % 2 == 0

    def _outside(self, at: int) -> bool:
        return bisect_left(self.fences, at) % 2 == 0

    def _opens(self, at: int) -> bool:
        # A fence that opens a block which closes: one left open runs to the end, and the
        # segment gathering before it comes out again after it, last.
        fences = self.fences
        found = bisect_left(fences, at)
        return found + 1 < len(fences) and fences[found] == at and found % 2 == 0

    def is_anchor(self, at: int) -> bool:
        if at <= 0:
            return False
        text = self.text
        return (
            self.headings and text[at - 1] == "\n" and _heading_at(text, at) and self._outside(at)
        ) or self._opens(at)

    def down(self, before: int) -> Iterator[int]:
        return heapq.merge(self._headings_down(before), self._fences_down(before), reverse=True)

    def restart(self, start: int, chunks: Runs) -> tuple[int, int]:
        # The segment of the anchor nearest the edit may now run into it, and its first part
        # join the chunk before if it is split: so the chunks stand up to a chunk that starts
        # at an anchor before that one. The window is cut from another such anchor before,
        # so that the chunk before that one, whose end its overlap repeats, is cut whole.
        down = self.down(start)
        for at in down:
            if line_end(self.text, at) <= start:
                break
        else:
            return 0, 0
        starting = (at for at in down if self.settles(at, chunks))
        keep_to = next(starting, 0)
        return (keep_to, next(starting, 0)) if keep_to else (0, 0)

    def settles(self, at: int, chunks: Runs) -> bool:
        # A chunk starts at the anchor's text: its first part is not joined to the chunk
        # before (a split segment's first part is, when short). With a token budget, a
        # chunk is cut into pieces, one of which may start there: then the piece must be
        # the last of a heading or code-block chunk (a part of a split one has another
        # type).
        if not self.is_anchor(at):
            return False
        text_at = at if self.text[at] == "#" else self.text.find("```", at)
        found = chunks.first_from(text_at)
        if found == len(chunks):
            return False
        chunk = chunks[found]
        return chunk.span[0] == text_at and (
            not self.budget
            or (isinstance(chunk, Chunk) and chunk.boundary_type in ("heading", "code-block"))
        )

    def up(self, after: int) -> Iterator[int]:
        return heapq.merge(self._headings_up(after), self._fences_up(after))

    def _headings_down(self, before: int) -> Iterator[int]:
        if not self.headings:
            return
        text, at = self.text, before
        while (found := text.rfind("\n#", 0, at)) >= 0:
            if _heading_at(text, found + 1) and self._outside(found + 1):
                yield found + 1
            at = found

    def _headings_up(self, after: int) -> Iterator[int]:
        if not self.headings:
            return
        text, at = self.text, after
        while (found := text.find("\n#", at)) >= 0:
            if _heading_at(text, found + 1) and self._outside(found + 1):
                yield found + 1
            at = found + 1

    def _fences_down(self, before: int) -> Iterator[int]:
        fences = self.fences
        for number in range(min(bisect_left(fences, before), len(fences) - 1) - 1, -1, -1):
            if number % 2 == 0 and fences[number] > 0:
                yield fences[number]

    def _fences_up(self, after: int) -> Iterator[int]:
        fences = self.fences
        for number in range(bisect_right(fences, after), len(fences) - 1):
            if number % 2 == 0:
                yield fences[number]


def _heading_at(text: BlockText, at: int) -> bool:
    """Whether a heading line's marks start at `at` (which starts a line)."""
    return HEADING_START_RE.match(text[at : at + 8]) is not None


# A first-level heading whose text is on its own line: "# Guide", not "## Setup", nor "#"
# alone (whose heading, for `hierarchical`, is the next line's text).
_IN_LINE = "".join(c for c in JS_WHITESPACE if c not in LINE_TERMINATORS)
_FIRST_LEVEL_RE = re.compile(f"#[{re.escape(_IN_LINE)}]+[^{WS_CLASS}]")


class SectionAnchors(Anchors):
    """`hierarchical`'s: a first-level heading, where the path of headings starts again
    empty. Not one after a line of `#` alone, whose heading would be this line."""

    __slots__ = ()

    def is_anchor(self, at: int) -> bool:
        text = self.text
        if (
            at <= 0
            or text[at - 1] != "\n"
            or not _FIRST_LEVEL_RE.match(text[at : line_end(text, at)])
        ):
            return False
        before = at - 1
        while before >= 0 and text[before] in JS_WHITESPACE:
            before -= 1
        return before < 0 or text[before] != "#"

    def down(self, before: int) -> Iterator[int]:
        text, at = self.text, before
        while (found := text.rfind("\n#", 0, at)) >= 0:
            if self.is_anchor(found + 1):
                yield found + 1
            at = found

    def up(self, after: int) -> Iterator[int]:
        text, at = self.text, after
        while (found := text.find("\n#", at)) >= 0:
            if self.is_anchor(found + 1):
                yield found + 1
            at = found + 1


class BlockAnchors(Anchors):
    """`layout`'s: a line that opens a fenced code block, where the blocks start again
    (prose before it ends there, its fence decides where the block ends). Whether a line of
    backticks opens a block or closes one depends on the fences before it: an anchor counts
    where a code block's chunk starts at it. After the edit, the window's chunks between two
    anchors, equal to the old ones, tell that the first still opens its block, and so the
    second."""

    __slots__ = ()

    def is_anchor(self, at: int) -> bool:
        return at > 0 and self.text[at - 1] == "\n" and self.text[at : at + 3] == "```"

    def down(self, before: int) -> Iterator[int]:
        text, at = self.text, before
        while (found := text.rfind("\n```", 0, at)) >= 0:
            yield found + 1
            at = found

    def up(self, after: int) -> Iterator[int]:
        text, at = self.text, after
        while (found := text.find("\n```", at)) >= 0:
            yield found + 1
            at = found + 1

    def restart(self, start: int, chunks: Runs) -> tuple[int, int]:
        # No overlap crosses a block: the window starts at the block the chunks stand up to.
        for at in self.down(start):
            if line_end(self.text, at) <= start and self.settles(at, chunks):
                return at, at
        return 0, 0

    def settles(self, at: int, chunks: Runs) -> bool:
        found = chunks.first_from(at)
        if found == len(chunks):
            return False
        chunk = chunks[found]
        return chunk.span[0] == at and isinstance(chunk, DocumentChunk) and chunk.metadata == _CODE


_CODE = {"type": "code"}
