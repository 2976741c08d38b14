"""Random edits of texts with emoji, in JavaScript indices, for the tests of the facade's
LiveDocument and of the playground's views after its edits."""

from __future__ import annotations

import random
from typing import Any

PIECES = [
    "# Refunds 💳\n\n",
    "Refunds go back to the card that paid. ",
    "Emoji 😀 and 🎉 are two units each in JavaScript. ",
    "\n\n",
    "## Shipping\n\n",
    "Orders ship within two days.\n",
    "```python\nprint('🐍')\n```\n",
    "| a | b |\n|---|---|\n| 1 | 2 |\n",
    "Plain words follow one another here. ",
    "🙂",
    "\n",
]


def utf16_index(text: str, at: int) -> int:
    """The JavaScript index of code point `at` of `text`."""
    return at + sum(1 for char in text[:at] if ord(char) > 0xFFFF)


def random_edits(seed: int, text: str, count: int) -> list[list[Any]]:
    """`count` inserts, deletes and replacements at character boundaries of `text` as each
    leaves it, in JavaScript indices: at headings, fences, the start and the end, emptying."""
    rng = random.Random(seed)
    edits: list[list[Any]] = []
    for _ in range(count):
        start = rng.choice([0, len(text), rng.randrange(len(text) + 1)])
        headings = [at for at, char in enumerate(text) if char in "#`"]
        if headings and rng.random() < 0.3:
            start = rng.choice(headings)
        end = min(len(text), start + rng.choice([0, 0, 1, 2, 5, 40, 400]))
        if rng.random() < 0.03:
            start, end = 0, len(text)
        replacement = "".join(rng.choices(PIECES, k=rng.choice([0, 1, 1, 2, 4])))
        edits.append([utf16_index(text, start), utf16_index(text, end), replacement])
        text = text[:start] + replacement + text[end:]
    return edits
