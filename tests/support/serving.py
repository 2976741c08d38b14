"""The built site and the test pages beside it, served by build.py's own server on a free port.

Imports tools/ (build.py's modules, Python 3.11+): only the browser tests need it.
"""

from __future__ import annotations

import sys
from contextlib import AbstractContextManager

from .paths import PAGES, ROOT, WEB

sys.path.insert(0, str(ROOT))  # build.py's modules (tools/) are imported as a package
from tools.paths import SITE
from tools.server import CSP, served

# What the test server serves: the site, the test pages beside it, and web/'s modules as they
# are, which the site serves only bundled (the pages import one to read a snapshot).
MOUNTS = {"/": SITE, "/_test/": PAGES, "/_web/": WEB}


def serving(csp: str = CSP) -> AbstractContextManager[str]:
    """Serve the site and the test pages on a free port (a context yielding the origin)."""
    return served(MOUNTS, csp=csp)
