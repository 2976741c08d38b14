"""The names a user meets: the package, its import and its command are `chunker`; `chunkspan`,
the distribution's name on PyPI (whose `chunker` is another project), appears only where a
distribution is named: pyproject's name, install lines and extras, the wheel's and the
metadata's file names, the ImportError hints."""

from __future__ import annotations

import re
from pathlib import Path

from support.paths import ROOT

DISTRIBUTION = "chunkspan"
# Each place the distribution's name may stand, as a pattern matched where the name starts.
AS_DISTRIBUTION = re.compile(
    "|".join(
        [
            rf"(?<=pip install ){DISTRIBUTION}\b",  # pip install chunkspan
            rf"{DISTRIBUTION}(?=\\?\[)",  # an extra: 'chunkspan[tokens]'
            rf"{DISTRIBUTION}(?=-(?:[0-9{{<\"]|\[\^))",  # chunkspan-0.1.0-py3-none-any.whl
            rf"{DISTRIBUTION}(?=\.egg-info)",  # what `pip install .` leaves in a checkout
            rf'(?<=name = "){DISTRIBUTION}(?=")',  # pyproject.toml's [project] name
            rf"(?<=Name: ){DISTRIBUTION}\b",  # a PKG-INFO
            rf'(?<=\["Name"\] == "){DISTRIBUTION}(?=")',  # the wheel's METADATA, read back
            rf"(?<=version\('){DISTRIBUTION}(?='\))",  # importlib.metadata.version(...)
        ]
    )
)
# What is not the project's source: caches, builds, installed packages.
NOT_OURS = {".git", ".cache", "site", "dist", "build", "node_modules", "test-artifacts"}


def our_text_files() -> list[Path]:
    found = []
    for path in ROOT.rglob("*"):
        parts = set(path.relative_to(ROOT).parts)
        if parts & NOT_OURS or any(p.startswith(".") and p != ".ci" for p in parts):
            continue
        if path.is_file() and not path.name.endswith((".png", ".pyc", ".whl", ".tgz")):
            found.append(path)
    return found


def test_the_old_import_name_is_gone() -> None:
    stray = []
    for path in our_text_files():
        if path == Path(__file__):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for match in re.finditer(DISTRIBUTION, text):
            if not AS_DISTRIBUTION.match(text, match.start()):
                line = text.count("\n", 0, match.start()) + 1
                stray.append(f"{path.relative_to(ROOT)}:{line}")
    assert stray == [], f"{DISTRIBUTION} where the import or the command is meant: {stray}"


def test_the_package_the_distribution_and_the_command() -> None:
    # Read as text: the core suite runs on Python 3.10 too, which has no tomllib.
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'\n[project]\nname = "{DISTRIBUTION}"\n' in pyproject
    scripts = pyproject.split("\n[project.scripts]\n", 1)[1].split("\n\n", 1)[0]
    assert scripts == 'chunker = "chunker.cli:command"'
    assert (ROOT / "chunker" / "__init__.py").is_file()
    assert not (ROOT / DISTRIBUTION).exists()
