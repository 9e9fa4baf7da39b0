"""Decision graphs: shape from the rules, values from the solvers, files that load back.

Expected counts come from a naive expansion written here from RULES.md (any
card may be played; cards of one suit with no live card between them in rank
are one edge); expected values come from ``solve`` and ``solve_maxn``, which
are themselves checked against the naive twins in test_solver/test_maxn.
"""

from __future__ import annotations

import json
import random

import networkx as nx
import pytest
from positions import random_position

from analysis import NO_GRAPHVIZ, GraphTooLarge, GraphvizMissing, decision_graph, write_graph
from analysis import graph as graph_module
from solver import CoinsError, Position, solve
from solver.cards import Card, cards_in
from solver.maxn import solve_maxn

ENDING = "J9.J4..52 .K75.6.N8 A753.8.5. 0 -"
SMALL = "7...2 K.3.. J.6.. 0 - 0,1,0"


def naive_runs(position: Position) -> list[list[Card]]:
    """The mover's cards split where a live card of the same suit lies between two of them."""
    live = set()
    for hand in position.hands:
        live |= set(cards_in(hand))
    live |= set(position.trick)
    mine = cards_in(position.hands[position.to_move])
    runs: list[list[Card]] = []
    for card in mine:  # index order: by suit, low to high
        if (
            runs
            and runs[-1][-1].suit == card.suit
            and not any(
                other.suit == card.suit and runs[-1][-1].rank < other.rank < card.rank
                for other in live
            )
        ):
            runs[-1].append(card)
        else:
            runs.append([card])
    return runs


def naive_shape(position: Position, depth: int, unit: str = "cards"):
    """(positions, edges) of the decision graph, expanded straight from the rules."""
    seen = {str(position): 0}
    edges = 0
    frontier = [position]
    while frontier:
        following = []
        for node in frontier:
            level = seen[str(node)]
            if node.is_terminal or level >= depth:
                continue
            for run in naive_runs(node):
                edges += 1
                child = node.play(run[0])
                closes = len(node.trick) == 2
                if str(child) not in seen:
                    seen[str(child)] = level + (1 if unit == "cards" or closes else 0)
                    following.append(child)
        frontier = following
    return len(seen), edges


def small_positions(count=4, seed=11):
    rng = random.Random(seed)
    return [
        random_position(rng, rng.choice((3, 4)), on_table=rng.randrange(3), taken=True)
        for _ in range(count)
    ]


@pytest.mark.parametrize("position", [Position.parse(ENDING), *small_positions()], ids=str)
def test_counts_match_the_legal_cards_after_equivalence(position):
    for depth in (1, 2):
        graph = decision_graph(position, depth)
        assert (graph.number_of_nodes(), graph.number_of_edges()) == naive_shape(position, depth)
    graph = decision_graph(position, 1, unit="tricks")
    assert (graph.number_of_nodes(), graph.number_of_edges()) == naive_shape(position, 1, "tricks")
    # a trick's depth ends where the trick closes: every leaf (not the hand's end) has a winner
    leaves = [n for n, d in graph.nodes(data=True) if graph.out_degree(n) == 0]
    assert all(graph.nodes[n]["trick_winner"] is not None for n in leaves)


@pytest.mark.parametrize("position", [Position.parse(ENDING), *small_positions(3, seed=5)], ids=str)
def test_paranoid_values_and_optimal_flags_match_solve(position):
    graph = decision_graph(position, 2)
    if position == Position.parse(ENDING):  # equivalent cards share edges: JC/9C, 7O/5O ...
        assert any(len(d["cards"]) > 1 for *_, d in graph.edges(data=True))
    for key, data in graph.nodes(data=True):
        expected = solve(key)
        assert data["values"] == expected.guaranteed, key
        assert data["position"] == key
        for _, child, edge in graph.out_edges(key, data=True):
            cards = [Card.parse(c) for c in edge["cards"]]
            assert edge["card"] == "/".join(edge["cards"])
            assert edge["seat"] == Position.parse(key).to_move
            for card in cards:
                assert edge["value"] == expected.card_values[card], (key, card)
                assert edge["optimal"] == (card in expected.optimal), (key, card)
            # the edge leads to the position after the lowest card of the run
            assert child == str(Position.parse(key).play(min(cards)))


@pytest.mark.parametrize("position", small_positions(3, seed=8), ids=str)
def test_maxn_values_best_flags_and_choice_match_solve_maxn(position):
    graph = decision_graph(position, 2, mode="maxn")
    for key, data in graph.nodes(data=True):
        expected = solve_maxn(key)
        assert data["values"] == expected.equilibrium, key
        edges = list(graph.out_edges(key, data=True))
        if not edges:
            continue
        mover = Position.parse(key).to_move
        best = max(result[mover] for result in expected.card_results.values())
        for _, _, edge in edges:
            for card in map(Card.parse, edge["cards"]):
                assert edge["value"] == expected.card_results[card], (key, card)
                assert edge["own"] == expected.card_results[card][mover]
                assert edge["optimal"] == (edge["own"] == best)
        choices = [edge for _, _, edge in edges if edge["choice"]]
        assert len(choices) == 1 and str(expected.line[0]) in choices[0]["cards"], key


