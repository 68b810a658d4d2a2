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


def colex_sets(n: int, size: int) -> np.ndarray:
    """Every set of ``size`` of the cards ``0 .. n-1`` as rows of ascending cards, row ``i``
    the set numbered ``i``.

    >>> colex_sets(4, 3).tolist()
    [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]
    """
    rows = np.zeros((1, 0), dtype=np.int64)
    while rows.shape[1] < size:
        rows = _grown(rows, n)
    return rows


def _grown(rows: np.ndarray, n: int) -> np.ndarray:
    """The sets of ``k + 1`` of ``n`` cards in colexicographic order, from those of ``k``
    (``rows``, in that order): for each largest card ``t``, the first ``C(t, k)`` rows (the
    sets of ``k`` cards below ``t``) with ``t`` added.

    >>> _grown(np.array([[0], [1], [2]]), 3).tolist()
    [[0, 1], [0, 2], [1, 2]]
    """
    k = rows.shape[1]
    tops = np.arange(k, n)
    sizes = _binomials()[tops, k]
    starts = np.cumsum(sizes) - sizes
    out = np.empty((int(sizes.sum()), k + 1), dtype=np.int64)
    out[:, :k] = rows[np.arange(len(out)) - np.repeat(starts, sizes)]
    out[:, k] = np.repeat(tops, sizes)
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
        self.members = [np.zeros((1, 0), dtype=np.int64)]
        while len(self.members) <= HAND_SIZE:
            self.members.append(_grown(self.members[-1], n))
        self.plus = [self._plus(k) for k in range(HAND_SIZE)]

    def _plus(self, k: int) -> np.ndarray:
        """``plus[k]``: a card ``c`` added to ``v`` goes in after the ``p`` cards of ``v``
        below it, so the number is ``C(c, p + 1)`` plus ``C(c_i, i + 1)`` for the cards
        below and ``C(c_i, i + 2)`` for those above (one place higher)."""
        binomials = _binomials()
        rows, no_set = self.members[k], self.counts[k + 1]
        card = np.arange(self.n)
        before = np.zeros((len(rows), self.n), dtype=np.int64)
        for i in range(k):
            before += rows[:, i : i + 1] < card
        # others[v, p]: what v's own cards add when p of them are below the new card.
        others = np.zeros((len(rows), k + 1), dtype=np.int64)
        for p in range(k + 1):
            for i in range(k):
                others[:, p] += binomials[rows[:, i], i + 1 if i < p else i + 2]
        out = np.full((len(rows) + 1, self.n), no_set, dtype=np.int64)
        ids = out[:-1]
        np.add(np.take_along_axis(others, before, axis=1), binomials[card, before + 1], out=ids)
        for i in range(k):
            ids[np.arange(len(rows)), rows[:, i]] = no_set
        return out

    def subset_ids(self, k: int, positions: tuple[int, ...]) -> np.ndarray:
        """For every set of ``k`` cards, the number of its subset at ``positions``."""
        return set_ids(self.members[k][:, list(positions)])


def superset_counts(
    sets: StubSets, size: int, ranks: np.ndarray, width: int, above: bool
) -> list[np.ndarray]:
    """For each ``k < size`` a table ``(C(n, k) + 1, width)``: over the sets of ``size`` cards
    containing set ``v``, how many have a rank below ``x`` (or, ``above``, at least ``x``).

    ``ranks`` are the ranks of the sets of ``size`` cards by number, each below ``width - 1``.
    The last row (no set) is zero.  Each row is a histogram of ranks, summed along.  For
    ``k < size - 1`` the histograms of all rows are one ``bincount`` over every (subset,
    rank) pair; for ``k = size - 1`` that would be the size of the largest table in int64, so
    the rows go in chunks, each set's supersets being its ``n - k`` neighbours in ``plus``.
    """
    tables = []
    shift = 0 if above else 1  # "below x" counts the rank at x - 1 and lower
    for k in range(size):
        # A count is at most C(52, 4) < 2**31.  int32 halves the memory to fault in.
        table = np.empty((sets.counts[k] + 1, width), dtype=np.int32)
        table[-1] = 0
        if k < size - 1:
            codes = np.concatenate(
                [
                    sets.subset_ids(size, positions) * width + ranks
                    for positions in combinations(range(size), k)
                ]
            )
            histogram = np.bincount(codes + shift, minlength=sets.counts[k] * width)
            _summed(histogram.reshape(-1, width), table[:-1], above)
        else:
            neighbours = np.append(ranks, -1)[sets.plus[k][:-1]]  # -1: the card is in v
            step = max(1, _CHUNK // width)
            for start in range(0, sets.counts[k], step):
                part = neighbours[start : start + step]
                codes = np.arange(len(part))[:, None] * width + part
                histogram = np.bincount(codes[part >= 0] + shift, minlength=len(part) * width)
                _summed(histogram.reshape(-1, width), table[start : start + len(part)], above)
        tables.append(table)
    return tables


_CHUNK = 1 << 18  # histogram entries at a time for the largest table: 2 MB of int64


def _summed(histogram: np.ndarray, out: np.ndarray, above: bool) -> None:
    """``out`` = the running sums of each row of ``histogram``, from the right if ``above``."""
    if above:
        np.cumsum(histogram[:, ::-1], axis=1, out=out[:, ::-1])
    else:
        np.cumsum(histogram, axis=1, out=out)
