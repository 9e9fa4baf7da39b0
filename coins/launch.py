"""The ``coins`` command's entry point: ``coins.cli`` imports numba and the solver,
which takes a moment, and Ctrl-C in that moment should end the command as it ends
any other (one line, exit status 130), not with a traceback of the imports."""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        print("coins: interrupted", file=sys.stderr)
        return 130
    return run()
