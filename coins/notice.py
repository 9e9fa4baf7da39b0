"""The one-line notice every solving command prints before the first compile."""

from __future__ import annotations

import sys

from solver.compiled import COMPILE_SECONDS, is_compiled


def compile_notice() -> None:
    """Tell the user (on stderr, so stdout stays clean for --json) when the
    solver's kernels are about to be compiled rather than loaded from the cache."""
    if not is_compiled():
        print(
            f"compiling the solver (first run only, about {COMPILE_SECONDS} s)...",
            file=sys.stderr,
            flush=True,
        )
