"""The rules machine of a deal in play in lockstep with every copy of it: random deals played
to their end under every rule profile (bombs and final passes on and off), and at every step
the legal moves and the state after a random one compared between

* the Python machine (:class:`~handsolver.solver.big2.game.state.DealState`);
* the tests' own rules (:mod:`tests.big2_minimax`, written from the rules' data);
* the table (:meth:`~handsolver.solver.big2.table.views.Table.after`);
* the game search's kernel (its move list, in the Python search's order, and its step);
* the playouts' kernel (its move list, its step, and the greedy and shed policies' choices),

as chess engines compare their move generators' perft counts."""

from __future__ import annotations

import random

import pytest

from handsolver.models.big2 import Play, make_rules, parse_switches, play_kind
from handsolver.models.big2_order import play_strength
from handsolver.models.big2_rules import PROFILES, Rules
from handsolver.models.cards import cards_of, mask_of
from handsolver.solver.big2.game.compiled import CompiledSearch
from handsolver.solver.big2.game.plays import PlayTuple, hand_plays
from handsolver.solver.big2.game.state import DealState, Outcome, winner
from handsolver.solver.big2.table.playout import greedy_choice, shed_choice
from handsolver.solver.big2.table.playout_compiled import CompiledDeal
from handsolver.solver.big2.table.views import Table
from tests.big2_minimax import MState, moves_of, next_state

DEALS = 75  # per profile and switches: 2,250 in all


# The switches of play no profile has on, each with a profile that has them off.
SWITCHES = [
    "seed --two-pair-alone --quads alone-or-kicker",
    "hk --two-pair-alone --two-pair --flush-order high-card",
    "pusoy-dos --unbeatable-straight-flush --quads no-kicker",
]


def _rules_cases() -> list[tuple[str, bool, bool]]:
    profiles = [
        (profile, bombs, pass_final)
        for profile in PROFILES
        for bombs in (False, True)
        for pass_final in (False, True)
    ]
    return profiles + [(switches, on, on) for switches in SWITCHES for on in (False, True)]


def _deal(rng: random.Random) -> tuple[int, ...]:
    players = rng.choice([2, 3, 4])
    # A third of the deals from two suits, so that flushes and straight flushes meet.
    suits = rng.choice([4, 4, 2])
    pool = [card for card in range(52) if card % 4 < suits]
    size = min(rng.choice([3, 5, 7, 9]), len(pool) // players)
    deck = rng.sample(pool, len(pool))
    return tuple(mask_of(deck[i * size : (i + 1) * size]) for i in range(players))


def _reference(state: DealState, beat: frozenset[int] | None) -> MState:
    """The state as the tests' own rules hold it (the play to beat as cards)."""
    passed = frozenset(seat for seat in range(len(state.hands)) if state.passed >> seat & 1)
    hands = tuple(frozenset(cards_of(hand)) for hand in state.hands)
    return (hands, state.to_move, beat, state.by, passed)


def _same(state: Outcome, reference: MState | int, rules: Rules) -> bool:
    """Whether the machine's state is the reference's (the play to beat by size and strength)."""
    if isinstance(state, int) or isinstance(reference, int):
        return state == reference
    hands, mover, beat, by, passed = reference
    size = strength = 0
    if beat is not None:
        mask = mask_of(sorted(beat))
        size, strength = len(beat), play_strength(Play(mask, play_kind(mask, rules)), rules)
    bits = sum(1 << seat for seat in passed)
    return state == (tuple(mask_of(sorted(h)) for h in hands), mover, size, strength, by, bits)


def _table(state: DealState, beat: Play | None, rules: Rules) -> Table:
    passed = frozenset(seat for seat in range(len(state.hands)) if state.passed >> seat & 1)
    by = None if state.by < 0 else state.by
    return Table(state.hands, state.to_move, rules, beat, by, passed)


def _same_table(table: Table, state: Outcome) -> bool:
    if isinstance(state, int):
        return table.winner == state
    passed = sum(1 << seat for seat in table.passed)
    by = -1 if table.by is None else table.by
    size = 0 if table.beat is None else table.beat.kind.size
    return (table.hands, table.to_move, size, by, passed) == (
        state.hands,
        state.to_move,
        state.size,
        state.by,
        state.passed,
    )


def walk(rules: Rules, hands: tuple[int, ...], rng: random.Random) -> int:
    """Play one deal to its end by random legal moves, every copy of the rules in lockstep;
    the steps taken."""
    plays = [hand_plays(hand, rules) for hand in hands]
    search = CompiledSearch(hands, rules, table_size=1024)
    deal = CompiledDeal(plays, rules)
    state: Outcome = DealState(hands, rng.randrange(len(hands)), 0, 0, -1, 0)
    beat: PlayTuple | None = None
    steps = 0
    while not isinstance(state, int):
        mover = state.to_move
        legal = state.legal_moves(plays[mover])
        # The tests' own rules: the same moves.
        reference = _reference(state, None if beat is None else frozenset(cards_of(beat[0])))
        assert sorted(0 if m is None else m[0] for m in legal) == sorted(
            0 if m is None else mask_of(sorted(m)) for m in moves_of(reference, rules)
        )
        # The playouts' kernel: the same list, in the same order.
        assert deal.compiled_moves(state) == legal
        # The game search: its own order in Python and compiled, the same moves.
        ordered = search.moves(state)
        assert search.compiled_moves(state) == ordered
        assert sorted(ordered) == sorted((0, 0, 0) if m is None else m for m in legal)
        # The policies, in Python and compiled.
        danger = min(h.bit_count() for seat, h in enumerate(state.hands) if seat != mover)
        for policy in (greedy_choice, shed_choice):
            chosen = policy(plays[mover], state.hands[mover], state.size, state.strength, danger, 0)
            assert deal.compiled_choice(policy, state, danger) == chosen
        # One random move, stepped by each.
        index = rng.randrange(len(legal))
        move = legal[index]
        child = state.after(move, rules)
        mask = None if move is None else frozenset(cards_of(move[0]))
        assert _same(child, next_state(reference, mask, rules), rules)
        assert deal.compiled_after(state, index) == child
        game_move = (0, 0, 0) if move is None else move
        assert search.compiled_after(state, ordered.index(game_move)) == child
        assert search.after(state, game_move) == child
        table_beat = None if beat is None else Play(beat[0], plays[state.by].kinds[beat[0]])
        played = None if move is None else Play(move[0], plays[mover].kinds[move[0]])
        assert _same_table(_table(state, table_beat, rules).after(played), child)
        if not isinstance(child, int):
            beat = None if child.size == 0 else (move if move is not None else beat)
        state = child
        steps += 1
    assert winner(state) == state
    return steps


@pytest.mark.parametrize(("profile", "bombs", "pass_final"), _rules_cases())
def test_every_copy_of_the_rules_steps_alike(profile: str, bombs: bool, pass_final: bool) -> None:
    name, *words = profile.split()
    rules = make_rules(name, bombs=bombs, pass_final=pass_final, **parse_switches(words))
    rng = random.Random(f"lockstep {profile} {bombs} {pass_final}")
    steps = sum(walk(rules, _deal(rng), rng) for _ in range(DEALS))
    assert steps > 10 * DEALS  # deals of many turns, passes and new tricks among them
