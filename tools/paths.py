"""The repository's folders, as every build step names them, and the log line they write."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
SITE = ROOT / "site"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
NODE_MODULES = WEB / "node_modules"


def log(message: str) -> None:
    print(f"build.py: {message}", flush=True)
