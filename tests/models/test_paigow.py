from __future__ import annotations

import random
import re
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handsolver.models.cards import InputError, parse_cards
from handsolver.models.paigow import (
    JOKER,
    NUM_HIGH_KEYS,
    Rules,
    category_name,
    high_key,
    house_way,
    is_foul,
    legal_settings,
    low_key,
    paigow_game,
    parse_hand,
    parse_setting,
    points,
)
from handsolver.models.paigow_houseway import (
    DEALER_GUIDE,
    FOXWOODS,
    HOUSE_WAYS,
    PATTERNS,
    TRUMP_PLAZA,
    HouseWay,
    house_way_named,
)

# --- hand-checked house-way settings: (rule, way, hand, high, low) ----------------------------
# Each hand was set by hand from the rules in models/paigow_houseway.py.
CASES = [
    ("no pair", TRUMP_PLAZA, "Ks 9d 7c 5h 3s 2d Qh", "Ks 7c 5h 3s 2d", "Qh 9d"),
    ("no pair, joker is the ace", TRUMP_PLAZA, "JK Ks 9d 7c 4h 3s Td", "JK 7c 4h 3s 9d", "Ks Td"),
    ("one pair", TRUMP_PLAZA, "8s 8d Kc Jh 6d 4c 2s", "8s 8d 6d 4c 2s", "Kc Jh"),
    (
        "one pair of aces from the joker",
        TRUMP_PLAZA,
        "As JK Kc Jh 6d 4c 2s",
        "As JK 6d 4c 2s",
        "Kc Jh",
    ),
    ("two pair with aces: split", TRUMP_PLAZA, "As Ad 4c 4h Kd 9s 7c", "As Ad Kd 9s 7c", "4c 4h"),
    (
        "two low pairs and a king: together",
        TRUMP_PLAZA,
        "6s 6d 3c 3h Kd 9s 7c",
        "6s 6d 3c 3h 7c",
        "Kd 9s",
    ),
    (
        "two low pairs, no king: split",
        TRUMP_PLAZA,
        "6s 6d 3c 3h Qd 9s 7c",
        "6s 6d Qd 9s 7c",
        "3c 3h",
    ),
    ("high and middle pair: split", TRUMP_PLAZA, "Ks Kd 7c 7h Ad 9s 4c", "Ks Kd Ad 9s 4c", "7c 7h"),
    (
        "high and low pair with an ace: together",
        TRUMP_PLAZA,
        "Js Jd 6c 6h Ad 9s 7c",
        "Js Jd 6c 6h 7c",
        "Ad 9s",
    ),
    ("dealer guide: J-6 splits", DEALER_GUIDE, "Js Jd 6c 6h Ad 9s 7c", "Js Jd Ad 9s 7c", "6c 6h"),
    ("dealer guide: 5-3 together", DEALER_GUIDE, "5s 5d 3c 3h Qd 9s 7c", "5s 5d 3c 3h 7c", "Qd 9s"),
    (
        "three pair: highest pair low",
        TRUMP_PLAZA,
        "Qs Qd 8c 8h 5d 5s Ac",
        "8c 8h 5d 5s Ac",
        "Qs Qd",
    ),
    ("trips", TRUMP_PLAZA, "9s 9d 9c Kh Jd 5s 3c", "9s 9d 9c 5s 3c", "Kh Jd"),
    ("two trips: split the higher", TRUMP_PLAZA, "9s 9d 9h 5h 5d 5s Kc", None, None),
    ("full house: pair low", TRUMP_PLAZA, "Js Jd Jc 4h 4d Ks 8c", "Js Jd Jc Ks 8c", "4h 4d"),
    (
        "full house of deuces with A-K: together",
        TRUMP_PLAZA,
        "Js Jd Jc 2h 2d Ks Ac",
        "Js Jd Jc 2h 2d",
        "Ks Ac",
    ),
    (
        "trips and two pairs: higher pair low",
        TRUMP_PLAZA,
        "Js Jd Jc 7h 7d 4s 4c",
        "Js Jd Jc 4s 4c",
        "7h 7d",
    ),
    ("low quads: together", TRUMP_PLAZA, "5s 5d 5c 5h Kd 9s 2c", "5s 5d 5c 5h 2c", "Kd 9s"),
    (
        "high quads with an ace: together",
        TRUMP_PLAZA,
        "Qs Qd Qc Qh Ad 9s 2c",
        "Qs Qd Qc Qh 2c",
        "Ad 9s",
    ),
    ("high quads without an ace: split", TRUMP_PLAZA, "Qs Qd Qc Qh Kd 9s 2c", None, None),
    ("quads and a pair: pair low", TRUMP_PLAZA, "8s 8d 8c 8h Kd Ks 2c", "8s 8d 8c 8h 2c", "Kd Ks"),
    (
        "five aces and kings: together",
        TRUMP_PLAZA,
        "As Ad Ac Ah JK Ks Kc",
        "As Ad Ac Ah JK",
        "Ks Kc",
    ),
    ("five aces: split", TRUMP_PLAZA, "As Ad Ac Ah JK 9s 2c", None, None),
    ("straight over no pair", TRUMP_PLAZA, "9s 8d 7c 6h 5d Ks 2c", "9s 8d 7c 6h 5d", "Ks 2c"),
    (
        "straight with the joker keeps a pair low",
        TRUMP_PLAZA,
        "9s 8d JK 6h 5d Ks Kc",
        "9s 8d JK 6h 5d",
        "Ks Kc",
    ),
    ("flush keeps a pair low", TRUMP_PLAZA, "Ah Qh 9h 6h 3h 7s 7d", "Ah Qh 9h 6h 3h", "7s 7d"),
    ("flush with the joker", TRUMP_PLAZA, "Ah Qh 9h 6h JK Ks 2d", "Ah Qh 9h 6h JK", "Ks 2d"),
    (
        "two pair split ignores a flush",
        TRUMP_PLAZA,
        "Kh Kd 7h 7c 2h 4h 9h",
        "Kh Kd 2h 4h 9h",
        "7h 7c",
    ),
    (
        "two pair kept together ignores a flush",
        TRUMP_PLAZA,
        "6h 6d 3h 3c Kh 9h 2h",
        "6h 6d 3h 3c 2h",
        "Kh 9h",
    ),
    (
        "straight flush with the highest low",
        TRUMP_PLAZA,
        "2c 3c 4c 5c JK Kd Kh",
        "2c 3c 4c 5c JK",
        "Kd Kh",
    ),
    # Foxwoods (issue 18), each rule that differs from the others.
    ("foxwoods: A-4 splits", FOXWOODS, "As Ad 4c 4h Kd 9s 7c", "As Ad Kd 9s 7c", "4c 4h"),
    (
        "foxwoods: J-3 splits with an ace",
        FOXWOODS,
        "Js Jd 3c 3h Ad 9s 7c",
        "Js Jd Ad 9s 7c",
        "3c 3h",
    ),
    (
        "foxwoods: 9-4 together with an ace",
        FOXWOODS,
        "9s 9d 4c 4h Ad Qs 7c",
        "9s 9d 4c 4h 7c",
        "Ad Qs",
    ),
    (
        "foxwoods: 9-4 splits with a king",
        FOXWOODS,
        "9s 9d 4c 4h Kd Qs 7c",
        "9s 9d Kd Qs 7c",
        "4c 4h",
    ),
    (
        "foxwoods: 6-4 together with a king",
        FOXWOODS,
        "6s 6d 4c 4h Kd Qs 7c",
        "6s 6d 4c 4h 7c",
        "Kd Qs",
    ),
    (
        "foxwoods: 6-4 splits with a queen",
        FOXWOODS,
        "6s 6d 4c 4h Qd Js 7c",
        "6s 6d Qd Js 7c",
        "4c 4h",
    ),
    ("foxwoods: full house 2s splits", FOXWOODS, "Js Jd Jc 2h 2d As Kc", "Js Jd Jc As Kc", "2h 2d"),
    ("foxwoods: quad jacks split", FOXWOODS, "Js Jd Jc Jh Ad 9s 2c", None, None),
    ("foxwoods: quad 9s with a king", FOXWOODS, "9s 9d 9c 9h Kd 8s 2c", "9s 9d 9c 9h 2c", "Kd 8s"),
    (
        "foxwoods: pair of kings and an ace over a straight",
        FOXWOODS,
        "Ks Kd Ac Qh Jd Ts 3c",
        "Ks Kd Jd Ts 3c",
        "Ac Qh",
    ),
    (
        "foxwoods: straight kept when its low is as good",
        FOXWOODS,
        "Ts Td Ac 9h 8d 7s 6c",
        None,
        None,
    ),
    (
        "foxwoods: straight over a pair of 9s",
        FOXWOODS,
        "9s 9d Ac Kh Qd Js Tc",
        "Ac Kh Qd Js Tc",
        "9s 9d",
    ),
]


