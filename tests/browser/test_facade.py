"""web/chunker.js in real Chromium: every function, its errors, concurrency, offsets, safety.

One page boots Pyodide for the session (`chunker_page`, with the facade as `window.api`);
each answer is compared with what the same call gives in CPython.
"""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from support.facade import LOAD_FACADE, call, worker_heard
from support.offsets import as_javascript, code_units, utf16_offset
from support.serving import serving

from chunker import (
    ChunkingEngine,
    SemanticChunker,
    chunk_turns,
    lexical_tokens,
    locate_chunks,
    snippet_around,
)
from tools.server import CSP
from tools.snapshot import SNAPSHOT

HANDBOOK = (
    "# Refunds\n\nRefunds go back to the card that paid. They take five to ten business days."
    "\n\n# Shipping\n\nOrders ship within two days of payment.\n\n```python\nprint('hi')\n```\n"
)

# Text with characters outside the BMP (two UTF-16 code units each, one Python character)
# where offsets land: before, inside and after chunks, in headings and in words.
ASTRAL_TEXT = (
    "# Emoji 😀 heading\n\n"
    + "𝒜lpha 🎉 beta gamma. " * 30
    + "\n\n## 𐍈 Gothic\n\n"
    + "Δ delta 🧪 epsilon. Zeta 🚀. " * 25
    + "\n\n👨‍👩‍👧 family words at the end 🏁"
)


def test_loader_reports_each_stage_then_ready(chunker_session):
    page, _, stages = chunker_session
    names = [stage["stage"] for stage in stages]
    # A first visit's start: it restores the memory snapshot the site ships.
    assert names[0] == "download" and names[-1] == "ready"
    assert {"restore", "unpack"} <= set(names) and not {"boot", "import"} & set(names)
    fractions = [stage["fraction"] for stage in stages]
    assert fractions == sorted(fractions) and fractions[-1] == 1
    assert all(isinstance(stage["message"], str) and stage["message"] for stage in stages)
    versions = page.evaluate("api.versions")
    assert versions["pyodide"] == "314.0.7"
    assert versions["chunker"] == __import__("chunker").__version__
    assert versions["python"].startswith("3.")


def test_semantic_chunker_as_in_cpython(chunker_page):
    chunker_page.evaluate("(text) => { window.handbook = text; }", HANDBOOK)
    got = call(
        chunker_page,
        "new api.SemanticChunker({targetSize: 60, overlap: 10}).chunk(handbook, {source: 'h.md'})",
    )
    chunks = SemanticChunker(target_size=60, overlap=10).chunk(HANDBOOK, {"source": "h.md"})
    assert got == [c.to_dict() for c in chunks]
    assert call(chunker_page, "new api.SemanticChunker().chunk('  \\n ')") == []


def test_semantic_chunker_puts_the_callers_metadata_object_on_every_chunk(chunker_page):
    same = chunker_page.evaluate(
        """async () => {
          const metadata = { source: 'a.md' };
          const chunks = await new api.SemanticChunker({ targetSize: 20, minSize: 0 })
            .chunk('# A\\n\\nOne two three four five.\\n\\n# B\\n\\nSix.', metadata);
          return [chunks.length, chunks.every((c) => c.metadata === metadata)];
        }"""
    )
    assert same == [2, True]
    # Without metadata the key is absent, as JSON.stringify leaves it in the original.
    assert "metadata" not in call(chunker_page, "new api.SemanticChunker().chunk('Hi.')")[0]


@pytest.mark.parametrize("strategy", ["fixed", "semantic", "hierarchical", "layout"])
def test_chunking_engine_as_in_cpython(chunker_page, strategy):
    chunker_page.evaluate("(text) => { window.handbook = text; }", HANDBOOK)
    got = call(
        chunker_page,
        f"new api.ChunkingEngine().chunk(handbook, {{strategy: '{strategy}', chunkSize: 50, "
        "chunkOverlap: 5})",
    )
    chunks = ChunkingEngine().chunk(HANDBOOK, strategy=strategy, chunk_size=50, chunk_overlap=5)
    assert got == [c.to_dict() for c in chunks]


