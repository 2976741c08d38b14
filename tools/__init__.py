"""What `build.py` runs, one job a module; never shipped (the wheel holds `chunkspan` only).

- `paths`: the repository's folders, and the log line;
- `wheel`: the py3-none-any wheel, built by hand from pyproject.toml;
- `site`: the static site in site/ (Pyodide, micropip, the wheel, compiled to bytecode);
- `package`: the npm package, the facade and its runtime in one .tgz;
- `server`: the site served with exact MIME types and a strict CSP;
- `chromium`: how the tests and benchmarks launch Chromium;
- `testing`: the test tools installed, then pytest (the core suite alone with `--core`);
- `oldest_python`: the oldest Python `requires-python` promises, with a venv for the core;
- `bench`: the benchmarks.
"""
