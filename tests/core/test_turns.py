"""chunk_turns' records and errors: blank turns never hide a bad one, repeated_turns is
checked where a Passage is made, to_dict(spans=True) adds repeatedTurns and nothing else."""

from __future__ import annotations

import pytest

from chunker import Passage, TurnSpan, chunk_turns

TRANSCRIPT = [
    {"seq": 1, "itemId": "a", "text": "aaaa", "startMs": 0, "endMs": 10},
    {"seq": 2, "text": " \ufeff"},
    {"seq": 3, "itemId": "a", "text": "bbbb", "endMs": 20},
    {"seq": 4, "text": "cccc", "startMs": 30, "endMs": 40},
]


@pytest.mark.parametrize(
    "turns, words",
    [
        pytest.param(
            [{"seq": 1, "text": "a"}, {"seq": 2, "text": None}],
            ["turns[1].text", "None"],
            id="text-none",
        ),
        pytest.param([{"seq": 1, "text": b"  "}], ["turns[0].text", "b'  '"], id="text-bytes"),
        pytest.param([{"seq": 1, "text": ["\t"]}], ["turns[0].text", "['\\t']"], id="text-list"),
        pytest.param([{"seq": "one", "text": " "}], ["turns[0].seq", "'one'"], id="blank-bad-seq"),
        pytest.param(
            [{"seq": 1, "text": "", "itemId": 7}], ["turns[0].itemId", "7"], id="blank-bad-item-id"
        ),
        pytest.param(
            [{"seq": 1, "text": "ok"}, {"seq": 2, "text": "\n", "startMs": "now"}],
            ["turns[1].startMs", "'now'"],
            id="blank-bad-time",
        ),
    ],
)
def test_a_blank_turn_of_the_wrong_type_is_still_an_error(turns, words):
    with pytest.raises(TypeError) as caught:
        chunk_turns(turns)
    assert all(word in str(caught.value) for word in words), str(caught.value)


def test_a_blank_turn_without_text_is_still_an_error():
    with pytest.raises(ValueError, match=r"turns\[1\] has no 'text'"):
        chunk_turns([{"seq": 1, "text": " "}, {"seq": 2}])


def test_to_dict_keeps_the_original_shape_and_spans_adds_repeated_turns():
    passages = chunk_turns(TRANSCRIPT, max_chars=9)
    plain = [p.to_dict() for p in passages]
    assert plain == [
        {
            "text": "aaaa\nbbbb",
            "index": 0,
            "firstSeq": 1,
            "lastSeq": 3,
            "itemIds": ["a", "a"],
            "startMs": 0,
            "endMs": 20,
            "turns": [
                {"seq": 1, "itemId": "a", "start": 0, "end": 4},
                {"seq": 3, "itemId": "a", "start": 5, "end": 9},
            ],
        },
        {
            "text": "bbbb\ncccc",
            "index": 1,
            "firstSeq": 3,
            "lastSeq": 4,
            "itemIds": ["a", None],
            "startMs": None,
            "endMs": 40,
            "turns": [
                {"seq": 3, "itemId": "a", "start": 0, "end": 4},
                {"seq": 4, "start": 5, "end": 9},
            ],
        },
    ]
    with_spans = [p.to_dict(spans=True) for p in passages]
    assert [d.pop("repeatedTurns") for d in with_spans] == [0, 1]
    assert with_spans == plain
    assert passages[1].item_ids == ("a", None)


def test_repeated_turns_is_the_last_field_and_defaults_to_none_repeated():
    passage = Passage("x", 0, 1, 1, (None,), None, None, (TurnSpan(1, None, 0, 1),))
    assert passage.repeated_turns == 0
    # After the original's fields, so positional arguments keep their meaning; then the token
    # budget's count.
    assert Passage.__slots__[-2:] == ("repeated_turns", "token_count")


@pytest.mark.parametrize(
    "repeated, error, words",
    [
        (-1, ValueError, ["repeated_turns", "-1"]),
        (2, ValueError, ["repeated_turns", "2", "new turn"]),
        (1.0, TypeError, ["repeated_turns", "1.0"]),
        (True, TypeError, ["repeated_turns", "True"]),
    ],
    ids=["negative", "no-new-turn-left", "float", "bool"],
)
def test_repeated_turns_is_checked_when_a_passage_is_made(repeated, error, words):
    spans = (TurnSpan(1, None, 0, 1), TurnSpan(2, None, 2, 3))
    with pytest.raises(error) as caught:
        Passage("x\ny", 0, 1, 2, (None, None), None, None, spans, repeated)
    assert all(word in str(caught.value) for word in words), str(caught.value)
