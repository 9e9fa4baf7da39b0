"""The one-line notice every solving command prints before the first compile."""

from __future__ import annotations

import sys

from solver.compiled import COMPILE_TIME, is_compiled, warm_up


def compile_notice() -> None:
    """Tell the user (on stderr, so stdout stays clean for --json) when the
    solver's kernels are about to be compiled rather than loaded from the
    cache, and compile all of them then: a command that used only some would
    leave the others cold, and every later run would say it again."""
    if not is_compiled():
        print(
            f"compiling the solver (first run only, {COMPILE_TIME})...",
            file=sys.stderr,
            flush=True,
        )
        warm_up()
