"""What the plotting functions share: matplotlib drawing to files only, and file errors
reported as the library's.

``study.plot_study`` and ``reviews.plot_review`` use it; ``coins`` checks a
plot's file with ``check_plot_file`` before any work.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from solver import checks
from solver.errors import PathError

from .batch import BatchError

NEEDS_MATPLOTLIB = 'plots need matplotlib: pip install ".[plots]"'
PLOT_EXTENSIONS = (".png", ".svg", ".pdf")


def pyplot():
    """matplotlib's pyplot, drawing to files only (``BatchError`` when not installed)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise BatchError(NEEDS_MATPLOTLIB) from None
    return plt


@contextmanager
def writing():
    """A file that cannot be written after all (the disk filled up ...) as a ``PathError``."""
    try:
        yield
    except OSError as error:
        raise PathError(f"cannot write {error.filename}: {error.strerror}") from None


def check_plot_file(path: str | Path) -> Path:
    """``path`` if a plot can be drawn there: a picture's extension, matplotlib
    installed (``BatchError``) and a file that can be written (``PathError``)."""
    path = Path(path)
    if path.suffix.lower() not in PLOT_EXTENSIONS:
        raise PathError(
            f'cannot write "{path}": a plot\'s file name must end in {", ".join(PLOT_EXTENSIONS)}'
        )
    pyplot()
    return checks.output_file(path, "the plot")