def test_async_embed_fn_is_awaited_on_the_main_thread(chunker_page):
    content = "Cats purr. Cats nap. Stocks fell. Bonds rose. Cats again."
    got = chunker_page.evaluate(
        """async (content) => {
          const seen = [];
          const embedFn = async (sentences) => {
            seen.push(...sentences);
            // Time passing for real: the answer comes in a later task, and is awaited.
            await new Promise((resolve) => setTimeout(resolve, 20));
            return sentences.map((s) => (s.startsWith('Cats') ? [1, 0] : [0, 1]));
          };
          const chunks = await new api.ChunkingEngine()
            .chunk(content, { strategy: 'semantic', chunkSize: 200, chunkOverlap: 0, embedFn });
          return { chunks, seen };
        }""",
        content,
    )

    def embed(sentences):
        return [[1, 0] if s.startswith("Cats") else [0, 1] for s in sentences]

    expected = ChunkingEngine().chunk(
        content, strategy="semantic", chunk_size=200, chunk_overlap=0, embed_fn=embed
    )
    assert got["chunks"] == [c.to_dict() for c in expected]
    assert len(got["chunks"]) == 3
    assert got["seen"] == ["Cats purr.", "Cats nap.", "Stocks fell.", "Bonds rose.", "Cats again."]


def test_embed_fn_may_answer_typed_arrays_and_undefined_is_named(chunker_page):
    # Browser models answer Float32Arrays; a forgotten `return` answers undefined.
    got = chunker_page.evaluate(
        """async () => {
          const engine = new api.ChunkingEngine();
          const content = 'Cats purr. Stocks fell.';
          const options = { strategy: 'semantic', chunkSize: 200, chunkOverlap: 0 };
          const typed = await engine.chunk(content, { ...options,
            embedFn: (s) => [Float32Array.of(1, 0), Float32Array.of(0, 1)] });
          const missing = await engine.chunk(content, { ...options, embedFn: () => undefined })
            .then(() => 'resolved', (e) => [e.constructor.name, e.message]);
          return { typed: typed.map((c) => c.content), missing };
        }"""
    )
    assert got["typed"] == ["Cats purr.", "Stocks fell."]
    missing = "embed_fn must return a list of vectors, got NoneType None"
    assert got["missing"] == ["TypeError", missing]


def test_metadata_json_cannot_carry_is_put_on_the_chunks_as_given(chunker_page):
    # The original takes any object as metadata; a cycle or a BigInt must not break the call.
    got = chunker_page.evaluate(
        """async () => {
          const metadata = { source: 'a.md', size: 10n };
          metadata.self = metadata;
          const chunks = await new api.SemanticChunker().chunk('Hello there.', metadata);
          const refused = await new api.SemanticChunker().chunk('x', [1])
            .then(() => 'resolved', (e) => [e.constructor.name, e.message]);
          return { same: chunks.every((c) => c.metadata === metadata), refused };
        }"""
    )
    assert got["same"] is True
    assert got["refused"] == ["TypeError", "metadata must be a mapping or None, got list [1]"]


def test_an_embed_fn_that_throws_rejects_the_call_with_its_own_error(chunker_page):
    got = chunker_page.evaluate(
        """async () => {
          const mine = new SyntaxError('no model loaded');
          const embedFn = async () => { throw mine; };
          try {
            await new api.ChunkingEngine().chunk('One. Two.', { strategy: 'semantic', embedFn });
          } catch (e) { return e === mine; }
        }"""
    )
    assert got is True


def test_an_embed_fn_with_the_wrong_answer_is_a_range_error(chunker_page):
    got = call(
        chunker_page,
        "new api.ChunkingEngine().chunk('One. Two. Three.', "
        "{strategy: 'semantic', embedFn: (s) => [[1, 0]]})",
    )
    assert got == {"error": ["RangeError", "embed_fn returned 1 vectors for 3 sentences"]}


