"""How the worker starts, in real Chromium: the progress it reports as it goes; a first
visit restoring the memory snapshot the site ships (web/worker-snapshot.js, made by the
build: tools/snapshot.py); where none is shipped, the one a first visit keeps in Cache
Storage, restored by a later visit; and a snapshot of either kind that is missing, damaged,
stale or refused by Pyodide falling back to the normal boot. Each test opens its own browser
context: its Cache Storage starts empty.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from support.facade import BOOT_TIMEOUT_MS, LOAD_FACADE, call
from support.playground import open_playground
from support.serving import MOUNTS

import chunker
from chunker import ChunkingEngine, SemanticChunker
from chunker.tokens import count_tokens
from tools.paths import SITE
from tools.server import served
from tools.snapshot import SNAPSHOT

WHEEL = f"chunkspan-{chunker.__version__}-py3-none-any.whl"
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


def without_shipped(page: Any) -> None:
    """Make `page`'s site one that ships no snapshot: its worker then boots, and keeps one."""
    page.route(f"**/{SNAPSHOT}*", lambda route: route.fulfill(status=404, body=b""))


def shipped_missing(recorder: Any) -> bool:
    """Whether the recorder's failures are the snapshot's alone, missing (without_shipped):
    its 404, and its body, dropped unread."""
    missing = rf".*/{re.escape(SNAPSHOT)}: (HTTP 404|net::ERR_ABORTED)"
    return all(re.fullmatch(missing, failure) for failure in recorder.failed)


def visit(page: Any, site_url: str) -> list[dict[str, Any]]:
    """Load the facade in a fresh navigation of `page`; answer the progress it reported."""
    page.goto(f"{site_url}/_test/blank.html")
    stages: list[dict[str, Any]] = page.evaluate(LOAD_FACADE, BOOT_TIMEOUT_MS)
    return stages


def kept(page: Any, url: str | None = None) -> str:
    """Wait until the worker has kept a whole snapshot (after ready, in the background),
    alone (and under `url`, when given: one kept before may be there until then); answer
    its URL in the cache."""
    for _ in range(300):
        found = page.evaluate(KEPT)
        if found and url in (None, found):
            return str(found)
        page.wait_for_timeout(100)
    raise AssertionError(f"no whole snapshot was kept within 30 s (under {url})")


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


def download_reports(stages: list[dict[str, Any]]) -> list[tuple[float, float]]:
    """(MB received, MB in all) of each download report."""
    pattern = r"Downloading Python: (.+) of (.+) MB"
    downloads = [s["message"] for s in stages if s["stage"] == "download"]
    return [(float(a), float(b)) for a, b in (re.fullmatch(pattern, m).groups() for m in downloads)]


def test_a_first_visit_restores_the_shipped_snapshot_and_chunks_as_python(new_page, site_url):
    page, recorder = new_page()
    stages = visit(page, site_url)
    names = stage_names(stages)
    assert names[0] == "download" and "restore" in names and names[-1] == "ready"
    assert not {"boot", "import"} & set(names)
    assert is_subsequence(names, LATER_VISIT), names
    fractions = [stage["fraction"] for stage in stages]
    assert fractions == sorted(fractions) and fractions[-1] == 1 and fractions[0] >= 0
    # The download stage follows the bytes, the snapshot's among them, up to the whole.
    megabytes = download_reports(stages)
    received = [got for got, _ in megabytes]
    assert len(megabytes) >= 3 and received == sorted(received) and received[0] < received[-1]
    runtime = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", SNAPSHOT)
    whole = sum((SITE / name).stat().st_size for name in runtime) / 1e6
    assert megabytes[-1][0] == megabytes[-1][1] == round(whole, 1)
    # The snapshot holds chunker's files: the wheel is not fetched.
    assert f"{site_url}/{SNAPSHOT}" in recorder.requests
    assert not [url for url in recorder.requests if "/wheels/chunkspan-" in url]
    assert_chunks_as_in_python(page)
    assert recorder.foreign() == [] and recorder.failed == [] and recorder.errors == []


def test_the_shipped_snapshot_is_kept_and_a_later_visit_restores_it_fetching_none(
    new_page, site_url
):
    page, recorder = new_page()
    visit(page, site_url)
    kept(page)
    requested = len(recorder.requests)
    stages = visit(page, site_url)
    assert is_subsequence(stage_names(stages), LATER_VISIT) and "restore" in stage_names(stages)
    assert f"{site_url}/{SNAPSHOT}" not in recorder.requests[requested:]
    assert_chunks_as_in_python(page)
    assert recorder.failed == [] and recorder.errors == []


