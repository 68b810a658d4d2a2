"""The house way for many hands at once, in numpy, from hands given as cards or arrays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from handsolver.models.cards import Card
from handsolver.models.paigow import DEFAULT_RULES, Rules
from handsolver.models.paigow_houseway import TRUMP_PLAZA, HouseWay
from handsolver.solver.paigow.keys import LOW_POSITIONS, choose
from handsolver.solver.paigow.rank_tables import way_tables

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


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
    choice, high_key, low_key = choose(way_tables(way, rules), sorted_cards)
    low_positions = np.take_along_axis(order, np.array(LOW_POSITIONS)[choice], axis=1)
    in_low = np.zeros(cards.shape, dtype=bool)
    np.put_along_axis(in_low, low_positions, True, axis=1)
    return in_low, high_key, low_key
