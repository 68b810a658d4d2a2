"""The search of one seat's own moves against opponents on a fixed policy, against a brute
force written here over the table's own bookkeeping
(:class:`~handsolver.solver.big2.table.views.Table`) and the ``greedy`` strategy's moves at
the table."""

from __future__ import annotations

import random

import pytest

from handsolver.models.big2 import SEED_RULES, Rules, make_rules
from handsolver.models.cards import mask_of
from handsolver.solver.big2.game.state import DealState
from handsolver.solver.big2.table.line_search import winning_line
from handsolver.solver.big2.table.playout import greedy_choice, hand_plays, shed_choice
from handsolver.solver.big2.table.views import Table
from tests.big2_lines import greedy_line_wins
from tests.solver.test_big2_playout import state_of

RULES = [
    SEED_RULES,
    make_rules("seed", pass_final=True),
    make_rules("hk", bombs=True),
]


def small_tables(rules: Rules, count: int, seed: int) -> list[Table]:
    """Deals of 2 to 4 players with 2 to 6 cards each, played on by a few random moves (at
    least one: the table holds a deal's first play to the lowest card)."""
    rng = random.Random(seed)
    tables = []
    while len(tables) < count:
        players = rng.randint(2, 4)
        deck = rng.sample(range(52), 52)
        sizes = [rng.randint(2, 6) for _ in range(players)]
        hands, start = [], 0
        for size in sizes:
            hands.append(mask_of(deck[start : start + size]))
            start += size
        table = Table(tuple(hands), rng.randrange(players), rules)
        for _ in range(rng.randint(1, 4)):
            nxt = table.after(rng.choice(table.view().legal_moves()))
            if nxt.winner is not None:
                break
            table = nxt
        if table.history:
            tables.append(table)
    return tables


def search(table: Table, seat: int, max_nodes: int, refuted: set[DealState]) -> bool | None:
    players = len(table.hands)
    plays = [hand_plays(hand, table.rules) for hand in table.hands]
    policies = [greedy_choice] * players
    first = (shed_choice, greedy_choice)
    return winning_line(
        plays, state_of(table), seat, table.rules, policies, first, max_nodes, refuted
    )


@pytest.mark.parametrize("rules", RULES)
def test_winning_line_agrees_with_brute_force(rules: Rules) -> None:
    won = lost = 0
    for table in small_tables(rules, 150, seed=len(rules.name)):
        for seat in range(len(table.hands)):
            expected = greedy_line_wins(table, seat)
            assert search(table, seat, 1 << 30, set()) is expected
            won += expected
            lost += not expected
    assert won > 50 and lost > 50  # both answers are exercised


@pytest.mark.parametrize("rules", RULES)
def test_a_small_budget_answers_right_or_not_at_all(rules: Rules) -> None:
    unknown = 0
    for table in small_tables(rules, 150, seed=7):
        seat = table.to_move
        got = search(table, seat, 3, set())
        if got is None:
            unknown += 1
        else:
            assert got is greedy_line_wins(table, seat)
    assert unknown > 0


@pytest.mark.parametrize("rules", RULES)
def test_refuted_positions_shared_between_moves(rules: Rules) -> None:
    """One set of lost positions shared across every move of a seat (as the advisor shares
    it across the moves of a deal) changes no answer."""
    for table in small_tables(rules, 80, seed=11):
        seat = table.to_move
        refuted: set[DealState] = set()
        for move in table.view().legal_moves():
            nxt = table.after(move)
            if nxt.winner is not None:
                continue
            assert search(nxt, seat, 1 << 30, refuted) is greedy_line_wins(nxt, seat)


def test_the_search_beats_a_single_playout() -> None:
    """Somewhere among small deals the seat's own greedy or shed play loses where a line of
    its own wins: the search is more than the playouts it starts from."""
    from handsolver.solver.big2.table.playout import play_out

    more = 0
    for table in small_tables(SEED_RULES, 300, seed=5):
        seat = table.to_move
        plays = [hand_plays(hand, SEED_RULES) for hand in table.hands]
        others = [greedy_choice] * len(table.hands)
        lost = True
        for policy in (shed_choice, greedy_choice):
            mixed = list(others)
            mixed[seat] = policy
            lost &= play_out(plays, state_of(table), SEED_RULES, mixed) != seat
        if lost and search(table, seat, 1 << 30, set()):
            more += 1
    assert more > 0
