"""Badugi showdowns: the played hand, a key for every comparison, winners and hand strength.

Rules (ace low; suits unordered):

- The played hand is the largest sub-hand whose cards have distinct ranks *and* distinct suits.
- A hand that plays more cards beats one that plays fewer.
- Hands playing the same number of cards compare from their highest rank down; lower wins.
- Equal played ranks draw, whatever the suits.

``badugi_key`` maps a hand to an int where greater is stronger, so ``max(hands, key=badugi_key)``
finds a winner and equal keys are exact draws:

>>> from handsolver.models.cards import parse_cards
>>> number_one, three_card = parse_cards("3c 2s 4d Ah"), parse_cards("As 3h 2d 4h")
>>> badugi_key(number_one) > badugi_key(three_card)
True
>>> badugi_key(parse_cards("2h 8h 6h 4h")) == badugi_key(parse_cards("6d 2d 5d 8d"))
True
>>> winners([parse_cards("9c 9h Qc Qh"), parse_cards("Qs Kh Jh Kd")])
(1,)

Hands of one to four cards are accepted, so draws and partial hands can be judged too.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import accumulate, combinations, combinations_with_replacement
from typing import TYPE_CHECKING

from handsolver.models.cards import Card, CardParseError
from handsolver.models.strength import Strength

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

HAND_SIZE = 4
# Badugi ranks run A=0 (best) to K=12; a card's "low index" is (card + 4) % 52, which puts the
# four aces first so that sorting low indices sorts by Badugi rank.
LOW_RANKS = "A23456789TJQK"
ALL_HANDS = 270_725  # C(52, 4)
DISTINCT_VALUES = 1_092  # C(13,4) + C(13,3) + C(13,2) + C(13,1)


def _low_index(card: Card) -> int:
    return (card + 4) % 52


@cache
def _best_positions(size: int) -> tuple[tuple[int, ...], ...]:
    """For hands of ``size`` cards sorted by Badugi rank, the positions of the played cards.

    The played hand depends only on which neighbours share a rank (equal ranks are adjacent
    once sorted) and on the suit at each position, so one table indexed by that pattern answers
    every hand.  Among equally large valid subsets the one whose positions are smallest from the
    top down is best: rank never decreases with position, so it has the lowest ranks too.
    """
    # A subset plays when no two of its positions share a rank or a suit: a pair of positions
    # "conflicts".  The best subset depends only on which pairs conflict, so it is found once
    # per conflict mask, and a pattern's mask is its suits' conflicts with its ranks'.
    pairs = list(combinations(range(size), 2))
    subsets = sorted(
        (subset for n in range(1, size + 1) for subset in combinations(range(size), n)),
        key=lambda subset: (-len(subset), subset[::-1]),  # the largest, then the lowest first
    )
    inside = [
        sum(1 << k for k, (i, j) in enumerate(pairs) if i in subset and j in subset)
        for subset in subsets
    ]

    def suit_conflicts(code: int) -> int:
        return sum(
            1 << k for k, (i, j) in enumerate(pairs) if (code >> 2 * i ^ code >> 2 * j) & 3 == 0
        )

    def rank_conflicts(equal: int) -> int:
        # Ranks are equal where every neighbour between them is marked equal.
        return sum(
            1 << k
            for k, (i, j) in enumerate(pairs)
            if (equal >> i) & ((1 << j - i) - 1) == (1 << j - i) - 1
        )

    suits = [suit_conflicts(code) for code in range(4**size)]
    ranks = [rank_conflicts(equal) for equal in range(1 << max(0, size - 1))]
    best_for = {
        mask: next(s for s, bits in zip(subsets, inside, strict=True) if not bits & mask)
        for mask in range(1 << len(pairs))
    }
    return tuple(
        best_for[suits[pattern & (4**size - 1)] | ranks[pattern >> 2 * size]]
        for pattern in range(4**size << (size - 1))
    )


def _pattern(low: Sequence[int]) -> int:
    """The table index of a hand given as sorted low indices (see ``_best_positions``)."""
    size = len(low)
    pattern = 0
    for i, card in enumerate(low):
        pattern |= (card & 3) << (2 * i)
    for i in range(size - 1):
        if low[i] >> 2 == low[i + 1] >> 2:
            pattern |= 1 << (2 * size + i)
    return pattern


def _key_of_low_ranks(ranks_low_to_high: Iterable[int]) -> int:
    """Size in the top bits, then (12 - rank) from the highest played rank down, 4 bits each."""
    key = 0
    n = 0
    for rank in ranks_low_to_high:
        key = key >> 4 | (12 - rank) << 12
        n += 1
    return n << 16 | key


def played_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards the hand plays, highest Badugi rank first.

    >>> from handsolver.models.cards import parse_cards, STANDARD
    >>> STANDARD.format_cards(played_cards(parse_cards("8d 6h 3s 2h")))
    '8d 3s 2h'
    """
    _check_size(cards)
    by_rank = sorted(cards, key=_low_index)
    low = [_low_index(card) for card in by_rank]
    return tuple(by_rank[p] for p in reversed(_best_positions(len(cards))[_pattern(low)]))


