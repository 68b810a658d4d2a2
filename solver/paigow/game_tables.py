"""The tables of one whole game (house way, rules, deck), built once per process: the dealer's
rank classes grouped for prefix sums, the flush classes that matter, the foul rule by keys."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from handsolver.models.cards import InputError
from handsolver.models.paigow import (
    DEFAULT_RULES,
    FIVE_ACES,
    NUM_HIGH_KEYS,
    NUM_LOW_KEYS,
    Rules,
    key_order,
)
from handsolver.models.paigow_houseway import TRUMP_PLAZA, HouseWay
from handsolver.models.poker import (
    HIGH_CARD,
    PAIR,
    category_index,
    key_ranks,
)
from handsolver.solver.paigow.hand_types import (
    FULL_DECK,
    Deck,
    binomials,
    hand_type,
)
from handsolver.solver.paigow.rank_tables import other_ways
from handsolver.solver.paigow.rank_tables import tables as house_tables

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from handsolver.solver.paigow.keys import Tables

MAX_DENOMINATOR = 10**9


class Setup(NamedTuple):
    """Everything a worker needs, built once per process (house way, rules, deck)."""

    tables: Tables
    deck_mask: int
    player_classes: NDArray[np.int64]  # indices into tables.class_codes of the player's classes
    class_counts: NDArray[np.int64]  # dealer class x 13 (columns contiguous)
    base_ways: NDArray[np.int64]  # dealer class (by low, then high key) -> prod C(a_r, d_r)
    base_counts: NDArray[np.int64]  # 13 x dealer class (same order): rank counts
    base_joker: NDArray[np.bool_]
    group_start: NDArray[np.int64]  # low key -> first dealer class with it (182 + 1)
    below_high: NDArray[np.int64]  # low key x high key -> classes of the group with H < h
    flush_mask: NDArray[np.int64]  # flush classes whose result differs from their rank class
    flush_plain: int  # how many of them (the first) have no joker
    flush_low_rank: NDArray[np.int64]  # the other cards' ranks, -1 for none
    flush_high_rank: NDArray[np.int64]
    flush_joker: NDArray[np.bool_]
    flush_high: NDArray[np.int64]  # H, L of the flush result and of the rank-class result
    flush_low: NDArray[np.int64]
    class_high: NDArray[np.int64]
    class_low: NDArray[np.int64]
    foul: NDArray[np.bool_]  # high key x low key
    hand_type: NDArray[np.int64]  # high key -> row of HAND_TYPES
    commission: tuple[int, int]


def setup(
    way: HouseWay = TRUMP_PLAZA, rules: Rules = DEFAULT_RULES, deck: Deck = FULL_DECK
) -> Setup:
    """The tables for one game (cached per process)."""
    commission = rules.commission
    if commission.denominator > MAX_DENOMINATOR:
        raise InputError(f"commission {commission}: its denominator must be at most 10**9")
    return _setup(way, Rules(rules.wheel_second, rules.five_aces_top), deck, commission)


@cache
def _setup(way: HouseWay, rules: Rules, deck: Deck, commission: Fraction) -> Setup:
    import numpy as np

    t = house_tables(way, rules)
    deck_mask = sum(1 << r for r in deck.ranks)
    avail = np.array([4 if (deck_mask >> r) & 1 else 0 for r in range(13)], dtype=np.int64)
    counts = t.class_counts.astype(np.int64)
    fits = (counts <= avail).all(axis=1)
    player_classes = np.flatnonzero(fits)

    choose_table = binomials()
    high, low = t.class_bins // NUM_LOW_KEYS, t.class_bins % NUM_LOW_KEYS
    order = np.lexsort((high, low))
    ways = choose_table[avail[None, :], counts].prod(axis=1)[order]
    low_sorted, high_sorted = low[order], high[order]
    group_start = np.searchsorted(low_sorted, np.arange(NUM_LOW_KEYS + 1))
    below = np.empty((NUM_LOW_KEYS, NUM_HIGH_KEYS + 1), dtype=np.int64)
    for g in range(NUM_LOW_KEYS):
        part = high_sorted[group_start[g] : group_start[g + 1]]
        below[g] = np.searchsorted(part, np.arange(NUM_HIGH_KEYS + 1))

    # Flush classes (suit 0): only those whose house-way result moves matter.
    moved = t.flush_bins != t.flush_class_bins
    in_deck = (t.flush_suited & ~deck_mask) == 0
    in_deck &= other_ways(t, (avail - 1).clip(0)) > 0
    # Those without the joker first: a player holding it meets only those.
    keep = np.flatnonzero(moved & in_deck)
    keep = keep[np.argsort(t.flush_joker[keep], kind="stable")]
    listed = t.flush_others[keep].astype(np.int64)
    fb, cb = t.flush_bins[keep], t.flush_class_bins[keep]

    order_of = key_order(rules.wheel_second, rules.five_aces_top).poker_of
    foul = _foul_table(order_of)
    types = np.array([hand_type(p) for p in order_of], dtype=np.int64)
    return Setup(
        t,
        deck_mask,
        player_classes,
        counts,
        ways,
        np.ascontiguousarray(counts[order].T),
        t.class_joker[order],
        group_start.astype(np.int64),
        below,
        t.flush_suited[keep],
        int((~t.flush_joker[keep]).sum()),
        listed[:, 0].copy(),
        listed[:, 1].copy(),
        t.flush_joker[keep],
        fb // NUM_LOW_KEYS,
        fb % NUM_LOW_KEYS,
        cb // NUM_LOW_KEYS,
        cb % NUM_LOW_KEYS,
        foul,
        types,
        (commission.numerator, commission.denominator),
    )


def _foul_table(poker_of: Sequence[int]) -> NDArray[np.bool_]:
    """Whether low key ``l`` outranks high key ``h`` (the foul rule from the keys alone)."""
    import numpy as np

    kind = np.zeros(NUM_HIGH_KEYS, dtype=np.int64)  # 0 high card, 1 pair, 2 better
    first = np.zeros(NUM_HIGH_KEYS, dtype=np.int64)
    second = np.zeros(NUM_HIGH_KEYS, dtype=np.int64)
    for key, poker in enumerate(poker_of):
        if poker == FIVE_ACES or category_index(poker) > PAIR:
            kind[key] = 2
            continue
        ranks = key_ranks(poker)
        kind[key] = 0 if category_index(poker) == HIGH_CARD else 1
        first[key], second[key] = ranks[0], ranks[1]
    low = np.arange(NUM_LOW_KEYS)
    low_pair = low >= 169
    low_first = np.where(low_pair, low - 169, low // 13)
    low_second = np.where(low_pair, low - 169, low % 13)
    k, f, s = kind[:, None], first[:, None], second[:, None]
    high_card_foul = low_pair[None, :] | (
        (low_first[None, :] > f) | ((low_first[None, :] == f) & (low_second[None, :] > s))
    )
    pair_foul = low_pair[None, :] & (low_first[None, :] > f)
    foul: NDArray[np.bool_] = np.where(k == 0, high_card_foul, np.where(k == 1, pair_foul, False))
    return foul
