from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from handsolver.models.badugi import (
    ALL_HANDS,
    DISTINCT_VALUES,
    badugi_key,
    badugi_keys,
    describe_key,
    played_cards,
    strength,
    winners,
)
from handsolver.models.cards import DECK, STANDARD, CardParseError, parse_cards, parse_deal

# The seed's nine test cases: input, the winning hand(s) as printed, the seed's note.
SEED_CASES = [
    ("3c 2s 4d Ah - As 3h 2d 4h", "3c 2s 4d Ah", "4-card 4-3-2-A", "3-card 3-2-A"),
    ("3c 2s 4d Ah - As 2c 3d 4h", "3c 2s 4d Ah - As 2c 3d 4h", "4-card 4-3-2-A", "4-card 4-3-2-A"),
    ("2d Ac 4h 3c - Kh Ad 9s 2c", "Kh Ad 9s 2c", "3-card 4-2-A", "4-card K-9-2-A"),
    ("Kc Tc Qc Jc - Ac Ad Ah As", "Ac Ad Ah As", "1-card T", "1-card A"),
    ("9c 9h Qc Qh - Qs Kh Jh Kd", "Qs Kh Jh Kd", "2-card Q-9", "3-card K-Q-J"),
    ("2d 5h 7c 5s - 2h 3c 8d 6c", "2d 5h 7c 5s", "3-card 7-5-2", "3-card 8-3-2"),
    ("3s 6c 2d Js - 6h Jd 3c 2s", "6h Jd 3c 2s", "3-card 6-3-2", "4-card J-6-3-2"),
    ("Ah 6d 4d Ac - 3h 2c 3s 2s", "3h 2c 3s 2s", "2-card 4-A", "2-card 3-2"),
    ("2h 8h 6h 4h - 6d 2d 5d 8d", "2h 8h 6h 4h - 6d 2d 5d 8d", "1-card 2", "1-card 2"),
]


@pytest.mark.parametrize(("deal", "expected", "left", "right"), SEED_CASES)
def test_seed_cases(deal: str, expected: str, left: str, right: str) -> None:
    hands = parse_deal(deal, hand_size=4).hands
    won = winners(hands)
    assert " - ".join(STANDARD.format_cards(hands[i]) for i in won) == expected
    assert [describe_key(badugi_key(hand)) for hand in hands] == [left, right]


def _reference_key(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """Brute force straight from the rules: every subset, greater tuple = stronger."""
    best: tuple[int, tuple[int, ...]] = (0, ())
    for n in range(1, len(cards) + 1):
        for subset in combinations(cards, n):
            ranks = [(card // 4 + 1) % 13 for card in subset]  # ace low: A=0 .. K=12
            if len(set(ranks)) == n and len({card % 4 for card in subset}) == n:
                best = max(best, (n, tuple(-r for r in sorted(ranks, reverse=True))))
    return best


@pytest.mark.slow  # CI only (python -m pytest -m slow): one of the slowest checks
def test_every_hand_agrees_with_brute_force() -> None:
    hands = list(combinations(DECK, 4))
    assert len(hands) == ALL_HANDS
    keys = [badugi_key(hand) for hand in hands]
    # Both orders must be the same total preorder: map each reference value to its key.
    pairs = dict(zip((_reference_key(hand) for hand in hands), keys, strict=True))
    assert len(pairs) == len(set(keys)) == DISTINCT_VALUES
    ordered = sorted(pairs)
    assert [pairs[value] for value in ordered] == sorted(pairs.values())
    assert badugi_keys(np.array(hands)).tolist() == keys


@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=4, unique=True))
def test_short_hands_agree_with_brute_force(cards: list[int]) -> None:
    played = played_cards(cards)
    assert (len(played), tuple(-((c // 4 + 1) % 13) for c in played)) == _reference_key(cards)


deals = st.integers(2, 6).flatmap(
    lambda n: st.lists(st.sampled_from(DECK), min_size=4 * n, max_size=4 * n, unique=True).map(
        lambda cards: [cards[i : i + 4] for i in range(0, len(cards), 4)]
    )
)


@given(deals, st.randoms(use_true_random=False))
def test_winners_ignore_card_and_hand_order(hands: list[list[int]], rnd: object) -> None:
    import random

    assert isinstance(rnd, random.Random)
    won = {tuple(sorted(hands[i])) for i in winners(hands)}
    shuffled = [rnd.sample(hand, len(hand)) for hand in hands]
    rnd.shuffle(shuffled)
    assert {tuple(sorted(shuffled[i])) for i in winners(shuffled)} == won


@given(st.lists(st.sampled_from(DECK), min_size=4, max_size=4, unique=True))
def test_a_hand_ties_with_itself(hand: list[int]) -> None:
    assert winners([hand, hand]) == (0, 1)


def test_strength_extremes() -> None:
    best, worst = strength(parse_cards("As 2h 3d 4c")), strength(parse_cards("Kc Kd Kh Ks"))
    assert (best.hand_class, best.loses_to, best.ties) == (1, 0, 23)
    assert (worst.hand_class, worst.beats, worst.ties) == (DISTINCT_VALUES, 0, 0)
    middle = strength(parse_cards("As 3h 2d 4h"))
    assert middle.beats + middle.ties + middle.loses_to + 1 == ALL_HANDS


def test_strength_of_every_value_matches_a_tally_of_all_hands() -> None:
    tally: Counter[int] = Counter()
    example = {}
    for hand in combinations(DECK, 4):
        key = badugi_key(hand)
        tally[key] += 1
        example.setdefault(key, hand)
    below = 0
    for hand_class, key in enumerate(sorted(tally, reverse=True), start=1):
        place = strength(example[key])
        assert (place.hand_class, place.ties) == (hand_class, tally[key] - 1)
    for key in sorted(tally):
        assert strength(example[key]).beats == below
        below += tally[key]


@pytest.mark.parametrize("size", [0, 5])
def test_wrong_sizes_are_refused(size: int) -> None:
    with pytest.raises(CardParseError, match="1 to 4 cards"):
        badugi_key(DECK[:size])