def test_chunk_turns_lexical_tokens_snippet_around_locate_chunks(chunker_page):
    turns = [
        {"seq": 1, "text": "Hello there.", "itemId": "a", "startMs": 0, "endMs": 900},
        {"seq": 2, "text": "Hi! How can I help?", "itemId": "b", "startMs": 1000},
        {"seq": 3, "text": "My refund is late.", "itemId": "a", "endMs": 4000},
    ]
    chunker_page.evaluate("(turns) => { window.turns = turns; }", turns)
    got = call(chunker_page, "api.chunkTurns(turns, {maxChars: 35, overlapTurns: 1})")
    assert got == [p.to_dict() for p in chunk_turns(turns, max_chars=35, overlap_turns=1)]

    text = "Q3's budget: 1,200 units; Réfunds go back."
    got = call(chunker_page, f"api.lexicalTokens({json.dumps(text)})")
    assert got == lexical_tokens(text)

    options = "{before: 10, after: 20}"
    got = call(chunker_page, f"api.snippetAround({json.dumps(HANDBOOK)}, ['ship'], {options})")
    assert got == snippet_around(HANDBOOK, ["ship"], before=10, after=20).to_dict()

    contents = ["Refunds go back", "two  days\nof", "not there"]
    got = call(chunker_page, f"api.locateChunks({json.dumps(HANDBOOK)}, {json.dumps(contents)})")
    spans = locate_chunks(HANDBOOK, contents)
    assert got == [None if s is None else {"start": s[0], "end": s[1]} for s in spans]


# (JavaScript call, the CPython call that must fail with the same message, or the message)
ERROR_CASES = [
    (
        "new api.SemanticChunker({targetSize: 0}).chunk('x')",
        lambda: SemanticChunker(target_size=0).chunk("x"),
    ),
    ("new api.SemanticChunker({overlap: -1}).chunk('x')", lambda: SemanticChunker(overlap=-1)),
    ("new api.SemanticChunker({maxSize: 1.5}).chunk('x')", lambda: SemanticChunker(max_size=1.5)),
    ("new api.SemanticChunker().chunk(42)", lambda: SemanticChunker().chunk(42)),
    ("new api.SemanticChunker().chunk('x', 'meta')", lambda: SemanticChunker().chunk("x", "meta")),
    (
        "new api.SemanticChunker({targetSize: NaN}).chunk('x')",
        lambda: SemanticChunker(target_size="NaN"),
    ),
    (
        "new api.SemanticChunker({targetSize: 10, colour: 'red'}).chunk('x')",
        (
            "TypeError",
            "config of SemanticChunker.chunk has unknown option colour (known: "
            "targetSize, maxSize, minSize, overlap, preserveCodeBlocks, respectHeadings, "
            "maxTokens, tokenizer, overlapBoundary, spans)",
            "config",
        ),
    ),
    (
        "new api.SemanticChunker({overlapBoundary: 'words'}).chunk('x')",
        lambda: SemanticChunker(overlap_boundary="words"),
    ),
    (
        "new api.SemanticChunker({overlapBoundary: 1}).chunk('x')",
        lambda: SemanticChunker(overlap_boundary=1),
    ),
    (
        "new api.SemanticChunker({spans: 1}).chunk('x')",
        ("TypeError", "spans must be True or False, got int 1", "spans"),
    ),
    (
        "new api.ChunkingEngine().chunk('x', {strategy: 'fixed', spans: 'yes'})",
        ("TypeError", "spans must be True or False, got str 'yes'", "spans"),
    ),
    (
        "new api.ChunkingEngine().chunk('x', {strategy: 'fixed', chunkSize: 0})",
        lambda: ChunkingEngine().chunk("x", strategy="fixed", chunk_size=0),
    ),
    (
        "new api.ChunkingEngine().chunk('x', {strategy: 'nope'})",
        lambda: ChunkingEngine().chunk("x", strategy="nope"),
    ),
    (
        "new api.ChunkingEngine().chunk('x', {strategy: 'semantic', embedFn: 'not a function'})",
        lambda: ChunkingEngine().chunk("x", strategy="semantic", embed_fn="not a function"),
    ),
    (
        "api.chunkTurns([{seq: 1}], {maxChars: 10})",
        lambda: chunk_turns([{"seq": 1}], max_chars=10),
    ),
    ("api.chunkTurns('not turns')", lambda: chunk_turns("not turns")),
    ("api.chunkTurns([], {maxChars: 0})", lambda: chunk_turns([], max_chars=0)),
    ("api.lexicalTokens(null)", lambda: lexical_tokens(None)),
    ("api.snippetAround('text', 'word')", lambda: snippet_around("text", "word")),
    (
        "api.snippetAround('text', ['w'], {before: -1})",
        lambda: snippet_around("text", ["w"], before=-1),
    ),
    ("api.locateChunks('text', [1])", lambda: locate_chunks("text", [1])),
    (
        "api.lexicalTokens(10n)",
        # JavaScript's own error, before the call is sent: it names no argument.
        ("TypeError", "Do not know how to serialize a BigInt", None),
    ),
]


