"""Standard poker: every category and tie-break, best of 7, exhaustive counts, PE 54."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handsolver.models.cards import CardParseError, InputError, parse_cards
from handsolver.models.poker import (
    CATEGORY_NAMES,
    NUM_HANDS,
    NUM_KEYS,
    best_five,
    best_key,
    category_of,
    euler54,
    euler54_wins,
    hands_with_key,
    parse_euler54_line,
    poker_key,
    strength,
    winners,
)
from handsolver.models.poker_batch import all_hands, rank_hands

PE54 = Path(__file__).resolve().parents[1] / "data" / "p054_poker.txt"


def key(text: str) -> int:
    return poker_key(parse_cards(text))


# --- an independent reference: (category, ranks to compare) built from rank counts ----------


def reference(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """Category 0..8 and the ranks compared after it, for five cards, written from the rules."""
    ranks = [card // 4 + 2 for card in cards]  # 2..14
    flush = len({card % 4 for card in cards}) == 1
    counts = Counter(ranks)
    # Ranks ordered by how many there are, then by rank: the order ties are broken in.
    ordered = tuple(sorted(ranks, key=lambda r: (counts[r], r), reverse=True))
    distinct = sorted(set(ranks))
    straight_high = 0
    if len(distinct) == 5 and distinct[4] - distinct[0] == 4:
        straight_high = distinct[4]
    elif distinct == [2, 3, 4, 5, 14]:
        straight_high = 5
    shape = sorted(counts.values(), reverse=True)
    if straight_high and flush:
        return 8, (straight_high,)
    if shape[0] == 4:
        return 7, ordered
    if shape == [3, 2]:
        return 6, ordered
    if flush:
        return 5, ordered
    if straight_high:
        return 4, (straight_high,)
    if shape[0] == 3:
        return 3, ordered
    if shape == [2, 2, 1]:
        return 2, ordered
    if shape[0] == 2:
        return 1, ordered
    return 0, ordered


def reference_best(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    return max(reference(five) for five in combinations(cards, 5))


def sign(x: tuple[int, tuple[int, ...]] | int, y: tuple[int, tuple[int, ...]] | int) -> int:
    return int(x > y) - int(x < y)  # type: ignore[operator]


# --- categories and tie-breaks -----------------------------------------------------------------

CATEGORY_EXAMPLES = [
    ("7c 5d 4h 3s 2c", "high card"),
    ("Kc Ad 2h 3s 4c", "high card"),
    ("7c 7d 4h 3s 2c", "pair"),
    ("7c 7d 4h 4s 2c", "two pair"),
    ("7c 7d 7h 4s 2c", "three of a kind"),
    ("5c 6d 7h 8s 9c", "straight"),
    ("Ac 2d 3h 4s 5c", "straight"),
    ("Tc Jd Qh Ks Ac", "straight"),
    ("2h 9h Kh 4h 7h", "flush"),
    ("7c 7d 7h 4s 4c", "full house"),
    ("7c 7d 7h 7s 4c", "four of a kind"),
    ("5h 6h 7h 8h 9h", "straight flush"),
    ("Ah 2h 3h 4h 5h", "straight flush"),
    ("Ts Js Qs Ks As", "straight flush"),
]


@pytest.mark.parametrize(("cards", "name"), CATEGORY_EXAMPLES)
def test_category(cards: str, name: str) -> None:
    assert category_of(key(cards)) == name


def test_categories_rank_in_order() -> None:
    keys = [key(cards) for cards, _ in CATEGORY_EXAMPLES]
    names = [name for _, name in CATEGORY_EXAMPLES]
    for (k1, n1), (k2, n2) in combinations(zip(keys, names, strict=True), 2):
        if CATEGORY_NAMES.index(n1) < CATEGORY_NAMES.index(n2):
            assert k1 < k2


# Each pair: the first hand beats the second.
STRONGER = [
    # the wheel is the lowest straight and straight flush, but still a straight
    ("2c 3d 4h 5s 6c", "Ac 2d 3h 4s 5c"),
    ("Ac 2d 3h 4s 5c", "Kc Kd Kh 4s 2c"),
    ("2h 3h 4h 5h 6h", "Ah 2h 3h 4h 5h"),
    ("Ah 2h 3h 4h 5h", "Ac Ad Ah As Kc"),
    ("Ac Kd Qh Js Tc", "Kc Qd Jh Ts 9c"),
    # K-A-2-3-4 is no straight
    ("Ac 2d 3h 4s 5c", "Kc Ad 2h 3s 4c"),
    # high card: kickers at every depth
    ("Ac 9d 7h 5s 3c", "Kc Qd Jh 9s 8c"),
    ("Ac Kd 7h 5s 3c", "Ac Qd Jh 9s 8d"),
    ("Ac Kd Qh 5s 3c", "Ac Kd Jh 9s 8d"),
    ("Ac Kd Qh Js 3c", "Ac Kd Qh Ts 8d"),
    ("Ac Kd Qh Js 4c", "Ad Kc Qs Jh 3d"),
    # pair: the pair first, then every kicker
    ("4h 4c Jc Tc 3h", "2h 2d Ah Kc 3d"),  # the article's example
    ("9c 9d Ah 5s 3c", "9h 9s Kh Qs Jc"),
    ("9c 9d Ah Ks 3c", "9h 9s Ac Qs Jc"),
    ("9c 9d Ah Ks 4c", "9h 9s Ac Kh 3d"),
    # two pair: high pair, low pair, kicker
    ("Kc Kd 3h 3s 2c", "Qc Qd Jh Js Ac"),
    ("Kc Kd 4h 4s 2c", "Kh Ks 3c 3d Ac"),
    ("Kc Kd 4h 4s 3c", "Kh Ks 4c 4d 2c"),
    # three of a kind: trips, then both kickers
    ("8c 8d 8h 3s 2c", "7c 7d 7h As Kc"),
    ("8c 8d 8h As 2c", "8s 8d 8h Ks Qc"),
    ("8c 8d 8h As 3c", "8s 8d 8h Ad 2c"),
    # straights by their top card
    ("6c 7d 8h 9s Tc", "5c 6d 7h 8s 9c"),
    # flush: every card, high to low
    ("Ah 9h 7h 5h 3h", "Kc Qc Jc 9c 8c"),
    ("Ah Kh 7h 5h 3h", "Ac Qc Jc 9c 8c"),
    ("Ah Kh Qh 5h 3h", "Ac Kc Jc 9c 8c"),
    ("Ah Kh Qh Jh 3h", "Ac Kc Qc 9c 8c"),
    ("Ah Kh Qh Jh 4h", "Ac Kc Qc Jc 3c"),
    # full house: trips before the pair
    ("3c 3d 3h 2s 2c", "2h 2d 2s Ac Ad"),
    ("9c 9d 9h 3s 3c", "9c 9d 9h 2s 2c"),
    # four of a kind: quads, then the kicker
    ("3c 3d 3h 3s 2c", "2h 2d 2s 2c Ac"),
    ("9c 9d 9h 9s 4c", "9c 9d 9h 9s 3c"),
    # category beats any ranks below it
    ("2c 2d 3h 4s 5c", "Ac Kd Qh Js 9c"),
    ("2c 2d 3h 3s 4c", "Ac Ad Kh Qs Jc"),
    ("2c 2d 2h 3s 4c", "Ac Ad Kh Ks Qc"),
    ("Ac 2d 3h 4s 5c", "Ac Ad Ah Ks Qc"),
    ("2h 3h 4h 5h 7h", "Ac Kd Qh Js Tc"),
    ("2c 2d 2h 3s 3c", "Ah Kh Qh Jh 9h"),
    ("2c 2d 2h 2s 3c", "Ac Ad Ah Ks Kc"),
    ("Ah 2h 3h 4h 5h", "Ac Ad Ah As Kc"),
]


@pytest.mark.parametrize(("better", "worse"), STRONGER)
def test_stronger(better: str, worse: str) -> None:
    assert key(better) > key(worse)
    assert winners([parse_cards(worse), parse_cards(better)]) == [1]
    assert reference(parse_cards(better)) > reference(parse_cards(worse))


DRAWS = [
    ("Ah Kd 5s 5c 2h", "As Kc 5h 5d 2s"),
    ("Ac 2d 3h 4s 5c", "Ad 2c 3s 4h 5d"),
    ("2h 9h Kh 4h 7h", "2s 9s Ks 4s 7s"),
    ("Th Jh Qh Kh Ah", "Ts Js Qs Ks As"),
    ("7c 5d 4h 3s 2c", "7d 5c 4s 3h 2d"),
]


@pytest.mark.parametrize(("first", "second"), DRAWS)
def test_draws(first: str, second: str) -> None:
    assert key(first) == key(second)
    assert winners([parse_cards(first), parse_cards(second)]) == [0, 1]


def test_order_of_cards_does_not_matter() -> None:
    cards = parse_cards("Kh Kd 9c 7s 2h")
    assert {poker_key(perm) for perm in combinations(cards, 5)} == {poker_key(cards)}
    assert poker_key(cards[::-1]) == poker_key(cards)


def test_winners_several_hands() -> None:
    hands = [parse_cards(text) for text in ("2c 3c 4c 5c 7d", "Ah Ad 9s 9c 2s", "Kh Kd 9h 9d Qs")]
    assert winners(hands) == [1]
    with pytest.raises(InputError):
        winners(hands[:1])


def test_seed_notebook_orderings() -> None:
    # cards1 > cards2 > cards3 > cards4 in the PE 54 notebook
    texts = ["8C 7S 9H 6D TC", "8C 8S 9H 8D 4C", "8C 8S 9H 9D 4C", "8C 8S 5H 5D 4C"]
    keys = [key(text) for text in texts]
    assert keys == sorted(keys, reverse=True)
    assert [category_of(k) for k in keys] == ["straight", "three of a kind", "two pair", "two pair"]


# --- best five of six or seven -----------------------------------------------------------------

BEST_FIVE = [
    ("Ah 5d 2c 3s 4h Kc 9d", "straight", "5d 4h 3s 2c Ah"),
    ("2h 3h 4h 5h 6d 7h Kh", "flush", "Kh 7h 5h 4h 3h"),
    ("2h 3h 4h 5h 6h 7h Kh", "straight flush", "7h 6h 5h 4h 3h"),
    ("9c 9d 9h 5s 5c 5d 2h", "full house", "9h 9d 9c 5s 5d"),
    ("9c 9d 5h 5s 3c 3d Ah", "two pair", "9d 9c 5s 5h Ah"),
    ("9c 9d 5h 5s 4c 4d 2h", "two pair", "9d 9c 5s 5h 4d"),
    ("9c 9d 9h 9s Kc Kd Ah", "four of a kind", "9s 9h 9d 9c Ah"),
    ("Ac Kd Qh Js 9c 8d", "high card", "Ac Kd Qh Js 9c"),
    ("Qc Qd 8h 8s 3c", "two pair", "Qd Qc 8s 8h 3c"),
]


@pytest.mark.parametrize(("cards", "name", "played"), BEST_FIVE)
def test_best_five(cards: str, name: str, played: str) -> None:
    best = best_five(parse_cards(cards))
    assert best.category == name
    assert best.five == parse_cards(played)
    assert best.key == best_key(parse_cards(cards)) == poker_key(best.five)


def test_best_five_size() -> None:
    with pytest.raises(InputError, match="5 to 7 cards, got 8"):
        best_five(parse_cards("Ac Kd Qh Js 9c 8d 7d 6d"))


def test_board_decides_draw() -> None:
    board = parse_cards("Qh Jh Th 9h 8h")
    assert winners([parse_cards("Ac Ad") + board, parse_cards("2c 2d") + board]) == [0, 1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True))
def test_best_of_seven_matches_reference(cards: list[int]) -> None:
    expected = reference_best(cards)
    best = best_five(cards)
    assert reference(best.five) == expected
    assert best_key(cards) == best.key
    assert best_key(cards[:6]) == best_five(cards[:6]).key
    assert sorted(best.five) == sorted(set(best.five) & set(cards))


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=10, max_size=10, unique=True))
def test_key_matches_reference_on_pairs(cards: list[int]) -> None:
    first, second = cards[:5], cards[5:]
    assert sign(poker_key(first), poker_key(second)) == sign(reference(first), reference(second))


# --- strength ----------------------------------------------------------------------------------


def test_strength_extremes() -> None:
    royal = strength(parse_cards("As Ks Qs Js Ts"))
    assert (royal.hand_class, royal.beats, royal.ties) == (1, NUM_HANDS - 4, 3)
    worst = strength(parse_cards("7c 5d 4h 3s 2c"))
    assert (worst.hand_class, worst.beats, worst.ties, worst.share_beaten) == (7462, 0, 1019, 0.0)
    assert strength(parse_cards("7c 5d 4h 3s 2c Kh Ks")) == strength(parse_cards("Kh Ks 7c 5d 4h"))


# --- exhaustive over all 2,598,960 hands (batch path) ------------------------------------------


@pytest.fixture(scope="module")
def every_hand() -> tuple[np.ndarray, np.ndarray]:
    hands = all_hands()
    return hands, rank_hands(hands)


def test_all_hands_enumerated(every_hand: tuple[np.ndarray, np.ndarray]) -> None:
    hands, _ = every_hand
    assert hands.shape == (NUM_HANDS, 5)
    assert (np.diff(hands.astype(np.int64), axis=1) > 0).all()
    assert tuple(hands[0]) == (0, 1, 2, 3, 4) and tuple(hands[-1]) == (47, 48, 49, 50, 51)


def test_textbook_category_counts(every_hand: tuple[np.ndarray, np.ndarray]) -> None:
    _, keys = every_hand
    per_key = np.bincount(keys, minlength=NUM_KEYS)
    assert len(per_key) == NUM_KEYS and (per_key > 0).all()  # exactly 7,462 distinct values
    counts = Counter[str]()
    for k, n in enumerate(per_key.tolist()):
        counts[category_of(k)] += n
        assert hands_with_key(k) == n
    assert counts == {
        "straight flush": 40,
        "four of a kind": 624,
        "full house": 3744,
        "flush": 5108,
        "straight": 10200,
        "three of a kind": 54912,
        "two pair": 123552,
        "pair": 1098240,
        "high card": 1302540,
    }
    assert per_key[NUM_KEYS - 1] == 4  # royal flushes


def test_scalar_equals_batch_on_every_hand(every_hand: tuple[np.ndarray, np.ndarray]) -> None:
    hands, keys = every_hand
    scalar = list(map(poker_key, hands.tolist()))
    assert scalar == keys.tolist()


def test_strength_counts_every_hand(every_hand: tuple[np.ndarray, np.ndarray]) -> None:
    _, keys = every_hand
    below = np.concatenate([[0], np.cumsum(np.bincount(keys, minlength=NUM_KEYS))])
    for cards in ("Kh Kd 9c 7s 2h", "Ac 2d 3h 4s 5c", "9c 9d 9h 3s 3c"):
        key, s = poker_key(parse_cards(cards)), strength(parse_cards(cards))
        assert s.beats == below[key]
        assert s.ties == below[key + 1] - below[key] - 1


def test_batch_six_and_seven_cards_match_scalar() -> None:
    rng = np.random.default_rng(54)
    hands = np.array([rng.permutation(52)[:7] for _ in range(3000)], dtype=np.uint8)
    for size in (6, 7):
        batch = rank_hands(hands[:, :size]).tolist()
        assert batch == [best_key(row) for row in hands[:, :size].tolist()]


def test_batch_rejects_bad_shapes() -> None:
    with pytest.raises(InputError):
        rank_hands([[0, 1, 2, 3]])
    with pytest.raises(InputError):
        rank_hands([[0, 1, 2, 3, 52]])


# --- Project Euler 54 --------------------------------------------------------------------------


def test_pe54_answer() -> None:
    lines = PE54.read_text().splitlines()
    assert euler54_wins(lines) == 376
    result = euler54(lines, strict=True)
    assert len(result.deals) == 1000 and result.bad_lines == ()
    assert result.player1_wins + result.player2_wins == 1000  # PE: always a clear winner


def test_pe54_matches_reference() -> None:
    lines = PE54.read_text().splitlines()
    wins = 0
    for line in lines:
        first, second = parse_euler54_line(line)
        wins += reference(first) > reference(second)
    assert wins == 376


def test_pe54_bad_lines() -> None:
    lines = [
        "8C TS KC 9H 4S 7D 2S 5D 3S AC",
        "8C TS KC 9H 4S 7D 2S 5D 3S 8C",
        "",
        "8C TS KC 9H 4S 7D 2S 5D XS AC",
        "8C TS KC 9H 4S 7D 2S 5D 3S",
        "5H 5C 6S 7S KD 2C 3S 8S 8D TD",
    ]
    result = euler54(lines)
    assert [deal.line for deal in result.deals] == [1, 6]
    assert [bad.line for bad in result.bad_lines] == [2, 4, 5]
    assert "'8C' is given twice" in result.bad_lines[0].error
    assert "'XS'" in result.bad_lines[1].error
    assert result.player2_wins == 2 and result.player1_wins == 0
    with pytest.raises(CardParseError, match="^line 2: card '8C' is given twice$"):
        euler54(lines, strict=True)


def test_pe54_repeated_card_is_named_when_cards_run_together() -> None:
    with pytest.raises(CardParseError, match="^card '8c' is given twice$"):
        parse_euler54_line("8CTS KC 8c 4S 7D 2S 5D 3S 9H")
    with pytest.raises(CardParseError, match="^card '8C' is given twice$"):
        parse_euler54_line("8C,TS,KC,9H,4S,7D,2S,5D,3S,8C")


def test_pe54_draw() -> None:
    result = euler54(["Ah Kd 5s 5c 2h As Kc 5h 5d 2s"])
    assert result.draws == 1 and result.deals[0].winner is None
