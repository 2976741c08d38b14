"""The npm package: what `python3 build.py package` puts in the .tgz, a site a page author
builds from that file alone (installed offline, served by Python's own server, run in
Chromium), its types as a project resolves them, its copy command for a bundler's site
(tests/tools/test_npm_package_vite.py builds one), and the other way in (docs/browser.md): a page with
its own Pyodide installing the wheel with micropip."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.facade import BOOT_TIMEOUT_MS, SNAPSHOT_DROPPED
from support.readme import doc_block, doc_text
from support.recorder import Recorder
from support.typescript import EXAMPLE, run_tsc

import chunker
from chunker import SemanticChunker, chunk, lexical_tokens, snippet_around
from chunker.tokens import count_tokens
from tools.package import (
    COPY_COMMAND,
    COPY_SCRIPT,
    FACADE_FILES,
    NAME,
    package_sizes,
)
from tools.paths import NODE_MODULES, SITE
from tools.site import PYODIDE_FILES, PYODIDE_LOCK, PYODIDE_STDLIB, TOKENIZER_WHEEL
from tools.snapshot import SNAPSHOT

WHEEL = f"chunkspan-{chunker.__version__}-py3-none-any.whl"
TEXT = (
    "# Refunds\n\nRefunds go back to the card that paid. They take five to ten business days."
    "\n\n# Shipping\n\nOrders ship within two days of payment. Tracking comes by mail.\n"
)
INSTALLED = "node_modules/chunker-web/"
# Where page authors read how to use the package: docs/browser.md, whose section "Use it in
# your page" is also the package's README.
PAGE = doc_text("browser.md")
SERVE = doc_block("browser.md", "# serve.py")


@pytest.fixture(scope="module")
def project(tarball: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new project folder with the tarball installed by npm, offline, from an empty cache:
    the package must need nothing from a registry."""
    folder = tmp_path_factory.mktemp("example-site")
    (folder / "package.json").write_text(
        json.dumps({"name": "example-site", "private": True, "type": "module"}), encoding="utf-8"
    )
    subprocess.run(
        [
            "npm",
            "install",
            "--offline",
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            "--loglevel=error",
            "--cache",
            str(folder.parent / f"{folder.name}-npm-cache"),
            str(tarball),
        ],
        cwd=folder,
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return folder


# --- what the .tgz holds ------------------------------------------------------------------


def test_the_tarball_is_named_for_its_version_and_holds_the_runtime_alone(tarball):
    assert tarball.name == f"{NAME}-{chunker.__version__}.tgz"
    with tarfile.open(tarball) as archive:
        names = {m.name.removeprefix("package/") for m in archive.getmembers() if m.isfile()}
        manifest = json.load(archive.extractfile("package/package.json"))
        lock = json.load(archive.extractfile("package/pyodide/pyodide-lock.json"))
    pyodide = [f"pyodide/{name}" for name in (*PYODIDE_FILES, PYODIDE_STDLIB)] + [SNAPSHOT]
    wheels = {f"wheels/{WHEEL}", f"wheels/{TOKENIZER_WHEEL}"}
    expected = {*FACADE_FILES, *pyodide, "pyodide/pyodide-lock.json", *wheels}
    # Beside them, the site's compressed copies of each (tools/precompress.py), and no other.
    copies = {name + suffix for name in expected for suffix in (".br", ".gz")}
    encoded = {name for name in names if name.endswith((".br", ".gz"))}
    assert encoded <= copies and {"pyodide/pyodide.asm.wasm.br", "worker.js.gz"} <= encoded
    assert {f"{SNAPSHOT}.br", f"{SNAPSHOT}.gz"} <= encoded
    assert names == expected | encoded | {COPY_SCRIPT.name, "package.json", "README.md"}
    assert not any("micropip" in name for name in names)
    # Listing no package: nothing for Pyodide to look for that the package does not hold.
    shipped = json.loads((NODE_MODULES / "pyodide" / PYODIDE_LOCK).read_text())
    assert lock == {"info": shipped["info"], "packages": {}}

    assert manifest["name"] == NAME and manifest["version"] == chunker.__version__
    assert manifest["type"] == "module"
    root = manifest["exports"]["."]
    assert list(root) == ["types", "default"], "types must come first"
    assert (root["types"], root["default"]) == ("./chunker.d.ts", "./chunker.js")
    top_level = {name for name in encoded if "/" not in name}
    assert set(manifest["files"]) == {
        *FACADE_FILES,
        *top_level,
        COPY_SCRIPT.name,
        "pyodide/",
        "wheels/",
    }
    assert manifest["bin"] == {COPY_COMMAND: f"./{COPY_SCRIPT.name}"}
    assert "dependencies" not in manifest and "scripts" not in manifest


def test_the_packages_files_are_the_sites(tarball):
    """The runtime as the site serves it: compiled standard library, wheel with bytecode."""
    with tarfile.open(tarball) as archive:
        wheels = (f"wheels/{WHEEL}", f"wheels/{TOKENIZER_WHEEL}")
        names = [m.name.removeprefix("package/") for m in archive.getmembers()]
        copies = [name for name in names if name.endswith((".br", ".gz"))]
        for name in (*FACADE_FILES, *wheels, f"pyodide/{PYODIDE_STDLIB}", SNAPSHOT, *copies):
            packed = archive.extractfile(f"package/{name}").read()
            assert packed == (SITE / name).read_bytes(), name
        readme = archive.extractfile("package/README.md").read().decode()
    assert readme.startswith(f"# {NAME}\n")
    assert SERVE in readme and "application/wasm" in readme
    # The package holds no docs/: a relative link in its README would lead nowhere.
    assert re.findall(r"\]\((?!https?://)[^)]*\)", readme) == []


def test_the_policy_the_page_states_is_the_one_its_server_sends():
    """The example site runs under serve.py's policy: the prose must state that one."""
    tree = ast.parse(SERVE)
    policy = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "CSP"
    )
    assert f"`{policy}`" in " ".join(PAGE.split())


