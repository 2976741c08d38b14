"""`python -m chunker`: the command line (see `chunker.cli`)."""

import sys

from chunker.cli import main

sys.exit(main())
