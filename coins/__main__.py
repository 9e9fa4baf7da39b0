"""``python -m coins``: the same as the ``coins`` command."""

import sys

from .launch import main

sys.exit(main())