def test_a_first_visit_without_a_shipped_snapshot_boots_reporting_each_stage(new_page, site_url):
    page, recorder = new_page()
    without_shipped(page)
    stages = visit(page, site_url)
    names = stage_names(stages)
    assert names[0] == "download" and names[-1] == "ready"
    assert {"boot", "unpack", "import"} <= set(names)
    assert is_subsequence(names, FIRST_VISIT), names
    fractions = [stage["fraction"] for stage in stages]
    assert fractions == sorted(fractions) and fractions[-1] == 1 and fractions[0] >= 0
    # The download stage follows the bytes, up to the whole (the sizes the build wrote); its
    # count starts over with the boot's downloads once the snapshot is found missing.
    megabytes = download_reports(stages)
    assert len(megabytes) >= 3
    runtime = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", f"wheels/{WHEEL}")
    whole = sum((SITE / name).stat().st_size for name in runtime) / 1e6
    assert megabytes[-1][0] == megabytes[-1][1] == round(whole, 1)
    assert recorder.foreign() == [] and shipped_missing(recorder)


def test_a_later_visit_restores_the_kept_snapshot_and_chunks_as_python(new_page, site_url):
    page, recorder = new_page()
    without_shipped(page)
    visit(page, site_url)
    kept(page)
    stages = visit(page, site_url)
    names = stage_names(stages)
    assert "restore" in names and not {"boot", "import"} & set(names)
    assert is_subsequence(names, LATER_VISIT), names
    fractions = [stage["fraction"] for stage in stages]
    assert fractions == sorted(fractions) and fractions[-1] == 1
    assert_chunks_as_in_python(page)
    assert recorder.foreign() == [] and shipped_missing(recorder) and recorder.errors == []


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
    without_shipped(page)
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
    assert recorder.foreign() == [] and shipped_missing(recorder)


def test_a_stale_snapshot_is_not_restored_and_is_replaced(new_page, site_url):
    page, _ = new_page()
    without_shipped(page)
    visit(page, site_url)
    current = kept(page)
    page.evaluate(SPOIL, "stale")
    assert page.evaluate(KEPT) != current
    stages = visit(page, site_url)
    assert "boot" in stage_names(stages) and "restore" not in stage_names(stages)
    assert_chunks_as_in_python(page)
    # Only the current key's snapshot is left: a stale one is deleted, not hoarded.
    kept(page, current)


def test_the_shipped_snapshot_replaces_one_kept_for_another_key(new_page, site_url):
    """A snapshot kept before the site changed (its runtime, its wheel) is never restored
    again: the shipped one restored, it takes its place."""
    page, recorder = new_page()
    without_shipped(page)
    visit(page, site_url)
    current = kept(page)
    page.evaluate(SPOIL, "stale")
    page.unroute(f"**/{SNAPSHOT}*")
    requested = len(recorder.requests)
    assert "restore" in stage_names(visit(page, site_url))
    assert f"{site_url}/{SNAPSHOT}" in recorder.requests[requested:]
    kept(page, current)


def test_a_page_that_cannot_check_a_digest_boots_and_fetches_no_snapshot(new_page, site_url):
    """A page served over http: from another host than localhost has neither digests nor
    Cache Storage: its worker is served here with a first line that takes them away."""
    page, recorder = new_page()
    worker = (SITE / "worker.js").read_text(encoding="utf-8")
    insecure = (
        "Object.defineProperty(Crypto.prototype, 'subtle', { get: () => undefined });\n"
        "delete WorkerGlobalScope.prototype.caches;\n"
    )
    page.route(
        f"{site_url}/worker.js",
        lambda route: route.fulfill(content_type="text/javascript", body=insecure + worker),
    )
    names = stage_names(visit(page, site_url))
    assert {"boot", "import"} <= set(names) and "restore" not in names
    assert f"{site_url}/{SNAPSHOT}" not in recorder.requests
    assert_chunks_as_in_python(page)
    assert recorder.failed == [] and recorder.errors == []


# In the page: tests/pages/trampoline-worker.js's message.
TRAMPOLINES = """() => new Promise((resolve, reject) => {
  const worker = new Worker('/_test/trampoline-worker.js', { type: 'module' });
  worker.onmessage = ({ data }) => { worker.terminate(); resolve(data); };
  worker.onerror = (event) => reject(new Error(event.message));
})"""


