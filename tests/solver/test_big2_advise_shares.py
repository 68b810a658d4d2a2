"""The advisor's shares against an independent count, on positions so small that every deal of
the unseen cards can be listed and scored by brute force.

A move's share is the mean of its scores over the sampled deals.  Here the consistent deals are
listed by plain enumeration, the advisor's sampled deals are taken from its sampling function
(with the same seed) and must cover every consistent deal, and each deal is scored by the
tests' own engines: with two players the verdict of the independent minimax
(:mod:`tests.big2_minimax`), every deal proven; with three a forced win by that minimax, or
else a line of the player's own that goes out first against greedy opponents
(:func:`tests.big2_lines.greedy_line_wins`, which wins wherever a playout of the player's
policies does), or with no line search a playout of those policies against greedy.  Shares,
standard errors and proven counts must all agree exactly.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from handsolver.models.big2 import SEED_RULES, Play, Rules, make_rules, play_kind
from handsolver.models.cards import cards_of, mask_of
from handsolver.solver.big2.game.positions import Position
from handsolver.solver.big2.table.advise import AdviceSettings, advise
from handsolver.solver.big2.table.deal_scores import LINE_MOVES
from handsolver.solver.big2.table.sampling import FULL_DECK, sample_hands
from handsolver.solver.big2.table.strategies import greedy_move, shed_move
from handsolver.solver.big2.table.views import Move, Table, TableView
from tests.big2_lines import greedy_line_wins
from tests.big2_minimax import minimax_answer
from tests.solver.test_big2_advise import every_split, played_on

Deal = tuple[int, ...]


def tiny_view(rng: random.Random, players: int, rules: Rules) -> tuple[TableView, int]:
    """Seat 0 to move with 2 to 4 cards, each opponent with 1 to 3 (at most 5 unseen cards in
    all, a card or two of them never dealt), every other card played, and half the time a
    played single to beat; and the unseen cards."""
    while True:
        deck = rng.sample(range(52), 52)
        mine = mask_of(deck[: rng.randint(2, 4)])
        counts = [rng.randint(1, 3) for _ in range(players - 1)]
        unseen = sum(counts) + rng.randint(0, 2)
        if unseen <= 5:
            break
    start = mine.bit_count()
    pool = mask_of(deck[start : start + unseen])
    played = FULL_DECK & ~mine & ~pool
    beat = by = None
    if rng.random() < 0.5:
        card = rng.choice(cards_of(played))
        beat, by = Play(1 << card, play_kind(1 << card, rules)), rng.randrange(1, players)
    view = TableView(
        0, mine, (mine.bit_count(), *counts), played, (), beat, by, frozenset(), False, rules
    )
    return view, pool


def table_of(view: TableView, deal: Deal) -> Table:
    return Table((view.hand, *deal), 0, view.rules, view.beat, view.by, view.passed, (), 0)


def deal_scores(view: TableView, deal: Deal, lines: bool) -> dict[Move, int]:
    """Per legal move, its score in this deal, from the tests' own engines (see the module):
    with more than two players and no ``lines``, where no win is forced, a playout of the
    player's policies (shed, then greedy) against greedy decides."""
    position = Position((view.hand, *deal), 0, view.beat, view.by, view.passed)
    verdicts = minimax_answer(position, view.rules)[1]
    scores = {}
    for move in view.legal_moves():
        won = verdicts[None if move is None else frozenset(cards_of(move.mask))]
        if not won and len(deal) > 1:
            table = table_of(view, deal).after(move)
            if lines:
                won = greedy_line_wins(table, 0)
            else:
                won = any(played_on(table, 0, mine) == 0 for mine in (shed_move, greedy_move))
        scores[move] = int(won)
    return scores


def check_shares(view: TableView, pool: int, seed: int, lines: bool = True) -> bool:
    """Check the advice's shares against the count; whether some share is neither 0 nor 1."""
    counts = view.counts[1:]
    every = every_split(list(cards_of(pool)), counts)
    # Enough samples to meet every deal (checked below), sampled as the advisor samples them.
    samples = 10 * len(every)
    settings = AdviceSettings(
        samples=samples,
        max_nodes=None,
        seed=seed,
        line_nodes=10**6 if lines else 0,
        reading=False,
        opponents="greedy",
    )
    advice = advise(view, settings)
    assert advice.consistent == len(every)
    if len(every) == 1:
        sampled = list(every)
    else:
        sampled = sample_hands(pool, counts, samples=samples, seed=seed)
        assert Counter(sampled).keys() == set(every)  # every consistent deal, nothing else
    assert advice.samples == len(sampled)
    scored = {deal: deal_scores(view, deal, lines) for deal in set(sampled)}
    for move in advice.moves:
        got = [scored[deal][move.play] for deal in sampled]
        mean = Fraction(sum(got), len(got))
        assert move.share == mean, (view, move)
        assert move.exact == len(got)
        if len(got) > 1:
            spread = sum((score - mean) ** 2 for score in got) / (len(got) - 1)
            assert math.isclose(move.stderr, math.sqrt(spread / len(got)), abs_tol=1e-12)
    return any(0 < move.share < 1 for move in advice.moves)


@pytest.mark.parametrize(
    "rules", [SEED_RULES, make_rules("hk", bombs=True)], ids=lambda rules: rules.name
)
def test_two_players_shares_are_the_minimax_count(rules: Rules) -> None:
    rng = random.Random(f"shares 2 {rules.name}")
    between = 0
    for index in range(25):
        view, pool = tiny_view(rng, 2, rules)
        between += check_shares(view, pool, seed=index)
    assert between > 3  # deals that disagree, so the shares are not all 0 or 1


@pytest.mark.parametrize("lines", [True, False], ids=["line search", "playouts"])
def test_three_players_shares_are_a_forced_win_or_else_a_line_or_playout(lines: bool) -> None:
    rng = random.Random(f"shares 3 {lines}")
    checked = between = 0
    while checked < 12:
        view, pool = tiny_view(rng, 3, SEED_RULES)
        if lines and len(view.legal_moves()) > LINE_MOVES:  # only these get a line search
            continue
        between += check_shares(view, pool, seed=checked, lines=lines)
        checked += 1
    assert between > 2
