"""benchmarks/sources.py: every source deals legal positions of the size asked
with the properties it states, labels are the solver's, the roles' seeds stay
apart, and a test set is never written over."""

import json

import pytest

from benchmarks import evaluator, sources
from solver import Position
from solver.cards import Card
from solver.maxn import solve_maxn

CHEAP = ("random", "greedy", "slips", *sources.ENDINGS)  # no search in their play
BOTS = ("pimc", "hint", "match")
CHOOSE = sources.set_path("choose")


def _position(source: str, cards: int, index: int) -> Position:
    return sources.source_position(source, cards, sources.seed_of("choose", source, cards, index))[
        0
    ]


@pytest.mark.parametrize("source", CHEAP)
@pytest.mark.parametrize("cards", sources.SIZES)
def test_cheap_sources_reach_the_size_with_0_1_or_2_cards_on_the_table(source, cards):
    on_table = set()
    for index in range(3):
        seed = sources.seed_of("choose", source, cards, index)
        position, _ = sources.source_position(source, cards, seed)
        assert position.cards_per_hand == cards
        assert len(position.trick) == seed % 3
        on_table.add(len(position.trick))
    assert on_table == {0, 1, 2}


@pytest.mark.parametrize("source", BOTS)
def test_sources_played_by_bots_reach_the_size(source):
    seed = sources.seed_of("choose", source, 10, 0)
    position, about = sources.source_position(source, 10, seed)
    assert position.cards_per_hand == 10 and len(position.trick) == seed % 3
    if source == "match":  # the match is still on at the position
        match = about["match"]
        assert all(s + t < match["target"] for s, t in zip(match["scores"], position.taken))
    else:
        assert about == {}


def test_endings_are_dealt_as_their_sources_say():
    for index in range(6):
        fresh = _position("ending", 9, index)
        assert fresh.taken == (0, 0, 0)
        taken = _position("ending-taken", 9, index)
        # the Coins not in play were won in earlier tricks (0-2 cards on the table finish none)
        assert sum(taken.taken) == 12 - taken.coins_left
        coins = _position("ending-coins", 9, index)
        assert coins.taken == (0, 0, 0) and coins.coins_left == 12
    assert any(any(_position("ending-taken", 9, i).taken) for i in range(6))


@pytest.mark.parametrize("source", sources.ENDINGS)
def test_endings_have_any_leader(source):
    leaders = {_position(source, 8, index).leader for index in range(12)}
    assert leaders == {0, 1, 2}


def test_the_choose_set_holds_what_its_sources_deal_with_the_solvers_answers():
    records = sources.read_records(CHOOSE)
    assert sources.read_header(CHOOSE)["set"] == "choose"
    assert {r["source"] for r in records} == set(sources.SOURCES)
    for record in records:
        position = Position.parse(record["position"])
        assert {Card.parse(c) for c in record["card_results"]} == set(position.legal_cards())
        assert all(sum(v) == position.coins_left for v in record["card_results"].values())
    for record in records[:40]:
        if record["source"] in CHEAP:
            cards = Position.parse(record["position"]).cards_per_hand
            index = record["seed"] - sources.seed_of("choose", record["source"], cards, 0)
            assert str(_position(record["source"], cards, index)) == record["position"]


def test_cheapest_labels_are_solved_again_alike():
    cheapest = sorted(sources.read_records(CHOOSE), key=lambda r: r["seconds"])[:2]
    for record in cheapest:
        result = solve_maxn(Position.parse(record["position"]), card_results=True, line=False)
        assert {str(c): list(v) for c, v in result.card_results.items()} == record["card_results"]


def test_labels_are_every_cards_exact_result():
    position = Position.parse("A.2.. K.3.. 9..2. 0 -")
    record = evaluator.exact_answers(position, threads=1)
    exact = solve_maxn(position, card_results=True, line=False, threads=1).card_results
    assert record["card_results"] == {str(c): list(v) for c, v in exact.items()}
    assert set(record["card_results"]) == {"AC", "2O"}


def test_role_seeds_are_disjoint_from_each_other_and_from_earlier_sets(monkeypatch):
    assert sources.seeds_overlap() == []
    for path in sources.set_files():  # every committed set (or part made) within its role's seeds
        assert sources.misplaced_seeds(path) == []
    for role in sources.ROLES:
        seeds = sources.role_seeds(role)
        for source in sources.SOURCES:
            for cards in sources.SIZES:
                assert sources.seed_of(role, source, cards, sources.SIZE_SPAN - 1) in seeds
    monkeypatch.setitem(sources.ROLES, "test", sources.ROLES["choose"] + 1)
    assert ("choose", "test") in sources.seeds_overlap()
    monkeypatch.setitem(sources.ROLES, "test", evaluator.DEV_MADE["first_seed"])
    assert ("test", "dev_positions") in sources.seeds_overlap()


@pytest.mark.parametrize("role", sources.TEST_ROLES)
def test_a_test_set_is_made_once_and_never_written_over(tmp_path, monkeypatch, role):
    monkeypatch.setattr(sources, "SOURCES", ("ending", "ending-coins"))
    path = tmp_path / f"{role}.jsonl"
    sources.make_set(role, {8: 1}, path, threads=1)
    assert not path.with_name(f"{role}.jsonl.partial").exists()
    made = path.read_text()
    header = json.loads(made.splitlines()[0])
    assert header["set"] == role and header["seeds"][0] == sources.ROLES[role]
    records = sources.read_records(path)
    assert [r["source"] for r in records] == ["ending", "ending-coins"]
    assert all(r["seed"] in sources.role_seeds(role) for r in records)
    with pytest.raises(sources.SetExists):
        sources.make_set(role, {8: 2}, path, threads=1)
    assert path.read_text() == made


def test_a_choose_set_resumes_where_it_stopped(tmp_path, monkeypatch):
    monkeypatch.setattr(sources, "SOURCES", ("ending",))
    path = tmp_path / "choose.jsonl"
    sources.make_set("choose", {8: 1}, path, threads=1)
    sources.make_set("choose", {8: 2}, path, threads=1)
    records = sources.read_records(path)
    assert [r["index"] for r in records] == [0, 1]
    assert len({r["seed"] for r in records}) == 2
    with pytest.raises(sources.SetExists):  # another role's file is not appended to
        sources.make_set("train", {8: 1}, path, threads=1)
