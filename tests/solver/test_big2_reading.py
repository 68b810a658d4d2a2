"""Reading greedy opponents' turns: sound on deals greedy plays (the true hands never break a
fact read), each fact a consequence of the rule (a hand holding the card would have played
otherwise, replayed with the table's own greedy strategy), seats that break the rule left
unread, and fitted deals that stay deals of the unseen cards."""

from __future__ import annotations

import random

import pytest

from handsolver.models.big2 import SEED_RULES, Play, PlayKind, Rules, make_rules
from handsolver.models.cards import CardSet, mask_of, parse_cards
from handsolver.solver.big2.reading import fitted_deals, greedy_readings
from handsolver.solver.big2.strategies import greedy_move
from handsolver.solver.big2.table import Table, TableView, Turn
from handsolver.solver.big2.tournament import dealt_hands

RULES = [SEED_RULES, make_rules("seed", pass_final=True), make_rules("taiwan", players=3)]


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


@pytest.mark.parametrize(("rules", "players"), [(r, p) for r in RULES for p in (2, 3, 4)])
def test_true_hands_of_greedy_seats_fit_their_reading(rules: Rules, players: int) -> None:
    facts = 0
    for table in greedy_tables(rules, players, 6, seed=players):
        view = table.view()
        seats = others(view)
        for seat, reading in zip(seats, greedy_readings(view, seats), strict=True):
            assert reading is not None  # a greedy seat is never taken to break the rule
            assert reading.misfits(table.hands[seat]) == 0
            facts += (~reading.allowed & ((1 << 52) - 1)).bit_count() + len(reading.sets)
    assert facts > 100


def replayed_differs(table: Table, seat: int, extra: CardSet) -> bool:
    """Whether ``seat`` holding ``extra`` as well from the start, and playing greedy, would have
    made some move of the history otherwise (the table's own greedy strategy decides; seed
    rules, where passes are not final)."""
    history = table.history
    hand = table.hands[seat] | extra
    hand |= sum(turn.move.mask for turn in history if turn.seat == seat and turn.move)
    beat: Play | None = None
    by: int | None = None
    played = 0
    for index, turn in enumerate(history):
        if turn.seat == seat and index:
            lead = by == seat
            view = TableView(
                seat,
                hand,
                tuple(13 for _ in table.hands),
                played,
                history[:index],
                None if lead else beat,
                None if lead else by,
                frozenset(),
                False,
                table.rules,
            )
            if greedy_move(view) != turn.move:
                return True
        if turn.move is not None:
            played |= turn.move.mask
            beat, by = turn.move, turn.seat
            if turn.seat == seat:
                hand ^= turn.move.mask
    return False


def test_every_single_ruled_out_is_a_consequence_of_the_rule() -> None:
    """A card read as not held, added to the seat's hand, changes one of its greedy moves."""
    rng = random.Random(4)
    tables = greedy_tables(SEED_RULES, 4, 4, seed=9)
    checked = 0
    for table in rng.sample(tables, 40):
        view = table.view()
        seats = others(view)
        for seat, reading in zip(seats, greedy_readings(view, seats), strict=True):
            assert reading is not None
            # Cards still with the other opponents: a hypothetical the deal allows.
            elsewhere = sum(table.hands[s] for s in seats if s != seat)
            for card in range(52):
                if elsewhere >> card & 1 and not reading.allowed >> card & 1:
                    assert replayed_differs(table, seat, 1 << card)
                    checked += 1
    assert checked > 20


def single(text: str) -> Play:
    return Play(mask_of(parse_cards(text)), PlayKind.SINGLE)


def between(rules: Rules, low: str | None, high: str | None) -> list[int]:
    """The cards strictly between two cards in the rules' order (None: no bound)."""
    keys = rules.card_keys
    bottom = -1 if low is None else keys[parse_cards(low)[0]]
    top = 99 if high is None else keys[parse_cards(high)[0]]
    return [card for card in range(52) if bottom < keys[card] < top]


def test_a_seat_that_breaks_the_rule_is_not_read() -> None:
    """Seat 1 passes on the 5s and later plays the king: not greedy, so not read.  Seat 0 and
    seat 2 are read: each holds no single between the single it beat and its own, seat 2
    none above the 5s it passed on, seat 0 no single below the 6d it led and no pair."""
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
    hand = mask_of(parse_cards("7c 8c 9c"))

    def view(seat: int) -> TableView:
        counts = (3, 5, 5)
        return TableView(
            seat, hand, counts, played, history, single("Kd"), 1, frozenset(), False, rules
        )

    seat_0, seat_1 = greedy_readings(view(2), [0, 1])
    assert seat_1 is None
    assert seat_0 is not None
    ruled_out = between(rules, "4s", "5s") + between(rules, None, "6d")
    assert ruled_out and all(not seat_0.allowed >> card & 1 for card in ruled_out)
    assert len(seat_0.sets) == 78  # every pair
    _, seat_2 = greedy_readings(view(0), [1, 2])
    assert seat_2 is not None
    ruled_out = between(rules, "4d", "4s") + between(rules, "5s", None)
    assert all(not seat_2.allowed >> card & 1 for card in ruled_out)
    assert seat_2.allowed >> parse_cards("5h")[0] & 1  # below the 5s: may be held
    assert not seat_2.sets


def test_fitted_deals_keep_the_counts_and_the_cards() -> None:
    for table in greedy_tables(SEED_RULES, 3, 3, seed=2)[5::7]:
        view = table.view()
        seats = others(view)
        readings = greedy_readings(view, seats)
        pool = ((1 << 52) - 1) & ~view.hand & ~view.played
        rng = random.Random(1)
        deals = []
        for _ in range(6):
            cards = rng.sample([c for c in range(52) if pool >> c & 1], pool.bit_count())
            counts = [view.counts[s] for s in seats]
            deal, start = [], 0
            for count in counts:
                deal.append(mask_of(cards[start : start + count]))
                start += count
            deals.append(tuple(deal))
        undealt = [pool & ~sum(deal) for deal in deals]
        fitted = fitted_deals(deals, readings, undealt, seed=3)
        assert fitted == fitted_deals(deals, readings, undealt, seed=3)
        for deal in fitted:
            assert [hand.bit_count() for hand in deal] == [view.counts[s] for s in seats]
            assert sum(deal) & pool == sum(deal)
            assert sum(hand.bit_count() for hand in deal) == sum(deal).bit_count()
            for hand, reading in zip(deal, readings, strict=True):
                assert reading is not None and reading.misfits(hand) == 0
