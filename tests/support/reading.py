"""Every text a page shows, read from the rendered page, and how well it reads: the colour
each is drawn in, every colour that can be under it, and WCAG's contrast between the two.

Each text is read with the layers it is painted over, its own first: each element's
computed `backgroundColor`, `backgroundImage` and `opacity` up to the root. An element's
opacity fades what it paints, its text and its descendants, into what lies under it, so a
text and its background are composited as the browser does (`drawn`) before they are
compared. A gradient can show any of its stops behind the text: each is one more backdrop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .colours import AA, Colour, contrast, gradient_stops, over, parse_colour

# The JavaScript that reads an element's layers (see above): `first` is the style of a
# pseudo-element drawn inside `node`, painted over the node's own background.
LAYERS_JS = """(node, first) => {
  const out = [];
  const read = (style) => ({color: style.backgroundColor, image: style.backgroundImage,
                            opacity: style.opacity});
  if (first) out.push(read(first));
  for (let at = node; at; at = at.parentElement) out.push(read(getComputedStyle(at)));
  return out;
}"""

# Every text a person can see on the page: each element holding text of its own (an SVG
# text's colour is its fill), each field showing a value, each ::before with content. Texts
# drawn alike (same colours, same layers) are read once: `what` names the first, `seen` each.
EVERY_TEXT = f"""() => {{
  const layers = {LAYERS_JS};
  const seen = new Map();
  const shown = (node) => node.checkVisibility({{visibilityProperty: true}})
    && [...node.getClientRects()].some((box) => box.width > 1 && box.height > 1);
  const add = (node, text, color, style) => {{
    const entry = {{color, layers: layers(node, style)}};
    const key = JSON.stringify(entry);
    const classes = (node.getAttribute('class') ?? '').trim();
    const name = node.tagName.toLowerCase() + (node.id ? `#${{node.id}}` : '')
      + (classes ? `.${{classes.split(/\\s+/).join('.')}}` : '');
    const what = `${{name}}${{style ? '::before' : ''}}: ${{JSON.stringify(text.trim().slice(0, 40))}}`;
    if (seen.has(key)) seen.get(key).seen.push(what);
    else seen.set(key, {{...entry, what, seen: [what]}});
  }};
  for (const node of document.body.querySelectorAll('*')) {{
    if (!shown(node)) continue;
    const style = getComputedStyle(node);
    const own = [...node.childNodes].filter((child) => child.nodeType === 3)
      .map((child) => child.data).join('');
    if (own.trim() && !['SELECT', 'TEXTAREA', 'OPTION'].includes(node.tagName)) {{
      add(node, own, node instanceof SVGElement ? style.fill : style.color, null);
    }}
    const field = node.matches('textarea, select, input:not([type=checkbox], [type=radio],'
      + ' [type=range], [type=file], [type=hidden])');
    const value = node.tagName === 'SELECT' ? node.selectedOptions[0]?.textContent ?? ''
      : field ? node.value : '';
    if (field && value.trim()) add(node, value, style.color, null);
    const before = getComputedStyle(node, '::before');
    if (!['none', 'normal', '""'].includes(before.content) && before.display !== 'none') {{
      add(node, before.content, before.color, before);
    }}
  }}
  return [...seen.values()];
}}"""

Layer = dict[str, str]


def drawn(text: Colour, layers: Sequence[Layer]) -> list[tuple[Colour, Colour]]:
    """Each (text, background) pair of colours the screen can show where `text` is drawn
    over `layers` (its own element's first, as EVERY_TEXT reads them), composited with
    every layer's opacity as the browser does."""

    def paint(at: int, under: Colour) -> list[tuple[Colour, Colour]]:
        # What layer `at` and all it holds make of `under`: (with the text, without).
        layer = layers[at]
        backs = [over(parse_colour(layer["color"]), under)]
        if layer["image"] != "none":
            backs = [over(stop, back) for back in backs for stop in gradient_stops(layer["image"])]
        inner = [
            pair
            for back in backs
            for pair in ([(over(text, back), back)] if at == 0 else paint(at - 1, back))
        ]
        alpha = float(layer.get("opacity", "1"))
        return [(faded(top, under, alpha), faded(bottom, under, alpha)) for top, bottom in inner]

    canvas = (1.0, 1.0, 1.0, 1.0)  # hidden by the first opaque layer
    return list(dict.fromkeys(paint(len(layers) - 1, canvas)))


def faded(colour: Colour, under: Colour, alpha: float) -> Colour:
    """`colour` painted at `alpha` over `under`."""
    return over((*colour[:3], alpha), under)


def least_contrast(entry: dict[str, Any]) -> float:
    """The least contrast of the text `entry` (as EVERY_TEXT reads it) with what is under it."""
    colour = parse_colour(entry["color"])
    return min(contrast(top, back) for top, back in drawn(colour, entry["layers"]))


def hard_to_read(texts: Sequence[dict[str, Any]]) -> list[str]:
    """Each text of `texts` under WCAG AA's 4.5:1, with its contrast."""
    return sorted(
        f"{text['what']} (and {len(text['seen']) - 1} more alike): {ratio:.2f}:1"
        for text in texts
        if (ratio := least_contrast(text)) < AA
    )
