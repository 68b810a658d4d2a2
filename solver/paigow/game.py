"""Pai Gow poker as a whole game, exactly: every player hand against every dealer hand.

Over the C(53,7) player hands and the C(46,7) dealer hands each leaves (8,250,459,031,214,400
pairs) it counts the player's wins, pushes and losses, for the player setting by the house way
and for the player setting every hand to its best EV, both against a dealer who sets by the
house way.  Never one pair at a time; the algorithm (docs/paigow.md, "The whole game"):

1. **Player hands by rank class and suit pattern.**  The 67,600 rank classes of seven cards
   (the joker apart) are the jobs.  Inside a class the hands are enumerated up to a permutation
   of the suits, each with its multiplicity (:func:`suit_patterns`): 6,009,159 hands instead
   of 154,143,080.
2. **The dealer without flushes, once per rank class.**  A dealer hand that cannot make a flush
   is set by its ranks, and from the 46 cards a player hand leaves there are
   ``prod_r C(4 - p_r, d_r)`` dealer hands of rank class ``d`` (``p`` the player's rank
   counts), whatever the player's suits.  The counts of dealer classes with high key below
   ``h`` and low key below ``l`` are read from cumulative sums grouped by low key.
3. **The dealer's flushes, once per rank class and suit mask.**  A dealer hand that can make a
   flush has one flush suit ``s``: its cards in ``s`` (a rank set ``F``), at most two cards of
   other suits and perhaps the joker.  Counted as above it sits at its rank class's result;
   the correction moves it to its flush class's result.  For a player hand, the correction of
   suit ``s`` depends only on the ranks the player holds in ``s`` (``m``: ``F`` must avoid
   them) and the player's other cards of the (at most two) other ranks.  So for each rank class
   the flush classes are binned once by (their other ranks among the player's, ``F`` within the
   player's ranks) and by where their two results fall among the class's query keys; a
   subset-sum over the player's ranks then gives the correction for every mask ``m`` at once.
4. **A hand's value** at a setting ``(h, l)`` is the no-flush count plus its four suits'
   corrections.  Best play needs only the settings that can be best: a correction moves at
   most the hand's flush dealer hands, so a setting more than twice that below the best
   no-flush value is never computed exactly (``prune=False`` computes every one).

All counts are Python ints or int64 sums bounded far below 2**63: one class contributes at most
16,384 hands times 53,524,680 dealer hands (< 2**40); EV numerators at most the commission's
denominator (<= 10**9) times 2 * 53,524,680 per hand (< 2**57).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, NamedTuple

from handsolver.models.cards import InputError
from handsolver.models.paigow import (
    DEFAULT_RULES,
    FIVE_ACES,
    JOKER,
    NUM_HIGH_KEYS,
    NUM_LOW_KEYS,
    Rules,
    key_order,
)
from handsolver.models.paigow_houseway import TRUMP_PLAZA, HouseWay
from handsolver.models.poker import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
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
from handsolver.solver.paigow.keys import HIGH_POSITIONS, high_keys, pick, setting_keys
from handsolver.solver.paigow.rank_tables import tables as house_tables

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from handsolver.solver.paigow.keys import Tables

RANK_SYMBOLS = "23456789TJQKA"
MAX_DENOMINATOR = 10**9
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
    counts = t.class_counts
    fits = (counts <= avail).all(axis=1)
    player_classes = np.flatnonzero(fits)

    choose_table = _choose_table()
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
    in_deck &= (t.flush_counts <= (avail - 1).clip(0)).all(axis=1)
    # Those without the joker first: a player holding it meets only those.
    keep = np.flatnonzero(moved & in_deck)
    keep = keep[np.argsort(t.flush_joker[keep], kind="stable")]
    other = t.flush_counts[keep]
    # The (at most two) other cards' ranks, lowest first, -1 where absent.
    listed = np.full((len(keep), 2), -1, dtype=np.int64)
    slot = np.zeros(len(keep), dtype=np.int64)
    for r in range(13):
        for _copy in range(2):
            has = other[:, r] > _copy
            listed[has, np.minimum(slot[has], 1)] = r
            slot += has
    fb, cb = t.flush_bins[keep], t.flush_class_bins[keep]

    order_of = key_order(rules.wheel_second, rules.five_aces_top).poker_of
    foul = _foul_table(order_of)
    hand_type = np.array([_hand_type(p) for p in order_of], dtype=np.int64)
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
        hand_type,
        (commission.numerator, commission.denominator),
    )


@cache
def _choose_table() -> NDArray[np.int64]:
    """C(n, k) for n and k in 0..7."""
    import numpy as np

    return np.array([[math.comb(n, k) for k in range(8)] for n in range(8)], dtype=np.int64)


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


def _hand_type(poker: int) -> int:
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


# --- player hands up to suit permutations ---------------------------------------------------


@cache
def suit_patterns(counts: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The ways to give suits to ranks held ``counts`` times each, up to a permutation of the
    four suits: for each, the suit set (a 4-bit mask) of every rank, and how many hands it
    stands for.

    >>> masks, weights = suit_patterns((1, 1))
    >>> masks, weights  # suited or not
    (((1, 1), (1, 2)), (4, 12))
    >>> sum(suit_patterns((2, 1, 1, 1, 1, 1))[1]) == math.comb(4, 2) * 4**5
    True
    """
    found: list[tuple[tuple[int, ...], int]] = []

    def extend(
        index: int, blocks: tuple[tuple[int, ...], ...], masks: tuple[int, ...], weight: int
    ) -> None:
        if index == len(counts):
            found.append((masks, weight))
            return
        for take in _takes(tuple(len(b) for b in blocks), counts[index]):
            mask, new_blocks, ways = 0, [], weight
            for block, n in zip(blocks, take, strict=True):
                ways *= math.comb(len(block), n)
                for suit in block[:n]:
                    mask |= 1 << suit
                new_blocks += [part for part in (block[:n], block[n:]) if part]
            extend(index + 1, tuple(new_blocks), (*masks, mask), ways)

    extend(0, ((0, 1, 2, 3),), (), 1)
    return tuple(m for m, _ in found), tuple(w for _, w in found)


