"""The tools that compare candidate value networks (training/candidates and
training/combine_nets.py) on the committee's networks (solver/committee): a
network file made of new small members keeps the shipped large ones exactly,
and a vote names the card most networks name."""

import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from solver import Position
from solver.evaluator import ValueNet, stacked

TRAINING = Path(__file__).resolve().parents[1] / "training"
CANDIDATES = TRAINING / "candidates"
SHIPPED = TRAINING.parent / "solver" / "value_net.npz"
COMMITTEE = TRAINING.parent / "solver" / "committee"


@pytest.fixture
def tools(monkeypatch):
    monkeypatch.syspath_prepend(str(CANDIDATES))
    monkeypatch.syspath_prepend(str(TRAINING))
    import combine_nets
    import vote

    yield combine_nets, vote
    for name in ("vote", "combine_nets"):
        sys.modules.pop(name, None)


@pytest.mark.parametrize("small", ["net_c.npz", "net_w.npz"])
def test_a_candidate_file_values_large_hands_as_shipped_and_small_ones_as_the_candidate(
    tools, tmp_path, small
):
    combine_nets, _ = tools
    out = tmp_path / "net.npz"
    combine_nets.main([str(COMMITTEE / small), str(SHIPPED), "--out", str(out)])
    made, shipped = ValueNet.load(out), ValueNet.load()
    rng = random.Random(5)
    for cards in (10, 12, 16):  # beyond the split: the shipped members, zero-padded
        position = Position.random(rng, cards, leader=rng.randrange(3))
        assert made.value(position) == pytest.approx(shipped.value(position), abs=1e-5)
    with np.load(COMMITTEE / small) as weights:
        members = stacked(weights["b1"], "b1").shape[0]
    alone = {name: getattr(made, name)[:members] for name in ("w1", "b1", "w2", "b2", "w3", "b3")}
    candidate = ValueNet(**alone, split=made.split, small=members)
    position = Position.random(rng, 8, leader=1)  # within the split: the candidate's own
    assert made.value(position) == pytest.approx(candidate.value(position), abs=1e-5)
    assert made.value(position) != pytest.approx(shipped.value(position), abs=1e-3)


def test_a_vote_takes_the_most_named_card_and_the_first_files_among_ties(tools, tmp_path, capsys):
    _, vote = tools

    def picks(name, *cards):
        rows = [
            {"set": "s", "index": i, "card": card, "right": card == "AC"}
            for i, card in enumerate(cards)
        ]
        path = tmp_path / name
        path.write_text(json.dumps(rows))
        return str(path)

    files = [
        picks("first", "KC", "AC", "2O"),
        picks("b", "AC", "KC", "AC"),
        picks("c", "AC", "KC", "3O"),
    ]
    vote.main(files)
    # position 0: AC by two of three (won); 1: KC by two (lost); 2: a tie of three, the first's 2O
    assert capsys.readouterr().out.strip() == (
        "vote of 3: 1/3 right; against the first file's cards 1 won, 1 lost"
    )
