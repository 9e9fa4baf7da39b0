"""analyze and review: values from the solvers, costs of known blunders, bad records, CLI.

Expected values come from ``solve`` and ``solve_maxn`` (checked against the
naive twins elsewhere) or, where said, are worked out by hand from RULES.md.
"""

from __future__ import annotations

import doctest
import json
import random

import pytest
from positions import random_position

import analysis
import analysis.graph
import analysis.report
import analysis.reviews
from analysis import analyze, review
from solver import CoinsError, Position, solve
from solver.maxn import solve_maxn
from solver.record import Record

ENDING = "J9.J4..52 .K75.6.N8 A753.8.5. 0 -"
SMALL = "7...2 K.3.. J.6.. 0 - 0,1,0"


def small_positions(count, seed):
    rng = random.Random(seed)
    return [
        random_position(rng, rng.choice((3, 4)), on_table=rng.randrange(3), taken=True)
        for _ in range(count)
    ]


@pytest.mark.parametrize("module", [analysis.report, analysis.reviews, analysis.graph])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


# ----- analyze ------------------------------------------------------------------------


@pytest.mark.parametrize("position", [Position.parse(ENDING), *small_positions(3, seed=3)], ids=str)
def test_analyze_walks_the_maxn_line_with_both_modes_values(position):
    report = analyze(position)
    assert report.exact
    assert report.guaranteed == solve(position).guaranteed
    root = solve_maxn(position)
    assert report.equilibrium == root.equilibrium
    assert report.line == root.line  # the main line is the max^n equilibrium line
    current = position
    for number, decision in enumerate(report.decisions, start=1):
        assert decision.number == number and decision.position == current
        mover = current.to_move
        paranoid, maxn = solve(current), solve_maxn(current)
        assert decision.seat == mover
        assert decision.guaranteed == paranoid.guaranteed[mover]
        assert decision.equilibrium == maxn.equilibrium
        assert decision.played == maxn.line[0]
        best_own = max(r[mover] for r in maxn.card_results.values())
        assert {c.card for c in decision.cards} == set(current.legal_cards())
        for card in decision.cards:
            assert card.paranoid == paranoid.card_values[card.card]
            assert card.maxn == maxn.card_results[card.card]
            assert card.paranoid_optimal == (card.card in paranoid.optimal)
            assert card.maxn_best == (card.maxn[mover] == best_own)
            assert card.maxn_choice == (card.card == decision.played)
        assert decision.disagree == (decision.played not in paranoid.optimal)
        current = current.play(decision.played)
        assert decision.taken == list(current.taken)
    assert current.is_terminal


def test_analyze_flags_where_the_modes_disagree():
    # In ENDING the max^n line plays 5O at move 2 where seat 1's only
    # paranoid-optimal cards are NB/8B: solve gives 5O a card value of 1
    # against a guaranteed value of 2.
    report = analyze(ENDING)
    second = report.decisions[1]
    assert str(second.played) == "5O"
    assert second.disagree and second.paranoid_cost == 1
    assert {str(c) for c in second.paranoid_optimal} == {"NB", "8B"}
    assert [d.number for d in report.disagreements] == report.to_json()["disagreements"]
    assert report.disagreements and all(d.paranoid_cost > 0 for d in report.disagreements)


def test_analyze_json_is_plain_data():
    report = analyze(SMALL)
    data = json.loads(json.dumps(report.to_json()))
    assert data["position"] == SMALL and data["line"] == [str(c) for c in report.line]
    first = data["decisions"][0]
    assert {c["card"] for c in first["cards"]} == {"7C", "2B"}
    assert "max^n" in data["main_line"]


def test_analyze_with_a_tiny_budget_is_not_exact():
    report = analyze(Position.random(2, 8), max_nodes=50)
    assert not report.exact and len(report.decisions) < 24


# ----- review -------------------------------------------------------------------------


def paranoid_optimal_record(position: Position) -> list:
    """Every seat plays one of its own paranoid-optimal cards at every move.

    (Not ``solve(position).line``: there only the first mover keeps its value,
    the other two play against it rather than for their own guarantee.)
    """
    cards = []
    while not position.is_terminal:
        card = solve(position).optimal[-1]
        cards.append(card)
        position = position.play(card)
    return cards


