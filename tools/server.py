"""site/ served on 127.0.0.1, with exact MIME types and a strict CSP, and compressed to a
browser that takes it, from the copies the build made (tools/precompress.py)."""

from __future__ import annotations

import http.server
import os
import socket
import sys
import threading
import urllib.parse
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from .paths import SITE
from .precompress import ENCODINGS
from .site import build_web

# Sent with every response. A CSP in a <meta> tag would not bind the worker, so it is a
# header. Pyodide needs 'wasm-unsafe-eval' to compile its WebAssembly, nothing more.
CSP = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "worker-src 'self'",
        "connect-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)

# A wrong type for .wasm or .mjs leaves Pyodide pending forever, so none is left to guessing.
MIME_TYPES = {
    "": "application/octet-stream",
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".bin": "application/octet-stream",
    ".svg": "image/svg+xml",
    ".ico": "image/x-icon",
    ".png": "image/png",
    ".md": "text/markdown; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves folders mounted at URL prefixes, with exact MIME types and a strict CSP."""

    protocol_version = "HTTP/1.1"  # keep-alive: the page makes a dozen requests at boot
    extensions_map = MIME_TYPES
    mounts: tuple[tuple[str, Path], ...] = ()  # (URL prefix, folder), longest prefix first
    csp = CSP
    quiet = False
    # This response's: the Content-Encoding sent (None: the plain file), and whether the file
    # has compressed copies (then the answer depends on Accept-Encoding, and says so).
    encoding: str | None = None
    varies = False

    def send_head(self) -> BinaryIO | None:
        """The parent's, on the file's compressed copy when the browser takes one: its
        bytes, its Content-Length and Last-Modified, the plain file's Content-Type."""
        local = self.translate_path(self.path)
        offered = [name for name, suffix in ENCODINGS.items() if os.path.isfile(local + suffix)]
        self.varies = bool(offered)
        self.encoding = preferred_encoding(self.headers.get("Accept-Encoding", ""), offered)
        if self.encoding is not None:
            url = urllib.parse.urlsplit(self.path)
            encoded = url._replace(path=url.path + ENCODINGS[self.encoding])
            self.path = urllib.parse.urlunsplit(encoded)
        return super().send_head()

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        if self.encoding is not None:
            path = os.fspath(path).removesuffix(ENCODINGS[self.encoding])
        return super().guess_type(path)

    def translate_path(self, path: str) -> str:
        # Still quoted: the parent class unquotes once ("%2525" must stay "%25" on disk).
        url_path = urllib.parse.urlsplit(path).path
        for prefix, folder in self.mounts:
            if url_path.startswith(prefix):
                # The parent class does the safe join (no `..` escapes) below `directory`.
                self.directory = str(folder)
                local = super().translate_path("/" + url_path[len(prefix) :])
                # A NUL ("%00") or a lone surrogate ("%ED%A0%80") makes no file name: a 404,
                # not a crash in os.stat or open.
                try:
                    os.fsencode(local)
                except UnicodeEncodeError:
                    return ""
                return "" if "\0" in local else local
        return ""  # matches no mount: a 404

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        self.send_error(404, "No directory listings")

    def end_headers(self) -> None:
        if self.encoding is not None:
            self.send_header("Content-Encoding", self.encoding)
        if self.varies:
            self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Security-Policy", self.csp)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        # Revalidate every time (cheap: 304s), so a rebuilt site is never half stale.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)


def preferred_encoding(accept: str, offered: Sequence[str]) -> str | None:
    """The encoding of `offered` (in the server's order of preference) that an
    Accept-Encoding header `accept` takes with the highest weight, or None for none.

    Example:
        >>> preferred_encoding("gzip, deflate, br", ["br", "gzip"])
        'br'
        >>> preferred_encoding("br;q=0.5, gzip", ["br", "gzip"]), preferred_encoding("", ["br"])
        ('gzip', None)
        >>> preferred_encoding("*;q=0.1, gzip;q=0", ["br", "gzip"])
        'br'
    """
    weights: dict[str, float] = {}
    for item in accept.split(","):
        name, *parameters = (part.strip() for part in item.split(";"))
        weight = 1.0
        for parameter in parameters:
            key, _, value = parameter.partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        weights[{"x-gzip": "gzip"}.get(name.lower(), name.lower())] = weight
    best: tuple[float, str] | None = None
    for name in offered:
        weight = weights.get(name, weights.get("*", 0.0))
        if weight > 0 and (best is None or weight > best[0]):
            best = (weight, name)
    return None if best is None else best[1]


class SiteServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(
        self, request: socket.socket | tuple[bytes, socket.socket], client_address: Any
    ) -> None:
        # A tab or worker closed mid-download resets its connection: not our error.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(
    port: int, mounts: Mapping[str, Path], *, quiet: bool = False, csp: str = CSP
) -> SiteServer:
    """A server on 127.0.0.1:`port` (0 picks a free one) for `mounts`: {"/": SITE, ...}.

    `csp` replaces the policy (the tests check what a weaker one breaks); `quiet` stops the
    log line per request.
    """
    ordered = tuple(sorted(mounts.items(), key=lambda item: -len(item[0])))
    attributes = {"mounts": ordered, "quiet": quiet, "csp": csp}
    handler = type("Handler", (SiteHandler,), attributes)
    return SiteServer(("127.0.0.1", port), handler)


@contextmanager
def served(mounts: Mapping[str, Path], *, csp: str = CSP) -> Iterator[str]:
    """Serve `mounts` quietly from a thread on a free port; yields the origin (no final /)."""
    server = make_server(0, mounts, quiet=True, csp=csp)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def serve(port: int) -> None:
    build_web()
    try:
        server = make_server(port, {"/": SITE})
    except OSError as error:
        sys.exit(f"build.py: cannot serve on 127.0.0.1:{port}: {error.strerror} (try --port)")
    print(f"Serving site/ at http://127.0.0.1:{server.server_port}/  (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