def _takes(sizes: tuple[int, ...], total: int) -> list[tuple[int, ...]]:
    """Every way to take ``total`` items from blocks of these sizes (counts per block)."""
    if not sizes:
        return [()] if total == 0 else []
    return [
        (n, *rest) for n in range(min(sizes[0], total) + 1) for rest in _takes(sizes[1:], total - n)
    ]


# --- one chunk of rank classes ---------------------------------------------------------------


class HandResults(NamedTuple):
    """Per hand of a chunk (one per suit pattern): the cards (sorted, the joker last), how many
    hands it stands for, its hand-type row, and win/push/loss of the house-way setting and of
    the best setting (indices into LOW_POSITIONS)."""

    cards: NDArray[np.int64]
    weight: NDArray[np.int64]
    hand_type: NDArray[np.int64]
    house: NDArray[np.int64]  # N x 3
    best: NDArray[np.int64]  # N x 3
    house_setting: NDArray[np.int64]
    best_setting: NDArray[np.int64]


class GameJob(NamedTuple):
    """One chunk of player rank classes of one game: small, so it travels to workers cheaply
    (each worker builds the game's tables once)."""

    way: HouseWay
    rules: Rules
    deck: Deck
    classes: tuple[int, ...]


def chunk_counts(job: GameJob) -> list[list[int]]:
    """The table of one chunk of player rank classes: for each row of :data:`HAND_TYPES`, the
    :data:`COLUMNS` counts (hands, and pairs won, pushed, lost by house way and best play)."""
    import numpy as np

    results = hand_results(setup(job.way, job.rules, job.deck), job.classes)
    table = np.zeros((len(HAND_TYPES), len(COLUMNS)), dtype=np.int64)
    w = results.weight
    values = np.column_stack([w, results.house * w[:, None], results.best * w[:, None]])
    np.add.at(table, results.hand_type, values)
    rows: list[list[int]] = table.tolist()
    return rows


