"""Loading the JavaScript facade (web/chunker.js) into a page as `window.api`."""

from __future__ import annotations

from typing import Any

# Booting Pyodide takes seconds alone; a loaded CI machine can take several times that.
BOOT_TIMEOUT_MS = 120_000

# How the recorder sees the snapshot's plain file dropped by a worker whose server sends files
# as they are (worker-snapshot.js's fetchShipped then fetches its gzip copy): when the file had
# not all come yet, a request aborted. Not a failure of the page.
SNAPSHOT_DROPPED = "/pyodide/chunker-snapshot.bin: net::ERR_ABORTED"

# Evaluated with BOOT_TIMEOUT_MS; answers the progress stages the facade reported.
LOAD_FACADE = """async (timeoutMs) => {
  const { loadChunker } = await import('/chunker.js');
  const stages = [];
  window.api = await loadChunker({ timeoutMs, onProgress: (p) => stages.push(p) });
  return stages;
}"""


def worker_heard(page: Any) -> None:
    """Wait for one more call through `window.api`'s worker and back: what the worker logged
    before it answered has reached the page's recorder by then (for a check of its problems)."""
    assert call(page, "api.lexicalTokens('heard')") == ["heard"]


def call(page: Any, expression: str) -> Any:
    """Await `expression` in the page; answer its value or `{"error": [name, message]}`."""
    return page.evaluate(
        f"""async () => {{
          try {{ return await {expression}; }}
          catch (e) {{ return {{ error: [e.constructor.name, e.message] }}; }}
        }}"""
    )