@pytest.mark.parametrize("position", [Position.parse(ENDING), *small_positions(2, seed=4)], ids=str)
def test_playing_optimal_cards_costs_nothing(position):
    cards = paranoid_optimal_record(position)
    result = review(Record.of(position, cards))
    assert [m.paranoid_cost for m in result.moves] == [0] * len(cards)
    assert all(s.paranoid_lost == 0 and s.biggest_paranoid is None for s in result.summary)

    line = solve_maxn(position).line  # every card the mover's max^n choice
    result = review(f"{position} | {' '.join(map(str, line))}")
    assert [m.maxn_cost for m in result.moves] == [0] * len(line)
    assert result.final.is_terminal and result.to_json()["hand_over"]
    # the running score is the taken field after each card
    current = position
    for move in result.moves:
        current = current.play(move.card)
        assert move.taken == list(current.taken)


def test_a_known_blunder_costs_two_points_in_both_modes():
    # SMALL: seat 0 holds 7C 2B, seat 1 KC 3O, seat 2 JC 6O. After 2B 3O,
    # seat 2's 6O pairs with 3O and wins both Coins (2 points), then no Coin is
    # left; JC makes three suits (B O C, Swords missing: Clubs win), seat 0
    # takes 3O and leads 7C, KC wins 6O: seat 2 ends with 0. So JC costs seat
    # 2 two points whether the others gang up or play for themselves.
    result = review(f"{SMALL} | 2B 3O JC 7C KC 6O")
    blunder = result.moves[2]
    assert (blunder.seat, str(blunder.card)) == (2, "JC")
    assert (blunder.guaranteed, blunder.value, blunder.paranoid_cost) == (2, 0, 2)
    assert (blunder.best_own, blunder.maxn_cost) == (2, 2)
    assert [str(c) for c in blunder.paranoid_optimal] == ["6O"]
    assert [m.paranoid_cost for m in result.moves] == [0, 0, 2, 0, 0, 0]
    seat2 = result.summary[2]
    assert (seat2.paranoid_lost, seat2.maxn_lost, seat2.paranoid_mistakes) == (2, 2, 1)
    assert seat2.biggest_paranoid is blunder and seat2.biggest_maxn is blunder
    assert result.moves[2].taken == [1, 1, 0] and result.moves[5].taken == [1, 2, 0]
    summary = result.to_json()["summary"][2]
    assert summary["biggest_paranoid"] == {"number": 3, "card": "JC", "cost": 2}


def test_blunders_found_by_the_solver_cost_what_solve_says():
    # a 4-card position where the mover has a card worth less than its best:
    # the cost of playing it is the solver's guaranteed value minus its card value
    for position in small_positions(10, seed=21):
        values = solve(position)
        mover = position.to_move
        worst = min(values.card_values, key=values.card_values.get)
        if values.card_values[worst] < values.guaranteed[mover]:
            break
    else:
        pytest.fail("no position with a costly card among the seeded ones")
    move = review(f"{position} | {worst}").moves[0]
    assert move.paranoid_cost == values.guaranteed[mover] - values.card_values[worst] > 0
    results = solve_maxn(position).card_results
    assert move.maxn_cost == max(r[mover] for r in results.values()) - results[worst][mover]


@pytest.mark.parametrize(
    "record, says",
    [
        (f"{SMALL} | 2B 6O 3O", "move 2"),  # 6O is seat 2's: wrong order
        (f"{SMALL} | 2B 3O AO", "move 3"),  # nobody holds AO
        (f"{SMALL} | 2B 3O 2B", "move 3"),  # played already
        (f"{SMALL} | 2B 3O 6O 7C", "move 4"),  # seat 2 won the trick and leads
        (f"{SMALL} | 2B 3O 6O JC 7C KC 7C", "move 7"),  # after the end of the hand
        (f"{SMALL} | 2B X3", "move 2"),  # not a card
    ],
)
def test_bad_records_name_the_move(record, says):
    with pytest.raises(CoinsError, match=says):
        review(record)


def test_records_that_cannot_be_reviewed():
    with pytest.raises(CoinsError, match="every hand"):
        review("7...2 ? J.6.. 0 - 0,1,0 | 2B")
    with pytest.raises(CoinsError):
        review(SMALL)  # no " | "


# ----- command line -------------------------------------------------------------------


def without_timing(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("nodes", "seconds")}


def test_cli_analyze(coins):
    status, out, _ = coins("analyze", ENDING, "--json")
    assert status == 0
    assert without_timing(json.loads(out)) == without_timing(analyze(ENDING).to_json())
    status, out, _ = coins("analyze", *ENDING.split())
    assert status == 0
    assert "Main line: the max^n equilibrium line" in out
    assert "JC/9C:1*" in out  # equivalent cards together, with their paranoid value
    assert "modes disagree: -1" in out  # the max^n card gives up 1 guaranteed point


