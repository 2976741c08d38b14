"""`python -m chunkspan`: the command line (see `chunkspan.cli`)."""

import sys

from .cli import main

sys.exit(main())
