"""Keys of many settings at once, and the choice among them: the 21 settings of every hand
keyed together (tables of high keys by the multiset of the high hand's ranks, numbered densely
by :func:`multiset_index`, and by rank set for flushes), and the plan of each hand's rank class
picking one.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, NamedTuple

from handsolver.models.paigow import HAND_SIZE, JOKER, NUM_HIGH_KEYS, STRAIGHT_CATEGORIES

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


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
    joker_keys: NDArray[np.int32]  # [unsuited, suited] x multiset_index(4 ranks) -> high key
    five_keys: NDArray[np.int32]  # multiset_index(5 ranks) -> high key when not a flush
    flush_keys: NDArray[np.int32]  # 13-bit mask of five ranks -> high key of that flush
    class_codes: NDArray[np.int64]  # sorted rank-class codes of seven cards (the class order)
    class_of: NDArray[np.int32]  # class_index(seven cards) -> index into class_codes
    class_counts: NDArray[np.int8]  # class -> 13 rank counts (real cards)
    class_joker: NDArray[np.bool_]
    class_target: NDArray[np.int32]  # class -> the plan's low key
    class_straight: NDArray[np.bool_]  # class -> plan plays a straight/flush when it can
    class_unless: NDArray[np.bool_]  # class -> ... only when it leaves a low at least the plan's
    class_by_cards: NDArray[np.bool_]  # class -> ... the highest two cards low, pair or not
    class_bins: NDArray[np.int64]  # class -> H * NUM_LOW_KEYS + L without a flush
    flush_suited: NDArray[np.int64]  # flush class -> 13-bit mask of the flush suit's ranks
    flush_others: NDArray[np.int8]  # flush class -> its other cards' ranks (2, -1 absent)
    flush_joker: NDArray[np.bool_]
    flush_bins: NDArray[np.int64]  # flush class -> its (H, L) bin
    flush_class_bins: NDArray[np.int64]  # flush class -> its rank class's bin


def rank_codes(hands: NDArray[np.int64]) -> NDArray[np.int64]:
    """The rank-class code of each row: 3-bit rank counts of the real cards, the joker flag.
    It orders the rank classes (``Tables.class_codes``); lookups go by :func:`class_index`."""
    import numpy as np

    weights = np.append(np.int64(1) << (_RANK_WEIGHT_BITS * np.arange(13)), 0).astype(np.int64)
    card_weight = np.append(weights[np.arange(52) >> 2], _JOKER_FLAG)
    codes: NDArray[np.int64] = card_weight[hands].sum(axis=1)
    return codes


@cache
def _binomials() -> NDArray[np.int32]:
    """C(n, k) for n < 20 and k < 8: every term :func:`multiset_index` adds."""
    import numpy as np

    return np.array([[comb(n, k) for k in range(8)] for n in range(20)], dtype=np.int32)


def multiset_index(ranks: NDArray[np.int64]) -> NDArray[np.int32]:
    """The position of each row of k ranks (0-12, in increasing order, repeats allowed) among
    all C(12 + k, k) such rows: the sum of C(r_i + i, i + 1) over the row, which is the
    combinatorial number system applied to the strictly increasing r_i + i.  Dense, so a table
    of that length is looked up in one step.

    >>> import numpy as np
    >>> multiset_index(np.array([[0, 0, 0, 0, 0], [0, 0, 0, 0, 1], [12, 12, 12, 12, 12]])).tolist()
    [0, 1, 6187]
    """
    import numpy as np

    columns = np.arange(ranks.shape[1])
    index: NDArray[np.int32] = _binomials()[ranks + columns, columns + 1].sum(axis=1)
    return index


NUM_CLASS_INDICES = comb(19, 7) + comb(18, 6)
"""The range of :func:`class_index`: seven ranks, then six ranks and the joker."""


def class_index(hands: NDArray[np.int64]) -> NDArray[np.int32]:
    """A dense number for the rank class of each row of seven cards sorted increasing (the
    joker, 52, last): :func:`multiset_index` of the seven ranks, or past all of those, of the
    six real ranks.  ``Tables.class_of`` maps it to the class's place in ``class_codes``."""
    import numpy as np

    joker = hands[:, 6] == JOKER
    ranks = np.minimum(hands >> 2, 12)  # the joker's column only counts in joker-free rows
    index = multiset_index(ranks)
    if joker.any():
        index[joker] = comb(19, 7) + multiset_index(ranks[joker, :6])
    return index


def high_keys(t: Tables, five: NDArray[np.int64]) -> NDArray[np.int32]:
    """The high key of every row of five cards, sorted, the joker (52) last."""
    import numpy as np

    out = np.empty(len(five), dtype=np.int32)
    joker = five[:, 4] == JOKER
    plain = ~joker
    if plain.any():
        cards = five[plain]
        keys = t.five_keys[multiset_index(cards >> 2)]
        suits = cards & 3
        suited = (suits == suits[:, :1]).all(axis=1)
        if suited.any():
            masks = (np.int64(1) << (cards[suited] >> 2)).sum(axis=1)
            keys[suited] = t.flush_keys[masks]
        out[plain] = keys
    if joker.any():
        real = five[joker, :4]
        suits = real & 3
        suited = (suits == suits[:, :1]).all(axis=1)
        out[joker] = t.joker_keys[suited.astype(np.intp), multiset_index(real >> 2)]
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

    high, low = setting_keys(t, hands)
    choice = pick(t, hands, high, low)
    rows = np.arange(len(hands))
    return choice, high[rows, choice], low[rows, choice]


