"""What the playground's document view colours, read from the DOM, and what it should colour:
every chunk's own span, and its overlap span striped, in JavaScript indices."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from chunker import Chunk, DocumentChunk

from .offsets import utf16_offset

# Where each chunk is coloured in block `i` of the document view, read from the DOM: for every
# element, its position is the length of the text before it (badges are CSS content, not
# text). A block holds its text only while it is near the view (web/playground/near.js): one
# that is not is brought into view, and `false` answered, to be asked again once it is drawn;
# `null` past the last block.
READ_BLOCK = """(i) => {
  const block = document.querySelectorAll('#document .block')[i];
  if (!block) return null;
  if (block.dataset.painted !== 'yes') {
    block.scrollIntoView({block: 'nearest'});
    return false;
  }
  const out = {own: [], lead: [], badges: [], text: block.textContent, selected: []};
  let at = Number(block.dataset.start);
  for (const node of block.childNodes) {
    const length = node.textContent.length;
    if (node.nodeType === 1) {
      for (const c of (node.dataset.c || '').split(' ').filter(Boolean)) {
        out.own.push([c, at, at + length]);
      }
      for (const c of (node.dataset.l || '').split(' ').filter(Boolean)) {
        out.lead.push([c, at, at + length]);
      }
      if (node.dataset.badge) out.badges.push([at, node.dataset.badge]);
      if (node.classList.contains('selected')) out.selected.push([at, at + length]);
    }
    at += length;
  }
  return out;
}"""


def read_document(page: Any) -> dict[str, Any]:
    """The coloured ranges of each chunk (`own`, `lead`: index -> merged [start, end] lists),
    the badges, the text and the selected ranges, read block by block as each is drawn."""
    own: dict[int, list[list[int]]] = {}
    lead: dict[int, list[list[int]]] = {}
    badges, texts, selected = [], [], []
    i, deadline = 0, time.monotonic() + 60
    while (block := page.evaluate(READ_BLOCK, i)) is not None:
        if block is False:
            if time.monotonic() > deadline:
                raise TimeoutError(f"block {i} of the document view was never drawn")
            page.wait_for_timeout(30)
            continue
        for into, key in ((own, "own"), (lead, "lead")):
            for chunk, start, end in block[key]:
                into.setdefault(int(chunk), []).append([start, end])
        badges += block["badges"]
        texts.append(block["text"])
        selected += block["selected"]
        i += 1
    return {
        "own": {k: merge(v) for k, v in own.items()},
        "lead": {k: merge(v) for k, v in lead.items()},
        "badges": badges,
        "text": "".join(texts),
        "selected": merge(selected),
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
