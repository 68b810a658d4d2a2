"""Reading greedy opponents' turns, against a replay of the table's own greedy strategy: a
hand fits a seat's turns exactly when greedy, holding it (and the cards the seat played
later), makes every move the seat made; the true hands of greedy seats always fit; seats that
break the rule are left unread; fitted deals stay deals of the unseen cards."""

from __future__ import annotations

import random

import pytest

from handsolver.models.big2 import (
    SEED_RULES,
    Play,
    PlayKind,
    Rules,
    has_five_card_play,
    iter_legal_plays,
    make_rules,
)
from handsolver.models.big2_order import play_strength
from handsolver.models.cards import CardSet, cards_of, mask_of, parse_cards
from handsolver.solver.big2.table.reading import fitted_deals, greedy_readings
from handsolver.solver.big2.table.strategies import greedy_move
from handsolver.solver.big2.table.tournament_games import dealt_hands
from handsolver.solver.big2.table.views import Move, Table, TableView, Turn

RULES = [
    SEED_RULES,
    make_rules("seed", pass_final=True),
    make_rules("taiwan", players=3),
    make_rules("seed", bombs=True),
    make_rules("western", two_pair=True, quads="alone"),
    make_rules("online"),
    make_rules("seed", two_pair_alone=True, quads="alone", open_alone=True),
]


def greedy_tables(rules: Rules, players: int, deals: int, seed: int) -> list[Table]:
    """Every position of deals played by greedy in every seat."""
    tables = []
    for deal in range(deals):
        table = Table.deal(dealt_hands(seed, deal, players, rules), rules)
        while table.winner is None:
            tables.append(table)
            table = table.after(greedy_move(table.view()))
    return tables


def others(view: TableView) -> list[int]:
    players = len(view.counts)
    return [(view.seat + step) % players for step in range(1, players)]


def same_move(one: Move, other: Move, rules: Rules) -> bool:
    """The same move, or two plays of five cards of equal strength (not told apart)."""
    if one is None or other is None:
        return one is other
    if one.kind.size == other.kind.size == 5:
        return play_strength(one, rules) == play_strength(other, rules)
    return one.mask == other.mask


def replay_fits(table: Table, seat: int, hand: CardSet) -> bool:
    """Whether ``seat``, holding ``hand`` now (and so ``hand`` and every card it played since
    the deal began), makes every move of the history by the table's greedy strategy."""
    rules = table.rules
    held = hand | sum(turn.move.mask for turn in table.history if turn.seat == seat and turn.move)
    beat: Play | None = None
    by: int | None = None
    played = 0
    for index, turn in enumerate(table.history):
        if turn.seat == seat:
            lead = by == seat or beat is None
            view = TableView(
                seat,
                held,
                tuple(13 for _ in table.hands),
                played,
                table.history[:index],
                None if lead else beat,
                None if lead else by,
                frozenset(),
                index == 0,
                rules,
            )
            if not same_move(greedy_move(view), turn.move, rules):
                return False
        if turn.move is not None:
            played |= turn.move.mask
            beat, by = turn.move, turn.seat
            if turn.seat == seat:
                held ^= turn.move.mask
    return True


@pytest.mark.parametrize(("rules", "players"), [(r, p) for r in RULES for p in (2, 3, 4)])
def test_true_hands_of_greedy_seats_fit_their_reading(rules: Rules, players: int) -> None:
    turns = 0
    for table in greedy_tables(rules, players, 6, seed=players):
        view = table.view()
        seats = others(view)
        for seat, reading in zip(seats, greedy_readings(view, seats), strict=True):
            assert reading is not None  # a greedy seat is never taken to break the rule
            assert reading.misfits(table.hands[seat]) == 0
            assert reading.culprits(table.hands[seat]) == 0
            turns += len(reading.turns)
    assert turns > 100


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: rules.name)
def test_a_hand_fits_exactly_when_greedy_replays_the_turns(rules: Rules) -> None:
    """Hands made of the seat's own cards and the other opponents', at random: the reading's
    count of misfit turns is zero exactly when the replay keeps every move."""
    rng = random.Random(rules.name)
    tables = greedy_tables(rules, 4, 6, seed=11)
    fitting = misfitting = 0
    for table in rng.sample(tables, 60):
        view = table.view()
        seats = others(view)
        for seat, reading in zip(seats, greedy_readings(view, seats), strict=True):
            assert reading is not None
            size = table.hands[seat].bit_count()
            cards = cards_of(sum(table.hands[s] for s in seats))
            for _ in range(8):
                hand = mask_of(rng.sample(cards, size))
                fits = replay_fits(table, seat, hand)
                assert (reading.misfits(hand) == 0) == fits
                culprits = reading.culprits(hand)
                assert culprits & hand == culprits and bool(culprits) == (not fits)
                fitting += fits
                misfitting += not fits
    assert fitting > 50 and misfitting > 50


def single(text: str) -> Play:
    return Play(mask_of(parse_cards(text)), PlayKind.SINGLE)


def cards(text: str) -> CardSet:
    return mask_of(parse_cards(text))


