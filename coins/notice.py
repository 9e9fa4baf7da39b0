"""The notice every frontend gives before the first compile: the commands' one
line on stderr, the board's search jobs and games (``coins.web``)."""

from __future__ import annotations

import sys

from solver.compiled import COMPILE_TIME, is_compiled, warm_up

COMPILE_NOTICE = f"compiling the solver (first run only, {COMPILE_TIME})"


def compile_notice() -> None:
    """Tell the user (on stderr, so stdout stays clean for --json) when the
    solver's kernels are about to be compiled rather than loaded from the
    cache, and compile all of them then: a command that used only some would
    leave the others cold, and every later run would say it again."""
    if not is_compiled():
        print(f"{COMPILE_NOTICE}...", file=sys.stderr, flush=True)
        warm_up()