@pytest.mark.parametrize("expression, python", ERROR_CASES, ids=[e for e, _ in ERROR_CASES])
def test_bad_input_rejects_with_pythons_message(chunker_page, expression, python):
    if callable(python):
        with pytest.raises((ValueError, TypeError)) as raised:
            python()
        name = "RangeError" if isinstance(raised.value, ValueError) else "TypeError"
        expected = [name, str(raised.value)]
        field = raised.value.field  # every error Python's checks raise names its argument
    else:
        *expected, field = python
    assert call(chunker_page, expression) == {"error": expected}
    assert call(chunker_page, f"{expression}.catch((e) => e.field ?? null)") == field


def test_a_bad_call_then_a_good_one(chunker_page):
    assert call(chunker_page, "api.lexicalTokens(7)")["error"][0] == "TypeError"
    assert call(chunker_page, "api.lexicalTokens('still alive')") == ["still", "alive"]


def test_fifty_calls_in_flight_each_get_their_own_answer(chunker_page):
    got = chunker_page.evaluate(
        """async () => {
          const calls = Array.from({ length: 50 }, (_, i) => {
            if (i % 5 === 4) return new api.SemanticChunker({ targetSize: -i }).chunk('x');
            if (i % 5 === 3) return api.snippetAround(`lead w${i} tail`, [`w${i}`]);
            if (i % 5 === 2) return new api.ChunkingEngine().chunk(`Word${i} `.repeat(i + 1),
              { strategy: 'semantic', chunkSize: 30, chunkOverlap: 0,
                embedFn: async (s) => s.map(() => [1, i]) });
            return api.lexicalTokens(`word${i} number ${i}`);
          });
          const settled = await Promise.allSettled(calls);
          return settled.map((r) => (r.status === 'fulfilled' ? r.value : r.reason.message));
        }"""
    )
    for i, answer in enumerate(got):
        if i % 5 == 4:
            assert answer == f"invalid target_size {-i} (must be >= 1)"
        elif i % 5 == 3:
            assert answer == {"at": 5, "text": f"lead w{i} tail"}
        elif i % 5 == 2:
            content = f"Word{i} " * (i + 1)
            expected = ChunkingEngine().chunk(
                content,
                strategy="semantic",
                chunk_size=30,
                chunk_overlap=0,
                embed_fn=lambda sentences: [[1, i]] * len(sentences),
            )
            assert answer == [c.to_dict() for c in expected]
        else:
            assert answer == [f"word{i}", "number", str(i)]


def test_calls_on_the_same_text_again_in_flight_with_others_each_get_their_own_answer(
    chunker_page,
):
    """A call on the text of the call before sends no text (chunker.js): the worker must
    run each on its own text, whatever else is in flight."""
    got = chunker_page.evaluate(
        """async ([handbook, astral]) => {
          const small = new api.SemanticChunker({ targetSize: 60, overlap: 10 });
          const calls = [
            small.chunk(handbook),
            small.chunk(handbook),
            api.lexicalTokens('other words'),
            small.chunk(handbook),
            small.chunk(astral),
            api.snippetAround(astral, ['delta']),
            new api.SemanticChunker().chunk(astral),
            small.chunk(handbook),
            small.chunk(handbook.replaceAll('\\n', ' ')), // as long, but not the same
            small.chunk(`${handbook}`.slice(0)),
          ];
          return Promise.all(calls);
        }""",
        [HANDBOOK, ASTRAL_TEXT],
    )
    small = SemanticChunker(target_size=60, overlap=10)
    on_handbook = [c.to_dict() for c in small.chunk(HANDBOOK)]
    at = utf16_offset(ASTRAL_TEXT, snippet_around(ASTRAL_TEXT, ["delta"]).at)
    assert got[0] == got[1] == got[3] == got[7] == got[9] == on_handbook
    assert got[8] == [c.to_dict() for c in small.chunk(HANDBOOK.replace("\n", " "))]
    assert got[2] == ["other", "words"]
    assert [c["text"] for c in got[4]] == [c.text for c in small.chunk(ASTRAL_TEXT)]
    assert got[5] == {"at": at, "text": snippet_around(ASTRAL_TEXT, ["delta"]).text}
    assert [c["text"] for c in got[6]] == [c.text for c in SemanticChunker().chunk(ASTRAL_TEXT)]


