"""Colours as the browser computes them, and WCAG's contrast between them.

Computed colours come as `rgb()`, `rgba()` or, from `color-mix()`, `color(srgb …)`; each is
read into (r, g, b, alpha) in 0..1, and a colour with alpha below 1 is drawn over what is
under it before its contrast is taken.
"""

from __future__ import annotations

import re

Colour = tuple[float, float, float, float]

# WCAG 2.x AA: the least contrast for text of ordinary size.
AA = 4.5

# A number in a computed colour: 255, 0.35, 1e-05.
NUMBER_RE = re.compile(r"[0-9.]+(?:e-?[0-9]+)?")
# One colour in a computed gradient: `rgb(1, 2, 3) 0px` gives `rgb(1, 2, 3)`.
GRADIENT_COLOUR_RE = re.compile(r"(?:rgba?|color)\([^)]*\)")


def parse_colour(text: str) -> Colour:
    """(r, g, b, alpha) in 0..1 from a computed colour: rgb(), rgba() or color(srgb ...)."""
    numbers = [float(x) for x in NUMBER_RE.findall(text)]
    if text.startswith("color(srgb"):
        r, g, b = numbers[:3]
        return r, g, b, numbers[3] if len(numbers) > 3 else 1.0
    r, g, b = (x / 255 for x in numbers[:3])
    return r, g, b, numbers[3] if len(numbers) > 3 else 1.0


def over(top: Colour, bottom: Colour) -> Colour:
    """`top` drawn over the opaque `bottom`."""
    alpha = top[3]
    r, g, b = (alpha * t + (1 - alpha) * u for t, u in zip(top[:3], bottom[:3]))
    return r, g, b, 1.0


def luminance(colour: Colour) -> float:
    """WCAG's relative luminance of an opaque colour."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    """WCAG's contrast ratio of two opaque colours, from 1 to 21."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def gradient_stops(image: str) -> list[Colour]:
    """The colours of a computed `repeating-linear-gradient(...)`, in order."""
    return [parse_colour(m) for m in GRADIENT_COLOUR_RE.findall(image)]