def test_cli_review(coins):
    record = f"{SMALL} | 2B 3O JC 7C KC 6O"
    status, out, _ = coins("review", record, "--json")
    assert status == 0
    assert without_timing(json.loads(out)) == without_timing(review(record).to_json())
    status, out, _ = coins("review", record)
    assert status == 0 and "#3 JC -2" in out and "Score after the record (taken): 1,2,0" in out


def test_modes_are_compared_only_where_paranoid_values_exist(coins):
    position = Position.random(1, 5)
    full = analyze(position)
    assert full.disagreements and [d.number for d in full.compared] == list(range(1, 16))
    blind = analyze(position, exact_cards=0)
    assert blind.compared == [] and blind.disagreements == []
    assert blind.to_json()["compared"] == []
    _, out, _ = coins("analyze", str(position), "--exact-cards", "0")
    assert "The modes were not compared" in out and "throughout" not in out
    part = analyze(position, exact_cards=4)
    assert 0 < len(part.compared) < len(part.decisions)
    _, out, _ = coins("analyze", str(position), "--exact-cards", "4")
    assert "of the moves with paranoid values" in out and "throughout" not in out


def test_cli_graph(coins, tmp_path):
    out_file = tmp_path / "g.graphml"
    status, out, _ = coins("graph", ENDING, "--depth", "1", "--out", str(out_file))
    assert status == 0 and out_file.exists() and "5 positions, 4 edges" in out


def test_cli_graph_out_of_budget_writes_what_it_found(coins, tmp_path):
    out_file = tmp_path / "g.json"
    status, out, _ = coins(
        "graph", ENDING, "--depth", "3", "--max-nodes", "2000", "--out", str(out_file)
    )
    assert status == 0 and out_file.exists()
    assert "stopped by the node or time limit: positions not yet solved have no values" in out


@pytest.mark.parametrize(
    "argv, says",
    [
        (["review", f"{SMALL} | 2B 6O"], "move 2"),
        (["analyze", "7...2 K.3.. 0 -"], "5 or 6 fields"),
        (["graph", SMALL, "--out", "g.txt"], "must end in .graphml"),
        (["graph", SMALL, "--mode", "x", "--out", "g.dot"], "invalid choice"),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(coins, argv, says):
    status, out, err = coins(*argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and says in err


# ----- beyond exact reach, and Ctrl-C -----------------------------------------------------


def test_analyze_estimates_the_decisions_beyond_exact_reach():
    position = Position.random(11, 10, 1)  # beyond what estimate tries to solve exactly
    report = analyze(position, time_limit=10, exact_cards=6)
    assert report.complete and not report.exact
    assert report.guaranteed is None  # the root is beyond exact reach
    for decision in report.decisions:
        big = decision.position.cards_per_hand > 6
        assert (decision.guaranteed is None) == big
        assert big or not decision.estimated  # where exact, estimate's exact values may come
        results = {c.card: c.maxn for c in decision.cards}
        assert decision.played == analysis.preferred_card(results, decision.seat)
    assert report.decisions[0].estimated
    data = report.to_json()
    assert data["estimated"] == [d.number for d in report.decisions if d.estimated]
    assert data["exact"] is False and data["complete"] is True
    assert len(report.line) == 30  # the main line reaches the end of the hand


def test_analyze_keeps_the_decisions_finished_when_stopped():
    calls = []

    def stop_at_the_third(message):
        calls.append(message)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(analysis.report.AnalysisInterrupted) as stopped:
        analyze(ENDING, progress=stop_at_the_third)
    report = stopped.value.analysis
    assert report.interrupted and not report.complete and not report.exact
    assert report.line == analyze(ENDING).line[:2]


def test_graph_keeps_the_positions_found_when_stopped():
    calls = []

    def stop_at_the_fourth(message):
        calls.append(message)
        if len(calls) == 4:
            raise KeyboardInterrupt

    with pytest.raises(analysis.graph.GraphInterrupted) as stopped:
        analysis.decision_graph(ENDING, depth=2, progress=stop_at_the_fourth)
    graph = stopped.value.graph
    assert graph.graph["interrupted"]
    solved = [n for n, d in graph.nodes(data=True) if d["values"] is not None]
    assert len(solved) == 3 and graph.number_of_nodes() > 3
    analysis.to_dot(graph)  # positions without values still draw
