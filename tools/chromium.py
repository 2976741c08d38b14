"""How the tests and the benchmarks launch Chromium (through Playwright)."""

from __future__ import annotations

from pathlib import Path

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


def has_chromium() -> bool:
    """Whether a Chromium is there to launch: Debian's, or one Playwright installed before."""
    if SYSTEM_CHROMIUM.exists():
        return True
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        return Path(playwright.chromium.executable_path).exists()


def chromium_options() -> dict[str, object]:
    """Playwright launch options for the tests and benchmarks: Debian's Chromium if present."""
    options: dict[str, object] = {"args": list(CHROMIUM_ARGS)}
    if SYSTEM_CHROMIUM.exists():
        options["executable_path"] = str(SYSTEM_CHROMIUM)
    return options
