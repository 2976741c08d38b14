"""The Chromium the browser tests and the benchmarks launch (through Playwright): found, or
installed the way the machine allows."""

from __future__ import annotations

import subprocess
from pathlib import Path

from .paths import log
from .system_packages import apt_install, can_apt_install
from .venv import SetupError

# Debian's Chromium, used when present; otherwise Playwright's own.
SYSTEM_CHROMIUM = Path("/usr/bin/chromium")
# Without the background-networking flags Chromium calls Google's hosts, which a closed
# network refuses, many times at each start.
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
# Playwright's download fails fast where its host is unreachable; a reachable one that
# stalls must not hold the test run.
PLAYWRIGHT_DOWNLOAD_SECONDS = 600


def ensure_chromium(python: Path) -> None:
    """A Chromium to launch, with `python` the test venv's (which has Playwright): Debian's
    or Playwright's if installed; else Playwright's download, else Debian's package through
    apt-get as root; else a SetupError naming the command that would install one."""
    if SYSTEM_CHROMIUM.exists() or _playwright_has_chromium(python):
        return
    log("no Chromium: trying Playwright's own (python -m playwright install chromium)")
    try:
        downloaded = subprocess.run(
            [str(python), "-m", "playwright", "install", "chromium"],
            timeout=PLAYWRIGHT_DOWNLOAD_SECONDS,
        )
    except subprocess.TimeoutExpired:
        downloaded = None
    if downloaded is not None and downloaded.returncode == 0 and _playwright_has_chromium(python):
        return
    if can_apt_install():
        log("Playwright's download failed; Debian's Chromium instead")
        if apt_install(["chromium"], f"the browser tests drive {SYSTEM_CHROMIUM}"):
            return
    fix = (
        "sudo apt-get install -y chromium"
        if Path("/usr/bin/apt-get").exists()
        else f"{python} -m playwright install chromium"
    )
    raise SetupError(f"no Chromium for the browser tests; fix: {fix}")


def _playwright_has_chromium(python: Path) -> bool:
    asked = subprocess.run(
        [
            str(python),
            "-c",
            "from playwright.sync_api import sync_playwright\n"
            "with sync_playwright() as p: print(p.chromium.executable_path)",
        ],
        capture_output=True,
        text=True,
    )
    return asked.returncode == 0 and Path(asked.stdout.strip()).exists()


def chromium_options() -> dict[str, object]:
    """Playwright launch options for the tests and benchmarks: Debian's Chromium if present."""
    options: dict[str, object] = {"args": list(CHROMIUM_ARGS)}
    if SYSTEM_CHROMIUM.exists():
        options["executable_path"] = str(SYSTEM_CHROMIUM)
    return options
