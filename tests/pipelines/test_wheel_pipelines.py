"""The wheel and the pipelines: the wheel for pip carries the command line and the adapters
(and the `chunker` console script); the wheel the page loads carries neither, and nothing in
it imports LangChain, LlamaIndex or PySpark."""

from __future__ import annotations

import ast
import json
import subprocess
import zipfile
from pathlib import Path

import pytest
from support.fresh_venv import install_in_fresh_venv, users_environment

import chunker
from chunker import SemanticChunker
from tools.wheel import build_wheel

# Not `base/extras.py`: the page counts tokens too, and `chunker.tokens` names its extra through it.
PIPELINE_MODULES = {
    "chunker/__main__.py",
    "chunker/langchain.py",
    "chunker/llama_index.py",
    "chunker/spark.py",
}
ADAPTER_PACKAGES = {
    "langchain",
    "langchain_core",
    "langchain_text_splitters",
    "llama_index",
    "pyspark",
}


@pytest.fixture(scope="module")
def wheel() -> Path:
    return build_wheel()


def imported_top_levels(source: bytes) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "require":
            names |= {
                arg.value.split(".")[0] for arg in node.args[:1] if isinstance(arg, ast.Constant)
            }
    return names


def test_the_pages_wheel_holds_no_adapter_and_no_command_line(wheel, built_site):
    served = built_site / "wheels" / wheel.name
    with zipfile.ZipFile(served) as archive:
        names = set(archive.namelist())
        sources = {n: archive.read(n) for n in names if n.endswith(".py")}
    assert "chunker/__init__.py" in names and "chunker/semantic_chunker.py" in names
    assert not names & PIPELINE_MODULES
    assert not [n for n in names if n.startswith("chunker/cli/")]
    assert not [n for n in names if n.endswith("entry_points.txt")]
    for name, source in sources.items():
        assert not imported_top_levels(source) & ADAPTER_PACKAGES, name


def test_the_wheel_for_pip_has_the_pipelines_and_the_console_script(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = f"chunkspan-{chunker.__version__}.dist-info"
        entry_points = archive.read(f"{info}/entry_points.txt").decode()
        metadata = archive.read(f"{info}/METADATA").decode()
    assert names >= PIPELINE_MODULES and "chunker/cli/__init__.py" in names
    assert entry_points == "[console_scripts]\nchunker = chunker.cli:command\n"
    for extra in ("langchain", "llama-index", "spark"):
        assert f"Provides-Extra: {extra}\n" in metadata
    # The core's modules import none of the adapters' packages; only the adapters do.
    with zipfile.ZipFile(wheel) as archive:
        for name in names - PIPELINE_MODULES:
            if name.endswith(".py"):
                assert not imported_top_levels(archive.read(name)) & ADAPTER_PACKAGES, name


@pytest.mark.parametrize("stray", [False, True], ids=["clean", "stray-egg-info-on-path"])
def test_the_console_script_runs_from_a_fresh_venv(wheel, tmp_path, monkeypatch, stray):
    if stray:  # what a checkout holds after `pip install .`, on a PYTHONPATH a test left set
        info = tmp_path / "checkout" / "chunkspan.egg-info"
        info.mkdir(parents=True)
        (info / "PKG-INFO").write_text(f"Name: chunkspan\nVersion: {chunker.__version__}\n")
        monkeypatch.setenv("PYTHONPATH", str(info.parent))
    bin_folder = install_in_fresh_venv(wheel, tmp_path)
    text = "# Title\n\nA paragraph. 😀\n\n## Next\n\nMore."
    result = subprocess.run(
        [str(bin_folder / "chunker"), "chunk", "--overlap", "0", "-"],
        input=text.encode(),
        capture_output=True,
        cwd=tmp_path,
        env=users_environment(),
        check=True,
    )
    expected = [
        {"source": "-", **c.to_dict(spans=True)} for c in SemanticChunker(overlap=0).chunk(text)
    ]
    assert [json.loads(line) for line in result.stdout.splitlines()] == expected


def test_the_wheel_for_pip_holds_every_module_of_the_package(wheel):
    # pyproject lists the packages by name: a new folder left off the list is a wheel
    # without it, which no test of the checkout (importing from the tree) would notice.
    package = Path(chunker.__file__).parent
    in_tree = {path.relative_to(package.parent).as_posix() for path in package.rglob("*.py")}
    with zipfile.ZipFile(wheel) as archive:
        assert in_tree - set(archive.namelist()) == set()