def test_the_page_states_the_packages_sizes(tarball):
    sizes = package_sizes(tarball)
    assert sizes.fetched_brotli < sizes.fetched_gzip < 0.6 * sizes.fetched <= sizes.unpacked
    table = {
        "the .tgz": sizes.packed,
        "on disk, installed": sizes.unpacked,
        "fetched by the browser to get ready": sizes.fetched,
        "the same over the wire, brotli (its .br files)": sizes.fetched_brotli,
    }
    for row, size in table.items():
        stated = re.search(rf"\| {re.escape(row)} \| ([\d.]+) MB \|", PAGE)
        assert stated is not None, row
        assert abs(float(stated.group(1)) * 1e6 - size) <= 0.05 * size, (row, size)


# --- a site built from the tarball alone ------------------------------------------------


@pytest.fixture(scope="module")
def example_site(project: Path) -> Iterator[str]:
    """The project as a page author makes it: a page and its module script, served by the
    page's serve.py (Python's http.server, told the MIME types, sending the CSP)."""
    (project / "index.html").write_text(
        '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Example</title>\n'
        '<script type="module" src="./main.js"></script></head>\n'
        "<body><output></output></body>\n</html>\n",
        encoding="utf-8",
    )
    (project / "main.js").write_text(
        f"""import {{ loadChunker }} from './{INSTALLED}chunker.js';

const text = {json.dumps(TEXT)};
window.example = (async () => {{
  const api = await loadChunker({{ baseUrl: './{INSTALLED}', timeoutMs: {BOOT_TIMEOUT_MS} }});
  const chunks = await new api.SemanticChunker({{ targetSize: 60, overlap: 0 }}).chunk(text);
  const words = await api.lexicalTokens('Tracking');
  const snippet = await api.snippetAround(text, words, {{ before: 20, after: 30 }});
  document.querySelector('output').textContent = snippet.text;
  const tokens = await api.countTokens(text, 'o200k_base');
  return {{ chunks, words, snippet, tokens, versions: api.versions }};
}})();
""",
        encoding="utf-8",
    )
    (project / "serve.py").write_text(SERVE, encoding="utf-8")
    server = subprocess.Popen(
        [sys.executable, "serve.py", "0"],
        cwd=project,
        stdout=subprocess.PIPE,
        text=True,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield server.stdout.readline().strip().rstrip("/")
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_site_built_from_the_tarball_alone_chunks_and_snippets(browser, example_site):
    context = browser.new_context()
    try:
        page = context.new_page()
        recorder = Recorder(example_site).attach(page)
        page.goto(f"{example_site}/index.html")
        got = page.evaluate("window.example")
        shown = page.text_content("output")
        # The page holds its facade in a module: no call of ours can go through its worker and
        # back, so its late console messages get a moment to arrive.
        page.wait_for_timeout(200)
    finally:
        context.close()
    expected = SemanticChunker(target_size=60, overlap=0).chunk(TEXT)
    assert got["chunks"] == [c.to_dict() for c in expected] and len(expected) == 2
    assert got["words"] == lexical_tokens("Tracking") == ["tracking"]
    snippet = snippet_around(TEXT, ["tracking"], before=20, after=30)
    assert got["snippet"] == snippet.to_dict() and snippet.at > 0
    assert shown == snippet.text
    assert got["versions"]["chunker"] == chunker.__version__
    assert got["tokens"] == count_tokens(TEXT, "o200k_base")  # the tokenizer comes with it
    # Nothing failed or logged and no request left the origin, but for the icon every
    # browser asks a site for, which this one has not, and the snapshot's plain file: serve.py
    # sends files as they are, so the worker drops it as it comes (when it has not all come
    # yet) for its gzip copy.
    icon = f"{example_site}/favicon.ico"
    expected = (icon, "404 (File not found)", SNAPSHOT_DROPPED)
    problems = [p for p in recorder.problems() if not any(e in p for e in expected)]
    assert problems == [] and recorder.foreign() == []
    assert [url for url in recorder.failed if not any(e in url for e in expected)] == []
    paths = {url[len(example_site) :] for url in recorder.requests}
    assert f"/{INSTALLED}pyodide/pyodide.asm.wasm" in paths
    # Restored from the snapshot, which holds chunker's files: the wheel is not fetched.
    assert {f"/{INSTALLED}{SNAPSHOT}", f"/{INSTALLED}{SNAPSHOT}.gz"} <= paths
    assert f"/{INSTALLED}wheels/{WHEEL}" not in paths
    assert f"/{INSTALLED}wheels/{TOKENIZER_WHEEL}" in paths
    assert all(p in {"/index.html", "/main.js"} or p.startswith(f"/{INSTALLED}") for p in paths)


def test_the_installed_package_resolves_by_name_with_its_types(project):
    """`chunker-web` resolves through the exports map: in Node to chunker.js, and in
    TypeScript to chunker.d.ts, which the typed example then compiles against."""
    resolved = subprocess.run(
        [
            "node",
            "--input-type=module",
            "-e",
            "const m = await import('chunker-web'); console.log(typeof m.loadChunker);"
            "console.log(import.meta.resolve('chunker-web'))",
        ],
        cwd=project,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout.split()
    assert resolved[0] == "function" and resolved[1].endswith(f"/{INSTALLED}chunker.js")
    types = project / "types"
    types.mkdir(exist_ok=True)
    shutil.copy(EXAMPLE, types / "example.ts")
    result = run_tsc(types, types / "example.ts")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    resolved_to = f"{project}/{INSTALLED}chunker.d.ts"
    assert f"'chunker-web' was successfully resolved to '{resolved_to}'" in result.stdout


# --- the copy for a bundler's site ------------------------------------------------------


def copy_runtime(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The installed package's copy command, run in `project` as a package script runs it."""
    return subprocess.run(
        [str(project / "node_modules" / ".bin" / COPY_COMMAND), *args],
        cwd=project,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )


def files_under(folder: Path) -> dict[str, bytes]:
    """Every file below `folder`, by its path there, with its bytes."""
    files = (path for path in folder.rglob("*") if path.is_file())
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in files}


def test_the_copy_command_copies_what_the_worker_loads_and_replaces_its_last_copy(project):
    installed = files_under(project / INSTALLED)
    runtime = {
        name: data
        for name, data in installed.items()
        if name.startswith(("worker.js", "pyodide/", "wheels/"))
    }
    copied = project / "public" / "chunker-web"
    first = copy_runtime(project, "public/chunker-web")
    assert first.returncode == 0, first.stderr
    assert files_under(copied) == runtime
    # A copy of another version: its wheel is gone once copied again.
    (copied / "wheels" / "chunkspan-0.0.1-py3-none-any.whl").write_bytes(b"old")
    (copied / "worker.js").write_text("// old")
    again = copy_runtime(project, "public/chunker-web")
    assert again.returncode == 0, again.stderr
    assert files_under(copied) == runtime


def test_the_copy_command_deletes_nothing_but_its_own_copy(project):
    site = project / "public-of-mine"
    site.mkdir()
    (site / "index.html").write_text("mine")
    (site / "worker.js").write_text("mine too")
    refused = copy_runtime(project, "public-of-mine")
    assert refused.returncode == 1
    assert "public-of-mine holds other files (index.html)" in refused.stderr
    assert files_under(site) == {"index.html": b"mine", "worker.js": b"mine too"}
    for wrong in ([], ["a", "b"], ["--help"]):
        usage = copy_runtime(project, *wrong)
        assert usage.returncode == 2 and "usage: chunker-web-copy FOLDER" in usage.stderr


# --- a page with its own Pyodide --------------------------------------------------------


def test_a_page_with_its_own_pyodide_installs_the_wheel_with_micropip(new_page, site_url):
    """docs/browser.md's snippet as written, in a page that boots Pyodide itself (the site's copy,
    whose lock file lists micropip) and installs the wheel the package holds."""
    page, recorder = new_page()
    page.goto(f"{site_url}/_test/blank.html")
    snippet = doc_block("browser.md", "// pyodide: your page's own")
    got: Any = page.evaluate(
        f"""async ([wheelUrl, text]) => {{
          const {{ loadPyodide }} = await import('/pyodide/pyodide.mjs');
          const pyodide = await loadPyodide({{ indexURL: '/pyodide/' }});
          {snippet}
          return [chunks, pyodide.loadedPackages.micropip ?? null];
        }}""",
        [f"{site_url}/wheels/{WHEEL}", TEXT],
    )
    chunks, micropip = got
    assert chunks == [c.to_dict() for c in chunk(TEXT)] and len(chunks) >= 1
    assert micropip is not None
    assert recorder.foreign() == []
    assert f"{site_url}/wheels/{WHEEL}" in recorder.requests
