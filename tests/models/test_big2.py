from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handsolver.models.big2 import (
    IllegalPlayError,
    Play,
    PlayKind,
    big2_card_key,
    count_plays,
    five_card_masks,
    iter_legal_plays,
    legal_plays,
    make_rules,
    parse_answer,
    play_kind,
)
from handsolver.models.cards import FULL_DECK_MASK, InputError, card_name, mask_of, parse_cards

# --- an independent classifier, written from the seed's rules --------------------------------

# Ranks in the seed's order with the ace low: A=1, 2..9, T=10, J=11, Q=12, K=13.
_SEED_RANK = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13} | {str(n): n for n in range(2, 10)}


def _seed_rank(card: int) -> int:
    return _SEED_RANK[card_name(card)[0]]


def _is_straight(cards: list[int]) -> bool:
    ranks = sorted(_seed_rank(c) for c in cards)
    if ranks == [1, 10, 11, 12, 13]:
        return True  # 10 J Q K A: the ace high
    # Otherwise the ace is low, and five consecutive ranks from A (A2345) up to 9 (9TJQK).
    return len(set(ranks)) == 5 and ranks[4] - ranks[0] == 4


def brute_kind(cards: list[int]) -> PlayKind | None:
    ranks = Counter(_seed_rank(c) for c in cards)
    suits = {card_name(c)[1] for c in cards}
    if len(cards) in (1, 2, 3):
        return PlayKind(len(cards)) if len(ranks) == 1 else None
    if len(cards) != 5:
        return None
    straight, flush = _is_straight(cards), len(suits) == 1
    if straight and flush:
        return PlayKind.STRAIGHT_FLUSH
    if straight:
        return PlayKind.STRAIGHT
    if flush:
        return PlayKind.FLUSH
    shape = sorted(ranks.values())
    if shape == [2, 3]:
        return PlayKind.FULL_HOUSE
    if shape == [1, 4]:
        return PlayKind.FOUR_OF_A_KIND
    return None


def brute_plays(cards: list[int]) -> set[tuple[int, PlayKind]]:
    found = set()
    for size in (1, 2, 3, 5):
        for combo in combinations(cards, size):
            kind = brute_kind(list(combo))
            if kind is not None:
                found.add((mask_of(combo), kind))
    return found


# --- tests ----------------------------------------------------------------------------------


def test_full_deck_counts() -> None:
    counts = count_plays(FULL_DECK_MASK)
    assert counts == {
        PlayKind.SINGLE: 52,
        PlayKind.PAIR: 78,
        PlayKind.TRIPLE: 52,
        PlayKind.STRAIGHT: 10_200,
        PlayKind.FLUSH: 5_108,
        PlayKind.STRAIGHT_FLUSH: 40,
        PlayKind.FULL_HOUSE: 3_744,
        PlayKind.FOUR_OF_A_KIND: 624,
        PlayKind.FOUR: 0,
        PlayKind.TWO_PAIR: 0,
        PlayKind.DRAGON: 0,
        PlayKind.TWO_PAIR_ALONE: 0,
    }
    plays = legal_plays(FULL_DECK_MASK)
    assert len(plays) == 19_898
    assert len({play.mask for play in plays}) == 19_898
    assert all(play_kind(play.mask) is play.kind for play in plays)
    fives = five_card_masks(FULL_DECK_MASK)
    assert sorted(fives) == sorted(play.mask for play in plays if play.size == 5)


@pytest.mark.parametrize("name", ["seed", "taiwan", "western"])
def test_five_card_masks_of_some_kinds_are_those_plays(name: str) -> None:
    """Asked for some kinds, the five-card plays listed are the plays of those kinds."""
    rules = make_rules(name, two_pair=True)
    rng = random.Random(name)
    order = rules.five_card_order
    for _ in range(200):
        hand = mask_of(rng.sample(range(52), rng.randint(5, 13)))
        kinds = rng.sample(order, rng.randint(1, len(order)))
        want = [m for m in five_card_masks(hand, rules) if play_kind(m, rules).label in kinds]
        assert sorted(five_card_masks(hand, rules, kinds)) == sorted(want)