def test_a_seat_that_breaks_the_rule_is_not_read() -> None:
    """Seat 1 passes on the 5s and later plays the king: not greedy, so not read.  Seat 0 led
    the 6d: it held no lower single and no pair.  Seat 2 beat the 4d with the 4s and passed on
    the 5s: it held no single between them, nor above the 5s."""
    rules = SEED_RULES
    history = (
        Turn(0, single("3d")),
        Turn(1, single("4d")),
        Turn(2, single("4s")),
        Turn(0, single("5s")),
        Turn(1, None),
        Turn(2, None),
        Turn(0, single("6d")),
        Turn(1, single("Kd")),
    )
    played = sum(turn.move.mask for turn in history if turn.move)
    hand = cards("7c 8c 9c")

    def view(seat: int) -> TableView:
        counts = (3, 5, 5)
        return TableView(
            seat, hand, counts, played, history, single("Kd"), 1, frozenset(), False, rules
        )

    seat_0, seat_1 = greedy_readings(view(2), [0, 1])
    assert seat_1 is None
    assert seat_0 is not None
    assert seat_0.misfits(cards("Tc Jd")) == 0
    assert seat_0.misfits(cards("4h Jd")) == 1  # a single below the 6d
    assert seat_0.misfits(cards("5h Jd")) == 2  # and between the 4s and the 5s beating it
    assert seat_0.misfits(cards("Td Th")) == 1  # a pair: led before a single
    assert seat_0.culprits(cards("Td Th Jd")) == cards("Td Th")
    _, seat_2 = greedy_readings(view(0), [1, 2])
    assert seat_2 is not None
    assert seat_2.misfits(cards("5h 3c")) == 0  # below the 5s, none between the 4d and 4s
    assert seat_2.misfits(cards("4h 5c")) == 1  # between the 4d and 4s
    assert seat_2.misfits(cards("6h 5c")) == 1  # above the 5s
    assert seat_2.misfits(cards("4h 6h")) == 2


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: rules.name)
def test_has_five_card_play_agrees_with_the_list_of_plays(rules: Rules) -> None:
    rng = random.Random(7)
    for _ in range(3000):
        hand = mask_of(rng.sample(range(52), rng.randint(0, 13)))
        listed = any(play.kind.size >= 5 for play in iter_legal_plays(hand, rules=rules))
        assert has_five_card_play(hand, rules) == listed


def test_fitted_deals_keep_the_counts_and_the_cards() -> None:
    fits = misfits = total = 0
    for table in greedy_tables(SEED_RULES, 3, 3, seed=2)[5::7]:
        view = table.view()
        seats = others(view)
        readings = greedy_readings(view, seats)
        pool = ((1 << 52) - 1) & ~view.hand & ~view.played
        rng = random.Random(1)
        deals = []
        for _ in range(6):
            drawn = rng.sample(cards_of(pool), pool.bit_count())
            deal, start = [], 0
            for seat in seats:
                deal.append(mask_of(drawn[start : start + view.counts[seat]]))
                start += view.counts[seat]
            deals.append(tuple(deal))
        undealt = [pool & ~sum(deal) for deal in deals]
        fitted = fitted_deals(deals, readings, undealt, seed=3)
        assert fitted == fitted_deals(deals, readings, undealt, seed=3)
        for before, deal in zip(deals, fitted, strict=True):
            assert [hand.bit_count() for hand in deal] == [view.counts[s] for s in seats]
            assert sum(deal) & pool == sum(deal)
            assert sum(hand.bit_count() for hand in deal) == sum(deal).bit_count()
            cost = [r.misfits(h) for r, h in zip(readings, deal, strict=True) if r is not None]
            was = [r.misfits(h) for r, h in zip(readings, before, strict=True) if r is not None]
            assert sum(cost) <= sum(was)
            total += 1
            fits += not sum(cost)
            misfits += bool(sum(was))
    # Most deals drawn misfit somewhere, and the search fits nearly all of them.
    assert misfits > total // 2 and fits > 0.9 * total


def test_a_seat_no_hand_fits_is_not_read() -> None:
    """Seat 1 answers the 3d with the 2s, the highest single: greedy holding any other card
    would have played a lower one, so no hand of twelve cards fits it.  The deals are fitted as
    if it were not read; seat 2, which passed on the 2s, is still read."""
    rules = SEED_RULES
    history = (
        Turn(0, single("3d")),
        Turn(1, single("2s")),
        Turn(2, None),
        Turn(3, None),
    )
    played = sum(turn.move.mask for turn in history if turn.move)
    hand = cards("5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c 3c")
    view = TableView(
        0, hand, (12, 12, 13, 13), played, history, single("2s"), 1, frozenset(), False, rules
    )
    readings = greedy_readings(view, [1, 2, 3])
    assert all(reading is not None for reading in readings)
    pool = ((1 << 52) - 1) & ~hand & ~played
    rng = random.Random(5)
    deals = []
    for _ in range(8):
        drawn = rng.sample(cards_of(pool), pool.bit_count())
        deals.append((mask_of(drawn[:12]), mask_of(drawn[12:25]), mask_of(drawn[25:])))
    undealt = [0] * len(deals)
    seat_1 = readings[0]
    assert seat_1 is not None and all(seat_1.misfits(deal[0]) for deal in deals)
    unread = (None, *readings[1:])
    fitted = fitted_deals(deals, readings, undealt, seed=2)
    assert fitted == fitted_deals(deals, unread, undealt, seed=2)
