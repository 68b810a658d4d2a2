"""Pai Gow poker, exactly: the house way for many hands at once, and the value of every setting
against the house way over all C(46,7) dealer hands (studies: :mod:`.paigow_study`).

**The house way in numpy.**  A hand's plan (:func:`handsolver.models.paigow_houseway.plan_of`)
depends only on its rank counts, so it is computed once per rank class: 67,600 classes of seven
cards (49,205 without the joker, 18,395 with it).  The 21 settings of every hand are then keyed
column by column (the project's batch poker keys for the high hand, a table of the 1,820
four-card rank classes for a high hand holding the joker) and the plan picks one: the strongest
high hand with the planned low hand, or the straight/flush with the highest low hand.

**The exact count.**  The dealer's result is a pair of keys (high H, low L).  Their 2-D histogram
over all dealer hands is built by class, never hand by hand:

- a dealer hand that cannot make a flush (no five cards of a suit, or four and the joker) is set
  by its ranks alone, so each rank class contributes ``prod_r C(left_r, count_r)`` hands (times
  the joker if it is left) at the class's (H, L);
- a hand that can make a flush has one flush suit (5 + 5 > 7 cards); it is set by its *flush
  class*: the ranks held in the flush suit, the ranks of the other cards and the joker (224,653
  classes).  For each suit, the hands of a flush class are counted the same way and moved from
  the rank class's cell to the flush class's cell.

A player setting (h, l) then wins against ``#{H < h, L < l}`` dealer hands and loses to
``#{H >= h, L >= l}`` (copies go to the dealer), both read from a 2-D cumulative sum.

>>> from handsolver.models.paigow import parse_hand
>>> values = setting_values(parse_hand("As Ah Kd Qc 9s 5h 2d").cards)
>>> values.dealer_hands, len(values.settings)  # three settings are fouls
(53524680, 18)
>>> all(s.win + s.push + s.loss == 53524680 for s in values.settings)
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import TYPE_CHECKING, NamedTuple

from handsolver.models.cards import Card, InputError
from handsolver.models.paigow import (
    DEFAULT_RULES,
    FIVE_ACES_CATEGORY,
    HAND_SIZE,
    JOKER,
    NUM_HIGH_KEYS,
    NUM_LOW_KEYS,
    STRAIGHT_CATEGORIES,
    Rules,
    high_key,
    joker_key,
    key_order,
    legal_settings,
    low_key,
    low_key_of_ranks,
)
from handsolver.models.paigow_houseway import TRUMP_PLAZA, HouseWay, plan_of
from handsolver.models.poker import category_index
from handsolver.models.split import Setting

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

# The 21 ways to pick the low hand's two positions out of seven, and the high hand's five.
LOW_POSITIONS: tuple[tuple[int, int], ...] = tuple(combinations(range(HAND_SIZE), 2))
HIGH_POSITIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(p for p in range(HAND_SIZE) if p not in pair) for pair in LOW_POSITIONS
)
_RANK_WEIGHT_BITS = 3  # rank counts in 3-bit fields; the joker flag above the 13 ranks
_JOKER_FLAG = 1 << (_RANK_WEIGHT_BITS * 13)
_CHUNK = 1 << 17


class Tables(NamedTuple):
    """Everything the fast paths need for one house way and one set of rule switches."""

    pai_gow_of: NDArray[np.int32]  # poker key (+ five aces) -> high key
    category: NDArray[np.int8]  # high key -> category (9: five aces)
    joker_codes: NDArray[np.int64]  # sorted rank codes of four real cards
    joker_keys: NDArray[np.int32]  # [unsuited, suited] x joker_codes -> high key
    class_codes: NDArray[np.int64]  # sorted rank-class codes of seven cards
    class_counts: NDArray[np.int64]  # class -> 13 rank counts (real cards)
    class_joker: NDArray[np.bool_]
    class_target: NDArray[np.int32]  # class -> the plan's low key
    class_straight: NDArray[np.bool_]  # class -> plan plays a straight/flush when it can
    class_bins: NDArray[np.int64]  # class -> H * NUM_LOW_KEYS + L without a flush
    flush_suited: NDArray[np.int64]  # flush class -> 13-bit mask of the flush suit's ranks
    flush_counts: NDArray[np.int64]  # flush class -> rank counts of the other real cards
    flush_joker: NDArray[np.bool_]
    flush_bins: NDArray[np.int64]  # flush class -> its (H, L) bin
    flush_class_bins: NDArray[np.int64]  # flush class -> its rank class's bin


def rank_codes(hands: NDArray[np.int64]) -> NDArray[np.int64]:
    """The rank-class code of each row: 3-bit rank counts of the real cards, the joker flag."""
    import numpy as np

    weights = np.append(np.int64(1) << (_RANK_WEIGHT_BITS * np.arange(13)), 0).astype(np.int64)
    card_weight = np.append(weights[np.arange(52) >> 2], _JOKER_FLAG)
    codes: NDArray[np.int64] = card_weight[hands].sum(axis=1)
    return codes


def tables(way: HouseWay = TRUMP_PLAZA, rules: Rules = DEFAULT_RULES) -> Tables:
    """The tables for a house way and rule switches, built once per process (about a second)."""
    # The commission does not change the house way: one build serves every rate.
    return _tables(way, rules.wheel_second, rules.five_aces_top)


@cache
def _tables(way: HouseWay, wheel_second: bool, five_aces_top: bool) -> Tables:
    import numpy as np

    rules = Rules(wheel_second, five_aces_top)

    order = key_order(rules.wheel_second, rules.five_aces_top)
    pai_gow_of = np.array(order.pai_gow_of, dtype=np.int32)
    category = np.array(
        [
            FIVE_ACES_CATEGORY if p == NUM_HIGH_KEYS - 1 else category_index(p)
            for p in order.poker_of
        ],
        dtype=np.int8,
    )
    quads = [r for r in combinations_with_replacement(range(13), 4) if _fits(r, 4)]
    joker_codes = rank_codes(np.array([[r * 4 for r in ranks] for ranks in quads]))
    by_code = np.argsort(joker_codes)
    joker_keys = np.array(
        [
            [
                order.pai_gow_of[joker_key(ranks, suited, rules.wheel_second, rules.five_aces_top)]
                if not suited or len(set(ranks)) == 4
                else 0
                for ranks in quads
            ]
            for suited in (False, True)
        ],
        dtype=np.int32,
    )[:, by_code]
    partial = Tables(
        pai_gow_of,
        category,
        joker_codes[by_code],
        joker_keys,
        *([np.zeros(0, dtype=np.int64)] * 11),  # type: ignore[arg-type]
    )

    # Rank classes: seven real cards, or six and the joker; plans from the house way.
    classes = [(r, False) for r in combinations_with_replacement(range(13), 7) if _fits(r, 4)]
    classes += [(r, True) for r in combinations_with_replacement(range(13), 6) if _fits(r, 4)]
    reps = np.array(
        [[rank * 4 + i % 4 for i, rank in enumerate(r)] + [JOKER] * j for r, j in classes],
        dtype=np.int64,
    )
    codes = rank_codes(reps)
    by_class = np.argsort(codes)
    plans = [plan_of(way, _pattern(r, j)) for r, j in classes]
    target = np.array([low_key_of_ranks(*p.low) for p in plans], dtype=np.int32)
    straight = np.array([p.straight_flush for p in plans], dtype=bool)
    partial = partial._replace(
        class_codes=codes[by_class],
        class_target=target[by_class],
        class_straight=straight[by_class],
    )
    _, high, low = choose(partial, reps[by_class])
    counts = np.zeros((len(classes), 13), dtype=np.int64)
    for index, (ranks, _joker) in enumerate(classes):
        for rank in ranks:
            counts[index, rank] += 1
    partial = partial._replace(
        class_counts=counts[by_class],
        class_joker=np.array([j for _, j in classes], dtype=bool)[by_class],
        class_bins=high.astype(np.int64) * NUM_LOW_KEYS + low,
    )

    # Flush classes: k ranks of the flush suit (suit 0 here) and the rest in other suits, every
    # suited rank set crossed with every multiset of the other ranks.
    parts = []
    for joker in (False, True):
        for size in (4, 5, 6) if joker else (5, 6, 7):
            suited = np.array(list(combinations(range(13), size)), dtype=np.int64)
            rest = 7 - int(joker) - size
            others = [o for o in combinations_with_replacement(range(13), rest) if _fits(o, 3)]
            other_cards = np.array(
                [[r * 4 + 1 + o[:i].count(r) for i, r in enumerate(o)] for o in others],
                dtype=np.int64,
            ).reshape(len(others), rest)
            counts = np.array([[o.count(r) for r in range(13)] for o in others], dtype=np.int64)
            reps = np.concatenate(
                [
                    np.repeat(suited * 4, len(others), axis=0),
                    np.tile(other_cards, (len(suited), 1)),
                    np.full((len(suited) * len(others), int(joker)), JOKER, dtype=np.int64),
                ],
                axis=1,
            )
            masks = np.repeat((np.int64(1) << suited).sum(axis=1), len(others))
            parts.append((np.sort(reps, axis=1), masks, np.tile(counts, (len(suited), 1)), joker))
    flush_reps = np.concatenate([reps for reps, _, _, _ in parts])
    suited_masks = np.concatenate([masks for _, masks, _, _ in parts])
    other_counts = np.concatenate([counts for _, _, counts, _ in parts])
    jokers = np.concatenate([np.full(len(masks), joker) for _, masks, _, joker in parts])
    _, high, low = choose(partial, flush_reps)
    flush_class = np.searchsorted(partial.class_codes, rank_codes(flush_reps))
    return partial._replace(
        flush_suited=suited_masks,
        flush_counts=other_counts,
        flush_joker=jokers.astype(bool),
        flush_bins=high.astype(np.int64) * NUM_LOW_KEYS + low,
        flush_class_bins=partial.class_bins[flush_class],
    )


def _fits(ranks: Sequence[int], most: int) -> bool:
    """Whether no rank of a sorted rank tuple repeats more than ``most`` times."""
    return all(ranks[i] != ranks[i + most] for i in range(len(ranks) - most))


def _pattern(ranks: Sequence[int], joker: bool) -> tuple[int, ...]:
    counts = [ranks.count(r) for r in range(13)]
    counts[12] += joker
    return tuple(counts)


def high_keys(t: Tables, five: NDArray[np.int64]) -> NDArray[np.int32]:
    """The high key of every row of five cards, sorted, the joker (52) last."""
    import numpy as np

    from handsolver.models.poker_batch import rank_hands

    out = np.empty(len(five), dtype=np.int32)
    joker = five[:, 4] == JOKER
    plain = ~joker
    if plain.any():
        out[plain] = t.pai_gow_of[rank_hands(five[plain])]
    if joker.any():
        real = five[joker, :4]
        suits = real & 3
        suited = (suits == suits[:, :1]).all(axis=1)
        index = np.searchsorted(t.joker_codes, rank_codes(real))
        out[joker] = t.joker_keys[suited.astype(np.intp), index]
    return out


def low_keys(first: NDArray[np.int64], second: NDArray[np.int64]) -> NDArray[np.int64]:
    """The low key of two columns of cards, the first no higher than the second."""
    import numpy as np

    a = np.minimum(first >> 2, 12)  # the joker (52) is an ace
    b = np.minimum(second >> 2, 12)
    keys: NDArray[np.int64] = np.where(a == b, 169 + a, b * 13 + a)
    return keys


def choose(
    t: Tables, hands: NDArray[np.int64]
) -> tuple[NDArray[np.intp], NDArray[np.int32], NDArray[np.int64]]:
    """The house way for rows of seven cards sorted increasing (the joker, 52, last): the index
    into :data:`LOW_POSITIONS` of the low hand, and the high and low keys."""
    import numpy as np

    parts = [_choose(t, hands[i : i + _CHUNK]) for i in range(0, len(hands), _CHUNK)]
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return empty.astype(np.intp), empty.astype(np.int32), empty
    choice, high, low = (np.concatenate(column) for column in zip(*parts, strict=True))
    return choice, high, low


def _choose(
    t: Tables, hands: NDArray[np.int64]
) -> tuple[NDArray[np.intp], NDArray[np.int32], NDArray[np.int64]]:
    import numpy as np

    index = np.searchsorted(t.class_codes, rank_codes(hands))
    target = t.class_target[index][:, None]
    high = np.stack([high_keys(t, hands[:, list(cols)]) for cols in HIGH_POSITIONS], axis=1)
    low = np.stack([low_keys(hands[:, i], hands[:, j]) for i, j in LOW_POSITIONS], axis=1)
    straight = np.isin(t.category[high], list(STRAIGHT_CATEGORIES))
    play_straight = t.class_straight[index] & straight.any(axis=1)
    score = np.where(
        play_straight[:, None],
        np.where(straight, low * NUM_HIGH_KEYS + high, -1),
        np.where(low == target, high, -1),
    )
    choice = score.argmax(axis=1)
    rows = np.arange(len(hands))
    return choice, high[rows, choice], low[rows, choice]


class Dealt(NamedTuple):
    """House-way settings of many hands: each hand's high and low cards in its own order."""

    high: tuple[tuple[Card, ...], ...]
    low: tuple[tuple[Card, ...], ...]
    high_key: tuple[int, ...]
    low_key: tuple[int, ...]


