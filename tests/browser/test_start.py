"""How the worker starts, in real Chromium: the progress it reports as it goes, the memory
snapshot a first visit keeps in Cache Storage (web/worker-snapshot.js), a later visit
restoring it, and a snapshot that is damaged, refused by Pyodide or stale falling back to the
normal boot. Each test opens its own browser context: its Cache Storage starts empty.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from support.facade import BOOT_TIMEOUT_MS, LOAD_FACADE, call
from support.playground import open_playground

from chunker import ChunkingEngine, SemanticChunker
from chunker.tokens import count_tokens

HANDBOOK = (
    "# Refunds\n\nRefunds go back to the card that paid. They take five to ten business days."
    "\n\n# Shipping\n\nOrders ship within two days of payment.\n\n```python\nprint('hi')\n```\n"
)
# The stages of a start, in their order (worker-progress.js); a visit sees a subsequence.
FIRST_VISIT = ["download", "compile", "boot", "unpack", "import", "ready"]
LATER_VISIT = ["download", "compile", "restore", "unpack", "ready"]

# In the page: whether the cache holds exactly one snapshot and its bytes are whole (the
# check worker-snapshot.js makes before Python runs on them); answers its URL or null.
KEPT = """async () => {
  const cache = await caches.open('chunker-snapshot');
  const requests = await cache.keys();
  if (requests.length !== 1) return null;
  const bytes = new Uint8Array(await (await cache.match(requests[0])).arrayBuffer());
  const length = new DataView(bytes.buffer).getUint32(0, true);
  let header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length)));
  } catch {
    return null;
  }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes.subarray(4 + length)));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
  return hex === header.sha256 ? requests[0].url : null;
}"""

# In the page: spoil the kept snapshot as `how` says, in place.
SPOIL = """async (how) => {
  const cache = await caches.open('chunker-snapshot');
  const [request] = await cache.keys();
  let bytes = new Uint8Array(await (await cache.match(request)).arrayBuffer());
  const length = new DataView(bytes.buffer).getUint32(0, true);
  const memory = 4 + length;
  if (how === 'a byte of its memory changed') {
    bytes[memory + ((bytes.length - memory) >> 1)] ^= 0x5a;
  } else if (how === 'cut short') {
    bytes = bytes.slice(0, bytes.length - 4096);
  } else if (how === 'a header that is no JSON') {
    bytes.fill(0x7b, 4, 4 + length);
  } else if (how === 'whole, but a memory Pyodide refuses') {
    // Pyodide checks its snapshot's magic number; the digest is made anew, so only Pyodide
    // can find this one out.
    bytes[memory] ^= 0xff;
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, memory)));
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes.subarray(memory)));
    header.sha256 = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
    bytes.set(new TextEncoder().encode(JSON.stringify(header).padEnd(length, ' ')), 4);
  } else if (how === 'stale') {
    // Kept under another key: what a visit finds after the site's runtime changed.
    await cache.delete(request);
    await cache.put(request.url.replace(/[0-9a-f]{32}$/, '0'.repeat(32)), new Response(bytes));
    return;
  }
  await cache.put(request, new Response(bytes));
}"""


def visit(page: Any, site_url: str) -> list[dict[str, Any]]:
    """Load the facade in a fresh navigation of `page`; answer the progress it reported."""
    page.goto(f"{site_url}/_test/blank.html")
    stages: list[dict[str, Any]] = page.evaluate(LOAD_FACADE, BOOT_TIMEOUT_MS)
    return stages


def kept(page: Any) -> str:
    """Wait until the worker has kept a whole snapshot (after ready, in the background);
    answer its URL in the cache."""
    for _ in range(300):
        url = page.evaluate(KEPT)
        if url:
            return str(url)
        page.wait_for_timeout(100)
    raise AssertionError("no whole snapshot was kept within 30 s")


def stage_names(stages: list[dict[str, Any]]) -> list[str]:
    """The stages in the order first seen (download repeats as bytes arrive)."""
    names: list[str] = []
    for stage in stages:
        if stage["stage"] not in names:
            names.append(stage["stage"])
    return names


def is_subsequence(names: list[str], order: list[str]) -> bool:
    rest = iter(order)
    return all(name in rest for name in names)


def assert_chunks_as_in_python(page: Any) -> None:
    """Calls that import what `import chunker.bridge` does not (the engine's strategies, the
    tokenizer, unpacked after ready) answer as CPython does."""
    page.evaluate("(text) => { window.handbook = text; }", HANDBOOK)
    got = call(page, "new api.SemanticChunker({targetSize: 60, overlap: 10}).chunk(handbook)")
    assert got == [c.to_dict() for c in SemanticChunker(target_size=60, overlap=10).chunk(HANDBOOK)]
    got = call(
        page,
        "new api.ChunkingEngine().chunk(handbook, {strategy: 'fixed', chunkSize: 50, "
        "chunkOverlap: 5})",
    )
    chunks = ChunkingEngine().chunk(HANDBOOK, strategy="fixed", chunk_size=50, chunk_overlap=5)
    assert got == [c.to_dict() for c in chunks]
    assert call(page, "api.countTokens(handbook, 'cl100k_base')") == count_tokens(
        HANDBOOK, "cl100k_base"
    )


def test_a_first_visit_reports_the_bytes_then_each_stage_in_order(new_page, site_url):
    page, recorder = new_page()
    stages = visit(page, site_url)
    names = stage_names(stages)
    assert names[0] == "download" and names[-1] == "ready"
    assert {"boot", "unpack", "import"} <= set(names)
    assert is_subsequence(names, FIRST_VISIT), names
    fractions = [stage["fraction"] for stage in stages]
    assert fractions == sorted(fractions) and fractions[-1] == 1 and fractions[0] >= 0
    # The download stage follows the bytes: several reports, each with more of them, up
    # to the whole (the sizes the build wrote).
    downloads = [stage for stage in stages if stage["stage"] == "download"]
    assert len(downloads) >= 3
    megabytes = [
        tuple(
            map(float, re.fullmatch(r"Downloading Python: (.+) of (.+) MB", s["message"]).groups())
        )
        for s in downloads
    ]
    received = [got for got, _ in megabytes]
    assert received == sorted(received) and received[0] < received[-1]
    assert megabytes[-1][0] == megabytes[-1][1] > 10
    assert recorder.foreign() == [] and recorder.failed == []


def test_a_later_visit_restores_the_kept_snapshot_and_chunks_as_python(new_page, site_url):
    page, recorder = new_page()
    visit(page, site_url)
    kept(page)
    stages = visit(page, site_url)
    names = stage_names(stages)
    assert "restore" in names and not {"boot", "import"} & set(names)
    assert is_subsequence(names, LATER_VISIT), names
    fractions = [stage["fraction"] for stage in stages]
    assert fractions == sorted(fractions) and fractions[-1] == 1
    assert_chunks_as_in_python(page)
    assert recorder.foreign() == [] and recorder.failed == [] and recorder.errors == []


@pytest.mark.parametrize(
    "how",
    [
        "a byte of its memory changed",
        "cut short",
        "a header that is no JSON",
        "whole, but a memory Pyodide refuses",
    ],
)
def test_a_damaged_snapshot_falls_back_to_a_boot_and_is_kept_anew(new_page, site_url, how):
    page, recorder = new_page()
    visit(page, site_url)
    kept(page)
    page.evaluate(SPOIL, how)
    assert page.evaluate(KEPT) is None or how == "whole, but a memory Pyodide refuses"
    stages = visit(page, site_url)
    names = stage_names(stages)
    assert "boot" in names and names[-1] == "ready"
    # Pyodide finds its own fault only once the restore has begun.
    started = how == "whole, but a memory Pyodide refuses"
    assert is_subsequence(names, LATER_VISIT[:3] + FIRST_VISIT[2:] if started else FIRST_VISIT)
    fractions = [stage["fraction"] for stage in stages]
    assert fractions == sorted(fractions)
    assert_chunks_as_in_python(page)
    # The damaged one was replaced: the next visit restores again.
    kept(page)
    assert "restore" in stage_names(visit(page, site_url))
    assert recorder.foreign() == [] and recorder.failed == []


def test_a_stale_snapshot_is_not_restored_and_is_replaced(new_page, site_url):
    page, _ = new_page()
    visit(page, site_url)
    current = kept(page)
    page.evaluate(SPOIL, "stale")
    assert page.evaluate(KEPT) != current
    stages = visit(page, site_url)
    assert "boot" in stage_names(stages) and "restore" not in stage_names(stages)
    assert_chunks_as_in_python(page)
    # Only the current key's snapshot is left: a stale one is deleted, not hoarded.
    assert kept(page) == current


# Before the playground's scripts: each text the loading line shows, with the bar's value then.
WATCH_LOADING = """
window.loadingSeen = [];
document.addEventListener('DOMContentLoaded', () => {
  const stage = document.getElementById('load-stage');
  const bar = document.getElementById('load-progress');
  new MutationObserver(() => loadingSeen.push([stage.textContent, bar.value]))
    .observe(stage, { childList: true, characterData: true, subtree: true });
});
"""


def test_the_playgrounds_loading_bar_follows_the_bytes_and_the_stages(browser, site_url):
    page, recorder, _ = open_playground(browser, site_url, init_script=WATCH_LOADING)
    seen = page.evaluate("loadingSeen")
    page.context.close()
    assert recorder.foreign() == []
    texts = [text for text, _ in seen]
    values = [value for _, value in seen]
    downloads = [t for t in texts if re.fullmatch(r"Downloading Python: .+ of .+ MB", t)]
    assert len(downloads) >= 3
    assert {"Starting Python (Pyodide 314.0.7)…", "Importing chunker…"} <= set(texts)
    assert values == sorted(values) and seen[-1] == ["Ready", 1]
    assert values[0] < 0.5
