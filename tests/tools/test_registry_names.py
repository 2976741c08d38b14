"""Our names on the package registries are free or ours: `pip install chunkspan` and
`npm install chunker-web` must never bring another project (PyPI's `chunker` is one, and it
installs a top-level `chunker` package of its own). Asked through pip and npm themselves, as a
user's install would; skipped when the registry cannot be reached (a machine offline).

Marked `network`: the main suite asks nothing over the network, so these run only when asked,
`python3 build.py test --network tests/tools/test_registry_names.py` (tests/conftest.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
import tomllib
from support.paths import ROOT

pytestmark = pytest.mark.network

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
# What pip and npm print when no registry answered at all (not an answer about the name).
OFFLINE = (
    "NewConnectionError",
    "Failed to establish",
    "Temporary failure in name resolution",
    "ECONNREFUSED",
    "ENOTFOUND",
    "ETIMEDOUT",
    "EAI_AGAIN",
)


def _skip_if_offline(output: str) -> None:
    if any(sign in output for sign in OFFLINE):
        pytest.skip(f"the registry did not answer: {output.strip().splitlines()[-1]}")


def test_the_python_name_is_free_or_ours(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--no-cache-dir",
            "--disable-pip-version-check",
            "--retries",
            "1",
            "--timeout",
            "30",
            "-d",
            str(tmp_path),
            PROJECT["name"],
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    _skip_if_offline(result.stdout + result.stderr)
    if result.returncode != 0:
        assert f"No matching distribution found for {PROJECT['name']}" in result.stderr
        return
    # Published: then it must be this project, by its own description.
    assert _summary(next(tmp_path.iterdir())) == PROJECT["description"]


def _summary(download: Path) -> str:
    """The Summary of a downloaded wheel's METADATA or source distribution's PKG-INFO."""
    if download.suffix == ".whl":
        with zipfile.ZipFile(download) as archive:
            name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
            text = archive.read(name).decode("utf-8")
    else:
        with tarfile.open(download) as archive:
            member = next(
                m
                for m in archive.getmembers()
                if m.name.count("/") == 1 and m.name.endswith("/PKG-INFO")
            )
            text = archive.extractfile(member).read().decode("utf-8")  # type: ignore[union-attr]
    return Parser().parsestr(text)["Summary"]


def test_the_npm_name_is_free_or_ours() -> None:
    from tools.package import NAME

    result = subprocess.run(
        ["npm", "view", NAME, "--json"], capture_output=True, text=True, timeout=300
    )
    _skip_if_offline(result.stdout + result.stderr)
    if result.returncode != 0:
        assert "E404" in result.stdout + result.stderr
        return
    # Published: then it must be this project's package, by its own description.
    assert "behind the original AgentOS names" in json.loads(result.stdout)["description"]
