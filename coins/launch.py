"""The ``coins`` command's entry point: Ctrl-C at any moment ends the command in one
line with exit status 130, also while ``coins.cli`` imports numba and the solver or
builds its parser, before ``coins.cli.main`` can catch it."""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from .cli import main as run

        return run()
    except KeyboardInterrupt:
        print("coins: interrupted", file=sys.stderr)
        return 130
