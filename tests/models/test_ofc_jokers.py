"""The joker deck's rules against substitution written apart: a joker is any card not in its
row, and a board's jokers are chosen together, each row the strongest that keeps the order."""

from __future__ import annotations

import random

import pytest

from handsolver.models.cards import CardParseError, InputError, parse_cards, parse_deal
from handsolver.models.chinese import row_key
from handsolver.models.ofc import (
    BOTTOM,
    MIDDLE,
    TOP,
    OfcRules,
    board_keys,
    board_of,
    board_of_text,
    chosen_keys,
    default_royalties,
    is_foul,
    keys_of_rows,
    ofc_deck,
    order_of_key,
    row_keys,
    row_royalties,
    score,
)
from handsolver.models.poker import category_of, poker_key
from tests import ofc_reference as ref

X1, X2 = 52, 53


def joker_row(rng: random.Random, size: int, jokers: int) -> tuple[int, ...]:
    """A row of ``size`` cards, ``jokers`` of them jokers, the real ones often of few ranks
    and one suit (where the joker's best card is one the row already holds)."""
    kind = rng.randrange(3)
    if kind == 0:
        pool = list(range(52))
    elif kind == 1:
        ranks = rng.sample(range(13), 2)
        pool = [4 * r + s for r in ranks for s in range(4)]
    else:
        suit = rng.randrange(4)
        pool = [4 * r + suit for r in range(13)]
    row = rng.sample(pool, size - jokers) + list((X1, X2)[:jokers])
    rng.shuffle(row)
    return tuple(row)


@pytest.mark.parametrize(
    ("size", "jokers", "count"), [(5, 1, 150), (3, 1, 80), (3, 2, 20), (5, 2, 6)]
)
def test_a_rows_keys_are_every_substitution(size: int, jokers: int, count: int) -> None:
    rng = random.Random(size * 10 + jokers)
    row = TOP if size == 3 else BOTTOM
    value = ref.top_value if size == 3 else ref.five_value
    for _ in range(count):
        cards = joker_row(rng, size, jokers)
        real = ref.substitutions(cards)
        assert set(row_keys(row, cards)) == {row_key(row, r) for r in real}
        best = max(real, key=value)
        assert row_keys(row, cards)[-1] == row_key(row, best)


def test_a_joker_never_repeats_a_card_of_its_row() -> None:
    four_aces = parse_cards("Ac Ad Ah As X1", jokers=True)
    best = row_keys(BOTTOM, four_aces)[-1]
    assert category_of(best) == "four of a kind"  # no five of a kind
    assert best == poker_key(parse_cards("Ac Ad Ah As Kc"))
    royal = parse_cards("Ah Kh Qh Jh X2", jokers=True)
    assert row_keys(MIDDLE, royal)[-1] == poker_key(parse_cards("Ah Kh Qh Jh Th"))
    # Under quads the middle's joker is held to a flush (a royal flush would foul).
    board = board_of_text("2c 3d 4h | Ah Kh Qh Jh X1 | Tc Td Ts 9c 9d", jokers=True)
    assert category_of(board_keys(board, default_royalties()).rows[MIDDLE]) == "flush"
    assert row_royalties(board, default_royalties()).total == 8 + 6
    # The ten of hearts on the bottom does not stop the middle's joker being it.
    board = board_of_text("2c 3d 4h | As Ks Qs Js X1 | Ah Kh Qh Jh Th", jokers=True)
    assert not is_foul(board) and row_royalties(board, default_royalties()).middle == 50


