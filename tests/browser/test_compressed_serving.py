"""The site sent compressed: `build.py serve` (tools/server.py) answers a browser that takes
brotli or gzip with the copy the build made (tools/precompress.py), its headers saying so, and
any other client with the plain file; Chromium boots the facade from the compressed files."""

from __future__ import annotations

import gzip
import http.client
import subprocess
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from tools.precompress import COMPRESSED_TYPES, ENCODINGS
from tools.server import MIME_TYPES, preferred_encoding
from tools.snapshot import SNAPSHOT

# The files a browser fetches to get ready that must have compressed copies: most of the bytes.
BIG_ONES = (
    SNAPSHOT,
    "pyodide/pyodide.asm.wasm",
    "pyodide/pyodide.asm.mjs",
    "worker.js",
    "chunker.js",
)


def fetch(
    origin: str, path: str, accept: str | None, method: str = "GET"
) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and the raw body of `path`: as sent, not decoded.
    `accept` None: no Accept-Encoding header at all (http.client would send "identity")."""
    url = urllib.parse.urlsplit(origin)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        if accept is not None:
            connection.putheader("Accept-Encoding", accept)
        connection.endheaders()
        response = connection.getresponse()
        headers = {name.lower(): value for name, value in response.getheaders()}
        return response.status, headers, response.read()
    finally:
        connection.close()


def decoded(body: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.decompress(body)
    # Python has no brotli; Node's zlib decodes it.
    script = (
        "process.stdout.write(require('zlib').brotliDecompressSync(require('fs').readFileSync(0)))"
    )
    return subprocess.run(
        ["node", "-e", script], input=body, capture_output=True, check=True
    ).stdout


def compressed_files(site: Path) -> dict[str, list[str]]:
    """Each site file with copies, and the encodings it has copies in."""
    offered: dict[str, list[str]] = {}
    for path in sorted(site.rglob("*")):
        for name, suffix in ENCODINGS.items():
            if path.name.endswith(suffix):
                plain = path.relative_to(site).as_posix().removesuffix(suffix)
                offered.setdefault(plain, []).append(name)
    return offered


def test_the_big_files_have_both_copies_and_only_compressible_types_have_any(built_site):
    offered = compressed_files(built_site)
    for name in BIG_ONES:
        assert sorted(offered.get(name, [])) == ["br", "gzip"], name
    assert all(name.endswith(COMPRESSED_TYPES) for name in offered)
    # The standard library zip is of deflated files: a copy would save too little to keep.
    assert "pyodide/python_stdlib.zip" not in offered


def test_each_copy_is_sent_to_a_browser_taking_it_and_decodes_to_the_plain_file(
    built_site, site_url
):
    offered = compressed_files(built_site)
    assert len(offered) > 10
    for name, encodings in offered.items():
        plain = (built_site / name).read_bytes()
        mime = MIME_TYPES[Path(name).suffix]
        for encoding in encodings:
            status, headers, body = fetch(site_url, f"/{name}", f"{encoding}, identity;q=0.5")
            assert status == 200, name
            assert headers["content-encoding"] == encoding, name
            assert headers["vary"] == "Accept-Encoding", name
            assert headers["content-type"] == mime, name
            assert int(headers["content-length"]) == len(body) < len(plain), name
            assert decoded(body, encoding) == plain, (name, encoding)


@pytest.mark.parametrize("accept", [None, "identity", "gzip;q=0, br;q=0", "deflate, zstd"])
def test_a_client_taking_no_copy_gets_the_plain_file(built_site, site_url, accept):
    name = "pyodide/pyodide.asm.wasm"
    status, headers, body = fetch(site_url, f"/{name}", accept)
    assert status == 200
    assert "content-encoding" not in headers
    assert headers["vary"] == "Accept-Encoding"  # a cache must still tell the answers apart
    assert headers["content-type"] == "application/wasm"
    assert body == (built_site / name).read_bytes()
    assert int(headers["content-length"]) == len(body)


def test_brotli_first_a_head_request_and_a_revalidation_of_the_copy(built_site, site_url):
    status, headers, body = fetch(site_url, "/worker.js?v=1", "gzip, deflate, br", method="HEAD")
    assert (status, headers["content-encoding"], body) == (200, "br", b"")
    assert int(headers["content-length"]) == (built_site / "worker.js.br").stat().st_size
    connection = http.client.HTTPConnection(*urllib.parse.urlsplit(site_url).netloc.split(":"))
    connection.request(
        "GET",
        "/worker.js",
        headers={"Accept-Encoding": "br", "If-Modified-Since": headers["last-modified"]},
    )
    assert connection.getresponse().status == 304
    connection.close()
    # A file without copies varies with nothing.
    status, headers, _ = fetch(site_url, "/pyodide/python_stdlib.zip", "br, gzip", method="HEAD")
    assert status == 200 and "content-encoding" not in headers and "vary" not in headers


@pytest.mark.parametrize(
    "accept, expected",
    [
        ("gzip, deflate, br, zstd", "br"),
        ("gzip", "gzip"),
        ("x-gzip", "gzip"),
        ("br;q=0.5, gzip", "gzip"),
        ("BR;Q=1, gzip;q=1", "br"),
        ("*", "br"),
        ("*;q=0.2, br;q=0", "gzip"),
        ("br;q=0, gzip;q=0", None),
        ("br;q=nonsense", None),
        ("", None),
    ],
)
def test_the_preferred_encoding(accept, expected):
    assert preferred_encoding(accept, list(ENCODINGS)) == expected


def test_chromium_receives_the_runtime_compressed(new_page, site_url):
    """The page's own requests: the memory snapshot, the WebAssembly and Pyodide's JavaScript
    arrive compressed, and the facade boots on them."""
    page, recorder = new_page()
    encodings: dict[str, str | None] = {}

    def seen(response: Any) -> None:  # Playwright's Response
        encodings[urllib.parse.urlsplit(response.url).path] = response.headers.get(
            "content-encoding"
        )

    page.on("response", seen)
    page.goto(f"{site_url}/_test/blank.html")
    versions = page.evaluate(
        "async () => (await (await import('/chunker.js')).loadChunker()).versions"
    )
    assert versions["pyodide"]
    for path in (
        f"/{SNAPSHOT}",
        "/pyodide/pyodide.asm.wasm",
        "/pyodide/pyodide.asm.mjs",
        "/worker.js",
    ):
        assert encodings[path] in ENCODINGS, (path, encodings[path])
    assert recorder.foreign() == []