def cards_of(text: str | None) -> frozenset[int]:
    return frozenset(parse_hand(text, len(text.split())).cards) if text else frozenset()


@pytest.mark.parametrize(
    ("way", "text", "high", "low"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_house_way_hand_checked(
    way: HouseWay, text: str, high: str | None, low: str | None
) -> None:
    result = house_way(parse_hand(text).cards, way)
    assert not is_foul((result.high, result.low))
    if high is not None and low is not None:
        assert frozenset(result.high) == cards_of(high)
        assert frozenset(result.low) == cards_of(low)


def test_house_way_ambiguous_suits_by_keys() -> None:
    # Which two of the same rank go low does not change the keys.
    two_trips = house_way(parse_hand("9s 9d 9h 5h 5d 5s Kc").cards)
    assert two_trips.low_key == low_key(parse_cards("9s 9d"))
    assert category_name(two_trips.high_key) == "three of a kind"
    quads = house_way(parse_hand("Qs Qd Qc Qh Kd 9s 2c").cards)
    assert quads.low_key == low_key(parse_cards("Qs Qd"))
    assert quads.pattern == "quads, split"
    five = house_way(parse_hand("As Ad Ac Ah JK 9s 2c").cards)
    assert five.low_key == low_key(parse_cards("As Ad"))
    assert category_name(five.high_key) == "three of a kind"


def test_foxwoods_keeps_the_straight_when_its_low_is_as_good() -> None:
    kept = house_way(parse_hand("Ts Td Ac 9h 8d 7s 6c").cards, FOXWOODS)
    assert (category_name(kept.high_key), kept.low_key) == (
        "straight",
        low_key(parse_cards("Ac Td")),
    )
    assert kept.pattern == "one pair with an ace"
    # Trump Plaza plays the straight with its best low whatever the pair play would leave.
    broken = house_way(parse_hand("Ks Kd Ac Qh Jd Ts 3c").cards, TRUMP_PLAZA)
    assert category_name(broken.high_key) == "straight"


def test_every_pattern_has_a_case_or_is_reachable() -> None:
    seen = {house_way(parse_hand(c[2]).cards, c[1]).pattern for c in CASES}
    # "three aces" and "quads and trips" are covered by the random test below.
    assert set(PATTERNS) - seen <= {"three aces", "quads and trips"}


# --- parsing --------------------------------------------------------------------------------


@pytest.mark.parametrize("joker", ["JK", "jk", "Jk", "*"])
def test_joker_spellings(joker: str) -> None:
    hand = parse_hand(f"As Kd {joker} 5c 4h 3s 2d")
    assert JOKER in hand.cards
    assert hand.format([JOKER]) == ("*" if joker == "*" else "JK")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("As Kd JK 5c 4h 3s *", "the joker is given twice ('*')"),
        ("As Kd JK 5c 4h 3s", "has 6 cards; Pai Gow needs 7"),
        ("As Kd JK 5c 4h 3s 2d 2c", "has 8 cards; Pai Gow needs 7"),
        ("As Kd JK 5c 4h 3s As", "card 'As' is given twice"),
        ("As Kd JK 5c 4h 3s 1x", "'1x'"),
    ],
)
def test_bad_hands_name_the_token(text: str, message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        parse_hand(text)


def test_setting_foul_is_refused() -> None:
    with pytest.raises(InputError, match="is a foul"):
        parse_setting("Kc Qd 9h 5s 3c|2c 2d")
    setting, _ = parse_setting("Kc Kd 9h 5s 3c|2c 2d")
    assert setting == (parse_cards("Kc Kd 9h 5s 3c"), parse_cards("2c 2d"))


def test_unknown_house_way() -> None:
    with pytest.raises(InputError, match="unknown house way 'x'"):
        house_way_named("x")
    assert set(HOUSE_WAYS) == {"trump-plaza", "dealer-guide", "foxwoods"}


# --- keys -----------------------------------------------------------------------------------


DEFAULT = Rules()


def hk(text: str, rules: Rules = DEFAULT) -> int:
    return high_key(parse_hand(text, 5).cards, rules)


def test_wheel_switch() -> None:
    wheel, broadway, king = "Ac 2d 3h 4s 5c", "Ac Kd Qh Js Tc", "Kc Qd Jh Ts 9c"
    assert hk(king) < hk(wheel) < hk(broadway)
    low = Rules(wheel_second=False)
    assert hk(wheel, low) < hk("2c 3d 4h 5s 6c", low) < hk(king, low)
    steel, royal, king_sf = "Ac 2c 3c 4c 5c", "Ac Kc Qc Jc Tc", "Kc Qc Jc Tc 9c"
    assert hk(king_sf) < hk(steel) < hk(royal)
    assert hk(steel, low) < hk(king_sf, low)


def test_five_aces_switch() -> None:
    five, royal = "As Ad Ac Ah JK", "Ac Kc Qc Jc Tc"
    assert hk(five) == NUM_HIGH_KEYS - 1 > hk(royal)
    below = Rules(five_aces_top=False)
    assert hk("Kc Qc Jc Tc 9c", below) < hk(five, below) < hk(royal, below)
    assert category_name(hk(five)) == "five aces"


@pytest.mark.parametrize(
    ("hand", "same_as"),
    [
        ("9s 8d JK 6h 5d", "9s 8d 7c 6h 5d"),  # completes a straight
        ("Ah Qh 9h 6h JK", "Ah Kh Qh 9h 6h"),  # flush: the highest rank not held
        ("Kh Qh 9h 6h JK", "Ah Kh Qh 9h 6h"),
        ("Ah Kh Qh Jh JK", "Ah Kh Qh Jh Th"),  # royal flush
        ("2c 3c 4c 5c JK", "Ac 2c 3c 4c 5c"),  # wheel straight flush (second highest)
        ("Kh Kd 9c 7s JK", "Kh Kd Ac 9c 7s"),  # otherwise an ace
        ("Ah Kd 9c 7s JK", "Ah Ad Kd 9c 7s"),  # pair of aces
        ("Ah Ad Ac Kd JK", "Ah Ad Ac As Kd"),  # four aces
        ("Kh Qd Jc Ts JK", "Ah Kh Qd Jc Ts"),  # the ace makes the straight
    ],
)
def test_joker_in_the_high_hand(hand: str, same_as: str) -> None:
    assert hk(hand) == hk(same_as)


def test_joker_is_at_least_an_ace() -> None:
    rng = random.Random(3)
    for _ in range(300):
        real = rng.sample(range(52), 4)
        aces = [card for card in range(48, 52) if card not in real]
        if not aces:
            continue
        with_joker = high_key([*real, JOKER])
        assert all(with_joker >= high_key([*real, ace]) for ace in aces)


def test_low_key_joker_is_an_ace() -> None:
    assert low_key([JOKER, 51]) == low_key(parse_cards("As Ah")) > low_key(parse_cards("Ks Kh"))
    assert low_key([JOKER, 44]) == low_key(parse_cards("As Kc")) < low_key(parse_cards("2s 2h"))


@pytest.mark.parametrize(
    ("setting", "foul"),
    [
        ("Kc Qd 9h 5s 3c|2c 2d", True),
        ("Kc Kd 9h 5s 3c|2c 2d", False),
        ("8c 8d 9h 5s 3c|8h 8s", False),  # equal pairs: not outranked
        ("7c 7d 9h 5s 3c|8h 8s", True),
        ("Ac Qd 9h 5s 3c|Ad Kc", True),
        ("Ac Kd 9h 5s 3c|Ad Kc", False),
        ("Ac Kd 9h 5s 3c|Ad Qc", False),
        ("9c 8d 7h 6s 5c|Ad Ac", False),
        ("Kc Qd 9h 5s 3c|JK Kd", True),
    ],
)
def test_foul_rule(setting: str, foul: bool) -> None:
    high, low = (parse_hand(part, len(part.split())).cards for part in setting.split("|"))
    assert is_foul((high, low)) is foul


def test_points() -> None:
    assert points((1, 1)) == Fraction(19, 20)
    assert points((1, 1), Fraction(0)) == 1
    assert points((1, -1)) == points((-1, 1)) == points((1, 0)) == 0
    assert points((0, 0)) == points((-1, 0)) == -1


# --- settings -------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 52), min_size=7, max_size=7, unique=True))
def test_legal_settings_partition_the_hand(hand: list[int]) -> None:
    legal = legal_settings(tuple(hand))
    assert 1 <= len(legal) <= 21
    assert len(set(legal)) == len(legal)
    for high, low in legal:
        assert len(high) == 5 and len(low) == 2
        assert sorted(high + low) == sorted(hand)
        assert not is_foul((high, low))
    # Every foul left out is one the engine calls a foul.
    every = [
        (h, lo) for lo in combinations(hand, 2) for h in [tuple(c for c in hand if c not in lo)]
    ]
    assert len(every) == 21
    assert sum(not is_foul(s) for s in every) == len(legal)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 52), min_size=7, max_size=7, unique=True),
    st.sampled_from([TRUMP_PLAZA, DEALER_GUIDE, FOXWOODS]),
)
def test_house_way_is_legal_and_follows_its_plan(hand: list[int], way: HouseWay) -> None:
    result = house_way(hand, way)
    assert not is_foul((result.high, result.low))
    assert sorted(result.high + result.low) == sorted(hand)
    assert result.high_key == high_key(result.high) and result.low_key == low_key(result.low)


