"""What the playground's document view colours, read from the DOM, and what it should colour:
every chunk's own span, and its overlap span striped, in JavaScript indices."""

from __future__ import annotations

from typing import Any, Sequence

from chunkspan import Chunk, DocumentChunk

from .offsets import utf16_offset

# Where each chunk is coloured in the document view, read from the DOM: for every element, its
# position is the length of the text before it (badges are CSS content, not text).
READ_DOCUMENT = """() => {
  const out = {own: {}, lead: {}, badges: [], text: '', selected: []};
  for (const block of document.querySelectorAll('#document .block')) {
    let at = Number(block.dataset.start);
    for (const node of block.childNodes) {
      const length = node.textContent.length;
      if (node.nodeType === 1) {
        for (const c of (node.dataset.c || '').split(' ').filter(Boolean)) {
          (out.own[c] ??= []).push([at, at + length]);
        }
        for (const c of (node.dataset.l || '').split(' ').filter(Boolean)) {
          (out.lead[c] ??= []).push([at, at + length]);
        }
        if (node.dataset.badge) out.badges.push([at, node.dataset.badge]);
        if (node.classList.contains('selected')) out.selected.push([at, at + length]);
      }
      at += length;
    }
    out.text += block.textContent;
  }
  return out;
}"""


def paint_all(page: Any) -> None:
    """Bring every block of the document view near the viewport once, so all are painted."""
    while True:
        left = page.evaluate(
            """() => {
              const blocks = [...document.querySelectorAll('#document .block')];
              const todo = blocks.find((b) => b.dataset.painted !== 'yes');
              if (todo) todo.scrollIntoView({block: 'nearest'});
              return !!todo;
            }"""
        )
        if not left:
            return
        page.wait_for_timeout(30)


def read_document(page: Any) -> dict[str, Any]:
    """The coloured ranges of each chunk (`own`, `lead`: index -> merged [start, end] lists),
    the badges, the text and the selected ranges, every block painted first."""
    paint_all(page)
    shown = page.evaluate(READ_DOCUMENT)
    return {
        "own": {int(k): merge(v) for k, v in shown["own"].items()},
        "lead": {int(k): merge(v) for k, v in shown["lead"].items()},
        "badges": shown["badges"],
        "text": shown["text"],
        "selected": merge(shown["selected"]),
    }


def merge(spans: list[list[int]]) -> list[list[int]]:
    """Ranges sorted, those that touch joined into one."""
    out: list[list[int]] = []
    for start, end in sorted(spans):
        if out and out[-1][1] == start:
            out[-1][1] = end
        else:
            out.append([start, end])
    return out


def _js(text: str, span: tuple[int, int]) -> list[int]:
    return [utf16_offset(text, span[0]), utf16_offset(text, span[1])]


def semantic_painting(text: str, chunks: Sequence[Chunk]) -> tuple[dict, dict]:
    """`own` and `lead` as the view should colour `SemanticChunker` chunks: each chunk's span,
    and its overlap span striped (an empty span colours nothing)."""
    own, lead = {}, {}
    for chunk in chunks:
        if chunk.span[1] > chunk.span[0]:
            own[chunk.index] = [_js(text, chunk.span)]
        span = chunk.overlap_span
        if span is not None and span[1] > span[0]:
            lead[chunk.index] = [_js(text, span)]
    return own, lead


def engine_painting(text: str, chunks: Sequence[DocumentChunk]) -> tuple[dict, dict]:
    """`own` and `lead` for `ChunkingEngine` chunks: each span, and striped, the part of a
    window that starts before the one before it ended."""
    own, lead, previous_end = {}, {}, -1
    for chunk in chunks:
        start, end = _js(text, chunk.span)
        if end > start:
            own[chunk.index] = [[start, end]]
        if start < previous_end and min(previous_end, end) > start:
            lead[chunk.index] = [[start, min(previous_end, end)]]
        previous_end = end
    return own, lead