@pytest.mark.parametrize("seed", range(40))
def test_enumeration_matches_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    cards = rng.sample(range(52), rng.randint(0, 12))
    # Bias some hands towards one suit and few ranks so flushes and quads appear.
    if seed % 3 == 1:
        cards = sorted({c for c in rng.sample(range(52), 30) if c % 4 < 2})[:12]
    elif seed % 3 == 2:
        cards = sorted({c for c in range(52) if c // 4 in rng.sample(range(13), 3)})
    got = {(play.mask, play.kind) for play in iter_legal_plays(mask_of(cards))}
    assert got == brute_plays(cards)
    assert len(legal_plays(cards)) == len(got)


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(0, 51), min_size=0, max_size=7))
def test_play_kind_matches_brute_force(cards: set[int]) -> None:
    expected = brute_kind(sorted(cards))
    if expected is None:
        with pytest.raises(IllegalPlayError, match="is not a play: "):
            play_kind(cards)
    else:
        assert play_kind(cards) is expected


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("AS 2S 3D 4H 5C", PlayKind.STRAIGHT),
        ("TD JS QS KS AS", PlayKind.STRAIGHT),
        ("2H 3D 4H 5C 6S", PlayKind.STRAIGHT),
        ("9C TC JC QC KC", PlayKind.STRAIGHT_FLUSH),
        ("AH 2H 3H 4H 5H", PlayKind.STRAIGHT_FLUSH),
        ("2H 5H 9H JH KH", PlayKind.FLUSH),
        ("0C 0D 0H QH QS", PlayKind.FULL_HOUSE),
        ("4D 4S 4H 4C AD", PlayKind.FOUR_OF_A_KIND),
        ("7S 7D 7H", PlayKind.TRIPLE),
        ("5S 5H", PlayKind.PAIR),
        ("KC", PlayKind.SINGLE),
    ],
)
def test_seed_plays(text: str, kind: PlayKind) -> None:
    assert play_kind(parse_cards(text)) is kind
    assert Play.from_text(text).kind is kind


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("JS QD KH AS 2C", "an ace only ends A2345 or TJQKA"),
        ("QS KD AH 2S 3C", "an ace only ends A2345 or TJQKA"),
        ("KS AD 2H 3S 4C", "an ace only ends A2345 or TJQKA"),
        ("0C 0D 0H KH QS", "a full house needs a pair"),
        ("3C 4C 5C 6C", "no play has 4 cards"),
        ("3C 4C 5C 6C 7D 8D", "no play has 6 cards"),
        ("3C 4D", "a pair needs 2 cards of one rank"),
        ("3C 3D 4D", "a triple needs 3 cards of one rank"),
        ("3C 3D 4D 4H 6S", "five cards must be"),
        ("", "a play needs cards"),
    ],
)
def test_illegal_plays_say_why(text: str, reason: str) -> None:
    with pytest.raises(IllegalPlayError, match=reason):
        play_kind(parse_cards(text))


def test_play_objects() -> None:
    play = Play.from_text("8d 8c As Ah Ad")
    assert play == eval(repr(play), {"Play": Play})
    assert play.kind.label == "full house" and play.size == 5
    assert [card_name(c) for c in play.cards] == ["8d", "8c", "Ad", "Ah", "As"]
    with pytest.raises(AttributeError):
        play.mask = 0  # type: ignore[misc]
    assert {kind.size for kind in PlayKind} == {1, 2, 3, 4, 5, 13}
    assert PlayKind.FOUR_OF_A_KIND.label == "four of a kind + 1"


def test_big2_card_order() -> None:
    order = sorted(parse_cards("2s 2d As 3d 3s Kc"), key=big2_card_key)
    assert [card_name(c) for c in order] == ["3d", "3s", "Kc", "As", "2d", "2s"]


@pytest.mark.parametrize(
    "text",
    [
        "ASAHAD8D8C, 2S3S4H5H6D, 4C, 7C, 0C",
        "AS AH AD 8D 8C | 2S 3S 4H 5H 6D | 4C | 7C | 0C",
        "AS, AH, AD, 8D, 8C\n2S, 3S, 4H, 5H, 6D\n4C\n7C\n0C",
        "[[AS, AH, AD, 8D, 8C], [2S, 3S, 4H, 5H, 6D], [4C], [7C], [0C]]",
        '[["AS","AH","AD","8D","8C"],["2S","3S","4H","5H","6D"],["4C"],["7C"],["0C"]]',
        "ASAHAD8D8C 2S3S4H5H6D 4C 7C 0C",
        "[ [AS, AH, AD, 8D, 8C], [2S, 3S, 4H, 5H, 6D], [4C], [7C], [0C] ]",
        "[\n  [AS, AH, AD, 8D, 8C],\n  [2S, 3S, 4H, 5H, 6D],\n  [4C], [7C], [0C]\n]",
        "AS AH AD 8D 8C - 2S 3S 4H 5H 6D - 4C - 7C - 0C",
        "ASAHAD8D8C; 2S3S4H5H6D; 4C; 7C; 0C",
    ],
)
def test_parse_answer_formats(text: str) -> None:
    plays = parse_answer(text)
    assert [len(play) for play in plays] == [5, 5, 1, 1, 1]
    assert plays[0] == parse_cards("AS AH AD 8D 8C")


def test_parse_answer_errors() -> None:
    with pytest.raises(InputError, match="no plays"):
        parse_answer("  ")
    with pytest.raises(InputError, match="'4X'"):
        parse_answer("4X, 5C")
