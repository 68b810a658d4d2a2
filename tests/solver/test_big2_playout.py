"""The Big 2 playouts behind the advisor: the policies against rules written out again here
over the models' list of plays, and whole deals played out against the table's own
bookkeeping (:class:`~handsolver.solver.big2.table.views.Table`)."""

from __future__ import annotations

import random

import pytest

from handsolver.models.big2 import SEED_RULES, Play, Rules, legal_plays, make_rules
from handsolver.models.big2_order import beats, play_strength
from handsolver.models.cards import CardSet, cards_of, mask_of
from handsolver.solver.big2.game.state import DealState
from handsolver.solver.big2.table.playout import (
    BREAK_AT,
    DANGER_AT,
    greedy_choice,
    hand_plays,
    play_out,
    shed_choice,
)
from handsolver.solver.big2.table.strategies import greedy_move, shed_move
from handsolver.solver.big2.table.views import Move, Table, TableView

RULES = [
    SEED_RULES,
    make_rules("seed", pass_final=True),
    make_rules("hk", bombs=True),
    make_rules("taiwan", players=3),
]


def random_views(count: int, seed: int, rules: Rules = SEED_RULES) -> list[TableView]:
    """Hands of 1 to 13 cards, a free lead (sometimes the deal's first) or a play to beat from
    another hand, and opponents' counts from 1 to 13."""
    rng = random.Random(seed)
    views = []
    for _ in range(count):
        deck = rng.sample(range(52), 52)
        hand = mask_of(deck[: rng.randint(1, 13)])
        target = None
        if rng.random() < 0.6:
            target = rng.choice(legal_plays(mask_of(deck[13:26]), rules))
        counts = (hand.bit_count(), *(rng.randint(1, 13) for _ in range(rng.randint(1, 3))))
        start = target is None and rng.random() < 0.2
        by = None if target is None else 1
        views.append(TableView(0, hand, counts, 0, (), target, by, frozenset(), start, rules))
    return views


def is_two(card: int) -> bool:
    return card >> 2 == 0


def whole_ranks(play: Play, hand: CardSet) -> bool:
    """Every rank of ``play`` leaves ``hand`` entirely."""
    return all(
        all(other in cards_of(play.mask) for other in cards_of(hand) if other >> 2 == card >> 2)
        for card in cards_of(play.mask)
    )


def reference_shed(view: TableView) -> Move:
    """The playout policy's rules, as its module states them, over every legal play."""
    rules, hand = view.rules, view.hand
    plays = legal_plays(hand, rules)
    danger = min(count for seat, count in enumerate(view.counts) if seat != view.seat)
    if view.beat is None:
        low = min(cards_of(hand), key=rules.card_keys.__getitem__)
        leads = [p for p in plays if not view.start or p.mask >> low & 1]
        leads.sort(key=lambda p: (-p.kind.size, play_strength(p, rules)))
        if any(p.mask == hand for p in leads):
            return next(p for p in leads if p.mask == hand)
        if danger == 1:
            if leads[0].kind.size > 1:
                return leads[0]
            return max(leads, key=lambda p: play_strength(p, rules))
        for play in leads:
            single_two = play.kind.size == 1 and is_two(cards_of(play.mask)[0])
            if whole_ranks(play, hand) and not single_two:
                return play
        return leads[0]
    beat = view.beat
    replies = [p for p in plays if beats(p, beat, rules)]
    replies.sort(key=lambda p: (p.kind.size != beat.kind.size, play_strength(p, rules)))
    if not replies:
        return None
    if any(p.mask == hand for p in replies):
        return next(p for p in replies if p.mask == hand)
    singles = [p for p in replies if p.kind.size == 1]
    if danger == 1 and beat.kind.size == 1:
        return singles[-1] if singles else replies[0]
    short = hand.bit_count() <= BREAK_AT or danger <= DANGER_AT
    for play in replies:
        if play.kind.size == 5 or whole_ranks(play, hand):
            twos = play.kind.size <= 2 and any(is_two(card) for card in cards_of(play.mask))
            if twos and not short:
                return None
            return play
    return replies[0] if short else None


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: rules.name)
def test_shed_follows_its_rules(rules: Rules) -> None:
    for view in random_views(300, seed=11, rules=rules):
        assert shed_move(view) == reference_shed(view), view


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: rules.name)
def test_greedy_choice_is_the_greedy_strategy(rules: Rules) -> None:
    for view in random_views(300, seed=12, rules=rules):
        if view.start:
            continue
        expected = greedy_move(view)
        beat = view.beat
        size, strength = (0, 0) if beat is None else (beat.kind.size, play_strength(beat, rules))
        got = greedy_choice(hand_plays(view.hand, rules), view.hand, size, strength, 13, 0)
        assert (got and got[0]) == (expected and expected.mask)


def state_of(table: Table) -> DealState:
    """The playout state of a table (where passes are final, the seats out of the trick)."""
    size = strength = 0
    if table.beat is not None:
        size, strength = table.beat.kind.size, play_strength(table.beat, table.rules)
    by = -1 if table.by is None else table.by
    passed = sum(1 << seat for seat in table.passed)
    return DealState(table.hands, table.to_move, size, strength, by, passed)


def random_tables(rules: Rules, players: int, count: int, seed: int) -> list[Table]:
    """Deals played on by random legal moves for a random number of turns."""
    rng = random.Random(seed)
    size = rules.hand_size if players == 3 and rules.players == 3 else 13
    tables = []
    for _ in range(count):
        deck = rng.sample(range(52), 52)
        table = Table.deal(tuple(mask_of(deck[s * size : (s + 1) * size]) for s in range(players)))
        table = Table(table.hands, table.to_move, rules)
        for _ in range(rng.randint(1, 40)):
            moves = table.view().legal_moves()
            nxt = table.after(rng.choice(moves))
            if nxt.winner is not None:
                break
            table = nxt
        if table.history:
            tables.append(table)
    return tables


@pytest.mark.parametrize(("rules", "players"), [(r, p) for r in RULES for p in (2, 3, 4)])
def test_after_moves_as_the_table_does(rules: Rules, players: int) -> None:
    for table in random_tables(rules, players, 25, seed=players):
        for move in table.view().legal_moves():
            tupled = (
                None if move is None else (move.mask, move.kind.size, play_strength(move, rules))
            )
            got = state_of(table).after(tupled, rules)
            nxt = table.after(move)
            assert got == (nxt.winner if nxt.winner is not None else state_of(nxt))


@pytest.mark.parametrize(("rules", "players"), [(r, p) for r in RULES for p in (2, 3, 4)])
def test_play_out_ends_as_the_table_does(rules: Rules, players: int) -> None:
    """The playout's winner is the one of the same deal played on at the table, turn by turn,
    with the shed strategy in every seat (and greedy in the last, to mix policies)."""
    for table in random_tables(rules, players, 15, seed=10 + players):
        hands = table.hands
        plays = [hand_plays(hand, rules) for hand in hands]
        policies = [shed_choice] * (players - 1) + [greedy_choice]
        got = play_out(plays, state_of(table), rules, policies)
        while table.winner is None:
            view = table.view()
            move = greedy_move(view) if table.to_move == players - 1 else shed_move(view)
            table = table.after(move)
        assert got == table.winner