def test_offsets_slice_the_same_text_in_javascript_as_in_python(chunker_page):
    """SemanticChunker offsets, snippet `at`, turn spans and located chunks, emoji included."""
    chunker_page.evaluate("(text) => { window.astral = text; }", ASTRAL_TEXT)
    config = {"targetSize": 120, "maxSize": 200, "minSize": 20, "overlap": 15}
    got = chunker_page.evaluate(
        """async (config) => {
          const chunks = await new api.SemanticChunker(config).chunk(astral);
          return chunks.map((c) =>
            [c.startOffset, c.endOffset, astral.slice(c.startOffset, c.endOffset)]);
        }""",
        config,
    )
    chunker = SemanticChunker(target_size=120, max_size=200, min_size=20, overlap=15)
    chunks = chunker.chunk(ASTRAL_TEXT)
    assert len(got) == len(chunks) > 5
    for (start, end, sliced), chunk in zip(got, chunks, strict=True):
        assert start == utf16_offset(ASTRAL_TEXT, chunk.start_offset)
        assert end == utf16_offset(ASTRAL_TEXT, chunk.end_offset)
        assert sliced == ASTRAL_TEXT[chunk.start_offset : chunk.end_offset]

    for word in ("gothic", "zeta", "family", "end"):
        at, sliced = chunker_page.evaluate(
            """async (word) => {
              const { at } = await api.snippetAround(astral, [word]);
              return [at, astral.slice(at, at + word.length)];
            }""",
            word,
        )
        python_at = snippet_around(ASTRAL_TEXT, [word]).at
        assert at == utf16_offset(ASTRAL_TEXT, python_at)
        assert sliced.lower() == ASTRAL_TEXT[python_at : python_at + len(word)].lower() == word

    turns = [{"seq": n, "text": f"turn {n} 🎤{'😀' * n} said 𝄞"} for n in range(1, 8)]
    got = chunker_page.evaluate(
        """async (turns) => (await api.chunkTurns(turns, { maxChars: 60, overlapTurns: 1 }))
             .map((p) => p.turns.map((t) => p.text.slice(t.start, t.end)))""",
        turns,
    )
    passages = chunk_turns(turns, max_chars=60, overlap_turns=1)
    assert got == [[p.text[s.start : s.end] for s in p.turns] for p in passages]
    assert sum(len(p) for p in got) > len(turns)

    contents = [c.text[-40:] for c in chunks[1:6]]
    got = chunker_page.evaluate(
        """async (contents) => (await api.locateChunks(astral, contents))
             .map((s) => astral.slice(s.start, s.end))""",
        contents,
    )
    assert got == [ASTRAL_TEXT[s:e] for s, e in locate_chunks(ASTRAL_TEXT, contents)]


def test_every_request_is_same_origin_and_nothing_fails_or_logs_an_error(new_page, site_url):
    page, recorder = new_page()
    page.goto(f"{site_url}/_test/blank.html")
    page.evaluate(LOAD_FACADE, 120_000)
    assert call(page, "new api.SemanticChunker().chunk('# Hi\\n\\nThere.')")[0]["index"] == 0
    assert call(page, "api.lexicalTokens(5)")["error"][0] == "TypeError"
    worker_heard(page)
    assert recorder.problems() == []
    paths = {url[len(site_url) :] for url in recorder.requests}
    assert {"/chunker.js", "/worker.js", "/pyodide/pyodide.asm.wasm"} <= paths
    # The facade and its worker are one file each, their modules bundled in (build.py).
    assert not any(p.startswith(("/chunker-", "/worker-", "/bundle.js")) for p in paths)
    # The snapshot the site ships holds chunker's files: neither the wheel nor micropip is
    # fetched.
    assert f"/{SNAPSHOT}" in paths
    assert not any(p.startswith("/wheels/") or "micropip" in p for p in paths)


