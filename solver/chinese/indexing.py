"""Index tables shared by every Chinese poker hand, and keys of a hand's subsets.

A hand is handled by the positions 0..12 of its cards sorted by card, so one set of tables
serves every hand: the 1,287 five-card subsets, the 286 three-card ones and the 72,072
settings as (back, middle, front) subset indices, back major (1,287 backs x 56 middles of the
eight cards left; the front is the rest).  A hand's subsets are keyed in one numpy batch.

>>> from handsolver.models.cards import parse_cards
>>> hand = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d")
>>> index = setting_index(hand, setting_of_text("7d 6c 5c | 9h 9d 9c 2h 2d | As Ks Qs Js Ts"))
>>> setting_cards(hand, index)[0] == tuple(parse_cards("As Ks Qs Js Ts"))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any, NamedTuple

from handsolver.models.cards import Card, InputError, parse_deal
from handsolver.models.chinese import (
    BACK,
    HAND_SIZE,
    MIDDLE,
    NUM_SETTINGS,
    front_order_table,
    setting_of,
)
from handsolver.models.split import Setting

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

NUM_FIVES = comb(HAND_SIZE, 5)  # 1,287
MIDDLES_PER_BACK = comb(HAND_SIZE - 5, 5)  # 56


class Layout(NamedTuple):
    """Position tables shared by every hand (positions 0..12 of the sorted hand)."""

    fives: NDArray[np.intp]
    """(1287, 5): the five-card subsets, lexicographic."""
    threes: NDArray[np.intp]
    """(286, 3): the three-card subsets, lexicographic."""
    back: NDArray[np.intp]
    """(72072,): the back's five index of each setting; settings are back major."""
    middle: NDArray[np.intp]
    """(72072,): the middle's five index."""
    front: NDArray[np.intp]
    """(72072,): the front's three index."""
    index_of: NDArray[np.int32]
    """(1287, 1287): the setting of a (back, middle) pair of five indices, -1 if they overlap."""


@cache
def layout() -> Layout:
    """The tables, built once (a few milliseconds).

    >>> tables = layout()
    >>> tables.back.shape, int(tables.index_of[tables.back[100], tables.middle[100]])
    ((72072,), 100)
    """
    import numpy as np

    full = (1 << HAND_SIZE) - 1
    fives = np.array(list(combinations(range(HAND_SIZE), 5)), dtype=np.intp)
    threes = np.array(list(combinations(range(HAND_SIZE), 3)), dtype=np.intp)
    five_of_mask = np.full(1 << HAND_SIZE, -1, dtype=np.intp)
    five_of_mask[(1 << fives).sum(axis=1)] = np.arange(len(fives))
    three_of_mask = np.full(1 << HAND_SIZE, -1, dtype=np.intp)
    three_of_mask[(1 << threes).sum(axis=1)] = np.arange(len(threes))
    back_masks = (1 << fives).sum(axis=1)
    rests = np.array(
        [[p for p in range(HAND_SIZE) if not mask >> p & 1] for mask in back_masks.tolist()],
        dtype=np.intp,
    )
    picks = np.array(list(combinations(range(HAND_SIZE - 5), 5)), dtype=np.intp)
    middle_masks = (1 << rests[:, picks]).sum(axis=2)  # (1287, 56)
    front_masks = full ^ back_masks[:, None] ^ middle_masks
    back = np.repeat(np.arange(len(fives)), MIDDLES_PER_BACK)
    middle = five_of_mask[middle_masks].ravel()
    front = three_of_mask[front_masks].ravel()
    index_of = np.full((len(fives), len(fives)), -1, dtype=np.int32)
    index_of[back, middle] = np.arange(NUM_SETTINGS, dtype=np.int32)
    return Layout(fives, threes, back, middle, front, index_of)


class Keys(NamedTuple):
    """Keys of every subset of one or many hands (leading axis: the hand)."""

    five: NDArray[np.int32]
    """(..., 1287): poker keys of the five-card subsets."""
    front: NDArray[np.int32]
    """(..., 286): front keys of the three-card subsets."""
    front_order: NDArray[np.int32]
    """(..., 286): the fronts on the 5-card scale, for the order rule."""