def test_optimal_only_after_first_keeps_every_root_card_and_optimal_edges_below():
    full = decision_graph(ENDING, 3)
    pruned = decision_graph(ENDING, 3, optimal_only_after_first=True)
    root = str(Position.parse(ENDING))
    assert set(pruned.out_edges(root)) == set(full.out_edges(root))
    below = [(u, v) for u, v in pruned.edges if u != root]
    assert below and all(pruned.edges[e]["optimal"] for e in below)
    # it is the full graph's optimal edges below the root, reached from the root
    expected = {(u, v) for u, v, d in full.edges(data=True) if u == root or d["optimal"]}
    reachable = nx.descendants(full.edge_subgraph(expected), root) | {root}
    assert set(pruned.edges) == {(u, v) for u, v in expected if u in reachable}


def test_trick_winner_and_graph_attributes():
    graph = decision_graph(SMALL, 3)
    assert graph.graph["root"] == SMALL and graph.graph["mode"] == "paranoid"
    closed = [d for _, d in graph.nodes(data=True) if d["trick_winner"] is not None]
    assert len(closed) == graph.number_of_nodes() - 1 - 2 - 4  # all nodes at card 3
    for data in closed:
        assert data["trick"] == [] and data["to_move"] == data["trick_winner"]


def test_bad_arguments_and_size_limit():
    with pytest.raises(CoinsError, match="mode"):
        decision_graph(SMALL, 1, mode="greedy")
    with pytest.raises(CoinsError, match="unit"):
        decision_graph(SMALL, 1, unit="hands")
    with pytest.raises(CoinsError, match="depth"):
        decision_graph(SMALL, -1)
    with pytest.raises(GraphTooLarge, match="more than 3 positions"):
        decision_graph(ENDING, 2, max_positions=3)


def test_a_budget_that_runs_out_keeps_the_graph_so_far():
    whole = decision_graph(ENDING, 2)
    cut = decision_graph(ENDING, 2, max_nodes=whole.graph["nodes"] // 2)
    assert cut.graph["out_of_budget"] and "out_of_budget" not in whole.graph
    assert 0 < cut.number_of_nodes() <= whole.number_of_nodes()
    solved = [n for n, data in cut.nodes(data=True) if data["values"] is not None]
    bare = [n for n, data in cut.nodes(data=True) if data["values"] is None]
    assert solved and bare  # some positions were valued before the budget ran out
    for node in solved:  # and those carry the values of the whole graph
        assert cut.nodes[node]["values"] == whole.nodes[node]["values"]


# ----- files --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def graph():
    return decision_graph(ENDING, 2)


def test_graphml_loads_back(graph, tmp_path):
    path = write_graph(graph, tmp_path / "g.graphml")
    loaded = nx.read_graphml(path)
    assert set(loaded.nodes) == set(graph.nodes)
    assert set(loaded.edges) == set(graph.edges)
    for key, data in graph.nodes(data=True):
        assert loaded.nodes[key]["values"] == ",".join(map(str, data["values"]))
        assert loaded.nodes[key]["to_move"] == data["to_move"]
    for u, v, data in graph.edges(data=True):
        assert loaded.edges[u, v]["card"] == data["card"]
        assert loaded.edges[u, v]["value"] == data["value"]
        assert loaded.edges[u, v]["optimal"] == data["optimal"]


def test_node_link_json_loads_back(graph, tmp_path):
    path = write_graph(graph, tmp_path / "g.json")
    loaded = nx.node_link_graph(json.loads(path.read_text()))
    assert loaded.is_directed()
    assert dict(loaded.nodes(data=True)) == dict(graph.nodes(data=True))
    assert {(u, v): d for u, v, d in loaded.edges(data=True)} == {
        (u, v): d for u, v, d in graph.edges(data=True)
    }


def test_dot_source_has_every_node_and_edge(graph, tmp_path):
    text = write_graph(graph, tmp_path / "g.dot").read_text()
    assert text.startswith("digraph coins {")
    assert text.count(" -> ") == graph.number_of_edges()
    assert text.count("penwidth=2.5") == sum(d["optimal"] for *_, d in graph.edges(data=True))
    assert "#c62828" in text  # Cups red


@pytest.mark.needs_dot
@pytest.mark.parametrize("mode", ["paranoid", "maxn"])
def test_dot_renders_svg(tmp_path, mode):
    small = decision_graph(ENDING, 1, mode=mode)
    path = write_graph(small, tmp_path / "g.svg")
    svg = path.read_text()
    assert "<svg" in svg and svg.count('class="edge"') == small.number_of_edges()
    # label pieces keep their spaces in viewers
    assert '<svg xml:space="preserve" ' in svg


def test_dot_tests_skip_with_a_reason_only_where_dot_is_missing(monkeypatch):
    import conftest

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(conftest.shutil, "which", lambda name: None)
    assert "Graphviz's dot is not installed" in conftest.missing_dot_reason()
    monkeypatch.setenv("CI", "true")  # CI installs it: there a missing dot must fail
    assert conftest.missing_dot_reason() is None
    monkeypatch.delenv("CI")
    monkeypatch.setattr(conftest.shutil, "which", lambda name: "/usr/bin/dot")
    assert conftest.missing_dot_reason() is None


def test_missing_graphviz_says_how_to_get_it(graph, tmp_path, monkeypatch):
    monkeypatch.setattr(graph_module.shutil, "which", lambda name: None)
    with pytest.raises(GraphvizMissing) as error:
        write_graph(graph, tmp_path / "g.png")
    assert str(error.value) == NO_GRAPHVIZ
    assert isinstance(error.value, CoinsError)
    write_graph(graph, tmp_path / "g.gv")  # text formats need no Graphviz


def test_unknown_extension_is_refused(graph, tmp_path):
    with pytest.raises(CoinsError, match=r"\.graphml, \.json, \.dot"):
        write_graph(graph, tmp_path / "g.txt")