def setting_keys(
    t: Tables, hands: NDArray[np.int64]
) -> tuple[NDArray[np.int32], NDArray[np.int64]]:
    """The high and low keys (N x 21, in :data:`LOW_POSITIONS` order) of every setting of rows
    of seven cards sorted increasing (the joker, 52, last).

    All 21 high hands at once: the terms of :func:`multiset_index` are looked up once per card
    and place, and each setting adds its own five, place by place.  A high hand holding the
    joker (its last position is 6 in a row with the joker) is keyed by its four real cards;
    only rows with enough cards of one suit are checked for flushes."""
    import numpy as np

    positions = np.array(HIGH_POSITIONS)  # 21 x 5, increasing
    places = np.arange(5)
    ranks = np.minimum(hands >> 2, 12)  # the joker's terms are computed but never used
    terms = _binomials()[ranks[:, :, None] + places, places + 1]  # N x 7 x 5
    four = terms[:, positions[:, 0], 0]  # N x 21
    for place in range(1, 4):
        four += terms[:, positions[:, place], place]
    high = t.five_keys[four + terms[:, positions[:, 4], 4]]
    joker = hands[:, 6] == JOKER
    holds_joker = positions[:, 4] == 6
    if joker.any():
        rows = np.flatnonzero(joker)[:, None]
        high[rows, np.flatnonzero(holds_joker)] = t.joker_keys[0, four[rows, holds_joker]]
    _key_flushes(t, hands, joker, four, high)
    low = np.stack([low_keys(hands[:, i], hands[:, j]) for i, j in LOW_POSITIONS], axis=1)
    return high, low


def _key_flushes(
    t: Tables,
    hands: NDArray[np.int64],
    joker: NDArray[np.bool_],
    four: NDArray[np.int32],
    high: NDArray[np.int32],
) -> None:
    """Rekey in ``high`` the settings whose high hand is a flush (five real cards of a suit,
    or four and the joker), looking only at rows that hold enough cards of one suit."""
    import numpy as np

    suits = hands & 3
    real = hands != JOKER
    most = ((suits[:, :, None] == np.arange(4)) & real[:, :, None]).sum(axis=1).max(axis=1)
    rows = np.flatnonzero(most >= 5 - joker)
    if not len(rows):
        return
    positions = np.array(HIGH_POSITIONS)
    suits, bits = suits[rows], np.int32(1) << (hands[rows] >> 2)  # the joker's bit is 13
    first = suits[:, positions[:, 0]]  # M x 21, and so on place by place
    suited4 = np.ones(first.shape, dtype=bool)
    masks = bits[:, positions[:, 0]]
    for place in range(1, 4):
        suited4 &= suits[:, positions[:, place]] == first
        masks += bits[:, positions[:, place]]
    masks += bits[:, positions[:, 4]]
    with_joker = joker[rows, None] & (positions[:, 4] == 6)
    flush5 = suited4 & (suits[:, positions[:, 4]] == first) & ~with_joker
    flush4 = suited4 & with_joker
    sub = high[rows]
    sub[flush5] = t.flush_keys[masks[flush5]]
    sub[flush4] = t.joker_keys[1, four[rows][flush4]]
    high[rows] = sub


def pick(
    t: Tables, hands: NDArray[np.int64], high: NDArray[np.int32], low: NDArray[np.int64]
) -> NDArray[np.intp]:
    """The house way's setting (an index into :data:`LOW_POSITIONS`) of each row, given the keys
    of its settings (:func:`setting_keys`)."""
    import numpy as np

    index = t.class_of[class_index(hands)]
    target = t.class_target[index][:, None]
    straight = np.isin(t.category, list(STRAIGHT_CATEGORIES))[high]
    # The straight's low hand: by the low-hand order, or by its two cards' ranks (a pair as
    # its rank: 7-7 below A-K) where the plan says so.
    by_cards = t.class_by_cards[index][:, None] & (low >= 169)
    ranked = np.where(by_cards, (low - 169) * 14, low)
    straight_score = np.where(straight, ranked * NUM_HIGH_KEYS + high, -1)
    play_straight = t.class_straight[index] & straight.any(axis=1)
    # A plan that plays the straight or flush only when its low hand is at least the planned one.
    rows = np.arange(len(hands))
    lower = low[rows, straight_score.argmax(axis=1)] < target[:, 0]
    play_straight &= ~(t.class_unless[index] & lower)
    score = np.where(play_straight[:, None], straight_score, np.where(low == target, high, -1))
    choice: NDArray[np.intp] = score.argmax(axis=1)
    return choice
