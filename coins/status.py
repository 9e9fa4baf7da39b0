"""The live status line that long searches keep on stderr while they run."""

from __future__ import annotations

from contextlib import contextmanager

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn


@contextmanager
def search_status():
    """A ``progress`` callback for ``solve`` or ``analyze`` that keeps a live status line on
    stderr (what is being proven, seconds so far) while a long solve runs, or
    None when stderr is not a terminal (scripts and pipes see nothing extra)."""
    console = Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        TextColumn("[dim]Ctrl-C stops"),
    )
    with Progress(*columns, console=console, transient=True) as status:
        task = status.add_task("solving", total=None)
        yield lambda message: status.update(task, description=message)
