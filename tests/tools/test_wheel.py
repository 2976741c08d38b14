"""The wheel: built reproducibly with the right metadata, installs into a fresh CPython venv,
and runs under Pyodide in Node (the quick first check of the browser path)."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import subprocess
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from support.fresh_venv import install_in_fresh_venv, users_environment
from support.paths import ROOT
from support.reply import read_reply

import chunker
from chunker.bridge import handle
from tools.paths import CACHE, NODE_MODULES
from tools.site import MICROPIP_WHEEL, PYODIDE_LOCK, PYODIDE_STDLIB
from tools.wheel import build_page_wheel, build_wheel

TEXT = "# Title 😀\n\nFirst paragraph. It has two sentences.\n\n## Next\n\nMore text here."


@pytest.fixture(scope="module")
def wheel() -> Path:
    return build_wheel()


def test_wheel_is_reproducible_and_named_for_any_python(wheel):
    assert wheel.name == f"chunkspan-{chunker.__version__}-py3-none-any.whl"
    first = wheel.read_bytes()
    assert build_wheel().read_bytes() == first


def test_wheel_metadata_record_and_files(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = f"chunkspan-{chunker.__version__}.dist-info"
        metadata = Parser().parsestr(archive.read(f"{info}/METADATA").decode())
        wheel_file = Parser().parsestr(archive.read(f"{info}/WHEEL").decode())
        record = list(csv.reader(io.StringIO(archive.read(f"{info}/RECORD").decode())))
        for path, digest, size in record:
            if path == f"{info}/RECORD":
                assert digest == size == ""
                continue
            data = archive.read(path)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert (digest, int(size)) == (f"sha256={expected.decode()}", len(data)), path
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "chunker").rglob("*.py")}
    assert sources | {"chunker/py.typed"} <= names
    # The package alone: the build tools (tools/) and the tests stay out.
    assert all(name.startswith(("chunker/", f"{info}/")) for name in names)
    assert {row[0] for row in record} == names
    assert metadata["Name"] == "chunkspan"
    # PEP 639, as setuptools 77+ writes it from `license = "MIT"` (the table form is deprecated).
    assert (metadata["Metadata-Version"], metadata["License-Expression"]) == ("2.4", "MIT")
    assert metadata["License"] is None
    assert metadata["Version"] == chunker.__version__
    assert metadata["Requires-Python"] == ">=3.10"
    assert metadata.get_all("Requires-Dist") is None or all(
        "extra ==" in requirement for requirement in metadata.get_all("Requires-Dist")
    ), "the wheel must have no runtime dependency: micropip would ask PyPI for it"
    assert wheel_file["Root-Is-Purelib"] == "true" and wheel_file["Tag"] == "py3-none-any"


def test_wheel_installs_into_a_fresh_venv_and_imports(wheel, tmp_path):
    python = install_in_fresh_venv(wheel, tmp_path) / "python"
    script = (
        "import chunker, importlib.metadata as m, json\n"
        "from chunker import SemanticChunker\n"
        "print(json.dumps([chunker.__file__, m.version('chunkspan'),"
        f" [c.to_dict() for c in SemanticChunker(overlap=0).chunk({TEXT!r})]]))"
    )
    # Run from the venv's folder, so the checkout's own chunker/ cannot be imported instead.
    out = subprocess.run(
        [str(python), "-c", script],
        cwd=tmp_path,
        env=users_environment(),
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    where, version, chunks = json.loads(out)
    assert where.startswith(str(tmp_path / "venv"))
    assert version == chunker.__version__
    expected = [c.to_dict() for c in chunker.SemanticChunker(overlap=0).chunk(TEXT)]
    assert chunks == expected


def test_the_sites_wheel_is_the_wheel_plus_bytecode(wheel, built_site):
    # The page's wheel: the wheel without the command line and the adapters (pipelines/test_wheel_pipelines.py).
    page_wheel = build_page_wheel()
    assert page_wheel.name == wheel.name
    served_wheel = built_site / "wheels" / wheel.name
    with zipfile.ZipFile(page_wheel) as plain, zipfile.ZipFile(served_wheel) as served:
        added = set(served.namelist()) - set(plain.namelist())
        for name in plain.namelist():
            if not name.endswith("RECORD"):
                assert served.read(name) == plain.read(name), name
    sources = [n for n in zipfile.ZipFile(page_wheel).namelist() if n.endswith(".py")]
    assert len(added) == len(sources) and all(n.endswith(".pyc") for n in added)


def test_the_sites_wheels_run_under_pyodide_in_node(wheel, built_site):
    request = json.dumps({"text": TEXT, "config": {"targetSize": 20, "minSize": 0}})
    out = subprocess.run(
        [
            "node",
            str(ROOT / "tests" / "node" / "wheel_in_pyodide.mjs"),
            str(built_site / "pyodide"),
            str(built_site / "wheels" / wheel.name),
            "SemanticChunker.chunk",
            request,
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    ).stdout
    answer = json.loads(out)
    assert answer["bytecode"] is True, "chunker was installed without its compiled bytecode"
    # The same bridge, the same answer to the byte, in CPython and in Pyodide.
    reply = base64.b64decode(answer["reply"])
    assert reply == handle("SemanticChunker.chunk", request)
    _, _, packed = read_reply(reply)
    assert packed["result"]["count"] > 1


def test_the_sites_lock_file_lists_what_the_site_serves(built_site):
    """micropip alone, as served (the browser checks the checksum as it loads it), and the npm
    package's runtime description unchanged."""
    shipped = json.loads((NODE_MODULES / "pyodide" / PYODIDE_LOCK).read_text())
    lock = json.loads((built_site / "pyodide" / PYODIDE_LOCK).read_text())
    assert lock["info"] == shipped["info"]
    assert list(lock["packages"]) == ["micropip"]
    entry = lock["packages"]["micropip"]
    served = (built_site / "pyodide" / entry["file_name"]).read_bytes()
    assert entry["sha256"] == hashlib.sha256(served).hexdigest()
    assert entry["version"] == shipped["packages"]["micropip"]["version"]
    assert entry["name"] == "micropip" and entry["imports"] == ["micropip"]


