from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handsolver.models.cards import InputError
from handsolver.models.sixcard import (
    SIX_CARD,
    Game,
    check_compatible,
    format_hand,
    format_split,
    hand_probability,
    hands,
    opponent_probability,
    parse_hand,
    parse_split,
    round_score,
    sorted_split,
    split_hand,
    splits,
)

# The physical deck: four copies of each value 1-4.
DECK = tuple(value for value in range(1, 5) for _ in range(4))


def matlab_compare_low(h: float, c: float) -> float:
    """The seed's compareLow, line for line."""
    if h > c:
        return 1.0
    if h < c:
        return 0.0
    return 0.5


def matlab_compare_middle(h: tuple[int, ...], c: tuple[int, ...]) -> float:
    """The seed's compareMiddle: pair flags first, then the sorted high card, then the low."""
    score = matlab_compare_low(h[0] == h[1], c[0] == c[1])
    if score != 0.5:
        return score
    hs, cs = sorted(h), sorted(c)
    score = matlab_compare_low(hs[1], cs[1])
    if score != 0.5:
        return score
    return matlab_compare_low(hs[0], cs[0])


def matlab_round(h: tuple[tuple[int, ...], ...], c: tuple[tuple[int, ...], ...]) -> float:
    """The seed's main.m scoring of one round for the human."""
    total = (
        matlab_compare_low(sum(h[0]), sum(c[0]))
        + matlab_compare_middle(h[1], c[1])
        + matlab_compare_low(h[2][0], c[2][0])
    )
    return matlab_compare_low(total, 1.5)


def test_counts_of_hands_and_splits() -> None:
    all_hands = hands()
    sizes = [len(splits(hand)) for hand in all_hands]
    assert len(all_hands) == 68
    assert sum(sizes) == 760
    assert (min(sizes), max(sizes)) == (5, 24)


def test_hands_and_their_probabilities_match_every_deal_of_physical_cards() -> None:
    dealt = Counter(tuple(sorted(DECK[i] for i in chosen)) for chosen in combinations(range(16), 6))
    assert set(dealt) == set(hands())
    for hand, ways in dealt.items():
        assert hand_probability(hand) == Fraction(ways, comb(16, 6))


def test_opponent_probability_matches_the_rest_of_the_deck() -> None:
    for mine in hands()[::5]:
        rest = list(DECK)
        for card in mine:
            rest.remove(card)
        dealt = Counter(
            tuple(sorted(rest[i] for i in chosen)) for chosen in combinations(range(10), 6)
        )
        for theirs in hands():
            assert opponent_probability(theirs, mine) == Fraction(dealt[theirs], 210)


def test_splits_are_every_ordering_of_the_hand_cut_3_2_1() -> None:
    for hand in hands():
        brute = {(tuple(sorted(p[:3])), tuple(sorted(p[3:5])), (p[5],)) for p in permutations(hand)}
        assert set(splits(hand)) == brute
        assert len(splits(hand)) == len(brute)
        assert splits(hand)[0] == sorted_split(hand)
        assert all(split_hand(split) == hand for split in splits(hand))


def test_round_score_is_the_harness_scoring_on_every_middle_and_sampled_splits() -> None:
    every = [split for hand in hands() for split in splits(hand)]
    for a in every[::7]:
        for b in every[::11]:
            assert round_score(a, b) == Fraction(matlab_round(a, b))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_round_score_is_antisymmetric(data: st.DataObject) -> None:
    a_hand = data.draw(st.sampled_from(hands()))
    b_hand = data.draw(st.sampled_from(hands()))
    a = data.draw(st.sampled_from(splits(a_hand)))
    b = data.draw(st.sampled_from(splits(b_hand)))
    assert round_score(a, b) + round_score(b, a) == 1
    assert round_score(a, b) == Fraction(matlab_round(a, b))


@pytest.mark.parametrize(
    "text", ["112234", "1 1 2 2 3 4", "1,1,2,2,3,4", "4,3 2, 2 1 1", " 432211 "]
)
def test_parse_hand_accepts_the_three_spellings(text: str) -> None:
    assert parse_hand(text) == (1, 1, 2, 2, 3, 4)
    assert format_hand(parse_hand(text)) == "112234"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("11223", "hand '11223' has 5 cards; this game needs 6"),
        ("1122344", "hand '1122344' has 7 cards; this game needs 6"),
        ("1 1 2 2 3 x", "bad card value 'x' in '1 1 2 2 3 x'; values are 1 to 4"),
        ("1,1,2,2,3,0", "bad card value '0' in '1,1,2,2,3,0'; values are 1 to 4"),
        ("1 1 2 2 3 10", "bad card value '10' in '1 1 2 2 3 10'; values are 1 to 4"),
        ("111112", "value 1 appears 5 times in '111112'; the deck has 4"),
        ("", "hand '' has 0 cards; this game needs 6"),
    ],
)
def test_parse_hand_errors_name_the_bad_token(text: str, message: str) -> None:
    with pytest.raises(InputError) as error:
        parse_hand(text)
    assert str(error.value) == message
    assert "\n" not in str(error.value)


def test_parse_split_round_trips_and_checks_sizes() -> None:
    for hand in hands():
        for split in splits(hand):
            assert parse_split(format_split(split)) == split
    assert parse_split("4 3 2 / 2,1 / 1") == ((2, 3, 4), (1, 2), (1,))
    with pytest.raises(InputError, match="has parts of 3,3 cards"):
        parse_split("123|123")
    with pytest.raises(InputError, match="value 4 appears 5 times"):
        parse_split("444|44|1")


def test_compatibility_of_two_hands() -> None:
    check_compatible((1, 1, 2, 2, 3, 4), (1, 1, 3, 3, 4, 4))
    with pytest.raises(InputError, match="hold value 1 5 times"):
        check_compatible((1, 1, 1, 2, 2, 3), (1, 1, 3, 3, 4, 4))


def test_a_variant_is_a_parameter_change() -> None:
    small = Game(values=3, copies=2, part_sizes=(2, 1), part_rules=("pair", "high"))
    deck = tuple(value for value in range(1, 4) for _ in range(2))
    dealt = Counter(tuple(sorted(deck[i] for i in chosen)) for chosen in combinations(range(6), 3))
    assert set(hands(small)) == set(dealt)
    assert sum(hand_probability(hand, small) for hand in hands(small)) == 1
    assert splits((1, 2, 2), small) == (((2, 2), (1,)), ((1, 2), (2,)))
    assert round_score(((2, 2), (1,)), ((1, 3), (3,)), small) == Fraction(1, 2)
    assert parse_hand("1 3 3", small) == (1, 3, 3)
    with pytest.raises(InputError, match="needs 3"):
        parse_hand("1233", small)
    assert SIX_CARD.hand_size == 6 and SIX_CARD.deck_size == 16
