"""The compiled playouts and line search against the Python path they repeat: the same state
after the same turns, the same answer within the same node budget, the same positions refuted,
under every rule profile, two to four players and hands of a few cards to thirteen."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from handsolver.models.big2 import Rules, make_rules
from handsolver.solver.big2.game.state import DealState, Outcome
from handsolver.solver.big2.table import line_search
from handsolver.solver.big2.table.advise import TABLE_ADVICE, advise
from handsolver.solver.big2.table.deal_scores import PLAYER_POLICIES
from handsolver.solver.big2.table.playout import (
    greedy_choice,
    hand_plays,
    play_until,
    shed_choice,
)
from handsolver.solver.big2.table.playout_compiled import CompiledDeal, RefutedStates
from handsolver.solver.big2.table.strategies import greedy_move
from handsolver.solver.big2.table.tournament_games import dealt_hands
from handsolver.solver.big2.table.tree_search import PlayerTree
from handsolver.solver.big2.table.views import Table

PROFILES = ["seed", "hk", "taiwan", "pusoy-dos", "western"]
FIRSTS = [(shed_choice, greedy_choice), (greedy_choice,), (shed_choice,)]


def random_deal(rng: random.Random, rules: Rules) -> tuple[int, ...]:
    players = rng.choice([2, 3, 4])
    size = rng.choice([3, 5, 8, 13])
    deck = list(range(52))
    rng.shuffle(deck)
    return tuple(sum(1 << c for c in deck[i * size : (i + 1) * size]) for i in range(players))


@pytest.mark.parametrize("profile", PROFILES)
def test_the_compiled_path_gives_the_python_answers(profile: str) -> None:
    """Along random walks through random deals: ``play_until`` to a random seat with random
    policies, then from the same state the line search and a deal's score with a random budget,
    the refuted positions shared along the walk (so a refutation made earlier must be used
    alike), each compared with the Python path."""
    rng = random.Random(f"compiled {profile}")
    answers = {True: 0, False: 0, None: 0}
    for _ in range(150):
        rules = make_rules(profile, bombs=rng.random() < 0.5, pass_final=rng.random() < 0.5)
        hands = random_deal(rng, rules)
        players = len(hands)
        plays = [hand_plays(hand, rules) for hand in hands]
        deal = CompiledDeal(plays, rules)
        refuted: set[DealState] = set()
        table = RefutedStates(players, slots=8)  # small, to grow during the walk
        first = rng.choice(FIRSTS)
        state: Outcome = DealState(hands, rng.randrange(players), 0, 0, -1, 0)
        while not isinstance(state, int):
            policies = [rng.choice([greedy_choice, shed_choice]) for _ in range(players)]
            until = rng.randrange(-1, players)
            if until != state[1]:
                assert deal.play_until(state, policies, until) == play_until(
                    plays, state, rules, policies, until
                )
            seat = state[1]
            opponents = [greedy_choice] * players
            budget = rng.choice([1, 3, 10, 30, 100])
            expected = line_search.winning_line(
                plays, state, seat, rules, opponents, first, budget, refuted
            )
            assert deal.winning_line(state, seat, opponents, first, budget, table) == expected
            assert len(table) == len(refuted)
            answers[expected] += 1
            won = line_search.deal_won(plays, state, seat, rules, opponents, first, budget, refuted)
            assert deal.deal_won(state, seat, opponents, first, budget, table) == won
            assert len(table) == len(refuted)
            state = state.after(rng.choice(state.legal_moves(plays[seat])), rules)
    assert min(answers.values()) > 10, answers  # won, lost and out of nodes all come up


def test_the_tree_is_the_same_compiled_or_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """The trees the advisor grows over sampled deals of real positions, grown again both ways:
    the same passes and wins under every root move, whichever path scores their leaves."""
    captured: list[tuple[object, ...]] = []
    original = PlayerTree.__init__

    def capture(self: PlayerTree, *args: object, **options: object) -> None:
        captured.append(args[:6])  # the roots to the line search budget
        original(self, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(PlayerTree, "__init__", capture)
    for deal in range(4):
        table = Table.deal(dealt_hands(9, deal, 4))
        for _ in range(3 + deal * 4):
            table = table.after(greedy_move(table.view()))
        view = table.view()
        if table.winner is None and len(view.legal_moves()) > 1:
            advise(view, replace(TABLE_ADVICE, samples=8, passes=5, line_nodes=30))
    monkeypatch.undo()
    assert len(captured) >= 2
    for args in captured:
        trees = [PlayerTree(*args, compiled=flag) for flag in (True, False)]  # type: ignore[arg-type]
        for tree in trees:
            tree.run(300)
        assert trees[0].root_stats() == trees[1].root_stats()
        assert trees[0].root_stats() != [(0, 0)] * len(trees[0].moves)


def test_the_players_policies_are_compiled() -> None:
    assert set(PLAYER_POLICIES) <= {greedy_choice, shed_choice}
