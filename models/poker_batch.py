"""Rank many poker hands at once with numpy: the same keys as
:func:`handsolver.models.poker.poker_key`.
Hands are the rows of an integer array of cards (5, 6 or 7 columns; 6 and 7 play their best
five).  Ranks are read through a small automaton: its state after k cards is the multiset of
ranks seen so far (13 states after one card, 49,205 after seven), so every card costs one table
look-up for the whole batch, and the last look-up yields the best key that ignores suits.
Flushes are found apart from ranks: five cards by comparing suits, six or seven by one 13-bit
rank mask per suit and a table of the best flush in each mask.

numpy is imported when a function runs, and the tables are built on first use (about 0.1 s).

>>> from handsolver.models.cards import parse_cards
>>> from handsolver.models.poker import poker_key
>>> hands = [parse_cards("Ah 2c 3d 4s 5h"), parse_cards("Kh Qh 9h 4h 2h")]
>>> rank_hands(hands).tolist() == [poker_key(hand) for hand in hands]
True
>>> rank_hands([parse_cards("Ah Kh Qh Jh 9h 2c Th")]).tolist()
[7461]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, NamedTuple

from handsolver.models.cards import Card, InputError
from handsolver.models.poker import NUM_KEYS, poker_key

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

_RANK_BITS = 3  # per-rank count field in a multiset code; counts stay below 8


class _Tables(NamedTuple):
    # steps[k] maps (state after k+1 cards) * 52 + card to the state after k+2 cards.
    steps: tuple[NDArray[np.int32], ...]
    # last[n] maps (state after n-1 cards) * 52 + card to the best plain key of n cards.
    last: dict[int, NDArray[np.int32]]
    # plain key + NUM_KEYS * is_flush -> the key as played (flush only moves high card, straight).
    flush_of: NDArray[np.int32]
    # 13-bit rank mask of one suit -> best flush key in it, -1 below five cards.
    suit_best: NDArray[np.int32]
    # card -> its rank bit shifted to its suit's 13-bit field.
    suit_bit: NDArray[np.int64]


def _plain_cards(ranks: Sequence[int]) -> list[Card]:
    """Distinct cards of these ranks (at most 4 each) that are not all one suit."""
    cards = []
    for index, rank in enumerate(ranks):
        cards.append(rank * 4 + (ranks[:index].count(rank) + index) % 4)
    return cards


@cache
def _tables() -> _Tables:
    import numpy as np

    weight = np.int64(1) << (_RANK_BITS * np.arange(13, dtype=np.int64))
    card_weight = weight[np.arange(52) >> 2]
    shifts = _RANK_BITS * np.arange(13, dtype=np.int64)

    def counts(codes: NDArray[np.int64]) -> NDArray[np.int64]:
        return (codes[:, None] >> shifts) & 7

    # Sorted multiset codes after 0..7 cards; a state is an index into its level's codes.
    levels = [np.zeros(1, dtype=np.int64)]
    for _ in range(7):
        grown = np.unique(levels[-1][:, None] + weight)
        levels.append(grown[(counts(grown) <= 4).all(axis=1)])

    def step(level: int) -> NDArray[np.int64]:
        # Rank counts never pass 4 with distinct cards; other cells are never read.
        after = levels[level][:, None] + card_weight
        index: NDArray[np.int64] = np.searchsorted(levels[level + 1], after)
        return np.minimum(index, len(levels[level + 1]) - 1).ravel()

    def ranks_of(level: int) -> NDArray[np.int64]:
        codes = levels[level]
        return np.repeat(np.tile(np.arange(13), len(codes)), counts(codes).ravel()).reshape(
            len(codes), level
        )

    five = ranks_of(5)
    key5 = np.array([poker_key(_plain_cards(row)) for row in five.tolist()], dtype=np.int32)

    def best_plain(level: int) -> NDArray[np.int32]:
        ranks = ranks_of(level)
        best = np.zeros(len(ranks), dtype=np.int32)
        for cols in combinations(range(level), 5):
            code = weight[ranks[:, list(cols)]].sum(axis=1)
            best = np.maximum(best, key5[np.searchsorted(levels[5], code)])
        return best

    steps = tuple(step(level).astype(np.int32) for level in range(1, 6))
    last = {n: best_plain(n)[step(n - 1)].astype(np.int32) for n in (5, 6, 7)}

    flush_of = np.arange(2 * NUM_KEYS, dtype=np.int32) % NUM_KEYS
    suit_best = np.full(1 << 13, -1, dtype=np.int32)
    for size in (5, 6, 7):
        for ranks in combinations(range(13), size):
            best = max(poker_key([4 * r for r in sub]) for sub in combinations(ranks, 5))
            suit_best[sum(1 << r for r in ranks)] = best
            if size == 5:
                flush_of[NUM_KEYS + poker_key(_plain_cards(ranks))] = best
    cards = np.arange(52, dtype=np.int64)
    suit_bit = np.int64(1) << (13 * (cards & 3) + (cards >> 2))
    return _Tables(steps, last, flush_of, suit_best, suit_bit)


def rank_hands(cards: ArrayLike) -> NDArray[np.int32]:
    """The key of every row: 5 cards, or the best five of 6 or 7.

    Rows must hold distinct cards (this is not checked; a repeated card gives a meaningless key).

    >>> rank_hands([[0, 1, 2, 3, 4]]).tolist()
    [7296]

    :raises InputError: if the array is not 5 to 7 columns of cards 0..51.
    """
    import numpy as np

    hands = np.asarray(cards)
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= 7:
        raise InputError(f"hands must be rows of 5 to 7 cards, got shape {hands.shape}")
    if hands.size and (hands.min() < 0 or hands.max() > 51):
        raise InputError("cards must be ints 0..51")
    tables = _tables()
    size = hands.shape[1]
    cols = [hands[:, i].astype(np.intp) for i in range(size)]
    state = cols[0] >> 2  # the states after one card are the 13 ranks
    for i in range(1, size - 1):
        state = tables.steps[i - 1][state * 52 + cols[i]]
    key: NDArray[np.int32] = tables.last[size][state * 52 + cols[-1]]
    if size == 5:
        first = cols[0]
        mixed = (first ^ cols[1]) | (first ^ cols[2]) | (first ^ cols[3]) | (first ^ cols[4])
        flush = (mixed & 3) == 0
        played: NDArray[np.int32] = tables.flush_of[key + NUM_KEYS * flush]
        return played
    bits = tables.suit_bit[cols[0]]
    for col in cols[1:]:
        bits = bits | tables.suit_bit[col]
    for suit in range(4):
        key = np.maximum(key, tables.suit_best[(bits >> (13 * suit)) & 0x1FFF])
    return key


def all_hands() -> NDArray[np.uint8]:
    """All 2,598,960 five-card hands, each row increasing, rows in lexicographic order."""
    import numpy as np

    # Build combinations column by column: rows of k cards, each extended by every larger card.
    rows: NDArray[Any] = np.arange(52, dtype=np.uint8)[:, None]
    for _ in range(4):
        last = rows[:, -1].astype(np.intp)
        extra = 51 - last
        repeated = np.repeat(rows, extra, axis=0)
        starts = np.repeat(last + 1 - np.cumsum(extra) + extra, extra)
        new = (np.arange(len(repeated)) + starts).astype(np.uint8)
        rows = np.column_stack([repeated, new])
    return rows