def hand_keys(hands: NDArray[Any]) -> Keys:
    """Keys for hands given as rows of 13 sorted cards, all in a few numpy batches."""
    import numpy as np

    from handsolver.models.poker_batch import rank_hands

    tables = layout()
    # One byte a card: the subsets' gathered copy is thirteen times the hands, in memory bound.
    hands = np.asarray(hands, dtype=np.uint8)
    count = hands.shape[0]
    subsets = hands.take(tables.fives.ravel(), axis=1)  # C-ordered, unlike hands[:, fives]
    five = rank_hands(subsets.reshape(-1, 5)).reshape(count, NUM_FIVES)
    front, order = front_keys(hands[:, tables.threes])
    return Keys(five.astype(np.int32), front, order)


def front_keys(threes: NDArray[Any]) -> tuple[NDArray[np.int32], NDArray[np.int32]]:
    """Front keys and front order keys of three-card rows (last axis: the three cards)."""
    import numpy as np

    ranks = np.sort(np.asarray(threes, dtype=np.intp) >> 2, axis=-1)  # increasing
    low, mid, high = ranks[..., 0], ranks[..., 1], ranks[..., 2]
    # A pair below its kicker counts first: (pair, pair, kicker).
    pair_low = (high != mid) & (mid == low)
    first = np.where(pair_low, mid, high)
    third = np.where(pair_low, high, low)
    category = 2 - (high != mid).astype(np.intp) - (mid != low)
    front = (category * 13**3 + first * 169 + mid * 13 + third).astype(np.int32)
    order = np.asarray(front_order_table(), dtype=np.int32)[front]
    return front, order


def legal_mask(keys: Keys) -> NDArray[np.bool_]:
    """Which of the 72,072 settings of one hand keep back >= middle >= front."""
    tables = layout()
    back, middle = keys.five[tables.back], keys.five[tables.middle]
    legal: NDArray[np.bool_] = (back >= middle) & (middle >= keys.front_order[tables.front])
    return legal


def setting_cards(hand: Sequence[Card], index: int) -> Setting:
    """The setting with this index, as cards: parts in the engine's order (back, middle, front),
    each highest card first."""
    tables = layout()
    cards = sorted(hand)

    def part(positions: NDArray[np.intp]) -> tuple[Card, ...]:
        return tuple(cards[p] for p in reversed(positions.tolist()))  # highest card first

    return (
        part(tables.fives[tables.back[index]]),
        part(tables.fives[tables.middle[index]]),
        part(tables.threes[tables.front[index]]),
    )


def setting_index(hand: Sequence[Card], setting: Setting) -> int:
    """The index of a setting of ``hand`` (the inverse of :func:`setting_cards`).

    :raises InputError: if the setting is not a partition of the hand into 5, 5 and 3 cards.
    """
    tables = layout()
    position = {card: p for p, card in enumerate(sorted(hand))}
    parts = [sorted(position.get(card, -1) for card in part) for part in setting]
    flat = [p for part in parts for p in part]
    if [len(part) for part in parts] != [5, 5, 3] or sorted(flat) != list(range(HAND_SIZE)):
        raise InputError("the setting is not a partition of the hand into 3, 5 and 5 cards")
    fives = {tuple(row): i for i, row in enumerate(tables.fives.tolist())}
    return int(tables.index_of[fives[tuple(parts[BACK])], fives[tuple(parts[MIDDLE])]])


def setting_of_text(text: str) -> Setting:
    """A setting written ``FRONT|MIDDLE|BACK`` (cards in any notation).

    :raises InputError: for a bad card, a repeated card or rows of the wrong sizes.
    """
    deal = parse_deal(text, hand_size=(3, 5))
    sizes = [len(row) for row in deal.hands]
    if sizes != [3, 5, 5]:
        raise InputError(
            f"setting {text.strip()!r} has rows of {','.join(map(str, sizes))} cards; "
            "write FRONT|MIDDLE|BACK with 3, 5 and 5 cards"
        )
    front, middle, back = deal.hands
    return setting_of(front, middle, back)


def check_hand(hand: Sequence[Card]) -> tuple[Card, ...]:
    """The hand sorted, or an error naming its size or its repeated card."""
    if len(hand) != HAND_SIZE:
        raise InputError(f"a hand has {HAND_SIZE} cards, got {len(hand)}")
    if len(set(hand)) != HAND_SIZE:
        raise InputError("a card is given twice in the hand")
    return tuple(sorted(hand))