def badugi_key(cards: Sequence[Card]) -> int:
    """An int for comparing Badugi hands of 1-4 distinct cards: greater is stronger, equal draws.

    The top bits hold the number of cards played; below them come the played ranks from the
    highest down, each stored as ``12 - rank`` (ace = 0) so that lower cards give greater keys.

    >>> from handsolver.models.cards import parse_cards
    >>> keys = [badugi_key(parse_cards(h)) for h in ("Kc Qd Jh Ts", "4c 3h 2c As", "Kc Kd Kh Ks")]
    >>> keys[0] > keys[1] > keys[2]
    True
    """
    _check_size(cards)
    low = sorted((card + 4) % 52 for card in cards)
    return _key_of_low_ranks(low[p] >> 2 for p in _best_positions(len(low))[_pattern(low)])


def _check_size(cards: Sequence[Card]) -> None:
    if not 1 <= len(cards) <= HAND_SIZE:
        raise CardParseError(f"a Badugi hand has 1 to 4 cards, got {len(cards)}")


def key_ranks(key: int) -> tuple[int, ...]:
    """The played Badugi ranks (A=0 .. K=12) a key stands for, highest first."""
    n = key >> 16
    return tuple(12 - (key >> (12 - 4 * i) & 15) for i in range(n))


def describe_key(key: int) -> str:
    """A key in the usual spoken form, e.g. ``'4-card 4-3-2-A'``.

    >>> from handsolver.models.cards import parse_cards
    >>> describe_key(badugi_key(parse_cards("2d 5h 7c 5s")))
    '3-card 7-5-2'
    """
    ranks = key_ranks(key)
    return f"{len(ranks)}-card " + "-".join(LOW_RANKS[rank] for rank in ranks)


def winners(hands: Sequence[Sequence[Card]]) -> tuple[int, ...]:
    """The 0-based indices of the hands that win the showdown (several on a draw).

    >>> from handsolver.models.cards import parse_deal
    >>> winners(parse_deal("3c 2s 4d Ah - As 2c 3d 4h").hands)
    (0, 1)
    """
    keys = [badugi_key(hand) for hand in hands]
    best = max(keys)
    return tuple(i for i, key in enumerate(keys) if key == best)


def badugi_keys(hands: npt.ArrayLike) -> np.ndarray:
    """Keys for many 4-card hands at once: an ``(n, 4)`` array of cards in, ``n`` keys out.

    The same pattern table as :func:`badugi_key`, applied with numpy; equal to it on every hand.
    """
    import numpy as np

    low = np.sort((np.asarray(hands, dtype=np.int64) + 4) % 52, axis=1)
    ranks, suits = low >> 2, low & 3
    pattern = suits[:, 0] | suits[:, 1] << 2 | suits[:, 2] << 4 | suits[:, 3] << 6
    for i in range(HAND_SIZE - 1):
        pattern |= (ranks[:, i] == ranks[:, i + 1]).astype(np.int64) << (2 * HAND_SIZE + i)
    # Per pattern: the played positions from the highest down, padded with -1.
    table = np.full((len(_best_positions(HAND_SIZE)), HAND_SIZE), -1, dtype=np.int64)
    for index, positions in enumerate(_best_positions(HAND_SIZE)):
        table[index, : len(positions)] = positions[::-1]
    chosen = table[pattern]
    keys: np.ndarray = (chosen >= 0).sum(axis=1) << 16
    played = np.take_along_axis(ranks, np.maximum(chosen, 0), axis=1)
    for i in range(HAND_SIZE):
        keys += np.where(chosen[:, i] >= 0, (12 - played[:, i]) << (12 - 4 * i), 0)
    return keys


@cache
def _value_table() -> tuple[list[int], list[int]]:
    """The 1,092 distinct keys in increasing order, and how many 4-card hands are below each.

    The second list has one more entry than the first: its last entry is all 270,725 hands.
    Counted without listing the hands: a hand is its sorted ranks plus a suit pattern, and for
    each pattern of equal neighbours we know how many suit patterns pick each set of positions.
    """
    table = _best_positions(HAND_SIZE)
    picks: dict[int, Counter[tuple[int, ...]]] = {}
    for pattern, positions in enumerate(table):
        equal = pattern >> (2 * HAND_SIZE)
        suits = [(pattern >> (2 * i)) & 3 for i in range(HAND_SIZE)]
        # Equal ranks sort by suit, so only increasing suits within a run are real hands.
        if all(suits[i] < suits[i + 1] for i in range(HAND_SIZE - 1) if equal >> i & 1):
            picks.setdefault(equal, Counter())[positions] += 1
    counts: Counter[int] = Counter()
    for ranks in combinations_with_replacement(range(13), HAND_SIZE):
        equal = sum(1 << i for i in range(HAND_SIZE - 1) if ranks[i] == ranks[i + 1])
        for positions, hands in picks[equal].items():
            counts[_key_of_low_ranks(ranks[p] for p in positions)] += hands
    values = sorted(counts)
    return values, list(accumulate((counts[value] for value in values), initial=0))


def strength(cards: Sequence[Card]) -> Strength:
    """The hand's place among all 4-card hands: its class of 1,092 and the hands it beats.

    >>> from handsolver.models.cards import parse_cards
    >>> strength(parse_cards("4c 3h 2s Ad"))
    Strength(hand_class=1, beats=270701, ties=23, total=270725)
    """
    key = badugi_key(cards)
    values, below = _value_table()
    # Every value a hand of 1-4 cards can play is played by some 4-card hand, so it is listed.
    index = bisect_left(values, key)
    return Strength(
        hand_class=len(values) - index,
        beats=below[index],
        ties=below[index + 1] - below[index] - 1,
        total=ALL_HANDS,
    )