def test_close_stops_the_worker_and_later_calls_reject(new_page, site_url):
    page, _ = new_page()
    page.goto(f"{site_url}/_test/blank.html")
    page.evaluate(LOAD_FACADE, 120_000)
    page.evaluate("api.close()")
    assert call(page, "api.lexicalTokens('x')") == {"error": ["Error", "chunker: closed"]}


def test_a_worker_that_cannot_load_rejects_at_once_naming_it_and_why(new_page, site_url):
    page, recorder = new_page()
    page.goto(f"{site_url}/_test/blank.html")
    got = call(page, "import('/chunker.js').then((m) => m.loadChunker({baseUrl: '/nowhere/'}))")
    assert got["error"] == [
        "Error",
        f"chunker: the worker {site_url}/nowhere/worker.js failed: HTTP 404 (text/html)",
    ]
    # Playwright delivers the response event while the test waits on the page, which may be
    # after the rejection came back: give it a few turns.
    for _ in range(100):
        if any("/nowhere/worker.js: HTTP 404" in failure for failure in recorder.failed):
            break
        page.wait_for_timeout(50)
    assert any("/nowhere/worker.js: HTTP 404" in failure for failure in recorder.failed)


# What a misconfigured server answers (a bundler's dev server, say, that rewrites the worker's
# imports and then cannot serve Pyodide's module), and what the rejection then says of it.
WORKER_LOAD_FAILURES = {
    "a script sent as text": ("/worker.js", 200, "text/plain", "HTTP 200 (text/plain)"),
    "an import that fails": (
        "/pyodide/pyodide.mjs",
        500,
        "text/html; charset=utf-8",
        "{origin}/pyodide/pyodide.mjs answered HTTP 500 (text/html)",
    ),
    "an import sent without a type": (
        "/pyodide/pyodide.mjs",
        200,
        None,
        "{origin}/pyodide/pyodide.mjs answered HTTP 200 (no content type)",
    ),
}


@pytest.mark.parametrize(
    "path, status, content_type, reason", WORKER_LOAD_FAILURES.values(), ids=WORKER_LOAD_FAILURES
)
def test_a_worker_that_will_not_run_says_what_its_server_answered(
    new_page, site_url, path, status, content_type, reason
):
    """A worker that fails to load gets an error event without a reason (the browser tells
    only the console): the rejection names the script that would not run and what the
    server answered for it."""
    page, _ = new_page()
    headers = {} if content_type is None else {"content-type": content_type}
    page.route(
        f"{site_url}{path}",
        lambda route: route.fulfill(status=status, headers=headers, body="export default 1;"),
    )
    page.goto(f"{site_url}/_test/blank.html")
    got = call(page, "import('/chunker.js').then((m) => m.loadChunker({timeoutMs: 60000}))")
    worker = f"{site_url}/worker.js"
    assert got["error"] == [
        "Error",
        f"chunker: the worker {worker} failed: {reason.format(origin=site_url)}",
    ]


@pytest.mark.parametrize("status, body", [(404, b"gone"), (200, b"not a zip")])
def test_a_wheel_that_cannot_be_had_fails_the_boot_naming_it(new_page, site_url, status, body):
    """The worker unpacks the wheel itself (where the site ships no snapshot, which holds
    its files): a missing or broken one must fail the boot with a message that names it,
    not leave loadChunker pending."""
    page, _ = new_page()
    page.route(f"**/{SNAPSHOT}*", lambda route: route.fulfill(status=404, body=b""))
    page.route("**/wheels/*.whl", lambda route: route.fulfill(status=status, body=body))
    page.goto(f"{site_url}/_test/blank.html")
    got = call(page, "import('/chunker.js').then((m) => m.loadChunker({timeoutMs: 60000}))")
    assert got["error"][0] == "Error"
    message = got["error"][1]
    assert message.startswith("chunker: Python failed to start: ")
    if status == 404:
        assert re.search(r"/wheels/chunkspan-[^ ]+\.whl answered HTTP 404$", message), message
    else:
        assert "zip" in message.lower(), message


