"""The tables built once per house way and rules: every rank class's and flush class's plan and
keys, the four-card rank classes of a high hand with the joker.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb
from typing import TYPE_CHECKING

from handsolver.models.paigow import (
    DEFAULT_RULES,
    FIVE_ACES_CATEGORY,
    JOKER,
    NUM_HIGH_KEYS,
    NUM_LOW_KEYS,
    Rules,
    joker_key,
    key_order,
    low_key_of_ranks,
)
from handsolver.models.paigow_houseway import TRUMP_PLAZA, HouseWay, plan_of
from handsolver.models.poker import category_index, poker_key
from handsolver.solver.paigow.keys import (
    NUM_CLASS_INDICES,
    Tables,
    choose,
    class_index,
    multiset_index,
    rank_codes,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


def tables(way: HouseWay = TRUMP_PLAZA, rules: Rules = DEFAULT_RULES) -> Tables:
    """The tables for a house way and rule switches: read from the disk cache
    (:mod:`.cache`), else built (a few seconds) and saved there; once per process."""
    # The commission does not change the house way: one build serves every rate.
    return _tables(way, rules.wheel_second, rules.five_aces_top)


@cache
def _tables(way: HouseWay, wheel_second: bool, five_aces_top: bool) -> Tables:
    from handsolver.solver.paigow.cache import cached_arrays

    key = _cache_key(way, wheel_second, five_aces_top)
    arrays = cached_arrays(
        "paigow-tables",
        key,
        lambda: build_tables(way, wheel_second, five_aces_top)._asdict(),
    )
    return Tables(**arrays)


TABLES_FORMAT = 4
"""Bumped whenever what the tables hold changes, so older files on disk are not read."""


def _cache_key(way: HouseWay, wheel_second: bool, five_aces_top: bool) -> dict[str, object]:
    """What cached tables are built from: the house way, the rules, the format and fields."""
    from handsolver.solver.paigow.cache import stable

    return {
        "way": stable(way),
        "wheel_second": wheel_second,
        "five_aces_top": five_aces_top,
        "format": TABLES_FORMAT,
        "fields": list(Tables._fields),
    }


def way_tables(way: HouseWay = TRUMP_PLAZA, rules: Rules = DEFAULT_RULES) -> Tables:
    """Only what the house way needs (keys and every rank class's plan), without the counting
    tables of :func:`tables`: quicker to build or read when hands are only set."""
    return _way_tables(way, rules.wheel_second, rules.five_aces_top)


@cache
def _way_tables(way: HouseWay, wheel_second: bool, five_aces_top: bool) -> Tables:
    from handsolver.solver.paigow.cache import cached_arrays

    key = _cache_key(way, wheel_second, five_aces_top)
    arrays = cached_arrays(
        "paigow-way-tables",
        key,
        lambda: {
            k: v
            for k, v in build_way_tables(way, wheel_second, five_aces_top)._asdict().items()
            if len(v)
        },
    )
    empty = _empty_tables()
    return empty._replace(**arrays)


def _empty_tables() -> Tables:
    import numpy as np

    return Tables(*([np.zeros(0, dtype=np.int64)] * len(Tables._fields)))  # type: ignore[arg-type]


def _rank_classes() -> list[tuple[tuple[int, ...], bool]]:
    """The rank classes: seven real cards, or six and the joker."""
    classes = [(r, False) for r in combinations_with_replacement(range(13), 7) if _fits(r, 4)]
    classes += [(r, True) for r in combinations_with_replacement(range(13), 6) if _fits(r, 4)]
    return classes


def build_way_tables(way: HouseWay, wheel_second: bool, five_aces_top: bool) -> Tables:
    """Build the house way's tables (no cache)."""
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
    # Four real cards and the joker, five real cards: a key for every multiset of ranks (the
    # impossible ones, five of a rank, are never looked up).
    quads = list(combinations_with_replacement(range(13), 4))
    joker_keys = np.zeros((2, len(quads)), dtype=np.int32)
    for suited in (False, True):
        joker_keys[int(suited), multiset_index(np.array(quads))] = [
            order.pai_gow_of[joker_key(ranks, suited, rules.wheel_second, rules.five_aces_top)]
            if not suited or len(set(ranks)) == 4
            else 0
            for ranks in quads
        ]
    # Five real cards: by rank class when not suited, by rank set when suited.
    fives = [r for r in combinations_with_replacement(range(13), 5) if _fits(r, 4)]
    five_keys = np.zeros(comb(17, 5), dtype=np.int32)
    five_keys[multiset_index(np.array(fives))] = [
        order.pai_gow_of[poker_key(row)]
        for row in _class_reps([(r, False) for r in fives]).tolist()
    ]
    flush_keys = np.zeros(1 << 13, dtype=np.int32)
    for ranks in combinations(range(13), 5):
        flush_keys[sum(1 << r for r in ranks)] = order.pai_gow_of[poker_key([r * 4 for r in ranks])]

    # Rank classes, plans from the house way.
    classes = _rank_classes()
    reps = _class_reps(classes)
    codes = rank_codes(reps)
    by_class = np.argsort(codes)
    plans = [plan_of(way, _pattern(r, j)) for r, j in classes]
    target = np.array([low_key_of_ranks(*p.low) for p in plans], dtype=np.int32)
    straight = np.array([p.straight_flush for p in plans], dtype=bool)
    unless = np.array([p.unless_lower for p in plans], dtype=bool)
    by_cards = np.array([p.by_cards for p in plans], dtype=np.bool_)
    class_of = np.full(NUM_CLASS_INDICES, -1, dtype=np.int32)
    class_of[class_index(reps[by_class])] = np.arange(len(classes), dtype=np.int32)
    return _empty_tables()._replace(
        pai_gow_of=pai_gow_of,
        category=category,
        joker_keys=joker_keys,
        five_keys=five_keys,
        flush_keys=flush_keys,
        class_codes=codes[by_class],
        class_of=class_of,
        class_target=target[by_class],
        class_straight=straight[by_class],
        class_unless=unless[by_class],
        class_by_cards=by_cards[by_class],
    )


def _class_reps(classes: list[tuple[tuple[int, ...], bool]]) -> NDArray[np.int64]:
    """A hand of each rank class that cannot make a flush (no three cards of a suit)."""
    import numpy as np

    return np.array(
        [[rank * 4 + i % 4 for i, rank in enumerate(r)] + [JOKER] * j for r, j in classes],
        dtype=np.int64,
    )


def build_tables(way: HouseWay, wheel_second: bool, five_aces_top: bool) -> Tables:
    """Build the counting tables on the house way's (no cache)."""
    import numpy as np

    partial = _way_tables(way, wheel_second, five_aces_top)
    classes = _rank_classes()
    reps = _class_reps(classes)
    by_class = np.argsort(rank_codes(reps))
    _, high, low = choose(partial, reps[by_class])
    counts = np.zeros((len(classes), 13), dtype=np.int64)
    for index, (ranks, _joker) in enumerate(classes):
        for rank in ranks:
            counts[index, rank] += 1
    partial = partial._replace(
        class_counts=counts[by_class].astype(np.int8),
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
            # The other cards' ranks, lowest first, -1 where absent (at most two).
            counts = np.array([[*o, -1, -1][:2] for o in others], dtype=np.int8)
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
    flush_class = partial.class_of[class_index(flush_reps)]
    return partial._replace(
        flush_suited=suited_masks,
        flush_others=other_counts,
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


def other_ways(t: Tables, left: NDArray[np.int64]) -> NDArray[np.int64]:
    """For every flush class, how many ways its other cards (off the flush suit) can be
    picked when ``left[r]`` cards of rank ``r`` are left in the other suits."""
    import numpy as np

    ways = np.append(left, 1)  # rank -1 (no card) counts once
    low, high = t.flush_others[:, 0].astype(np.intp), t.flush_others[:, 1].astype(np.intp)
    pair = (low == high) & (low >= 0)
    result: NDArray[np.int64] = np.where(
        pair, ways[low] * (ways[low] - 1) // 2, ways[low] * ways[high]
    )
    return result
