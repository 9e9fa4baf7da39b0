"""``benchmarks.batch``: its quick run saves the report it prints."""

from __future__ import annotations

import json

from benchmarks import batch as bench


def test_quick_benchmark_saves_its_report(tmp_path, capsys):
    output = tmp_path / "batch.json"
    report = bench.main(["--quick", "--output", str(output)])
    assert json.loads(output.read_text()) == json.loads(json.dumps(report))
    assert [run["workers"] for run in report["scaling"]["runs"]] == [1, 2]
    assert report["volume"]["positions"] == bench.QUICK["volume_positions"]
    assert "speedup" in capsys.readouterr().out
