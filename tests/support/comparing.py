"""The playground's Compare view (web/playground/compare.js) as its tests drive and read it:
B's settings set through B's own fields, a comparison waited for, each side's cuts read from
what its column marks, and the cuts Python's chunks make, to compare them with."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from .offsets import utf16_offset
from .playground import wait_until


def comparisons(page: Any) -> int:
    """How many comparisons the page has drawn so far."""
    return int(page.evaluate("Number(document.getElementById('compare').dataset.runs || 0)"))


def compared(page: Any, after: int, timeout: float = 60.0) -> int:
    """Wait until a comparison newer than `after` is drawn and none is running."""
    return wait_until(
        page,
        f"(() => {{ const c = document.getElementById('compare');"
        f" return Number(c.dataset.runs || 0) > {after} && c.dataset.busy === 'false'"
        f" && Number(c.dataset.runs); }})()",
        timeout,
    )


def act(page: Any, action: Any) -> None:
    """Do `action` (a person's click or typing) and wait for the comparison it makes."""
    before = comparisons(page)
    action()
    compared(page, before)


def compare_on(page: Any) -> None:
    """Open the Compare view (by its tab on a narrow screen) and switch comparing on."""
    if page.is_visible("#tab-compare"):
        page.click("#tab-compare")
    if page.get_attribute("#compare-toggle", "aria-expanded") != "true":
        act(page, lambda: page.click("#compare-toggle"))


def set_b(page: Any, mode: str | None = None, **values: Any) -> None:
    """Set B's chunker and settings (by their JavaScript names) through B's fields, as a
    person does, each waited for."""
    if mode is not None and not page.is_checked(f'input[name="compare-mode"][value="{mode}"]'):
        act(page, lambda: page.click(f'label:has(> input[name="compare-mode"][value="{mode}"])'))
    for name, value in values.items():
        selector = f"#compare-setting-{name}"
        kind = page.get_attribute(selector, "type") or "select"
        if kind == "checkbox":
            if page.is_checked(selector) != value:
                act(page, lambda s=selector, v=value: page.set_checked(s, v))
        elif kind == "select":
            if page.input_value(selector) != value:
                act(page, lambda s=selector, v=value: page.select_option(s, v))
        elif page.input_value(selector) != str(value):
            act(page, lambda s=selector, v=value: page.fill(s, str(v)))


def set_b_tokens(page: Any, tokenizer: str, budget: int | None = None) -> None:
    """Choose B's tokenizer, and with `budget` apply it as B's token budget."""
    if page.input_value("#compare-token-tokenizer") != tokenizer:
        act(page, lambda: page.select_option("#compare-token-tokenizer", tokenizer))
    if budget is not None and page.input_value("#compare-token-budget") != str(budget):
        # Applied, a new budget cuts again; shown only, it changes no chunk and runs nothing.
        if page.is_checked("#compare-token-apply"):
            act(page, lambda: page.fill("#compare-token-budget", str(budget)))
        else:
            page.fill("#compare-token-budget", str(budget))
    if page.is_checked("#compare-token-apply") != (budget is not None):
        act(page, lambda: page.click("#compare-token-apply"))


# The cuts block `i` of a side's column marks: `[offset, 'both' | 'only']`, the offset the
# length of the text before the marked edge (as READ_BLOCK in painting.py reads places).
READ_CUTS = """({side, i}) => {
  const block = document.querySelectorAll(`#compare-${side}-document .block`)[i];
  if (!block) return null;
  if (block.dataset.painted !== 'yes') {
    block.scrollIntoView({block: 'nearest'});
    return false;
  }
  const cuts = [];
  let at = Number(block.dataset.start);
  for (const node of block.childNodes) {
    const length = node.textContent.length;
    if (node.nodeType === 1) {
      if (node.dataset.cutStart) cuts.push([at, node.dataset.cutStart]);
      if (node.dataset.cutEnd) cuts.push([at + length, node.dataset.cutEnd]);
    }
    at += length;
  }
  return cuts;
}"""


def marked_cuts(page: Any, side: str) -> list[tuple[int, str]]:
    """Every cut side `side` ('a' or 'b') marks, in order, with how: read block by block as
    each is drawn (a block holds its text only near the view)."""
    cuts: list[tuple[int, str]] = []
    i, deadline = 0, time.monotonic() + 60
    while (block := page.evaluate(READ_CUTS, {"side": side, "i": i})) is not None:
        if block is False:
            if time.monotonic() > deadline:
                raise TimeoutError(f"block {i} of side {side} was never drawn")
            page.wait_for_timeout(30)
            continue
        cuts += [(int(at), how) for at, how in block]
        i += 1
    return cuts


def cuts_of(text: str, chunks: Sequence[Any]) -> set[int]:
    """Where Python's `chunks` of `text` start and end (their spans, those of any length), in
    JavaScript indices."""
    return {
        utf16_offset(text, offset)
        for chunk in chunks
        if chunk.span[1] > chunk.span[0]
        for offset in chunk.span
    }