def test_a_csp_without_wasm_unsafe_eval_fails_at_once_naming_the_directive(new_page):
    """Pyodide's own load never settles when it may not compile WebAssembly: the worker
    tries first, so the page learns why at once, not after its whole timeout."""
    weak = "default-src 'none'; script-src 'self'; connect-src 'self'; worker-src 'self'"
    with serving(csp=weak) as origin:
        page, recorder = new_page()
        recorder.origin = origin
        page.goto(f"{origin}/_test/blank.html")
        got = call(page, "import('/chunker.js').then((m) => m.loadChunker({timeoutMs: 60000}))")
    assert got["error"][0] == "Error"
    message = got["error"][1]
    assert message.startswith(
        "chunker: Python failed to start: this page may not compile WebAssembly: its "
        "Content-Security-Policy needs 'wasm-unsafe-eval' in script-src ("
    ), message  # the worker's answer, not the timeout's "not ready after 60000 ms"


def test_a_browser_without_webassembly_fails_at_once_saying_so(new_page, site_url, built_site):
    """A hardened browser (Safari's Lockdown Mode) has no WebAssembly global: the page is
    told that, not blamed for its policy. Chromium keeps the global whatever its flags, so
    the worker's script is served with a line that removes it, before the worker's own."""
    page, _ = new_page()
    worker = (built_site / "worker.js").read_text(encoding="utf-8")

    def without_webassembly(route):
        body = "delete globalThis.WebAssembly;\n" + worker
        route.fulfill(status=200, content_type="text/javascript", body=body)

    page.route(f"{site_url}/worker.js", without_webassembly)
    page.goto(f"{site_url}/_test/blank.html")
    got = call(page, "import('/chunker.js').then((m) => m.loadChunker({timeoutMs: 60000}))")
    assert got["error"] == [
        "Error",
        "chunker: Python failed to start: this browser runs no WebAssembly",
    ]


def test_the_page_carries_the_policy_for_hosts_that_send_no_header(site_url):
    # A <meta> policy cannot hold frame-ancestors; all else must be the header's.
    html = urllib.request.urlopen(f"{site_url}/").read().decode()
    meta = re.search(r'http-equiv="Content-Security-Policy"\s+content="([^"]+)"', html)
    assert meta is not None and html.index(meta.group(0)) < html.index("<script")
    header = [d for d in CSP.split("; ") if not d.startswith("frame-ancestors")]
    assert meta.group(1).split("; ") == header


def _headers(url: str) -> tuple[str, dict[str, str]]:
    with urllib.request.urlopen(url) as response:
        return response.status, {k.lower(): v for k, v in response.headers.items()}


def test_csp_header_is_strict(site_url):
    status, headers = _headers(f"{site_url}/chunker.js")
    assert status == 200
    directives = {}
    for directive in headers["content-security-policy"].split(";"):
        name, *values = directive.split()
        directives[name] = values
    assert directives["default-src"] == ["'none'"]
    assert directives["script-src"] == ["'self'", "'wasm-unsafe-eval'"]
    for name in ("connect-src", "worker-src", "style-src", "img-src"):
        assert directives[name] == ["'self'"]
    assert "unsafe-inline" not in headers["content-security-policy"]
    assert "'unsafe-eval'" not in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    "path, mime",
    [
        ("/chunker.js", "text/javascript"),
        ("/worker.js", "text/javascript"),
        ("/pyodide/pyodide.mjs", "text/javascript"),
        ("/pyodide/pyodide.asm.mjs", "text/javascript"),
        ("/pyodide/pyodide.asm.wasm", "application/wasm"),
        ("/pyodide/python_stdlib.zip", "application/zip"),
        ("/bundle.js", "text/javascript"),
        ("/favicon.ico", "image/x-icon"),
    ],
)
def test_mime_types(site_url, path, mime):
    status, headers = _headers(site_url + path)
    assert status == 200
    assert headers["content-type"].split(";")[0] == mime


def test_no_directory_listing_and_no_escape(site_url):
    # "%00" and a lone surrogate: no such file name (each once crashed the handler);
    # "%2562...": unquoted once only.
    for path in (
        "/pyodide/",
        "/../build.py",
        "/%2e%2e/build.py",
        "/index.html%00",
        "/%ED%A0%80",
        "/%2562undle.js",
    ):
        with pytest.raises(urllib.error.HTTPError) as raised:
            _headers(site_url + path)
        assert raised.value.code == 404


