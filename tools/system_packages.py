"""The system's package manager, for what the test run needs of the machine: Debian's or
Ubuntu's apt-get, and only when this runs as root (never sudo behind a user's back)."""

from __future__ import annotations

import os
import shutil
import subprocess

from .paths import log


def can_apt_install() -> bool:
    """Whether `apt_install` can work here: apt-get is there and this process is root."""
    return shutil.which("apt-get") is not None and hasattr(os, "geteuid") and os.geteuid() == 0


def apt_install(packages: list[str], why: str) -> bool:
    """Install `packages` with apt-get, saying `why` first; answer whether it succeeded."""
    log(f"installing {' '.join(packages)} with apt-get: {why}")
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in (["apt-get", "update"], ["apt-get", "install", "-y", *packages]):
        if subprocess.run(command, env=environment).returncode != 0:
            log(f"`{' '.join(command)}` failed")
            return False
    return True
