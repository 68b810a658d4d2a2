"""The Pineapple player: legal moves, its rollout player's fouls, exact where play is exact."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from handsolver.models.ofc import HAND_SIZE, OfcRules, is_foul
from handsolver.solver.ofc.play import Board, Position, Scorer, after, legal_actions, play
from handsolver.solver.ofc.player import advise, chosen
from handsolver.solver.ofc.rollout import Judge, finished

RULES = OfcRules()


def random_position(rng: random.Random, placed: int, opponent_placed: int) -> Position:
    """A position reached by random legal play: my board of ``placed`` cards, one opponent's
    of ``opponent_placed``, my discards dead, my cards for this street."""
    deck = list(range(52))
    rng.shuffle(deck)

    def built(count: int) -> tuple[Board, list[int]]:
        board: Board = ((), (), ())
        dead: list[int] = []
        while sum(map(len, board)) < count:
            size = 5 if not any(board) else 3
            action = rng.choice(legal_actions(board, [deck.pop() for _ in range(size)]))
            board = after(board, action)
            if action.discard is not None:
                dead.append(action.discard)
        return board, dead

    mine, dead = built(placed)
    theirs, _ = built(opponent_placed)
    dealt = tuple(deck.pop() for _ in range(5 if placed == 0 else 3))
    return Position(mine, dealt, (theirs,), tuple(dead))


@pytest.mark.parametrize("seed", range(12))
def test_the_player_plays_a_legal_action_on_random_positions(seed: int) -> None:
    rng = random.Random(f"player-legal-{seed}")
    placed = rng.choice((0, 5, 7, 9, 11))
    position = random_position(rng, placed, rng.choice((0, 5, 7, 9, 11)))
    advice = advise(position, RULES, Fraction(15), samples=6, kept=5, seed=seed)
    legal = legal_actions(position.board, position.dealt)
    assert all(entry.action in legal for entry in advice.answer.actions)
    assert advice.legal == len(legal) and len(advice.answer.actions) == advice.kept
    board = after(position.board, advice.answer.actions[0].action)
    cards = [card for row in board for card in row]
    assert len(cards) == len(set(cards)) == placed + (5 if placed == 0 else 2)
    assert set(cards).isdisjoint(position.dead)
    assert all(len(row) <= size for row, size in zip(board, (5, 5, 3), strict=True))


def test_the_player_is_deterministic_for_a_seed() -> None:
    position = random_position(random.Random("player-seed"), 5, 7)
    first, again, other = (
        advise(position, RULES, Fraction(0), samples=20, kept=4, seed=seed) for seed in (3, 3, 4)
    )
    assert first == again
    assert first.answer.actions != other.answer.actions


@pytest.mark.parametrize("seed", range(4))
def test_the_last_streets_stay_exact(seed: int) -> None:
    """Against complete boards with at most one street after this one, the player's values
    are :func:`play`'s exact ones."""
    rng = random.Random(f"player-exact-{seed}")
    position = random_position(rng, rng.choice((9, 11)), HAND_SIZE)
    advice = advise(position, RULES, Fraction(10), seed=seed)
    exact = play(position, RULES, Fraction(10), exact=True)
    assert advice.answer == exact and advice.answer.exact
    assert advice.method.startswith("exact")


def test_the_rollout_player_rarely_fouls() -> None:
    """Its boards over 300 fixed deals: 3 fouled measured (the policy of ofc play fouls about
    four in ten)."""
    scorer = Scorer(RULES, Fraction(15))
    judge = Judge(scorer, 15.0)
    fouls = 0
    for index in range(300):
        deck = list(range(52))
        random.Random(f"rollout-fouls-{index}").shuffle(deck)
        fouls += scorer.final_masks(finished(judge, (0, 0, 0), deck)).fouled
    assert fouls <= 10, fouls


def test_the_player_rarely_fouls_a_few_fixed_hands() -> None:
    """Eight hands dealt from fixed seeds, played street by street against an empty board
    with a small budget (4 actions kept, 8 deals each): 0 fouled measured."""
    fouls = 0
    for index in range(8):
        deck = list(range(52))
        random.Random(f"player-fouls-{index}").shuffle(deck)
        board: Board = ((), (), ())
        dead: list[int] = []
        while sum(map(len, board)) < HAND_SIZE:
            dealt = tuple(deck.pop() for _ in range(5 if not any(board) else 3))
            position = Position(board, dealt, (((), (), ()),), tuple(dead))
            action = chosen(position, RULES, Fraction(15), samples=8, kept=4, seed=index)
            board = after(board, action)
            dead += [] if action.discard is None else [action.discard]
        fouls += is_foul((board[0], board[1], board[2]))
    assert fouls <= 1, fouls
