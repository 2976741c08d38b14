"""The list of chunks and the status line, in Chromium: one chunk is said as one, and a row
never clips its heading or its preview, at any width, with long titles and offsets.
"""

from __future__ import annotations

import re

import pytest
from support.playground import (
    GUIDE,
    OWN_TEXT,
    put_text,
    quiet,
    scroll_list,
    set_mode,
    set_settings,
    show_source,
    show_text,
)


def test_one_chunk_is_one_chunk(page):
    set_mode(page, "semantic")
    show_text(page, "Just one short paragraph.")
    assert re.fullmatch(r"1 chunk in [0-9,]+ ms", page.text_content("#run-status"))
    show_text(page, OWN_TEXT)
    set_settings(page, targetSize=300, maxSize=600, minSize=50, overlap=20)
    assert re.fullmatch(r"[0-9,]+ chunks in [0-9,]+ ms", page.text_content("#run-status"))


ROWS_CLIPPED = """() => [...document.querySelectorAll('#chunk-list .row')].flatMap((row) => {
  const box = row.getBoundingClientRect();
  const style = getComputedStyle(row);
  const inner = box.bottom - parseFloat(style.borderBottomWidth);
  const head = row.querySelector('.row-head');
  const preview = row.querySelector('.row-preview');
  const line = parseFloat(getComputedStyle(head).lineHeight);
  const problems = [];
  if (head.getBoundingClientRect().height > line * 1.5) problems.push('head wraps');
  if (preview.getBoundingClientRect().bottom > inner + 0.5) problems.push('preview cut');
  if (preview.scrollHeight > preview.clientHeight + 1) problems.push('descenders cut');
  return problems.map((p) => `${row.id}: ${p}`);
})"""


@pytest.mark.parametrize("width", [360, 480, 1280])
def test_rows_never_clip_their_preview(page, width):
    set_mode(page, "engine")
    show_source(page, "guide")
    # Long titles and meta: hierarchical sections, with offsets in the hundreds of thousands.
    put_text(page, (GUIDE + "\n\n") * 40)
    quiet(page)
    set_settings(page, strategy="hierarchical", chunkSize=300, chunkOverlap=30)
    page.set_viewport_size({"width": width, "height": 900})
    if width < 960:
        page.click("#tab-chunks")
    try:
        scroll_list(page, "list.scrollHeight")
        assert page.evaluate("document.querySelectorAll('#chunk-list .row').length") > 3
        assert page.evaluate(ROWS_CLIPPED) == []
    finally:
        page.click("#tab-text") if width < 960 else None
        page.set_viewport_size({"width": 1280, "height": 900})
        show_text(page, GUIDE, "guide")