def hand_results(s: Setup, classes: Iterable[int], *, prune: bool = True) -> HandResults:
    """Every hand (up to suits) of these player rank classes (indices into the tables' rank
    classes) against every dealer hand its cards leave."""
    import numpy as np

    t = s.tables
    hands, weights, masks, owners, supports = _hands_of(s, classes)
    n = len(hands)
    high32, low = setting_keys(t, hands)
    house_setting = pick(t, hands, high32, low)
    high = high32.astype(np.int64)
    legal = ~s.foul[high, low]
    hand_type = s.hand_type[high.max(axis=1)] if n else np.zeros(0, dtype=np.int64)
    house = np.zeros((n, 3), dtype=np.int64)
    best = np.zeros((n, 3), dtype=np.int64)
    best_setting = np.zeros(n, dtype=np.int64)
    a, b = s.commission
    total = math.comb(bin(s.deck_mask).count("1") * 4 + 1 - 7, 7)
    for start, stop, support in zip(owners[:-1], owners[1:], supports, strict=True):
        rows = slice(start, stop)
        win, loss = _class_values(
            s,
            support,
            hands[start],
            high[rows],
            low[rows],
            legal[rows],
            masks[rows],
            house_setting[rows],
            (a, b),
            prune,
        )
        value = np.where(win >= 0, (b - a) * win - b * loss, np.iinfo(np.int64).min)
        # Best first as `paigow settings` sorts: EV, then the high key, then the low key.
        score = np.stack([value, high[rows], low[rows]], axis=-1)
        chosen = _argmax_lex(score)
        r = np.arange(stop - start)
        best_setting[rows] = chosen
        for target, which in ((best, chosen), (house, house_setting[rows])):
            w, lo = win[r, which], loss[r, which]
            target[rows] = np.column_stack([w, total - w - lo, lo])
    return HandResults(
        hands, weights, hand_type, house, best, house_setting.astype(np.int64), best_setting
    )


def _argmax_lex(score: NDArray[np.int64]) -> NDArray[np.int64]:
    """Per row, the column with the greatest (value, high, low) (the first among equals)."""
    import numpy as np

    value, high, low = score[..., 0], score[..., 1], score[..., 2]
    top = value == value.max(axis=1, keepdims=True)
    high = np.where(top, high, -1)
    top &= high == high.max(axis=1, keepdims=True)
    low = np.where(top, low, -1)
    top &= low == low.max(axis=1, keepdims=True)
    pick: NDArray[np.int64] = top.argmax(axis=1)
    return pick


def _hands_of(
    s: Setup, classes: Iterable[int]
) -> tuple[
    NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], list[int], list[tuple[int, ...]]
]:
    """The suit patterns of each class as sorted 7-card rows, their weights, each hand's ranks
    held in each suit as masks over the class's distinct ranks (N x 4), where each class's rows
    start, and each class's distinct ranks."""
    import numpy as np

    t = s.tables
    rows: list[list[int]] = []
    weights: list[int] = []
    suit_masks: list[list[int]] = []
    owners = [0]
    supports = []
    for index in classes:
        counts = t.class_counts[index]
        joker = bool(t.class_joker[index])
        support = tuple(int(r) for r in np.flatnonzero(counts))
        patterns, ways = suit_patterns(tuple(int(counts[r]) for r in support))
        for pattern, way in zip(patterns, ways, strict=True):
            cards = [
                r * 4 + suit
                for r, m in zip(support, pattern, strict=True)
                for suit in range(4)
                if (m >> suit) & 1
            ]
            rows.append(cards + [JOKER] * joker)
            weights.append(way)
            suit_masks.append(
                [sum(1 << i for i, m in enumerate(pattern) if (m >> suit) & 1) for suit in range(4)]
            )
        owners.append(len(rows))
        supports.append(support)
    return (
        np.array(rows, dtype=np.int64).reshape(len(rows), 7),
        np.array(weights, dtype=np.int64),
        np.array(suit_masks, dtype=np.int64).reshape(len(rows), 4),
        owners,
        supports,
    )


