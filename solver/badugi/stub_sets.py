"""Sets of at most four stub cards, numbered, and key counts over the sets that contain them.

The ``n`` cards of the stub are renamed ``0 .. n-1``.  A set of ``k`` of them is numbered in
colexicographic order, ``c_0 < c_1 < ... -> sum C(c_i, i + 1)``, so the sets of one size fill
``0 .. C(n, k) - 1`` with no gaps and a table over them is a plain array.  The number ``C(n, k)``
itself stands for "no set" (a card added twice); every table keeps a zero row there, so an
impossible set counts nothing and needs no test.

>>> sets = StubSets(6)
>>> sets.counts
(1, 6, 15, 20, 15)
>>> [int(i) for i in set_ids(np.array([[0, 1], [2, 5]]))]
[0, 12]
>>> int(sets.plus[1][2, 5]), int(sets.plus[1][2, 2])  # {2} + 5 = {2, 5}; {2} + 2 is no set
(12, 15)
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from math import comb

import numpy as np

from handsolver.models.badugi import HAND_SIZE


@cache
def _binomials() -> np.ndarray:
    """``C(c, i)`` for cards ``c < 53`` and ``i <= 5``."""
    return np.array([[comb(c, i) for i in range(HAND_SIZE + 2)] for c in range(53)], np.int64)


def set_ids(members: np.ndarray) -> np.ndarray:
    """The number of each row of ascending cards: ``sum C(c_i, i + 1)``."""
    binomials = _binomials()
    out = np.zeros(len(members), dtype=np.int64)
    for i in range(members.shape[1]):
        out += binomials[members[:, i], i + 1]
    return out


class StubSets:
    """Every set of at most four of ``n`` cards, by number, and how to add a card to one.

    ``members[k]``: the sets of ``k`` cards as rows of ascending cards, row ``i`` numbered
    ``i``.  ``plus[k][v, c]``: the number of set ``v`` (of ``k`` cards) with card ``c`` added,
    or "no set" (``C(n, k + 1)``) when ``c`` is in it; row ``C(n, k)`` is all "no set".
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.counts = tuple(comb(n, k) for k in range(HAND_SIZE + 1))
        self.members: list[np.ndarray] = []
        for k in range(HAND_SIZE + 1):
            rows = np.array(list(combinations(range(n), k)), dtype=np.int64).reshape(comb(n, k), k)
            ordered = np.empty_like(rows)
            ordered[set_ids(rows)] = rows
            self.members.append(ordered)
        self.plus = [self._plus(k) for k in range(HAND_SIZE)]

    def _plus(self, k: int) -> np.ndarray:
        binomials = _binomials()
        rows = self.members[k]
        card = np.arange(self.n)
        before = (rows[:, :, None] < card).sum(axis=1)  # where the card goes: (sets, n)
        ids = binomials[card, before + 1]
        for i in range(k):
            shifted = np.where(i < before, i + 1, i + 2)
            ids += binomials[rows[:, i : i + 1], shifted]
        ids[(rows[:, :, None] == card).any(axis=1)] = self.counts[k + 1]
        return np.vstack([ids, np.full((1, self.n), self.counts[k + 1])])

    def add(self, ids: np.ndarray, size: int, cards: np.ndarray) -> np.ndarray:
        """The numbers of sets ``ids`` (of ``size`` cards) with the columns of ``cards`` added
        one by one ("no set" if any card is already in)."""
        for column in range(cards.shape[-1]):
            ids = self.plus[size][ids, cards[..., column]]
            size += 1
        return ids

    def subset_ids(self, k: int, positions: tuple[int, ...]) -> np.ndarray:
        """For every set of ``k`` cards, the number of its subset at ``positions``."""
        return set_ids(self.members[k][:, list(positions)])


def superset_counts(
    sets: StubSets, size: int, ranks: np.ndarray, width: int, above: bool
) -> list[np.ndarray]:
    """For each ``k < size`` a table ``(C(n, k) + 1, width)``: over the sets of ``size`` cards
    containing set ``v``, how many have a rank below ``x`` (or, ``above``, at least ``x``).

    ``ranks`` are the ranks of the sets of ``size`` cards by number, each below ``width - 1``.
    The last row (no set) is zero.
    """
    tables = []
    shift = 0 if above else 1  # "below x" counts the rank at x - 1 and lower
    for k in range(size):
        # A count is at most C(52, 4) < 2**31.  The table is filled in place: a bincount
        # would first build it in int64, twice the memory to fault in (the larger cost here).
        table = np.zeros((sets.counts[k] + 1, width), dtype=np.int32)
        flat = table.reshape(-1)
        for positions in combinations(range(size), k):
            np.add.at(flat, sets.subset_ids(size, positions) * width + ranks + shift, 1)
        running = table[:, ::-1] if above else table
        np.cumsum(running, axis=1, out=running)
        tables.append(table)
    return tables


def beating(table: np.ndarray, ids: np.ndarray, rank: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """From an ``above`` table of :func:`superset_counts`: the sets containing ``ids`` ranked
    above ``rank``, and at least ``rank`` (they win, and win or tie, against it)."""
    flat = table.ravel()
    at = ids * table.shape[1] + rank
    return flat[1:][at], flat[at]


def losing(table: np.ndarray, ids: np.ndarray, rank: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """From a ``below`` table of :func:`superset_counts`: the sets containing ``ids`` ranked
    below ``rank``, and at most ``rank`` (they lose, and lose or tie, against it)."""
    flat = table.ravel()
    at = ids * table.shape[1] + rank
    return flat[at], flat[1:][at]
