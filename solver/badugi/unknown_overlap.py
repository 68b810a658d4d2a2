"""The count ``F(Z, S)`` of :mod:`.unknown` for two known cards on each side, with the known
player drawing four: by the overlap of the two hands instead of by A's completions.

``F(Z, S)`` counts the disjoint pairs of B's final hand ``Y ⊇ Z`` and A's draw ``D ⊇ S`` where
A wins.  Dropping disjointness gives ``P(Z', S')``, which counts every pair; by
inclusion-exclusion over the cards ``J`` both hands hold,

    F(Z, S) = sum over J of (-1)**|J| P(Z + J, S + J)

(``P`` is zero once a side passes four cards).  ``J`` splits into cards of ``Z`` (``Jz``), of
``S`` (``Js``) and others (``Jo``), and each ``P`` is taken by its cheaper side:

* both sides with two free cards (``J`` empty): ``P(Z, S)`` for every pair of 2-sets at once
  is one matrix product, B's rank histogram over ``Y ⊇ Z`` times A's "at least" table;
* a side with one free card: a sum over its ~45 completions of the other side's table;
* a whole side: one look-up.

Per query that is about 1,600 look-ups, against about 12,000 over A's completions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from handsolver.models.badugi import HAND_SIZE
from handsolver.solver.badugi.stub_sets import StubSets, beating, losing

_CHUNK = 1 << 18  # rows of intermediate arrays at a time: a few MB, so passes stay in cache


class KnownSide(NamedTuple):
    """A known hand drawing four: its rank for every draw (``-1`` past the last: no set) and,
    for ``k < 4``, its draws containing a ``k``-set ranked at least ``y`` (``[k][v, y]``)."""

    rank: np.ndarray
    at_least: list[np.ndarray]


class UnknownSide(NamedTuple):
    """B's final hands: the rank of each (past the last: no set, never below anything) and,
    for ``k < 4``, the hands containing a ``k``-set ranked below ``x`` (``[k][v, x]``)."""

    rank: np.ndarray
    below: list[np.ndarray]


def overlap_counts(
    sets: StubSets,
    unknown: UnknownSide,
    known: Sequence[KnownSide],
    z_ids: np.ndarray,
    s_ids: np.ndarray,
) -> list[np.ndarray]:
    """``F(Z, S)`` for 2-sets ``Z`` and ``S`` (disjoint), win and win-or-tie: ``(2, queries)``
    for each known hand."""
    outs = []
    step = max(1, _CHUNK // sets.counts[2])
    for side in known:
        out = _pairs_both_free(unknown, side)[:, z_ids, s_ids]
        for start in range(0, len(z_ids), step):
            rows = slice(start, start + step)
            out[:, rows] += _overlaps(sets, unknown, side, z_ids[rows], s_ids[rows])
        outs.append(out)
    return outs


def _pairs_both_free(unknown: UnknownSide, side: KnownSide) -> np.ndarray:
    """``P(Z, S)`` for every pair of 2-sets, win and win-or-tie: ``(2, C(n, 2) + 1, ...)``.

    Float64 is exact: an entry is at most ``C(n - 2, 2)**2 < 2**53``.
    """
    below = unknown.below[2].astype(np.float64)
    histogram = below[:, 1:] - below[:, :-1]  # B's hands containing Z of rank x
    at_least = side.at_least[2].astype(np.float64)
    # A wins with rank at least x + 1; wins or ties with rank at least x.
    both = histogram @ np.vstack([at_least[:, 1:], at_least[:, :-1]]).T
    width = at_least.shape[0]
    return np.stack([both[:, :width], both[:, width:]]).round().astype(np.int64)


def _overlaps(
    sets: StubSets, unknown: UnknownSide, side: KnownSide, z_ids: np.ndarray, s_ids: np.ndarray
) -> np.ndarray:
    """The terms of non-empty ``J``: ``(2, queries)``.

    Rows are (query, card) or (query, pair of cards) in full, impossible ones included: a set
    with a card twice is "no set", whose row of A's table is zero and whose B rank is put one
    past the top (no A table counts it, no rank of A reaches it); the rest are masked.
    """
    plus, n, no_set = sets.plus, sets.n, sets.counts
    width = unknown.below[0].shape[1]
    rank_b = unknown.rank.copy()
    rank_b[-1] = width - 2
    rank_a = side.rank  # -1 for "no set"
    out = np.zeros((2, len(z_ids)), dtype=np.int64)

    def add(sign: int, win: np.ndarray, win_or_tie: np.ndarray, mask: np.ndarray | None) -> None:
        for shift, values in enumerate((win, win_or_tie)):
            if mask is not None:
                values = values * mask
            out[shift] += sign * (values.sum(axis=1, dtype=np.int64) if values.ndim > 1 else values)

    def a_table(k: int, ids: np.ndarray, b_rank: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A's draws containing ``ids`` beating, and beating or tying, rank ``b_rank``."""
        return beating(side.at_least[k], ids, b_rank)

    def b_table(k: int, ids: np.ndarray, a_rank: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """B's hands containing ``ids`` losing, and losing or tying, to rank ``a_rank`` (a
        masked row may read a neighbour's entry at rank -1)."""
        return losing(unknown.below[k], ids, a_rank)

    def beats(a_rank: np.ndarray, b_rank: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return a_rank > b_rank, a_rank >= b_rank

    z_cards, s_cards = sets.members[2][z_ids], sets.members[2][s_ids]
    z_plus, s_plus = plus[2][z_ids], plus[2][s_ids]  # Z + o and S + o for every card o
    # Jo of two cards, and Jo = {o} with J = Jo: over B's hands Y = Z + {p, q}.
    first, second = sets.members[2][:, 0], sets.members[2][:, 1]
    b_rank = rank_b[plus[3][z_plus[:, first], second]]
    s_p, s_q = s_plus[:, first], s_plus[:, second]
    add(-1, *a_table(3, s_p, b_rank), None)
    add(-1, *a_table(3, s_q, b_rank), None)
    add(1, *beats(rank_a[plus[3][s_p, second]], b_rank), None)
    # Jo = {o} with one card of Z (A's draw whole), of S (B's hand whole), or both.
    other = (z_plus != no_set[3]) & (s_plus != no_set[3])  # o outside Z and S
    for i in range(2):
        a_rank = rank_a[plus[3][s_plus, z_cards[:, i, None]]]  # D = S + z + o
        add(1, *b_table(3, z_plus, a_rank), other)
        b_rank = rank_b[plus[3][z_plus, s_cards[:, i, None]]]  # Y = Z + s + o
        add(1, *a_table(3, s_plus, b_rank), None)
        for j in range(2):
            add(-1, *beats(rank_a[plus[3][s_plus, z_cards[:, j, None]]], b_rank), None)
    # Jo empty, one card of Z and/or one of S: one side has a single free card.
    for i in range(2):
        d_ids = plus[3][plus[2][s_ids, z_cards[:, i]][:, None], np.arange(n)]  # S + z + d
        add(-1, *b_table(2, z_ids[:, None], rank_a[d_ids]), d_ids != no_set[HAND_SIZE])
        y_ids = plus[3][plus[2][z_ids, s_cards[:, i]][:, None], np.arange(n)]  # Z + s + y
        b_rank = rank_b[y_ids]
        add(-1, *a_table(2, s_ids[:, None], b_rank), None)
        for j in range(2):
            add(1, *a_table(3, plus[2][s_ids, z_cards[:, j]][:, None], b_rank), None)
    # Jz = Z (A's draw is S + Z) or Js = S (B's hand is Z + S).
    a_whole = rank_a[plus[3][plus[2][s_ids, z_cards[:, 0]], z_cards[:, 1]]]
    b_whole = rank_b[plus[3][plus[2][z_ids, s_cards[:, 0]], s_cards[:, 1]]]
    add(1, *b_table(2, z_ids, a_whole), None)
    add(1, *beats(a_whole, b_whole), None)
    add(1, *a_table(2, s_ids, b_whole), None)
    for i in range(2):
        add(-1, *b_table(3, plus[2][z_ids, s_cards[:, i]], a_whole), None)
        add(-1, *a_table(3, plus[2][s_ids, z_cards[:, i]], b_whole), None)
    return out
