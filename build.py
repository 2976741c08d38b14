#!/usr/bin/env python3
"""Build, serve, test and measure chunker. Standard library only; Python 3.11+ (tomllib).

python3 build.py wheel               the py3-none-any wheel, into dist/
python3 build.py web                 the static site, into site/ (incremental)
python3 build.py package             the npm package, dist/chunker-web-<version>.tgz
python3 build.py serve               build what is stale, then serve site/ on 127.0.0.1:8000
python3 build.py test [ARGS]         install the test tools, build, run pytest with ARGS;
                                    with no selection in ARGS, the core suite on Python
                                    3.10 too (when the machine has a python3.10)
python3 build.py test --core [ARGS]  the core suite alone (tests/core/): no Node,
                                    no Chromium, no build
python3 build.py bench               the benchmarks (CPython and Node, then the browser)
"""

from __future__ import annotations

import argparse
import sys

from tools.bench import bench
from tools.package import build_package
from tools.server import serve
from tools.site import build_web
from tools.testing import test
from tools.wheel import build_wheel


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("wheel", help="build dist/chunkspan-<version>-py3-none-any.whl")
    commands.add_parser("web", help="assemble the static site in site/ (incremental)")
    commands.add_parser("package", help="build the npm package dist/chunker-web-<version>.tgz")
    serving = commands.add_parser("serve", help="build what is stale, serve site/ on 127.0.0.1")
    serving.add_argument("--port", type=int, default=8000, help="port (default 8000; 0: any)")
    testing = commands.add_parser(
        "test",
        help="install test tools, build, run pytest (extra arguments go to pytest)",
        description="Install the test tools, build the site, run pytest with the extra arguments;"
        " with no selection among them, run the core suite on Python 3.10 too, when the"
        " machine has one (else a NOT RUN line says so).",
        allow_abbrev=False,  # pytest's --co is --collect-only, not --core
    )
    testing.add_argument(
        "--core",
        action="store_true",
        help="only the core suite (tests/core/): no Node, no Chromium, no build",
    )
    commands.add_parser(
        "bench", help="run tests/bench/core.py, pipelines.py, browser.py and playground.py"
    )
    args, extra = parser.parse_known_args()
    if extra and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "wheel":
        print(build_wheel())
    elif args.command == "web":
        build_web()
    elif args.command == "package":
        print(build_package())
    elif args.command == "serve":
        serve(args.port)
    elif args.command == "test":
        return test(extra, core=args.core)
    elif args.command == "bench":
        return bench()
    return 0


if __name__ == "__main__":
    sys.exit(main())