def test_a_restored_python_calls_c_through_the_trampoline_a_boot_made(new_page, site_url):
    """CPython calls some C functions through a trampoline its start-up makes, in WebAssembly
    where the browser can (Chromium can); a restore writes the snapshot's memory over the
    pointer to it, which the worker then sets to this runtime's trampoline again
    (restoreState): as a booted Python has it, not 0 (every such call through JavaScript).
    A snapshot naming a slot that this runtime's start-up left empty points at none."""
    page, recorder = new_page()
    page.goto(f"{site_url}/_test/blank.html")
    got = page.evaluate(TRAMPOLINES)
    assert got["booted"] > 0 and got["restored"] == got["booted"]
    assert got["emptySlot"] == 0
    text = "# A\n\nOne. Two.\n\n# B\n\nThree."
    want = [c.to_dict() for c in SemanticChunker(target_size=20).chunk(text)]
    assert json.loads(got["chunks"]) == want
    assert recorder.foreign() == [] and recorder.errors == []


# How a shipped snapshot is spoiled: its bytes from the good ones (None: no file at all).
def spoiled_snapshot(good: bytes, how: str) -> bytes | None:
    length = struct.unpack_from("<I", good)[0]
    memory = 4 + length
    header = json.loads(good[4:memory])
    spoiled = bytearray(good)
    if how == "missing (404)":
        return None
    if how == "an HTML page in its place":  # what a server answering every path with one sends
        return b"<!doctype html><title>Not here</title>"
    if how == "cut short":
        return good[: len(good) // 2]
    if how == "a byte of its memory changed":
        spoiled[(memory + len(good)) // 2] ^= 0x5A
    elif how == "made for another site (stale)":
        header["key"] = "0" * len(header["key"])
    elif how == "made by another Pyodide":
        # Pyodide's own header: magic, offset, JSON length, padding, then its build id;
        # the digest made anew, so only Pyodide can find this one out.
        spoiled[memory + 16] ^= 0xFF
        header["sha256"] = hashlib.sha256(spoiled[memory:]).hexdigest()
    text = json.dumps(header, separators=(",", ":")).encode().ljust(length)
    assert len(text) == length
    spoiled[4:memory] = text
    return bytes(spoiled)


@contextmanager
def site_shipping(folder: Path, snapshot: bytes | None) -> Iterator[str]:
    """The built site, served from `folder` (links to its files) with `snapshot` as its
    shipped snapshot, gzip-encoded to a browser (None: none); yields the origin."""
    for path in SITE.rglob("*"):
        relative = path.relative_to(SITE).as_posix()
        if path.is_file() and not relative.startswith(SNAPSHOT):
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            (folder / relative).symlink_to(path)
    if snapshot is not None:
        (folder / SNAPSHOT).write_bytes(snapshot)
        (folder / f"{SNAPSHOT}.gz").write_bytes(gzip.compress(snapshot, compresslevel=1))
    with served({**MOUNTS, "/": folder}) as origin:
        yield origin


SHIPPED_SPOILED = [
    "missing (404)",
    "an HTML page in its place",
    "cut short",
    "a byte of its memory changed",
    "made for another site (stale)",
    "made by another Pyodide",
]


@pytest.mark.parametrize("how", SHIPPED_SPOILED)
def test_a_shipped_snapshot_that_will_not_restore_falls_back_to_a_boot_then_a_kept_one(
    new_page, tmp_path, how
):
    good = (SITE / SNAPSHOT).read_bytes()
    with site_shipping(tmp_path, spoiled_snapshot(good, how)) as origin:
        page, recorder = new_page()
        recorder.origin = origin
        stages = visit(page, origin)
        names = stage_names(stages)
        assert f"{origin}/{SNAPSHOT}" in recorder.requests
        assert {"boot", "import"} <= set(names) and names[-1] == "ready"
        # Pyodide finds its own fault only once the restore has begun.
        started = how == "made by another Pyodide"
        order = LATER_VISIT[:3] + FIRST_VISIT[2:] if started else FIRST_VISIT
        assert is_subsequence(names, order), names
        fractions = [stage["fraction"] for stage in stages]
        assert fractions == sorted(fractions) and fractions[-1] == 1
        assert_chunks_as_in_python(page)
        # The boot kept a snapshot, which the next visit restores, fetching no shipped one.
        kept(page)
        requested = len(recorder.requests)
        assert "restore" in stage_names(visit(page, origin))
        assert f"{origin}/{SNAPSHOT}" not in recorder.requests[requested:]
        assert recorder.foreign() == [] and recorder.errors == []


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
    # A first visit: the snapshot the site ships is restored, chunker already imported.
    assert {"Restoring Python, chunker already imported…", "Installing chunker…"} <= set(texts)
    assert values == sorted(values) and seen[-1] == ["Ready", 1]
    assert values[0] < 0.5
