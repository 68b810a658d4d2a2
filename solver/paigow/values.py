"""The exact value of every setting of a hand: the dealer's house-way (high, low) histogram over
all C(46,7) dealer hands, counted by rank class and flush class, and a 2-D cumulative sum.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from handsolver.models.cards import Card, InputError
from handsolver.models.paigow import (
    DEFAULT_RULES,
    JOKER,
    NUM_HIGH_KEYS,
    NUM_LOW_KEYS,
    Rules,
    high_key,
    legal_settings,
    low_key,
)
from handsolver.models.paigow_houseway import TRUMP_PLAZA, HouseWay
from handsolver.models.split import Setting
from handsolver.solver.paigow.house_ways import house_way_batch
from handsolver.solver.paigow.keys import Tables
from handsolver.solver.paigow.rank_tables import other_ways, tables

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


def dealer_histogram(t: Tables, left: Iterable[Card]) -> NDArray[np.int64]:
    """How many 7-card dealer hands from the cards ``left`` the house way sets to each
    (high key, low key): an array of shape (NUM_HIGH_KEYS, NUM_LOW_KEYS)."""
    import numpy as np

    present = np.zeros(53, dtype=np.int64)
    present[list(left)] = 1
    by_suit = present[:52].reshape(13, 4).T  # [suit, rank]
    per_rank = by_suit.sum(axis=0)
    joker = int(present[JOKER])
    choose_table = np.array([[math.comb(n, k) for k in range(8)] for n in range(5)], dtype=np.int64)

    ways = choose_table[per_rank, t.class_counts].prod(axis=1)
    ways = np.where(t.class_joker, ways * joker, ways)
    flush_ways = np.zeros(len(t.flush_bins), dtype=np.int64)
    for suit in range(4):
        suit_mask = int((by_suit[suit] << np.arange(13)).sum())
        holds = (t.flush_suited & ~suit_mask) == 0
        others = other_ways(t, per_rank - by_suit[suit])
        flush_ways += np.where(holds, others, 0)
    flush_ways = np.where(t.flush_joker, flush_ways * joker, flush_ways)

    size = NUM_HIGH_KEYS * NUM_LOW_KEYS
    # Weights are whole numbers below 2**53, so float64 sums are exact.
    histogram = (
        np.bincount(t.class_bins, weights=ways, minlength=size)
        + np.bincount(t.flush_bins, weights=flush_ways, minlength=size)
        - np.bincount(t.flush_class_bins, weights=flush_ways, minlength=size)
    )
    result: NDArray[np.int64] = (
        np.rint(histogram).astype(np.int64).reshape(NUM_HIGH_KEYS, NUM_LOW_KEYS)
    )
    return result


def point_histogram(high: int, low: int) -> NDArray[np.int64]:
    """The histogram of one known dealer result."""
    import numpy as np

    histogram = np.zeros((NUM_HIGH_KEYS, NUM_LOW_KEYS), dtype=np.int64)
    histogram[high, low] = 1
    return histogram


class SettingValue(NamedTuple):
    """One legal setting of the player's hand and how it does against the dealer: counts out of
    ``total`` dealer hands, and the expected value with the commission."""

    high: tuple[Card, ...]
    low: tuple[Card, ...]
    high_key: int
    low_key: int
    win: int
    push: int
    loss: int
    total: int
    ev: Fraction
    house_way: bool


class HandValues(NamedTuple):
    """Every legal setting of a hand, best first, against ``dealer_hands`` dealer hands."""

    hand: tuple[Card, ...]
    dealer_hands: int
    settings: tuple[SettingValue, ...]

    @property
    def best(self) -> SettingValue:
        return self.settings[0]

    @property
    def house(self) -> SettingValue:
        return next(s for s in self.settings if s.house_way)


def values_against(
    hand: Sequence[Card],
    histogram: NDArray[np.int64],
    way: HouseWay = TRUMP_PLAZA,
    rules: Rules = DEFAULT_RULES,
) -> HandValues:
    """Every legal setting of ``hand`` scored against a histogram of dealer results."""
    import numpy as np

    total = int(histogram.sum())
    below_both = np.zeros((NUM_HIGH_KEYS + 1, NUM_LOW_KEYS + 1), dtype=np.int64)
    below_both[1:, 1:] = histogram.cumsum(axis=0).cumsum(axis=1)
    below_high = np.concatenate([[0], histogram.sum(axis=1).cumsum()])
    below_low = np.concatenate([[0], histogram.sum(axis=0).cumsum()])
    dealt = house_way_batch([tuple(hand)], way, rules)
    house = (frozenset(dealt.high[0]), frozenset(dealt.low[0]))
    values = []
    for high, low in legal_settings(tuple(hand), rules):
        h, lo = high_key(high, rules), low_key(low)
        win = int(below_both[h, lo])
        loss = total - int(below_high[h]) - int(below_low[lo]) + win
        ev = Fraction(win * (1 - rules.commission) - loss, total)
        values.append(
            SettingValue(
                high,
                low,
                h,
                lo,
                win,
                total - win - loss,
                loss,
                total,
                ev,
                (frozenset(high), frozenset(low)) == house,
            )
        )
    values.sort(key=lambda v: (-v.ev, -v.high_key, -v.low_key))
    return HandValues(tuple(hand), total, tuple(values))


def setting_values(
    hand: Sequence[Card],
    way: HouseWay = TRUMP_PLAZA,
    rules: Rules = DEFAULT_RULES,
    *,
    left: Iterable[Card] | None = None,
) -> HandValues:
    """The exact value of every legal setting of ``hand`` against a dealer who sets seven cards
    from ``left`` (default: the 46 cards the hand leaves) by the house way."""
    if left is None:
        left = [card for card in range(53) if card not in hand]
    else:
        left = list(left)
        if set(left) & set(hand):
            raise InputError("the dealer's cards overlap the hand")
    return values_against(hand, dealer_histogram(tables(way, rules), left), way, rules)


def values_vs_dealer(
    hand: Sequence[Card],
    dealer: Sequence[Card],
    way: HouseWay = TRUMP_PLAZA,
    rules: Rules = DEFAULT_RULES,
) -> HandValues:
    """Every setting of ``hand`` against a known dealer hand set by the house way."""
    dealt = house_way_batch([tuple(dealer)], way, rules)
    return values_against(hand, point_histogram(dealt.high_key[0], dealt.low_key[0]), way, rules)


def values_vs_setting(
    hand: Sequence[Card],
    setting: Setting,
    way: HouseWay = TRUMP_PLAZA,
    rules: Rules = DEFAULT_RULES,
) -> HandValues:
    """Every setting of ``hand`` against a known dealer setting."""
    high, low = setting
    histogram = point_histogram(high_key(high, rules), low_key(low))
    return values_against(hand, histogram, way, rules)
