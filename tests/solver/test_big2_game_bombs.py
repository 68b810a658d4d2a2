"""Bombs and a single 2 in the game search, against the independent minimax of
:mod:`tests.big2_minimax`, under every profile with bombs.

Only a single 2 invites a bomb (four of a kind + 1, a straight flush), so a table key that lowers
the play to beat (``GameSearch.key_of``) must never lower a 2 below the 2s: an ace and a 2 to
beat may allow the same singles in reply but not the same bombs.  Random hands with a bomb in
one of them are asked about, one search and its table shared, with each single 2, ace and king
that nobody holds to beat in turn (random order, random mover and maker), in the Python search
and in the compiled one; and random positions with a bomb and 2s in the hands are solved one by
one.
"""

from __future__ import annotations

import random

import pytest

from handsolver.models.big2 import Play, make_rules
from handsolver.models.big2_rules import Rules
from handsolver.models.cards import mask_of
from handsolver.solver.big2.game.positions import (
    Kernel,
    Position,
    check_position,
    root_state,
    solve_position,
)
from handsolver.solver.big2.game.search import GameSearch
from tests.big2_minimax import minimax_answer
from tests.solver.test_big2_game_kernel import _answer

BOMB_RULES = {
    "seed": make_rules("seed", bombs=True),
    "hk": make_rules("hk", bombs=True),
    "taiwan-final": make_rules("taiwan", pass_final=True, bombs=True),
    "pusoy-dos": make_rules("pusoy-dos", bombs=True),
}
# Card numbers are rank * 4 + suit with the 2s at rank 0 and the aces at rank 12.
DEUCE, KING, ACE = 0, 11, 12


def bomb_hands(rng: random.Random, players: int) -> tuple[int, ...]:
    """A hand with four of a kind and one or two low cards, and hands of one to three cards
    from the rest of the deck, in random seats."""
    quads = rng.randrange(1, KING)
    rest = [card for card in range(52) if card // 4 != quads]
    rng.shuffle(rest)
    low = [card for card in rest if card // 4 not in (DEUCE, KING, ACE)]
    bomb = [quads * 4 + suit for suit in range(4)] + low[: rng.randint(1, 2)]
    rest = [card for card in rest if card not in bomb]
    hands = [bomb]
    for _ in range(players - 1):
        size = rng.randint(1, 3)
        hands.append(rest[:size])
        del rest[:size]
    rng.shuffle(hands)
    return tuple(mask_of(hand) for hand in hands)


def high_singles_to_beat(
    rng: random.Random, hands: tuple[int, ...], rules: Rules
) -> list[Position]:
    """The hands with each 2, ace and king nobody holds as a single to beat, in random order,
    the mover and the maker at random."""
    held = sum(hands)
    free = [card for card in range(52) if card // 4 in (DEUCE, KING, ACE) and not held >> card & 1]
    rng.shuffle(free)
    players = len(hands)
    positions = []
    for card in free:
        mover = rng.randrange(players)
        by = rng.choice([seat for seat in range(players) if seat != mover])
        position = Position(hands, mover, Play.from_cards([card], rules), by)
        positions.append(check_position(position, rules))
    return positions


def search_of(kernel: Kernel, hands: tuple[int, ...], rules: Rules) -> GameSearch:
    if kernel == "python":
        return GameSearch(hands, rules)
    pytest.importorskip("numba")
    from handsolver.solver.big2.game.compiled import CompiledSearch

    return CompiledSearch(hands, rules)


@pytest.mark.parametrize("kernel", ["python", "compiled"])
@pytest.mark.parametrize("name", BOMB_RULES)
@pytest.mark.parametrize("players", [2, 3])
def test_a_shared_table_keeps_a_two_apart_from_an_ace(
    kernel: Kernel, name: str, players: int
) -> None:
    """The ace or king to beat lowered to the same key as a 2 would share its verdicts, though
    only the 2 can be bombed."""
    rules = BOMB_RULES[name]
    rng = random.Random(f"bombs {name} {players}")
    for _ in range(4):
        hands = bomb_hands(rng, players)
        search = search_of(kernel, hands, rules)
        for position in high_singles_to_beat(rng, hands, rules):
            state = root_state(position, rules)
            wins = [search.wins(state, target) for target in range(players)]
            assert wins == minimax_answer(position, rules)[0], position


def bomb_position(rng: random.Random, players: int, rules: Rules) -> Position:
    """Hands as :func:`bomb_hands` gives with a 2 in one of the small hands, a random mover
    and, half the time, a single 2 or ace nobody holds to beat."""
    hands = list(bomb_hands(rng, players))
    small = rng.choice([seat for seat, hand in enumerate(hands) if hand.bit_count() <= 3])
    deuces = [card for card in range(4) if not sum(hands) >> card & 1]
    hands[small] |= 1 << rng.choice(deuces)
    mover = rng.randrange(players)
    if rng.random() < 0.5:
        return Position(tuple(hands), mover)
    free = [c for c in range(52) if c // 4 in (DEUCE, ACE) and not sum(hands) >> c & 1]
    by = rng.choice([seat for seat in range(players) if seat != mover])
    return Position(tuple(hands), mover, Play.from_cards([rng.choice(free)], rules), by)


@pytest.mark.parametrize("kernel", ["python", "compiled"])
@pytest.mark.parametrize("name", BOMB_RULES)
def test_positions_with_a_bomb_and_a_two_match_minimax(kernel: Kernel, name: str) -> None:
    if kernel == "compiled":
        pytest.importorskip("numba")
    rules = BOMB_RULES[name]
    rng = random.Random(f"bomb positions {name}")
    for players in (2, 3) * 5:
        position = bomb_position(rng, players, rules)
        result = solve_position(position, rules, kernel=kernel)
        assert _answer(result) == minimax_answer(position, rules), position