def test_house_way_rare_patterns() -> None:
    three_aces = house_way(parse_hand("As Ad Ac Kh Jd 5s 3c").cards)
    assert three_aces.pattern == "three aces"
    assert frozenset(three_aces.low) == cards_of("Kh As") or three_aces.low_key == low_key(
        parse_cards("As Kh")
    )
    quads_trips = house_way(parse_hand("8s 8d 8c 8h Kd Ks Kc").cards)
    assert quads_trips.pattern == "quads and trips"
    assert quads_trips.low_key == low_key(parse_cards("Kd Ks"))


def test_game_scores_a_round() -> None:
    game = paigow_game()
    mine = (parse_cards("As Ad Kd 9s 7c"), parse_cards("Qh Jh"))
    assert game.score(mine, (parse_cards("Ks Kh Kc 9d 7d"), parse_cards("Jd Td"))) == 0
    assert game.score(mine, (parse_cards("Ks Kh 8c 9d 7d"), parse_cards("Jd Td"))) == Fraction(
        19, 20
    )
    assert game.score(mine, (parse_cards("Ac Ah Kc 9d 7d"), parse_cards("Qd Jd"))) == -1  # copies
    foul = (parse_cards("Kc Qd 9h 5s 3c"), parse_cards("2c 2d"))
    assert game.score(foul, (parse_cards("Ks Kh 8c 9d 7d"), parse_cards("Jd Td"))) == -1
