"""What a browser page did and said: its requests, failures, errors and warnings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Recorder:
    """What a page did and said: requests, failed requests, console errors and warnings,
    uncaught errors.

    Attach before navigating. The CDP log (`Log.entryAdded`) carries the browser's own
    messages (network, security) and those of the page's workers, which is where Pyodide's
    complaints land; the console event gives the page's own `console.error` calls.
    """

    origin: str
    requests: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def attach(self, page: Any) -> Recorder:
        # On the context, so that the worker's own requests are seen too.
        page.context.on("request", lambda request: self.requests.append(request.url))
        page.context.on("requestfailed", self._failed)
        page.context.on("response", self._response)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"[pageerror] {error}"))
        cdp = page.context.new_cdp_session(page)
        cdp.on("Log.entryAdded", self._log_entry)
        cdp.send("Log.enable")
        return self

    def _failed(self, request: Any) -> None:
        self.failed.append(f"{request.url}: {request.failure}")

    def _response(self, response: Any) -> None:
        if response.status >= 400:
            self.failed.append(f"{response.url}: HTTP {response.status}")

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"[console] {message.text}")
        elif message.type == "warning":
            self.warnings.append(f"[console] {message.text}")

    def _log_entry(self, event: dict[str, Any]) -> None:
        entry = event["entry"]
        text = f"[{entry['source']}] {entry['text']} {entry.get('url', '')}".rstrip()
        if entry["level"] == "error":
            self.errors.append(text)
        elif entry["level"] == "warning":
            self.warnings.append(text)

    def foreign(self) -> list[str]:
        """Requests to any other origin than the page's own."""
        return [url for url in self.requests if not url.startswith(self.origin + "/")]

    def problems(self) -> list[str]:
        """Everything a clean page must not show; `[]` when all is well."""
        foreign = [f"foreign request: {url}" for url in self.foreign()]
        return self.errors + self.warnings + self.failed + foreign
