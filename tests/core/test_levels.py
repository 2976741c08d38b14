"""The split levels as data (`text/levels.py`): read by `SemanticChunker`'s step 2 and by the
token budget's pass, in the order their rules give."""

from __future__ import annotations

from chunker.text.levels import BUDGET_LEVELS, SPLIT_LEVELS


def test_the_levels_are_in_the_order_the_rules_give():
    # Step 2: blank lines, then sentence ends, then every target_size characters (the spec);
    # the budget: after sentences and lines, between words, within a word (budget.py).
    assert [(level.boundary, level.joiner) for level in SPLIT_LEVELS] == [
        ("paragraph", "\n\n"),
        ("sentence", " "),
        ("fixed", None),
    ]
    assert [level.boundary for level in BUDGET_LEVELS] == ["sentence", "fixed", "fixed"]
    for table in (SPLIT_LEVELS, BUDGET_LEVELS):  # only the last cuts by size
        assert [level.breaks is None for level in table] == [False, False, True]