def _class_values(
    s: Setup,
    support: tuple[int, ...],
    hand: NDArray[np.int64],
    high: NDArray[np.int64],
    low: NDArray[np.int64],
    legal: NDArray[np.bool_],
    masks: NDArray[np.int64],
    house_setting: NDArray[np.intp],
    commission: tuple[int, int],
    prune: bool,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Wins and losses (N x 21) of the hands of one rank class against every dealer hand; -1
    where not computed (fouls, and settings that cannot be best unless ``prune`` is off)."""
    import numpy as np

    player = np.zeros(13, dtype=np.int64)
    for card in hand:
        if card != JOKER:
            player[card >> 2] += 1
    joker = bool(hand[-1] == JOKER)
    codes = high * NUM_LOW_KEYS + low
    xs, where = np.unique(codes[legal], return_inverse=True)
    x_index = np.full(codes.shape, -1, dtype=np.int64)
    x_index[legal] = where
    base_win, base_loss = _base_counts(s, player, joker, xs // NUM_LOW_KEYS, xs % NUM_LOW_KEYS)

    flush = _FlushBins(s, support, player, joker)
    n = len(high)
    needed = legal.copy()
    if prune:
        a, b = commission
        base_value = np.where(legal, (b - a) * base_win[x_index] - b * base_loss[x_index], 0)
        floor = np.where(legal, base_value, np.iinfo(np.int64).min).max(axis=1)
        moved = flush.moved_hands()[masks].sum(axis=1)
        needed &= base_value >= (floor - 2 * (2 * b - a) * moved)[:, None]
    needed[np.arange(n), house_setting] = True
    query = np.unique(x_index[needed])
    corr_win, corr_loss = flush.corrections(xs[query] // NUM_LOW_KEYS, xs[query] % NUM_LOW_KEYS)
    slot = np.full(len(xs), -1, dtype=np.int64)
    slot[query] = np.arange(len(query))
    q = slot[np.where(needed, x_index, 0)]
    # Each hand's four suits: its ranks held in the suit pick that suit's correction.
    win = base_win[query][q] + corr_win[masks[:, :, None], q[:, None, :]].sum(axis=1)
    loss = base_loss[query][q] + corr_loss[masks[:, :, None], q[:, None, :]].sum(axis=1)
    win = np.where(needed, win, -1)
    loss = np.where(needed, loss, -1)
    return win, loss


def _base_counts(
    s: Setup,
    player: NDArray[np.int64],
    joker: bool,
    high: NDArray[np.int64],
    low: NDArray[np.int64],
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Dealer hands counted by rank class alone (every one at its rank class's result) with
    high key below and low key below each query, and at or above both."""
    import numpy as np

    choose_table = _choose_table()
    ways = s.base_ways.copy()
    for r in np.flatnonzero(player):
        d = s.base_counts[r]
        # prod_r C(4, d_r) -> C(4 - p_r, d_r) for the player's ranks (C(4, d) divides it).
        ways = ways // choose_table[4, d] * choose_table[4 - player[r], d]
    if joker:
        ways = np.where(s.base_joker, 0, ways)
    cum = np.concatenate([[0], ways.cumsum()])
    start = s.group_start
    # [query, group]: classes of the group with H < h, and the group's bounds in `cum`.
    inside = start[None, :-1] + s.below_high[:, high].T
    below = cum[inside] - cum[start[None, :-1]]
    above = cum[start[None, 1:]] - cum[inside]
    groups = np.arange(NUM_LOW_KEYS)[None, :]
    win = np.where(groups < low[:, None], below, 0).sum(axis=1)
    loss = np.where(groups >= low[:, None], above, 0).sum(axis=1)
    return win, loss


class _FlushBins:
    """The flush corrections of one rank class, binned by what they depend on."""

    def __init__(
        self, s: Setup, support: tuple[int, ...], player: NDArray[np.int64], joker: bool
    ) -> None:
        import numpy as np

        self.k = k = len(support)
        index = slice(0, s.flush_plain if joker else len(s.flush_mask))
        # The flush suit's ranks among the player's, as bits over the player's ranks.
        every = np.arange(1 << 13)
        within = np.zeros(1 << 13, dtype=np.int64)
        for i, r in enumerate(support):
            within |= ((every >> r) & 1) << i
        y = within[s.flush_mask[index]]
        lo, hi = s.flush_low_rank[index], s.flush_high_rank[index]
        code_table, const_table, self.weights = _other_rank_tables(support, player)
        bucket = code_table[lo + 1, hi + 1] * (1 << k) + y
        self.bucket = bucket
        self.const = const_table[lo + 1, hi + 1]
        self.buckets = int(self.weights.shape[0]) << k
        self.points = (
            s.flush_high[index],
            s.flush_low[index],
            s.class_high[index],
            s.class_low[index],
        )

    def moved_hands(self) -> NDArray[np.int64]:
        """For each mask of ranks the player holds in a suit: the dealer hands flushing in that
        suit whose result moves."""
        import numpy as np

        sums = np.bincount(self.bucket, weights=self.const, minlength=self.buckets)
        return self._by_mask(np.rint(sums).astype(np.int64)[:, None])[:, 0]

    def corrections(
        self, high: NDArray[np.int64], low: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """For each mask and query (h, l): the change in wins and in losses when the dealer's
        flush hands in that suit move from their rank class's result to their own."""
        import numpy as np

        hs, hq = np.unique(high, return_inverse=True)
        ls, lq = np.unique(low, return_inverse=True)
        nh, nl = len(hs) + 1, len(ls) + 1
        fh, fl, ch, cl = self.points
        cells = self.buckets * nh * nl
        # Where each key falls among the queries': how many query keys are at most it.
        above_h = np.searchsorted(hs, np.arange(NUM_HIGH_KEYS), "right")
        above_l = np.searchsorted(ls, np.arange(NUM_LOW_KEYS), "right")
        cell_f = (self.bucket * nh + above_h[fh]) * nl + above_l[fl]
        cell_c = (self.bucket * nh + above_h[ch]) * nl + above_l[cl]
        grid = np.bincount(cell_f, weights=self.const, minlength=cells) - np.bincount(
            cell_c, weights=self.const, minlength=cells
        )
        # Whole numbers far below 2**53: exact in float64.
        grid = np.rint(grid).astype(np.int64).reshape(self.buckets, nh, nl)
        prefix = grid.cumsum(axis=1).cumsum(axis=2)
        win = prefix[:, hq, lq]
        loss = prefix[:, -1, -1][:, None] - prefix[:, hq, -1] - prefix[:, -1, lq] + win
        return self._by_mask(win), self._by_mask(loss)

    def _by_mask(self, values: NDArray[np.int64]) -> NDArray[np.int64]:
        """Bucketed sums (code, Y) x Q -> per player mask m: sum over codes of the code's weight
        for m times the sum over Y disjoint from m."""
        import numpy as np

        k = self.k
        z = values.reshape(-1, 1 << k, values.shape[-1]).copy()
        for bit in range(k):
            step = 1 << bit
            view = z.reshape(z.shape[0], -1, 2 * step, z.shape[-1])
            view[:, :, step:, :] += view[:, :, :step, :]
        full = (1 << k) - 1
        complement = full ^ np.arange(1 << k)
        result: NDArray[np.int64] = np.einsum("cm,cmq->mq", self.weights, z[:, complement, :])
        return result


def _other_rank_tables(
    support: tuple[int, ...], player: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """How a flush class's other cards (ranks lo <= hi, -1 absent) weigh for this rank class:
    a code for the part among the player's ranks, a constant factor for the rest, and for each
    code and player mask m (ranks held in the flush suit) the factor of the part among them."""
    import numpy as np

    k = len(support)
    place = {r: i for i, r in enumerate(support)}
    codes: dict[tuple[int, ...], int] = {(): 0}
    code_table = np.zeros((14, 14), dtype=np.int64)
    const_table = np.zeros((14, 14), dtype=np.int64)
    for lo in range(-1, 13):
        for hi in range(-1, 13):
            if (lo < 0 <= hi) or 0 <= hi < lo:
                continue  # one other card is (rank, -1); two are lowest first
            cards = [r for r in (lo, hi) if r >= 0]
            inside = tuple(place[r] for r in cards if r in place)
            outside = [r for r in cards if r not in place]
            const = (
                math.comb(3, len(outside))
                if len(set(outside)) == 1 and len(outside) == 2
                else 3 ** len(outside)
            )
            codes.setdefault(inside, len(codes))
            code_table[lo + 1, hi + 1] = codes[inside]
            const_table[lo + 1, hi + 1] = const
    weights = np.zeros((len(codes), 1 << k), dtype=np.int64)
    left = [3 - int(player[r]) for r in support]  # the player's ranks left in the other suits
    for inside, code in codes.items():
        for m in range(1 << k):
            value = 1
            for i in set(inside):
                n = left[i] + ((m >> i) & 1)
                value *= math.comb(n, inside.count(i)) if n >= 0 else 0
            weights[code, m] = value
    return code_table, const_table, weights


# --- the whole game --------------------------------------------------------------------------


class Outcome(NamedTuple):
    """Pairs the player wins, pushes and loses, and the EV per hand with the commission."""

    win: int
    push: int
    loss: int
    ev: Fraction


class GameResult(NamedTuple):
    """The whole game for one house way, rule switches and deck."""

    way: str
    rules: Rules
    deck: Deck
    pairs: int
    house_way: Outcome
    best: Outcome
    rows: dict[str, tuple[int, ...]]  # hand type -> COLUMNS counts

    @property
    def frequencies(self) -> dict[str, int]:
        out = dict.fromkeys(CATEGORIES, 0)
        for name, row in self.rows.items():
            out[hand_type_category(name)] += row[0]
        return out


def outcome(win: int, push: int, loss: int, commission: Fraction) -> Outcome:
    total = win + push + loss
    ev = (win * (1 - commission) - loss) / total if total else Fraction(0)
    return Outcome(win, push, loss, ev)


CHUNK_CLASSES = 256


def game_jobs(
    way: HouseWay, rules: Rules, deck: Deck = FULL_DECK, size: int = CHUNK_CLASSES
) -> list[GameJob]:
    """The player's rank classes in deterministic chunks (the unit of work and of checkpoints):
    the same chunks whatever runs them."""
    classes = [int(c) for c in setup(way, rules, deck).player_classes]
    return [
        GameJob(way, rules, deck, tuple(classes[i : i + size]))
        for i in range(0, len(classes), size)
    ]


def combine(
    way: HouseWay, rules: Rules, deck: Deck, tables_by_chunk: Iterable[Sequence[Sequence[int]]]
) -> GameResult:
    """Sum chunk tables (Python ints: exact) into the game's result."""
    sums = [[0] * len(COLUMNS) for _ in HAND_TYPES]
    for table in tables_by_chunk:
        for row, values in zip(sums, table, strict=True):
            for i, v in enumerate(values):
                row[i] += int(v)
    columns = [sum(row[i] for row in sums) for i in range(len(COLUMNS))]
    return GameResult(
        way.name,
        rules,
        deck,
        deck.pairs,
        outcome(columns[1], columns[2], columns[3], rules.commission),
        outcome(columns[4], columns[5], columns[6], rules.commission),
        {name: tuple(row) for name, row in zip(HAND_TYPES, sums, strict=True)},
    )


def whole_game(
    way: HouseWay = TRUMP_PLAZA, rules: Rules = DEFAULT_RULES, deck: Deck = FULL_DECK
) -> GameResult:
    """The whole game in this process (tests and small decks; the command spreads it)."""
    return combine(way, rules, deck, map(chunk_counts, game_jobs(way, rules, deck)))


def rank_pattern_count() -> int:
    """How many 7-card rank classes there are (with the joker apart): 67,600."""
    plain = sum(
        1
        for r in combinations_with_replacement(range(13), 7)
        if all(r[i] != r[i + 4] for i in range(3))
    )
    joker = sum(
        1
        for r in combinations_with_replacement(range(13), 6)
        if all(r[i] != r[i + 4] for i in range(2))
    )
    return plain + joker


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
    table = _choose_table()
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

    other = t.flush_counts
    cards = []
    for mask, row, j in zip(t.flush_suited.tolist(), other.tolist(), t.flush_joker, strict=True):
        hand = [r * 4 for r in range(13) if (mask >> r) & 1]
        hand += [r * 4 + 1 + c for r in range(13) for c in range(row[r])]
        cards.append(sorted(hand) + [JOKER] * int(j))
    flush_reps = np.array(cards, dtype=np.int64)
    in_deck = ((t.flush_suited & ~deck_mask) == 0) & (other <= (avail - 1).clip(0)).all(axis=1)
    ways = 4 * table[(avail - 1).clip(0)[None, :], other].prod(axis=1) * in_deck
    flush_type = type_of_key[_best_high(t, flush_reps)]
    rank_class = np.searchsorted(t.class_codes, _rank_codes(flush_reps))
    np.add.at(counts, flush_type, ways)
    np.subtract.at(counts, class_type[rank_class], ways)
    return {name: int(n) for name, n in zip(CATEGORIES, counts, strict=True)}


def _rank_codes(hands: NDArray[np.int64]) -> NDArray[np.int64]:
    from handsolver.solver.paigow.keys import rank_codes

    return rank_codes(hands)


def _best_high(t: Tables, hands: NDArray[np.int64]) -> NDArray[np.int64]:
    """The strongest high key among the 21 five-card parts of each sorted row."""
    import numpy as np

    best = np.zeros(len(hands), dtype=np.int64)
    for cols in HIGH_POSITIONS:
        best = np.maximum(best, high_keys(t, hands[:, list(cols)]))
    return best


def _category_row(poker: int) -> int:
    """The index in :data:`CATEGORIES` of a poker key (royal flush apart)."""
    row = _hand_type(poker)
    return CATEGORIES.index(hand_type_category(HAND_TYPES[row]))
