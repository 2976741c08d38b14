"""Every chunk colour keeps its text readable, in Chromium: the text over each chunk's tint
and over each overlap's stripes, plain and selected, meets WCAG AA in the light and the dark
scheme, and the stripes show against the tint.
"""

from __future__ import annotations

import pytest
from support.colours import contrast, gradient_stops, luminance, over, parse_colour

# Every chunk colour, and each overlap stripe (a chunk's tint striped with the next one's),
# plain and selected, with the text drawn over it; colours read from computed styles.
READ_COLOURS = """() => {
  const view = document.getElementById('document');
  const probe = (classes) => {
    const span = document.createElement('span');
    span.className = classes;
    span.textContent = 'probe';
    view.append(span);
    const style = getComputedStyle(span);
    const out = {text: style.color, back: style.backgroundColor, image: style.backgroundImage};
    span.remove();
    return out;
  };
  const out = {page: getComputedStyle(view).backgroundColor, chunks: [], overlaps: []};
  for (let c = 0; c < 6; c += 1) {
    const next = (c + 1) % 6;
    out.chunks.push([`c${c}`, probe(`chunk c${c}`)]);
    out.chunks.push([`c${c} selected`, probe(`chunk c${c} selected`)]);
    // A chunk's tail repeated by the next (as drawn), and the other way round, each plain,
    // with the next chunk selected, and with this one selected.
    for (const [own, lead] of [[c, next], [next, c]]) {
      for (const state of ['', 'selected-lead', 'selected']) {
        out.overlaps.push([`c${own} under l${lead} ${state}`,
          probe(`chunk overlap c${own} l${lead} ${state}`)]);
      }
    }
  }
  return out;
}"""


# Overlap stripes must show against the chunk's own tint: this is the least ratio between the
# two, well above what an eye tells apart on a screen.
STRIPE_CONTRAST = 1.25


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_over_every_chunk_colour_and_overlap_meets_wcag_aa(page, scheme):
    page.emulate_media(color_scheme=scheme)
    try:
        colours = page.evaluate(READ_COLOURS)
    finally:
        page.emulate_media(color_scheme="light")  # the context's own default
    ground = parse_colour(colours["page"])
    failures = []
    for name, style in colours["chunks"]:
        back = over(parse_colour(style["back"]), ground)
        ratio = contrast(parse_colour(style["text"]), back)
        if ratio < 4.5:
            failures.append(f"{name}: text {ratio:.2f}:1")
    for name, style in colours["overlaps"]:
        stops = gradient_stops(style["image"])
        assert len(stops) >= 2, style["image"]
        stripes = [over(stop, ground) for stop in stops]
        for stripe in stripes:
            ratio = contrast(parse_colour(style["text"]), stripe)
            if ratio < 4.5:
                failures.append(f"{name}: text {ratio:.2f}:1 on a stripe")
        seen = contrast(stripes[0], stripes[-1])
        if seen < STRIPE_CONTRAST:
            failures.append(f"{name}: stripes {seen:.2f}:1, barely visible")
    assert failures == [], f"{scheme}: {failures}"


def test_the_dark_scheme_really_is_dark(page):
    # The emulation must reach the page's styles, or the test above proves nothing.
    page.emulate_media(color_scheme="dark")
    try:
        dark = page.evaluate(READ_COLOURS)
    finally:
        page.emulate_media(color_scheme="light")  # the context's own default
    light = page.evaluate(READ_COLOURS)
    assert luminance(parse_colour(dark["page"])) < 0.05 < luminance(parse_colour(light["page"]))
