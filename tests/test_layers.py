"""The layers keep to their one-way imports (README, "Architecture"): ``analysis``
reaches the kernels only through public ``solver`` modules, the board shares the
command line's option definitions without importing the command line, and the
tests take no helper from ``benchmarks`` except to test a benchmark.

Expected values: the import statements of the source files, read with ``ast``,
and the modules a fresh interpreter has loaded after an import.
"""

from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.reach import EXACT_REACH, ExactReach

ROOT = Path(__file__).resolve().parents[1]


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, dotted and absolute (``from solver import
    _kernels`` gives ``solver._kernels`` as well as ``solver``; ``from ..cli
    import main`` in ``coins/web/app.py`` gives ``coins.cli``), inside
    functions too."""
    package = list(path.resolve().relative_to(ROOT).parent.parts)
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names.add(module)
            names |= {f"{module}.{alias.name}" for alias in node.names}
    return names


def test_imported_finds_the_ways_a_module_is_imported(tmp_path, monkeypatch):
    source = tmp_path / "coins" / "web" / "sample.py"
    source.parent.mkdir(parents=True)
    source.write_text(
        "from solver import _kernels as k\n"
        "def f():\n    import solver._kernels\n    from benchmarks.board import post\n"
        "    from ..cli import build_parser\n    from . import app\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert {
        "solver._kernels",
        "benchmarks.board.post",
        "coins.cli",
        "coins.cli.build_parser",
        "coins.web.app",
    } <= imported(source)


def test_analysis_uses_no_private_solver_module():
    for path in sorted((ROOT / "analysis").glob("*.py")):
        private = {
            name
            for name in imported(path)
            if name.startswith("solver.") and any(p.startswith("_") for p in name.split(".")[1:])
        }
        assert not private, f"{path.name} imports {sorted(private)}"


def test_the_board_reads_the_options_without_the_command_line():
    pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
    code = (
        "import sys, coins.commands; assert 'coins.web' not in sys.modules; "
        "import coins.web.app; print(sorted(m for m in sys.modules if m == 'coins.cli'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"
    assert "coins.cli" not in imported(ROOT / "coins" / "web" / "app.py")


def test_tests_take_from_benchmarks_only_to_test_a_benchmark():
    for path in sorted((ROOT / "tests").glob("*.py")):
        uses = {name for name in imported(path) if name.split(".")[0] == "benchmarks"}
        benchmark_test = path.name.endswith("_benchmark.py") or path.name == "test_benchmarks.py"
        assert benchmark_test or not uses, f"{path.name} imports {sorted(uses)}"


# ----- how far exact search reaches: one frozen object


def test_the_exact_reach_cannot_be_changed_in_place():
    with pytest.raises(dataclasses.FrozenInstanceError):
        EXACT_REACH.hint_points = 7
    with pytest.raises(TypeError):
        EXACT_REACH.estimate_exact_share[9] = 1.0
    shares = {9: 0.5}
    reach = ExactReach(estimate_exact_share=shares)
    shares[9] = 1.0  # the caller's dict is copied, not kept
    assert reach.estimate_share(9) == 0.5 and reach.estimate_share(5) == 1.0


def test_the_exact_reach_keeps_its_measured_values():
    values = {f.name: getattr(EXACT_REACH, f.name) for f in dataclasses.fields(EXACT_REACH)}
    assert values | {"estimate_exact_share": None} == {
        "hint_points": 6,
        "hint_guaranteed": 8,
        "hint_chances": 5,
        "estimate_points": 9,
        "estimate_chances": 7,
        "estimate_exact_share": None,
        "analyze_points": 9,
        "decision_chances": 6,
    }
    assert dict(EXACT_REACH.estimate_exact_share) == {7: 0.8, 8: 0.5, 9: 0.75}


def test_no_analysis_module_keeps_a_threshold_of_its_own():
    # the names the thresholds had before they were gathered in analysis.reach
    old = {"EXACT_CARDS", "EXACT_MAX_CARDS", "EXACT_SHARE", "MATCH_EXACT_MAX_CARDS"}
    old.add("MATCH_EXACT_CARDS")
    for path in sorted((ROOT / "analysis").glob("*.py")):
        tree = ast.parse(path.read_text())
        assigned = {
            target.id
            for node in tree.body
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        assert not assigned & old, f"{path.name} defines {sorted(assigned & old)}"