def test_the_jokers_are_chosen_to_keep_the_order() -> None:
    # Alone the middle's joker would make trip kings over the bottom's two pair: held down
    # to the best middle under it (a pair of kings), the board is not fouled.
    board = board_of_text("2c 3d 4h | Kc Kd 9s 7h X1 | Ac Ad 5c 5d 8s", jokers=True)
    rows = row_royalties(board, default_royalties())
    assert not is_foul(board) and rows.total == 0
    keys = board_keys(board, default_royalties())
    assert category_of(keys.rows[MIDDLE]) == "two pair"  # KK-99 under AA-55: the joker a 9
    # The top's joker may make a pair only as low as the middle allows: queens would foul
    # over the middle's jacks, so the joker pairs the four.
    board = board_of_text("Qc X2 4h | Jc Jd 9s 7h 3c | Ac Ad 5c 5d 8s", jokers=True)
    keys = board_keys(board, default_royalties())
    assert not keys.fouled and not keys.fantasy
    assert keys.rows[TOP] == row_key(TOP, parse_cards("4c 4d Qc"))


def test_chosen_keys_without_jokers_is_the_order_rule() -> None:
    rng = random.Random(7)
    for _ in range(300):
        cards = rng.sample(range(52), 13)
        board = board_of(cards[:3], cards[3:8], cards[8:])
        rows = [row_key(r, part) for r, part in enumerate(board)]
        orders = [order_of_key(r, key) for r, key in enumerate(rows)]
        plain = keys_of_rows((rows[0], rows[1], rows[2]), orders, [0, 0, 0])
        assert (chosen_keys([(k,) for k in rows]) is None) == plain.fouled


def joker_board(rng: random.Random, jokers: int) -> ref.Board:
    """A board (top, middle, bottom) of real cards, rather strong low on the board, with
    ``jokers`` jokers put in at random places."""
    cards = sorted(rng.sample(range(52), 13 - jokers), key=lambda c: (c // 4, c % 4))
    for joker in (X1, X2)[:jokers]:
        cards.insert(rng.randrange(len(cards) + 1), joker)
    return (tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))


def engine(board: ref.Board) -> tuple[tuple[int, ...], ...]:
    top, middle, bottom = board
    return board_of(top, middle, bottom)


@pytest.mark.parametrize("seed", range(4))
def test_boards_with_jokers_score_as_the_substitution_says(seed: int) -> None:
    rng = random.Random(seed)
    rules = OfcRules(jokers=2)
    for _ in range(8):
        mine, theirs = joker_board(rng, rng.choice((1, 1, 2))), joker_board(rng, 1)
        real, fouled = ref.resolved(mine)
        real_theirs, _ = ref.resolved(theirs)
        board = engine(mine)
        assert is_foul(board) == fouled
        assert row_royalties(board, rules.royalties).total == ref.royalties(real)
        assert score(board, engine(theirs), rules.royalties) == ref.score(real, real_theirs)
        assert rules.stays(board) == ref.stays(real)
        assert rules.fantasy_cards(board) == ref.fantasy_cards(real)


def test_the_deck_and_the_rules() -> None:
    assert ofc_deck() == tuple(range(52)) and ofc_deck(2) == (*range(52), X1, X2)
    assert OfcRules(jokers=2).deck == ofc_deck(2)
    with pytest.raises(InputError, match="0 to 2 jokers, got 3"):
        OfcRules(jokers=3)
    with pytest.raises(InputError, match="'X1' is a joker: the deck has none"):
        OfcRules().check_cards((1, X1))


def test_jokers_are_read_only_where_asked() -> None:
    assert parse_cards("x1AhX2", jokers=True) == (X1, 50, X2)
    assert parse_deal("Ah X1 - Kd X2", jokers=True).notation.format_cards((X1, 50)) == "X1 Ah"
    assert parse_deal("ah x1", jokers=True).notation.format_cards((X2, 50)) == "x2 ah"
    with pytest.raises(CardParseError, match="unknown rank 'X' in card 'X1'"):
        parse_cards("Ah X1")
    with pytest.raises(CardParseError, match="'X3'"):
        parse_cards("Ah X3", jokers=True)
    with pytest.raises(CardParseError, match="card 'X1' is given twice"):
        parse_deal("Ah X1 X1", jokers=True)
    with pytest.raises(InputError, match="card 'X2' is given twice"):
        board_of_text("X2 2c 3c | 4c 5c 6c 7c 8c | 9c Tc Jc Qc X2", jokers=True)