def house_way_batch(
    hands: Sequence[Sequence[Card]], way: HouseWay = TRUMP_PLAZA, rules: Rules = DEFAULT_RULES
) -> Dealt:
    """The house-way setting of every hand (seven distinct cards each, the joker as 52).

    >>> from handsolver.models.paigow import parse_hand
    >>> hands = [parse_hand("6h 6d 3c 3s Ah 9d 8c"), parse_hand("Kh Kd 7c 7s Ah 4d 3c")]
    >>> dealt = house_way_batch([hand.cards for hand in hands])
    >>> [(h.format(high), h.format(low)) for h, high, low in zip(hands, dealt.high, dealt.low)]
    [('6h 6d 3c 3s 8c', 'Ah 9d'), ('Kh Kd Ah 4d 3c', '7c 7s')]
    """
    import numpy as np

    if not hands:
        return Dealt((), (), (), ())
    high, low, high_key, low_key = house_way_arrays(np.array(hands, dtype=np.int64), way, rules)
    return Dealt(
        tuple(map(tuple, high.tolist())),
        tuple(map(tuple, low.tolist())),
        tuple(high_key.tolist()),
        tuple(low_key.tolist()),
    )


def house_way_arrays(
    cards: NDArray[np.int64], way: HouseWay = TRUMP_PLAZA, rules: Rules = DEFAULT_RULES
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int32], NDArray[np.int64]]:
    """:func:`house_way_batch` on an array of hands (rows of seven cards): the high cards
    (N x 5) and low cards (N x 2), each in the hand's order, and their keys."""
    in_low, high_key, low_key = house_way_mask(cards, way, rules)
    # Boolean selection keeps the row-major order, so each hand keeps its own card order.
    high = cards[~in_low].reshape(len(cards), 5)
    low = cards[in_low].reshape(len(cards), 2)
    return high, low, high_key, low_key


def house_way_mask(
    cards: NDArray[np.int64], way: HouseWay = TRUMP_PLAZA, rules: Rules = DEFAULT_RULES
) -> tuple[NDArray[np.bool_], NDArray[np.int32], NDArray[np.int64]]:
    """The house way for rows of seven cards in any order: which positions go low, and the
    high and low keys."""
    import numpy as np

    order = np.argsort(cards, axis=1, kind="stable")
    sorted_cards = np.take_along_axis(cards, order, axis=1)
    choice, high_key, low_key = choose(tables(way, rules), sorted_cards)
    low_positions = np.take_along_axis(order, np.array(LOW_POSITIONS)[choice], axis=1)
    in_low = np.zeros(cards.shape, dtype=bool)
    np.put_along_axis(in_low, low_positions, True, axis=1)
    return in_low, high_key, low_key


# --- exact values -----------------------------------------------------------------------------


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
        others = choose_table[per_rank - by_suit[suit], t.flush_counts].prod(axis=1)
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
