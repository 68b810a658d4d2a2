"""Open-face Chinese poker rules against a direct implementation written apart."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handsolver.models.cards import InputError
from handsolver.models.ofc import (
    BOTTOM,
    DEFAULT_ROYALTIES,
    MIDDLE,
    TOP,
    OfcRules,
    board_of,
    board_of_text,
    default_royalties,
    is_foul,
    parse_ofc_royalties,
    partial_board_of_text,
    row_royalties,
    score,
    scores,
)
from tests import ofc_reference as ref

cards13 = st.permutations(range(52)).map(lambda deck: tuple(deck[:13]))


def board(cards: tuple[int, ...], sort: bool) -> ref.Board:
    """A board from 13 cards: as dealt, or with the highest ranks on the bottom (rarely fouled)."""
    if sort:
        cards = tuple(sorted(cards, key=lambda c: (c // 4, c % 4)))
    return (cards[:3], cards[3:8], cards[8:])


def engine(board: ref.Board) -> tuple[tuple[int, ...], ...]:
    top, middle, bottom = board
    return board_of(top, middle, bottom)


@given(cards13, st.booleans())
def test_fouls_royalties_stays_and_fantasy_match_the_reference(
    cards: tuple[int, ...], sort: bool
) -> None:
    mine = board(cards, sort)
    rules = OfcRules()
    assert is_foul(engine(mine)) == ref.is_fouled(mine)
    assert row_royalties(engine(mine), rules.royalties).total == ref.royalties(mine)
    assert rules.stays(engine(mine)) == ref.stays(mine)
    assert rules.fantasy_cards(engine(mine)) == ref.fantasy_cards(mine)


@given(st.permutations(range(52)), st.booleans(), st.booleans())
def test_scores_match_the_reference(deck: list[int], sort_a: bool, sort_b: bool) -> None:
    a, b = board(tuple(deck[:13]), sort_a), board(tuple(deck[13:26]), sort_b)
    table = default_royalties()
    assert score(engine(a), engine(b), table) == ref.score(a, b)
    assert score(engine(b), engine(a), table) == -ref.score(a, b)


# Thirteen cards from five ranks: rows of equal or adjacent strength, where the order rule bites.
narrow13 = st.permutations(range(20)).map(lambda deck: tuple(deck[:13]))


@given(narrow13)
def test_fouls_of_rows_close_in_strength_match_the_reference(cards: tuple[int, ...]) -> None:
    for mine in (board(cards, False), board(cards, True), (cards[10:], cards[:5], cards[5:10])):
        assert is_foul(engine(mine)) == ref.is_fouled(mine)


def test_every_top_and_many_five_card_rows_earn_the_tables_royalties() -> None:
    table = default_royalties()
    for top in combinations(range(52), 3):
        assert table.of_row(TOP, top) == ref.top_royalty(top)
    rng = random.Random(7)
    straight_flushes = [
        tuple(4 * r + suit for r in ranks)
        for suit in range(4)
        for ranks in [(12, 0, 1, 2, 3), *(tuple(range(low, low + 5)) for low in range(9))]
    ]
    fives = straight_flushes + [tuple(rng.sample(range(52), 5)) for _ in range(20_000)]
    for five in fives:
        assert table.of_row(BOTTOM, five) == ref.bottom_royalty(five)
        assert table.of_row(MIDDLE, five) == ref.middle_royalty(five)


def test_three_players_score_in_pairs() -> None:
    rng = random.Random(3)
    for _ in range(50):
        deck = rng.sample(range(52), 39)
        boards = [board(tuple(deck[13 * i : 13 * i + 13]), rng.random() < 0.7) for i in range(3)]
        totals = scores([engine(b) for b in boards], default_royalties())
        assert sum(totals) == 0
        assert totals[0] == ref.score(boards[0], boards[1]) + ref.score(boards[0], boards[2])


def test_the_order_rule_compares_the_top_with_the_middle_as_far_as_it_has_cards() -> None:
    legal = board_of_text("Qc Qd 2s | Qh Qs 3c 4d 5h | Ac Ad Ah Kc Kd")
    kicker = board_of_text("Qc Qd As | Qh Qs 3c 4d 5h | Ac Ad Ah Kc Kd")
    assert not is_foul(legal) and is_foul(kicker)
    # A middle one kicker above the bottom fouls; the same ranks do not.
    above = board_of_text("2c 3d 4c | Kh Ks 9c 7d 4h | Kc Kd 9h 7s 3c")
    same = board_of_text("2c 3c 4d | Kh Ks 9c 7d 3h | Kc Kd 9h 7s 3s")
    assert is_foul(above) and ref.is_fouled(above[::-1])
    assert not is_foul(same)
    # Fouled: no royalties, no fantasyland, and it loses every row.
    assert row_royalties(kicker, default_royalties()).total == 0
    assert OfcRules().fantasy_cards(kicker) is None
    assert score(legal, kicker, default_royalties()) == 6 + 7 + 6


def test_flat_fantasyland_and_the_stay_rule_without_the_middle() -> None:
    trips_top = board_of_text("2c 2d 2h | Ac Ad Ah 3c 3d | 4s 5s 6s 7s 8s")
    full_middle = board_of_text("Qc Qd 4s | 3c 3d 3h 2c 2d | Ac Ad Ah Kc Kd")
    assert OfcRules(fantasy="flat").fantasy_cards(trips_top) == 14
    assert OfcRules().stays(full_middle) and not OfcRules(stay="no-middle").stays(full_middle)
    assert OfcRules(stay="no-middle").stays(trips_top)


def test_the_default_table_is_the_common_one() -> None:
    table = default_royalties()
    assert table == parse_ofc_royalties(DEFAULT_ROYALTIES)
    royal = board_of_text("2c 3d 4h | 9c 9d 9h 9s 5c | As Ks Qs Js Ts")
    assert row_royalties(royal, table) == (0, 20, 25, 45)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Qc Qd | 2c 3c 4c 5c 7d | 8s 9s Ts Js Qs", "top needs 3 cards, got 2"),
        ("Qc Qd Qh 2c | | ", "top holds 3 cards, got 4"),
        ("Qc Qd 2s | Qc 3c 4c 5c 7d | 8s 9s Ts Js Ks", "card 'Qc' is given twice"),
        ("Qc Qd 2s | 2c 3c 4c 5c 7d", "write three rows"),
        ("Qc Qd 2x | | ", "unknown suit 'x'"),
    ],
)
def test_bad_boards_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        board_of_text(text)
    with pytest.raises(InputError, match=message):
        if "needs" not in message:
            partial_board_of_text(text)
        else:
            raise InputError(message)


def test_bad_royalty_files_name_the_row() -> None:
    with pytest.raises(InputError, match="unknown row 'front'; rows are bottom, middle, top"):
        parse_ofc_royalties('{"front": {"pair 6": 1}}')
    with pytest.raises(InputError, match="unknown top hand 'straight'"):
        parse_ofc_royalties('{"top": {"straight": 1}}')
