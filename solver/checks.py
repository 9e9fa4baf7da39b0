"""The checks every public function and every command applies to its numbers and files.

One place says what a node limit, a time limit, a seed, a count or an output
file may be, so that ``solve(time_limit=inf)`` and ``coins solve
--time-limit inf`` are refused alike, with the same words, before any work
starts: the command line (``coins.options``) turns these checks into its
argument types, and the functions of ``solver`` and ``analysis`` call them
on their arguments. A bad number raises ``OptionError``, a file that cannot
be written or read ``PathError``; both are ``CoinsError``s with one line
that names the argument.
"""

from __future__ import annotations

import math
import numbers
import os
from importlib import resources
from pathlib import Path

import numpy as np

from .errors import CoinsError, OptionError, PathError

# The longest time limit: about 11.6 days, far beyond any search anyone waits
# for, and far below what the timers that enforce it can hold (a
# threading.Timer dies in its thread past threading.TIMEOUT_MAX, about 9.2e9 s).
MAX_SECONDS = 1_000_000
# The largest node limit: the compiled searches count nodes in int64.
MAX_NODES = 10**18
# Seeds are whole numbers 0 to 2^64 - 1: random.Random(-n) is random.Random(n),
# so negative seeds would only repeat positive ones.
MAX_SEED = 2**64 - 1


def whole_number(value, name: str, low: int = 1, high: int | None = None) -> int:
    """``value`` as an int if it is a whole number from ``low`` to ``high``
    (no upper bound when None); ``OptionError`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise OptionError(f"{name} must be a whole number, not {value!r}")
    value = int(value)
    if value < low or (high is not None and value > high):
        allowed = f"{low} or more" if high is None else f"{low} to {shown(high)}"
        raise OptionError(f"{name} must be {allowed}, not {shown(value)}")
    return value


def shown(number: int) -> str:
    """A bound as people read it: ``10^18``, ``2^64-1``, or ``12,000``."""
    if number >= 10**6 and str(number).rstrip("0") == "1":
        return f"10^{len(str(number)) - 1}"
    if number >= 2**32 - 1 and (number + 1).bit_count() == 1:
        return f"2^{number.bit_length()}-1"
    return f"{number:,}"


def seconds(value, name: str, zero_means_none: bool = False) -> float:
    """``value`` as a float if it is a time limit: finite, above 0 (or 0 when
    ``zero_means_none``: no limit), at most ``MAX_SECONDS``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise OptionError(f"{name} must be a number of seconds, not {value!r}")
    value = float(value)
    if not (0 <= value <= MAX_SECONDS) or (value == 0 and not zero_means_none):
        allowed = "from 0 (no limit) to" if zero_means_none else "above 0, at most"
        raise OptionError(f"{name} must be {allowed} {MAX_SECONDS:,} seconds, not {value!r}")
    return value


def points(value, name: str) -> float:
    """``value`` as a float if it is a finite number of points from 0."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value < math.inf:
        raise OptionError(f"{name} must be a number of points from 0, not {value!r}")
    return float(value)


def share(value, name: str) -> float:
    """``value`` as a float if it is a number from 0 to 1 (a weight or a probability)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 <= value <= 1:
        raise OptionError(f"{name} must be a number from 0 to 1, not {value!r}")
    return float(value)


def node_limit(value, name: str = "max_nodes") -> int | None:
    """A node limit (None: no limit): a whole number from 1 to ``MAX_NODES``."""
    return None if value is None else whole_number(value, name, 1, MAX_NODES)


def time_limit(value, name: str = "time_limit") -> float | None:
    """A time limit in seconds (None: no limit): ``seconds`` above 0."""
    return None if value is None else seconds(value, name)


def seed(value, name: str = "seed") -> int | None:
    """A seed (None: a fresh one): a whole number from 0 to ``MAX_SEED``."""
    return None if value is None else whole_number(value, name, 0, MAX_SEED)


def output_file(path, name: str, others: dict | None = None) -> Path:
    """``path`` if a file can be written there and it is none of ``others``
    (``{what: path}``: the files the same run reads or writes as well; None or
    ``-`` paths are left out); ``PathError`` otherwise.

    The check opens the file for appending, which changes nothing in a file
    already there, and removes it again if it made it: only the system knows
    for sure what may be written (a read-only disk, /proc, a full quota).
    """
    path = Path(path)
    for what, other in (others or {}).items():
        if other is not None and str(other) != "-" and same_file(path, other):
            raise PathError(f"{name} {path} is {what}: write to another file")
    if path.is_dir():
        raise PathError(f"{name} {path} is a folder: give a file name")
    if not path.parent.is_dir():
        problem = "is not a folder" if path.parent.exists() else "does not exist"
        raise PathError(f"{name} {path}: {path.parent} {problem}")
    if path.exists() and not path.is_file():  # a device or pipe: writing is for it to say
        return path
    made = not path.exists()
    try:
        with open(path, "ab"):
            pass
    except OSError as error:
        raise PathError(f"cannot write {name} {path}: {error.strerror}") from None
    if made:
        path.unlink(missing_ok=True)
    return path


def input_file(path, name: str) -> Path:
    """``path`` if it is a file that can be read; ``PathError`` otherwise."""
    path = Path(path)
    if not path.is_file():
        what = "is a folder" if path.is_dir() else "does not exist"
        raise PathError(f"{name} {path} {what}")
    if not os.access(path, os.R_OK):
        raise PathError(f"cannot read {name} {path}: permission denied")
    return path


def same_file(path, other) -> bool:
    """Do ``path`` and ``other`` name one file (through links too), whether or not it exists?"""
    path, other = Path(path), Path(other)
    try:
        return path.samefile(other)
    except OSError:  # one of them does not exist yet
        return path.resolve() == other.resolve()


def weight_arrays(
    path, package: str, default: str, names, what: str, optional=()
) -> dict[str, np.ndarray]:
    """The arrays ``names`` (and those of ``optional`` it holds) of the ``.npz``
    at ``path``, by default ``package``'s file ``default``; CoinsError when one
    of ``names`` is not there (rather than a KeyError deep in a loader)."""
    source = resources.files(package).joinpath(default) if path is None else Path(path)
    with source.open("rb") as file, np.load(file) as weights:
        missing = set(names) - set(weights.files)
        if missing:
            raise CoinsError(f"{what}: no {', '.join(sorted(missing))} in the weights")
        return {name: weights[name] for name in (*names, *optional) if name in weights.files}


def array_shapes(owner, shapes: dict, what: str) -> None:
    """Raise CoinsError unless each array ``owner.<name>`` has its shape in
    ``shapes`` (a weights file of another network would feed the kernels,
    which check no bounds, arrays of the wrong size)."""
    for name, shape in shapes.items():
        found = getattr(owner, name).shape
        if found != shape:
            raise CoinsError(f"{what}: {name} has shape {found}, expected {shape}")
