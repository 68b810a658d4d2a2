"""The count ``F(Z, S)`` of :mod:`.unknown` for two known cards on each side, with the known
player drawing four: by the cards both hands would share.

For 2-sets ``Z`` (B's) and ``S`` (A's), disjoint, ``F(Z, S)`` counts the pairs of 2-sets
``E`` and ``D'`` of the other cards ``U`` (the stub less ``Z`` and ``S``), disjoint, where A's
draw ``S + D'`` ranks above B's hand ``Z + E`` (and, for win-or-tie, at least as high).  By
inclusion-exclusion over the cards ``J`` that ``E`` and ``D'`` would share,

    F(Z, S) = G0 - G1 + G2,  Gj = sum over j-sets J of U of the pairs with E, D' ⊇ J:

* ``G2``: ``E = D' = J``, one comparison per 2-set ``J``.  B's ranks of ``Z + J`` and A's of
  ``S + J`` are tables over pairs of 2-sets (a set with a card twice ranks out of reach), so
  each query compares one row of each: contiguous, ~1,100 comparisons.
* ``G1``: ``E = o + e`` and ``D' = o + d``.  For each card ``o``, B's ranks of ``Z + o + e``
  (a row of 48) index A's table "draws containing ``S + o`` above rank ``x``" (one row of it);
  ``e`` in ``S`` and ``d`` in ``Z`` are taken out by masking and by one look-up and a few
  comparisons.  Queries go in order of ``S``, so the rows looked up stay in cache.
* ``G0``: ``E`` and ``D'`` free in ``U``.  B's rank histogram over ``E ⊂ U`` is its histogram
  over ``E`` (a row of a table over 2-sets) less those over ``E ∋ s`` plus the one hand
  ``Z + S``; A's "above ``x``" counts likewise.  The product of the whole rows is one matrix
  product over every pair of 2-sets (float32: every entry and partial sum is an integer below
  ``C(n - 2, 2)**2 < 2**24``); the cross terms have one free card and are sums of look-ups.

Win and win-or-tie travel together: A's "at least ``x + 1``" and "at least ``x``" (B's "below
``x``" and "below ``x + 1``") are packed in one int32 as ``win + 2**17 * win_or_tie``; every
sum of packed entries taken here has its win part below ``2**17`` (at most ``(n - 4)**2 (n -
3)``, 112,896 for ``n = 52``) and its whole below ``2**31`` before it is summed in int64.  All
counts are exact integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from handsolver.solver.badugi.stub_sets import StubSets

_SHIFT = 17  # win + (win_or_tie << _SHIFT)
_CHUNK = 4096  # queries at a time: each pass over a (queries, n) array stays in cache


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
    if sets.n > 52:
        raise ValueError("the packed counts hold a stub of at most 52 cards")
    b = _Ranks.of(sets, unknown.rank, unknown.below[0].shape[1] - 2)
    order = np.argsort(s_ids, kind="stable")  # A's rows looked up stay in cache
    outs = []
    for side in known:
        a = _Ranks.of(sets, side.rank, -1)
        tables = _Tables(
            sets,
            b,
            a,
            unknown.below[3],
            _packed(side.at_least[2], above=True),
            _packed(side.at_least[3], above=True),
            _packed(unknown.below[2], above=False),
        )
        both_free = _both_free(unknown.below[2], side.at_least[2])
        out = np.empty((2, len(z_ids)), dtype=np.int64)
        for start in range(0, len(order), _CHUNK):
            rows = order[start : start + _CHUNK]
            z, s = z_ids[rows], s_ids[rows]
            out[:, rows] = both_free[:, z, s] + tables.counts(z, s)
        outs.append(out)
    return outs


class _Ranks(NamedTuple):
    """One side's ranks of sets grown from 2-sets and 3-sets: ``of_pairs[v, p]`` of ``v + p``
    (2-sets ``v`` and ``p``) and ``of_threes[v, c]`` of ``v + c`` (a 3-set and a card), with
    ``no_set`` where a card is twice; ``whole`` by the number of the 4-set."""

    whole: np.ndarray
    of_pairs: np.ndarray
    of_threes: np.ndarray

    @classmethod
    def of(cls, sets: StubSets, rank: np.ndarray, no_set: int) -> _Ranks:
        whole = rank.copy()
        whole[-1] = no_set
        first, second = sets.members[2][:, 0], sets.members[2][:, 1]
        pairs = sets.plus[3][sets.plus[2][:, first], second]
        return cls(whole, whole[pairs].astype(np.int16), whole[sets.plus[3]].astype(np.int32))


def _packed(table: np.ndarray, above: bool) -> np.ndarray:
    """A table of :func:`.stub_sets.superset_counts` with its win and win-or-tie look-ups in
    one int32, flat.  ``above`` (A's "at least"): at ``v, x`` for B's rank ``x``, the entries
    at ``x + 1`` and ``x``; else (B's "below"): at ``v, x + 1`` for A's rank ``x >= -1``, the
    entries at ``x`` and ``x + 1`` (zero for ``x = -1``, no set)."""
    table = table.astype(np.int32)
    if above:
        return (table[:, 1:] + (table[:, :-1] << _SHIFT)).ravel()
    packed = np.zeros_like(table)
    packed[:, 1:] = table[:, :-1] + (table[:, 1:] << _SHIFT)
    return packed.ravel()


def _unpacked(packed: np.ndarray) -> np.ndarray:
    """``(2, ...)``: win and win-or-tie of sums of packed entries (win part below 2**17)."""
    return np.stack([packed & ((1 << _SHIFT) - 1), packed >> _SHIFT])


def _both_free(below: np.ndarray, at_least: np.ndarray) -> np.ndarray:
    """B's hands containing ``Z`` against A's draws containing ``S`` for every pair of 2-sets,
    win and win-or-tie: ``(2, C(n, 2) + 1, C(n, 2) + 1)``, one matrix product (exact in
    float32, see the module docstring)."""
    histogram = np.diff(below, axis=1).astype(np.float32)  # B's hands containing Z of rank x
    at_least = at_least.astype(np.float32)
    # A wins with rank at least x + 1; wins or ties with rank at least x.
    both = histogram @ np.vstack([at_least[:, 1:], at_least[:, :-1]]).T
    width = len(at_least)
    return np.stack([both[:, :width], both[:, width:]]).astype(np.int64)


class _Tables(NamedTuple):
    """What the look-ups of one known hand read; :meth:`counts` does them for a chunk."""

    sets: StubSets
    b: _Ranks
    a: _Ranks
    below_b3: np.ndarray
    a_pairs: np.ndarray  # packed A "at least" over 2-sets (width W - 1)
    a_threes: np.ndarray  # packed A "at least" over 3-sets (width W - 1)
    b_pairs: np.ndarray  # packed B "below" over 2-sets (width W)

    def counts(self, z: np.ndarray, s: np.ndarray) -> np.ndarray:
        """``F(Z, S) - P(Z, S)`` for a chunk: every term but the matrix product."""
        sets, a, b = self.sets, self.a, self.b
        width = self.below_b3.shape[1]
        plus2 = sets.plus[2]
        z_cards, s_cards = sets.members[2][z], sets.members[2][s]
        rows = np.arange(len(z))[:, None]
        # G2: E = D' = J.
        a_row, b_row = a.of_pairs[s], b.of_pairs[z]
        out = np.stack(
            [np.count_nonzero(a_row > b_row, axis=1), np.count_nonzero(a_row >= b_row, axis=1)]
        ).astype(np.int64)
        # G1: E = o + e, D' = o + d, both in U.
        packed = np.zeros((len(z), sets.n), dtype=np.int32)
        below = self.below_b3.ravel()
        for o in range(sets.n):
            z_o, s_o = plus2[z, o], plus2[s, o]  # no set if o is in Z or S
            b_ranks = b.of_threes[z_o]  # of Z + o + e, for every e
            b_at_s = b_ranks[rows, s_cards]  # e in S: ranks of Z + o + s
            b_ranks[rows, s_cards] = b.whole[-1]  # ... taken out of E
            b_ranks += (s_o * (width - 1))[:, None]
            packed += self.a_threes[b_ranks]  # sum over e of A's draws S + o + d above
            # d in Z: A's draw S + o + z against B's hands Z + o + e with e outside S.
            a_at_z = a.of_threes[s_o[:, None], z_cards]  # -1 if o is in S
            place = np.where(a_at_z >= 0, z_o[:, None] * width + a_at_z, len(below) - 2)
            for shift in range(2):
                lose = below[place + shift]
                for i in range(2):
                    if shift:
                        lose -= b_at_s[:, i, None] <= a_at_z
                    else:
                        lose -= b_at_s[:, i, None] < a_at_z
                out[shift] += lose.sum(axis=1)
        out -= _unpacked(packed.sum(axis=1, dtype=np.int64))
        return out + self._both_free_cross(z, s, z_cards, s_cards)

    def _both_free_cross(
        self, z: np.ndarray, s: np.ndarray, z_cards: np.ndarray, s_cards: np.ndarray
    ) -> np.ndarray:
        """The terms of ``G0`` beside the matrix product: a product of a 3-set's row (``Z + s``
        or ``S + z``) or of the whole hand (``Z + S`` or ``S + Z``) with the other side's."""
        a, b = self.a, self.b
        width = self.below_b3.shape[1]
        plus2, plus3 = self.sets.plus[2], self.sets.plus[3]
        below = self.below_b3.ravel()
        out = np.zeros((2, len(z)), dtype=np.int64)

        def add(sign: int, packed: np.ndarray) -> None:
            out[:] += sign * _unpacked(packed)

        a_whole = a.whole[plus3[plus2[s, z_cards[:, 0]], z_cards[:, 1]]]  # S + Z
        b_whole = b.whole[plus3[plus2[z, s_cards[:, 0]], s_cards[:, 1]]]  # Z + S
        s_z = [plus2[s, z_cards[:, j]] for j in range(2)]  # S + z
        a_at = [(ids * (width - 1))[:, None] for ids in [s, *s_z]]  # rows of A's tables
        for i in range(2):
            z_s = plus2[z, s_cards[:, i]]  # Z + s
            b_ranks = b.of_threes[z_s]  # of Z + s + y, for every y
            add(-1, self.a_pairs[a_at[0] + b_ranks].sum(axis=1, dtype=np.int64))
            add(1, sum(self.a_threes[at + b_ranks].sum(axis=1, dtype=np.int64) for at in a_at[1:]))
            out[0] -= below[z_s * width + a_whole]  # against A's whole S + Z
            out[1] -= below[z_s * width + a_whole + 1]
        for j in range(2):
            a_ranks = a.of_threes[s_z[j]]  # of S + z + d, for every d (-1: no set)
            add(-1, self.b_pairs[(z * width + 1)[:, None] + a_ranks].sum(axis=1, dtype=np.int64))
            add(-1, self.a_threes[a_at[1 + j][:, 0] + b_whole])  # against B's whole Z + S
        add(1, self.b_pairs[z * width + a_whole + 1] + self.a_pairs[a_at[0][:, 0] + b_whole])
        out[0] += a_whole > b_whole
        out[1] += a_whole >= b_whole
        return out
