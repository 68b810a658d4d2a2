"""The whole game's vocabulary: the deck (full or reduced), the player's hand types and
categories, and the 7-card frequencies counted by rank class and flush class."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from handsolver.models.paigow import (
    DEFAULT_RULES,
    FIVE_ACES,
    JOKER,
    Rules,
    key_order,
)
from handsolver.models.paigow_houseway import TRUMP_PLAZA
from handsolver.models.poker import (
    FLUSH,
    FULL_HOUSE,
    NUM_KEYS,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    category_index,
    key_ranks,
)
from handsolver.solver.paigow.keys import class_index, setting_keys
from handsolver.solver.paigow.rank_tables import other_ways
from handsolver.solver.paigow.rank_tables import tables as house_tables

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from handsolver.solver.paigow.keys import Tables

RANK_SYMBOLS = "23456789TJQKA"
CATEGORIES = (
    "five aces",
    "royal flush",
    "straight flush",
    "four of a kind",
    "full house",
    "flush",
    "straight",
    "three of a kind",
    "two pair",
    "pair",
    "high card",
)
"""The player's 7-card categories, best first, named as in the JSON output."""

COLUMNS = ("hands", "hw_win", "hw_push", "hw_loss", "best_win", "best_push", "best_loss")


def _type_names() -> tuple[str, ...]:
    names = list(CATEGORIES[:8])
    for high in range(12, -1, -1):
        for low in range(high - 1, -1, -1):
            names.append(f"two pair {RANK_SYMBOLS[high]}{RANK_SYMBOLS[low]}")
    names += [f"pair {RANK_SYMBOLS[rank]}" for rank in range(12, -1, -1)]
    names.append("high card")
    return tuple(names)


HAND_TYPES = _type_names()
"""Rows of the table by hand type: the categories, two pair and pairs by their ranks."""


def hand_type_category(name: str) -> str:
    """The category of a hand-type row, e.g. ``'two pair'`` for ``'two pair KQ'``."""
    for category in CATEGORIES:
        if name.startswith(category):
            return category
    raise ValueError(name)


@dataclass(frozen=True)
class Deck:
    """The deck: four suits of ``ranks`` (indices, 2 = 0 .. A = 12) and the joker.  The full
    deck has all 13 ranks; tests use fewer, small enough for a brute force over every pair."""

    ranks: tuple[int, ...] = tuple(range(13))

    @property
    def size(self) -> int:
        return 4 * len(self.ranks) + 1

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(r * 4 + s for r in self.ranks for s in range(4)) + (JOKER,)

    @property
    def pairs(self) -> int:
        """Player/dealer pairs: C(n, 7) * C(n - 7, 7)."""
        return math.comb(self.size, 7) * math.comb(self.size - 7, 7)

    @property
    def dealer_hands(self) -> int:
        return math.comb(self.size - 7, 7)


FULL_DECK = Deck()


@cache
def binomials() -> NDArray[np.int64]:
    """C(n, k) for n and k in 0..7."""
    import numpy as np

    return np.array([[math.comb(n, k) for k in range(8)] for n in range(8)], dtype=np.int64)


def hand_type(poker: int) -> int:
    """The row of :data:`HAND_TYPES` of the best five cards (its poker key)."""
    if poker == FIVE_ACES:
        return 0
    category = category_index(poker)
    if poker == NUM_KEYS - 1:
        return 1
    fixed = {
        STRAIGHT_FLUSH: 2,
        QUADS: 3,
        FULL_HOUSE: 4,
        FLUSH: 5,
        STRAIGHT: 6,
        TRIPS: 7,
    }
    if category in fixed:
        return fixed[category]
    ranks = key_ranks(poker)
    if category == TWO_PAIR:
        return HAND_TYPES.index(f"two pair {RANK_SYMBOLS[ranks[0]]}{RANK_SYMBOLS[ranks[2]]}")
    if category == PAIR:
        return HAND_TYPES.index(f"pair {RANK_SYMBOLS[ranks[0]]}")
    return len(HAND_TYPES) - 1


def frequencies(rules: Rules = DEFAULT_RULES, deck: Deck = FULL_DECK) -> dict[str, int]:
    """How many 7-card hands of the deck fall in each category (the best five cards, the
    joker as in the high hand), counted by rank class and flush class, not hand by hand.

    A hand that cannot make a flush has its rank class's category; the hands that can (one
    flush suit each) are moved from their rank class's category to their flush class's.
    """
    import numpy as np

    t = house_tables(TRUMP_PLAZA, rules)
    poker_of = np.array(key_order(rules.wheel_second, rules.five_aces_top).poker_of)
    type_of_key = np.array([_category_row(int(p)) for p in poker_of], dtype=np.int64)
    deck_mask = sum(1 << r for r in deck.ranks)
    avail = np.array([4 if (deck_mask >> r) & 1 else 0 for r in range(13)], dtype=np.int64)
    table = binomials()
    counts = np.zeros(len(CATEGORIES), dtype=np.int64)

    reps = np.array(
        [
            sorted([r * 4 + i % 4 for i, r in enumerate(np.repeat(np.arange(13), row))])
            + [JOKER] * int(j)
            for row, j in zip(t.class_counts, t.class_joker, strict=True)
        ],
        dtype=np.int64,
    )
    class_type = type_of_key[_best_high(t, reps)]
    np.add.at(counts, class_type, table[avail[None, :], t.class_counts].prod(axis=1))

    cards = []
    for mask, row, j in zip(
        t.flush_suited.tolist(), t.flush_others.tolist(), t.flush_joker, strict=True
    ):
        hand = [r * 4 for r in range(13) if (mask >> r) & 1]
        others = [r for r in row if r >= 0]
        hand += [r * 4 + 1 + others[:i].count(r) for i, r in enumerate(others)]
        cards.append(sorted(hand) + [JOKER] * int(j))
    flush_reps = np.array(cards, dtype=np.int64)
    in_deck = (t.flush_suited & ~deck_mask) == 0
    ways = 4 * other_ways(t, (avail - 1).clip(0)) * in_deck
    flush_type = type_of_key[_best_high(t, flush_reps)]
    rank_class = t.class_of[class_index(flush_reps)]
    np.add.at(counts, flush_type, ways)
    np.subtract.at(counts, class_type[rank_class], ways)
    return {name: int(n) for name, n in zip(CATEGORIES, counts, strict=True)}


def _best_high(t: Tables, hands: NDArray[np.int64]) -> NDArray[np.int64]:
    """The strongest high key among the 21 five-card parts of each sorted row."""
    import numpy as np

    best: NDArray[np.int64] = setting_keys(t, hands)[0].max(axis=1).astype(np.int64)
    return best


def _category_row(poker: int) -> int:
    """The index in :data:`CATEGORIES` of a poker key."""
    row = hand_type(poker)
    return CATEGORIES.index(hand_type_category(HAND_TYPES[row]))