def test_a_lone_surrogate_survives_the_round_trip(chunker_page):
    """A lone surrogate crosses as the one UTF-16 unit it is, and its offsets stay exact."""
    text = "Hi \ud83d there.\n\n# Next \udc00\n\nMore 😀 text."
    got = chunker_page.evaluate(
        """async () => {
          const text = 'Hi \\ud83d there.\\n\\n# Next \\udc00\\n\\nMore 😀 text.';
          const chunks = await new api.SemanticChunker({ minSize: 0, overlap: 0 }).chunk(text);
          const units = (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
          return chunks.map((c) => [units(c.text), c.startOffset, c.endOffset]);
        }"""
    )
    chunks = SemanticChunker(min_size=0, overlap=0).chunk(text)
    assert got == [
        [code_units(c.text), utf16_offset(text, c.start_offset), utf16_offset(text, c.end_offset)]
        for c in chunks
    ]
    assert len(got) == 2


def test_surrogates_side_by_side_cross_exactly(chunker_page):
    """A lone high surrogate just before a pair, a low one just after, one at the very end:
    each chunk's units and offsets as in Python, on a new text and on the same text again."""
    text = "é \ud83d\ud83d\ude00 x.\n\n\ude00\ud83d y.\n\n# ok 😀\n\nend \ud83d"
    got = chunker_page.evaluate(
        """async () => {
          const text =
            'é \\ud83d\\ud83d\\ude00 x.\\n\\n\\ude00\\ud83d y.\\n\\n# ok 😀\\n\\nend \\ud83d';
          const chunker = new api.SemanticChunker({ targetSize: 4, minSize: 0, overlap: 2 });
          const units = (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
          const answer = (chunks) => chunks.map((c) => [units(c.text), c.startOffset, c.endOffset]);
          return [answer(await chunker.chunk(text)), answer(await chunker.chunk(text))];
        }"""
    )
    # As JavaScript holds it: the second high surrogate and the low one are one character.
    text = as_javascript(text)
    chunks = SemanticChunker(target_size=4, min_size=0, overlap=2).chunk(text)
    expected = [
        [code_units(c.text), utf16_offset(text, c.start_offset), utf16_offset(text, c.end_offset)]
        for c in chunks
    ]
    assert got == [expected, expected]
    assert len(expected) > 3


def test_the_session_page_stayed_clean(chunker_recorder, site_url):
    """Last in this module: all the calls above, the bad ones included, left no error,
    warning, failed or foreign request on the page that made them."""
    assert chunker_recorder.problems() == []
    assert len(chunker_recorder.requests) > 5


def test_a_text_that_never_reached_python_is_not_taken_for_none_after(new_page, site_url):
    # Straight to the worker: a text whose copy into Python fails (an object with a
    # negative length stands for one too large to copy), then a call on "the same text".
    page, _recorder = new_page()
    page.goto(f"{site_url}/_test/blank.html")
    replies = page.evaluate(
        """async () => {
          const worker = new Worker('/worker.js', { type: 'module' });
          const waiting = new Map();
          await new Promise((resolve, reject) => {
            worker.onmessage = ({ data }) => {
              if (data.type === 'ready') resolve();
              else if (data.type === 'failed') reject(new Error(data.message));
              else if (data.type === 'reply') waiting.get(data.id)(data);
            };
          });
          const send = (message) => new Promise((resolve) => {
            waiting.set(message.id, resolve);
            worker.postMessage({ type: 'call', operation: 'lexicalTokens', request: '{}',
                                 textKey: 'text', ...message });
          });
          const first = await send({ id: 1, text: { length: -1 } });
          const second = await send({ id: 2, sameText: true });
          const third = await send({ id: 3, text: 'Hello again' });
          worker.terminate();
          return [first.error, second.error,
                  new TextDecoder().decode(third.reply.subarray(8))];
        }"""
    )
    assert replies[0] is not None
    assert replies[1] == {
        "name": "Error",
        "message": "chunker: the text of the call before did not reach Python",
    }
    assert replies[2] == '{"result":["hello","again"]}'
