"""`python -m chunker`: the command line (see `chunker.cli`)."""

import sys

from .cli import main

sys.exit(main())
