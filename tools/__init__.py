"""What `build.py` runs, one job a module; never shipped (the wheel holds `chunker` only).

- `paths`: the repository's folders, and the log line;
- `wheel`: the py3-none-any wheel, built by hand from pyproject.toml;
- `site`: the static site in site/ (Pyodide, micropip, the wheel, compiled to bytecode);
- `package`: the npm package, the facade and its runtime in one .tgz;
- `server`: the site served with exact MIME types and a strict CSP;
- `venv`: the venvs under .cache/ that hold the test tools (never the system's Python);
- `system_packages`: apt-get as root, for what the machine lacks;
- `chromium`: the Chromium the tests and benchmarks launch, found or installed;
- `java`: the Java 17+ the Spark tests run on, found or installed;
- `testing`: the test tools, a Chromium and a Java, then pytest (the core alone with `--core`);
- `oldest_python`: the oldest Python `requires-python` promises, found on this machine;
- `bench`: the benchmarks.
"""

import sys

# Checked before any tool loads: they read pyproject.toml with tomllib (Python 3.11), and on an
# older Python its ModuleNotFoundError would not say what to do.
if sys.version_info < (3, 11):
    sys.exit(
        f"build.py needs Python 3.11 or newer (it reads pyproject.toml with tomllib); this is "
        f"{sys.version.split()[0]} at {sys.executable}. Run it with a newer python3; the "
        f"package itself runs on 3.10."
    )
