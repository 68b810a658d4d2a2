from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handsolver.models.cards import (
    DECK,
    RANKS,
    SUITS,
    CardParseError,
    Notation,
    cards_of,
    mask_of,
    notation_of,
    parse_cards,
    parse_deal,
    rank_of,
    suit_of,
)


def test_card_layout() -> None:
    assert len(DECK) == 52
    assert {(rank_of(c), suit_of(c)) for c in DECK} == {(r, s) for r in range(13) for s in range(4)}
    assert parse_cards("2c As") == (0, 51)


@pytest.mark.parametrize(
    "text",
    ["Th 9s", "th 9S", "0H 9S", "10h,9s", "Th9s", "10H9S", "['Th', '9s']", "Th;9s", " Th  9s "],
)
def test_notations_read_the_same_cards(text: str) -> None:
    assert parse_cards(text) == parse_cards("Th 9s")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Xc", "unknown rank 'X' in card 'Xc'"),
        ("1c", "unknown rank '1' in card '1c'"),
        ("Kx", "unknown suit 'x' in card 'Kx'"),
        ("Kc Q", "bad card 'Q'"),
        ("KcQdJ", "bad card 'J'"),
        ("K♠", "bad card 'K♠'"),
    ],
)
def test_bad_cards_name_the_token(text: str, message: str) -> None:
    with pytest.raises(CardParseError) as error:
        parse_cards(text)
    assert str(error.value) == message


def test_deal_rules() -> None:
    assert len(parse_deal("3c 2s 4d Ah - As 3h 2d 4h").hands) == 2
    assert len(parse_deal("3c2s4dAh|As3h2d4h|Kc").hands) == 3
    assert parse_deal('[["3c","2s"],["As","3h"]]').hands == ((4, 3), (51, 6))
    with pytest.raises(CardParseError, match="card '3C' is given twice"):
        parse_deal(["3c 2s", "3C"])
    with pytest.raises(CardParseError, match="has 5 cards; this game needs 4"):
        parse_deal("3c 2s 4d Ah Kd", hand_size=4)
    with pytest.raises(CardParseError, match="needs 3 to 13"):
        parse_deal("3c 2s", hand_size=(3, 13))
    with pytest.raises(CardParseError, match="no cards given"):
        parse_deal("   ")
    with pytest.raises(CardParseError, match="need at least 2 hands"):
        parse_deal("3c 2s", min_hands=2)


def test_notation_follows_the_input() -> None:
    assert notation_of("AS,4H,0C") == Notation(ten="0", upper_suits=True, sep=",")
    assert notation_of("kc 10d") == Notation(ten="10", lower_ranks=True)
    assert notation_of("Kc Td") == Notation()
    assert notation_of("kc td").format_cards(parse_cards("Kc Td")) == "kc td"


notations = st.builds(
    Notation,
    ten=st.sampled_from(["T", "t", "0", "10"]),
    upper_suits=st.booleans(),
    lower_ranks=st.booleans(),
    sep=st.sampled_from([" ", ",", ", ", ""]),
)


@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=13, unique=True), notations)
def test_every_notation_round_trips(cards: list[int], notation: Notation) -> None:
    text = notation.format_cards(cards)
    assert parse_cards(text) == tuple(cards)


@given(st.lists(st.sampled_from(DECK), max_size=52, unique=True))
def test_masks_round_trip(cards: list[int]) -> None:
    assert cards_of(mask_of(cards)) == tuple(sorted(cards))


def test_symbols_are_the_documented_ones() -> None:
    assert RANKS == "23456789TJQKA" and SUITS == "cdhs"
