"""The tree of the player's own turns: against the brute force of the player's lines against
greedy opponents (:func:`tests.big2_lines.greedy_line_wins`) where every hand is known, and as
the advisor's and the tournament seat's way to choose."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from handsolver.models.big2 import SEED_RULES, Rules, make_rules
from handsolver.models.big2_order import play_strength
from handsolver.models.cards import mask_of, parse_cards
from handsolver.solver.big2.game.state import DealState
from handsolver.solver.big2.table.advise import AdviceSettings, advise
from handsolver.solver.big2.table.deal_scores import PLAYER_POLICIES
from handsolver.solver.big2.table.playout import hand_plays
from handsolver.solver.big2.table.tree_search import PlayerTree
from handsolver.solver.big2.table.views import Move, Table, TableView
from handsolver.solver.cli import app
from tests.big2_lines import greedy_line_wins
from tests.solver.test_big2_line_search import small_tables
from tests.solver.test_big2_playout import state_of

runner = CliRunner()
RULES = [SEED_RULES, make_rules("seed", pass_final=True), make_rules("hk", bombs=True)]


def tupled(move: Move, rules: Rules) -> tuple[int, int, int] | None:
    return None if move is None else (move.mask, move.kind.size, play_strength(move, rules))


def root_stats(
    table: Table, moves: list[Move], passes: int, line_nodes: int = 0
) -> list[tuple[int, int]]:
    """The root's statistics of a tree of the seat to move's turns over this one deal."""
    tree = PlayerTree(
        [state_of(table)],
        table.to_move,
        [tupled(move, table.rules) for move in moves],
        table.rules,
        PLAYER_POLICIES,
        line_nodes,
    )
    tree.run(passes)
    return tree.root_stats()


# The most passes a tree under one winning move of these deals took to win its first was 25.
LINE_PASSES = 200


@pytest.mark.parametrize("rules", RULES)
def test_with_every_hand_known_the_tree_finds_a_winning_line(rules: Rules) -> None:
    """With one deal and greedy opponents the tree is a search of the player's own lines.  A
    tree under one move, given passes enough to reach every line of these small hands, wins a
    pass exactly when some line after the move wins; a tree over every move spends the most
    passes on a move with such a line, where there is one."""
    found = none = 0
    for table in small_tables(rules, 70, seed=11):
        moves = table.view().legal_moves()
        seat = table.to_move
        wins = [greedy_line_wins(table.after(move), seat) for move in moves]
        for move, winning in zip(moves, wins, strict=True):
            [(passes, won)] = root_stats(table, [move], LINE_PASSES)
            assert passes == LINE_PASSES and (won > 0) == winning, (table, move)
        stats = root_stats(table, moves, LINE_PASSES)
        assert sum(passes for passes, _ in stats) == LINE_PASSES
        best = max(range(len(moves)), key=lambda i: stats[i][0])
        assert wins[best] == any(wins), table
        found += any(wins)
        none += not any(wins)
    assert found > 20 and none > 20  # both cases are exercised


@pytest.mark.parametrize("rules", RULES)
def test_a_new_node_is_won_by_a_playout_or_by_a_line_of_the_players(rules: Rules) -> None:
    """The first pass under a move scores the deal after it: with a line search never cut
    short, a win exactly when some line of the player's wins (the brute force); with none,
    only where a playout wins, which is not always so."""
    missed = 0
    for table in small_tables(rules, 70, seed=5):
        seat = table.to_move
        for move in table.view().legal_moves():
            winning = greedy_line_wins(table.after(move), seat)
            [(passes, won)] = root_stats(table, [move], 1, line_nodes=10**6)
            assert (passes, bool(won)) == (1, winning), (table, move)
            [(_, by_playout)] = root_stats(table, [move], 1)
            assert by_playout <= won, (table, move)
            missed += by_playout < won
    assert missed > 0  # the line search finds wins the playouts miss


def test_the_tree_passes_its_deals_in_turn_and_counts_every_pass() -> None:
    hands = tuple(mask_of(parse_cards(text)) for text in ("3c 9h Qc", "3d 7h Ah"))
    other = tuple(mask_of(parse_cards(text)) for text in ("3c 9h Qc", "4d 7h Kh"))
    leads = hand_plays(hands[0], SEED_RULES).leads
    roots = [DealState(hands, 0, 0, 0, -1, 0), DealState(other, 0, 0, 0, -1, 0)]
    tree = PlayerTree(roots, 0, leads, SEED_RULES, PLAYER_POLICIES)
    tree.run(7)
    tree.run(4)
    assert tree.passes == 11 and sum(passes for passes, _ in tree.root_stats()) == 11
    # Each lead is tried once before any is tried again.
    assert [passes for passes, _ in tree.root_stats()][:3] != [0, 0, 0]


def start_view() -> TableView:
    hands = tuple(mask_of(parse_cards(t)) for t in ("3d 4d 5h 9s Jc", "6c 6d Kh", "8c Ts 2h"))
    view = Table.deal(hands).view()
    return TableView(0, view.hand, (5, 3, 3), 0, (), None, None, frozenset(), True)


def test_advice_by_the_tree_ranks_by_passes_and_is_the_same_for_any_workers() -> None:
    settings = AdviceSettings(samples=6, seed=3, passes=500)
    one = advise(start_view(), settings)
    assert one == advise(start_view(), settings, workers=2)
    assert one.passes == 500 and sum(move.passes for move in one.moves) == 500
    passes = [move.passes for move in one.moves]
    assert passes == sorted(passes, reverse=True)
    assert all(move.exact == 0 and 0 <= move.share <= 1 for move in one.moves)
    assert {move.play for move in one.moves} == set(start_view().legal_moves())


def test_with_nothing_unseen_the_tree_chooses_a_winning_line_where_there_is_one() -> None:
    rng = random.Random(3)
    checked = 0
    for table in small_tables(SEED_RULES, 60, seed=2):
        if len(table.hands) != 2:
            continue
        view = table.view()
        # Every card not in the two hands is played: one deal is consistent.
        played = ((1 << 52) - 1) & ~table.hands[0] & ~table.hands[1]
        view = TableView(
            view.seat, view.hand, view.counts, played, (), view.beat, view.by, view.passed,
            False, view.rules,
        )  # fmt: skip
        settings = AdviceSettings(samples=3, seed=rng.randrange(100), passes=3000, reading=False)
        advice = advise(view, settings)
        assert advice.consistent == 1 and advice.samples == 1
        seat = view.seat
        winning = {m for m in view.legal_moves() if greedy_line_wins(table.after(m), seat)}
        if winning:
            assert advice.best in winning
            checked += 1
    assert checked > 5


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["big2", *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_advise_by_the_tree_gives_the_passes() -> None:
    code, out, err = invoke(
        "advise", "3d 4d 9h 9s", "--counts", "2,3", "--played", "3c 5c 5d", "--beat", "5c 5d",
        "--by", "3", "--samples", "5", "--passes", "300", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["passes"] == 300 and data["samples"] == 5
    assert sum(move["passes"] for move in data["moves"]) == 300
    assert sorted(tuple(move["play"]) for move in data["moves"]) == [(), ("9h", "9s")]
    code, out, err = invoke("advise", "3d 4d", "--counts", "3", "--passes", "-1")
    assert code == 2 and out == "" and "--passes" in err and err.count("\n") == 1, err


def test_a_tournament_with_the_tree_gives_the_same_bytes_with_one_and_two_workers() -> None:
    args = ("tournament", "--strategies", "advise,greedy", "--deals", "2", "--seed", "4")
    args += ("--samples", "4", "--passes", "60", "--json")
    one = invoke(*args)
    assert one[0] == 0, one
    assert one == invoke(*args, "--workers", "2")
