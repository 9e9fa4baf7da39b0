"""``python -m coins``: the same as the ``coins`` command."""

import sys

from .cli import main

sys.exit(main())
