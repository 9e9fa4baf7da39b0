"""``solver.compiled``: is_compiled tells a cold Numba cache from a warm one."""

import os
import subprocess
import sys
from pathlib import Path
from types import FunctionType

import pytest
from numba.core import config
from numba.core.dispatcher import Dispatcher

from solver import _kernels
from solver.compiled import is_compiled, warm_up

REPO = Path(__file__).resolve().parents[1]
CHECK = "from solver.compiled import is_compiled; print(is_compiled())"


def python(code, **env):
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=dict(os.environ, **env),
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_compiled_after_warm_up():
    warm_up()
    assert is_compiled()


# True from is_compiled must mean that solving and hinting compile nothing: count cache misses
SOLVE_AND_COUNT_MISSES = """
import random
from numba.core.dispatcher import Dispatcher
from solver.playouts import greedy_card, greedy_reply_values, playout
from solver import _kernels, solve, Position
from solver.compiled import is_compiled
ready = is_compiled()
solve("J9.J4..52 .K75.6.N8 A753.8.5. 0 -")
position = Position.parse("J9.J4..52 .K75.6.N8 A753.8.5. 0 -")
playout(position.hands, position.leader, position.trick, random.Random(1), epsilon=0.2)
greedy_card(position.hands[0], [])
greedy_reply_values(position.hands, position.leader, [])
kernels = [f for f in vars(_kernels).values() if isinstance(f, Dispatcher)]
print(ready, sum(sum(f.stats.cache_misses.values()) for f in kernels))
"""


def test_empty_cache_then_filled_cache(tmp_path):
    cache = str(tmp_path)
    assert python(CHECK, NUMBA_CACHE_DIR=cache) == "False"
    python("from solver.compiled import warm_up; print(warm_up())", NUMBA_CACHE_DIR=cache)
    done = python(SOLVE_AND_COUNT_MISSES, NUMBA_CACHE_DIR=cache)
    assert done == "True 0"


@pytest.mark.kernels
def test_the_kernels_are_plain_python_exactly_when_jit_is_off():
    """CI runs the tests marked ``kernels`` once more with NUMBA_DISABLE_JIT=1:
    they must then run the kernels as plain Python, and compiled otherwise."""
    kernels = [
        _kernels.paranoid_search,
        _kernels.maxn_search,
        _kernels.play_until,
        _kernels.move_score,
    ]
    assert all(isinstance(kernel, FunctionType) == bool(config.DISABLE_JIT) for kernel in kernels)
    assert all(isinstance(kernel, Dispatcher) != bool(config.DISABLE_JIT) for kernel in kernels)


def test_nothing_to_compile_without_jit(tmp_path):
    assert python(CHECK, NUMBA_CACHE_DIR=str(tmp_path), NUMBA_DISABLE_JIT="1") == "True"