def test_the_sites_micropip_is_the_pypi_wheel_with_bytecode_for_sources(built_site):
    with zipfile.ZipFile(CACHE / MICROPIP_WHEEL) as pypi:
        modules = {name for name in pypi.namelist() if name.endswith(".py")}
        others = set(pypi.namelist()) - modules
        record_name = next(name for name in others if name.endswith(".dist-info/RECORD"))
    with zipfile.ZipFile(built_site / "pyodide" / MICROPIP_WHEEL) as served:
        names = set(served.namelist())
        record = served.read(record_name).decode()
    assert modules and names == others | {name + "c" for name in modules}
    assert {line.split(",")[0] for line in record.splitlines()} == names


def test_the_sites_standard_library_is_the_npm_ones_modules_it_runs_compiled(built_site):
    """Of the npm package's standard library, compiled, the modules the site's Python imports
    (tools/stdlib.py): not the test runner, the REPL, the mail and XML parsers, nor
    multiprocessing (the worker starts no process)."""
    with zipfile.ZipFile(NODE_MODULES / "pyodide" / PYODIDE_STDLIB) as shipped:
        compiled = {name + "c" for name in shipped.namelist() if name.endswith(".py")}
        folders = {name for name in shipped.namelist() if name.endswith("/")}
    with zipfile.ZipFile(built_site / "pyodide" / PYODIDE_STDLIB) as served:
        names = set(served.namelist())
    modules = {name for name in names if not name.endswith("/")}
    assert modules <= compiled and names - modules <= folders
    # Pyodide's boot, the bridge's replies, the evaluation, the tokenizer's ranks.
    assert {"_pyodide/__init__.pyc", "json/__init__.pyc", "statistics.pyc", "gzip.pyc"} <= modules
    never = ("unittest/", "_pyrepl/", "email/mime/", "xml/", "multiprocessing/", "pydoc.pyc")
    assert not [name for name in names if name.startswith(never)]
    assert len(modules) < len(compiled) / 3
