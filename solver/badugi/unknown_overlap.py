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
  over every card ``e`` (a row of ``n``) index A's table "draws containing ``S + o`` above
  rank ``x``" (one row of it).  Queries go in order of ``S``, so the rows looked up stay in
  cache.  Then ``e`` in ``S`` and ``d`` in ``Z`` come out: B's ranks of ``Z + s + o`` and
  A's of ``S + z + o`` are rows over ``o`` too, looked up and compared for every ``o`` at
  once.
* ``G0``: ``E`` and ``D'`` free in ``U``.  B's rank histogram over ``E ⊂ U`` is its histogram
  over ``E`` (a row of a table over 2-sets) less those over ``E ∋ s`` plus the one hand
  ``Z + S``; A's "above ``x``" counts likewise.  The product of the whole rows is one matrix
  product over every pair of 2-sets (float32: every entry and partial sum is an integer below
  ``C(n - 2, 2)**2 < 2**24``); the cross terms have one free card or none and are sums of look-ups.

Win and win-or-tie travel together: A's "at least ``x + 1``" and "at least ``x``" (B's "below
``x``" and "below ``x + 1``") are packed in one int32 as ``win + 2**17 * win_or_tie``; every
sum of packed entries taken here has its win part below ``2**17`` (at most ``2 (n - 3)
C(n - 2, 2)``, 120,050 for ``n = 52``) and each entry, and each sum over ``o`` kept in int32,
is below ``2**31`` (at most ``(n - 4) (n - 3) (2**17 + 1)``).  All counts are exact integers.
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
    # B's "no set" ranks one past the top, where A's "at least" tables are zero.
    b = _Ranks.of(sets, unknown.rank, unknown.below[0].shape[1] - 2)
    b_pairs = _packed(unknown.below[2], above=False)
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
            b_pairs,
        )
        both_free = _both_free(unknown.below[2], side.at_least[2])
        out = np.empty((2, len(z_ids)), dtype=np.int64)
        for start in range(0, len(order), _CHUNK):
            rows = order[start : start + _CHUNK]
            z, s = z_ids[rows], s_ids[rows]
            product = np.stack([both_free[z, s], both_free[z, s + len(both_free)]])
            out[:, rows] = product.astype(np.int64) + tables.counts(z, s)
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
        # rows contiguous: each query reads whole rows
        of_pairs = np.ascontiguousarray(whole[pairs], dtype=np.int16)
        return cls(whole, of_pairs, np.ascontiguousarray(whole[sets.plus[3]], dtype=np.int32))


def _packed(table: np.ndarray, above: bool) -> np.ndarray:
    """A table of :func:`.stub_sets.superset_counts` with its win and win-or-tie look-ups in
    one int32, flat.  ``above`` (A's "at least"): at ``v, x`` for B's rank ``x``, the entries
    at ``x + 1`` and ``x``; else (B's "below"): at ``v, x + 1`` for A's rank ``x >= -1``, the
    entries at ``x`` and ``x + 1`` (zero for ``x = -1``, no set)."""
    if above:
        packed: np.ndarray = np.left_shift(table[:, :-1], _SHIFT, dtype=np.int32)
        packed += table[:, 1:]
        return packed.ravel()
    packed = np.zeros(table.shape, dtype=np.int32)
    np.left_shift(table[:, 1:], _SHIFT, out=packed[:, 1:])
    packed[:, 1:] += table[:, :-1]
    return packed.ravel()


def _unpacked(packed: np.ndarray) -> np.ndarray:
    """``(2, ...)``: win and win-or-tie of sums of packed entries (win part below 2**17)."""
    return np.stack([packed & ((1 << _SHIFT) - 1), packed >> _SHIFT])


def _both_free(below: np.ndarray, at_least: np.ndarray) -> np.ndarray:
    """B's hands containing ``Z`` against A's draws containing ``S`` for every pair of 2-sets:
    win at ``[Z, S]`` and win-or-tie at ``[Z, C(n, 2) + 1 + S]``, one matrix product (exact in
    float32, see the module docstring)."""
    histogram = np.diff(below, axis=1).astype(np.float32)  # B's hands containing Z of rank x
    at_least = at_least.astype(np.float32)
    # A wins with rank at least x + 1; wins or ties with rank at least x.
    both: np.ndarray = histogram @ np.vstack([at_least[:, 1:], at_least[:, :-1]]).T
    return both


class _Chunk(NamedTuple):
    """A chunk of queries and the sets grown from them: ``z_o[q, o]`` is ``Z + o`` and
    ``s_o`` ``S + o`` (no set if ``o`` is in ``Z`` or ``S``), ``b_rows[q, i, c]`` B's rank of
    ``Z + s_i + c`` and ``a_rows[q, j, c]`` A's of ``S + z_j + c``, ``b_whole`` B's rank of
    ``Z + S`` and ``a_whole`` A's."""

    z: np.ndarray
    s: np.ndarray
    z_o: np.ndarray
    s_o: np.ndarray
    z_s: np.ndarray
    s_z: np.ndarray
    b_rows: np.ndarray
    a_rows: np.ndarray
    b_whole: np.ndarray
    a_whole: np.ndarray


class _Tables(NamedTuple):
    """What the look-ups of one known hand read; :meth:`counts` does them for a chunk.  The
    tables of A are read at ``row * (W - 1) + x`` for B's rank ``x``, B's at ``row * W + x``
    for A's rank ``x`` (``W = below_b3.shape[1]``)."""

    sets: StubSets
    b: _Ranks
    a: _Ranks
    below_b3: np.ndarray
    a_pairs: np.ndarray  # packed A "at least" over 2-sets
    a_threes: np.ndarray  # packed A "at least" over 3-sets
    b_pairs: np.ndarray  # packed B "below" over 2-sets

    def counts(self, z: np.ndarray, s: np.ndarray) -> np.ndarray:
        """``F(Z, S) - P(Z, S)`` for a chunk: every term but the matrix product."""
        a, b, plus2, plus3 = self.a, self.b, self.sets.plus[2], self.sets.plus[3]
        z_cards, s_cards = self.sets.members[2][z], self.sets.members[2][s]
        z_s, s_z = plus2[z[:, None], s_cards], plus2[s[:, None], z_cards]
        chunk = _Chunk(
            z=z,
            s=s,
            z_o=plus2[z],
            s_o=plus2[s],
            z_s=z_s,
            s_z=s_z,
            b_rows=b.of_threes[z_s],
            a_rows=a.of_threes[s_z],
            b_whole=b.whole[plus3[z_s[:, 0], s_cards[:, 1]]],
            a_whole=a.whole[plus3[s_z[:, 0], z_cards[:, 1]]],
        )
        out = self._two_shared(chunk)
        out -= self._one_shared(chunk)
        out += self._both_free_cross(chunk)
        return out

    def _two_shared(self, q: _Chunk) -> np.ndarray:
        """``G2``: A's ranks of ``S + J`` against B's of ``Z + J``, row against row (a
        quarter of the chunk at a time: the rows are ``C(n, 2)`` long)."""
        out = np.empty((2, len(q.z)), dtype=np.int64)
        step = _CHUNK // 4
        for start in range(0, len(q.z), step):
            part = slice(start, start + step)
            a_row, b_row = self.a.of_pairs[q.s[part]], self.b.of_pairs[q.z[part]]
            out[0, part] = _count(a_row > b_row, 1)
            out[1, part] = _count(a_row >= b_row, 1)
        return out

    def _one_shared(self, q: _Chunk) -> np.ndarray:
        """``G1``: for each card ``o``, B's hands ``Z + o + e`` against A's draws ``S + o +
        d`` with ``e`` and ``d`` in ``U``.  B's ranks over every ``e`` index A's counts over
        every ``d``; then ``e`` in ``S`` and ``d`` in ``Z`` come out."""
        width = self.below_b3.shape[1]
        a_at = (q.s_o * (width - 1)).astype(np.int32)  # rows of A's table over 3-sets
        packed = np.zeros(q.z_o.shape, dtype=np.int32)
        gathered = np.empty_like(packed)
        for o in range(self.sets.n):
            b_ranks = np.take(self.b.of_threes, q.z_o[:, o], axis=0)  # of Z + o + e, every e
            b_ranks += a_at[:, o, None]
            # every index is in range by construction: "clip" only skips the check
            packed += np.take(self.a_threes, b_ranks, out=gathered, mode="clip")
        # e in S: A's draws S + o + d above B's Z + o + s.
        in_s = self.a_threes[a_at[:, None, :] + q.b_rows].sum(axis=(1, 2), dtype=np.int64)
        out = _unpacked(packed.sum(axis=1, dtype=np.int64) - in_s)
        # d in Z: A's whole S + o + z against B's hands Z + o + e with e outside S.
        below = self.below_b3.ravel()
        # Where A's set is none (a card twice), read the table's last row, the no-set row,
        # which is zero: at its last two places, so that both ``place`` and ``place + 1``
        # (the tie count, below) add nothing.
        no_set = below.size - 2
        place = np.where(q.a_rows >= 0, (q.z_o * width)[:, None, :] + q.a_rows, no_set)
        b_at_s, a_at_z = q.b_rows[:, :, None, :], q.a_rows[:, None, :, :]  # [q, i, j, o]
        out[0] += _count(b_at_s < a_at_z, (1, 2, 3)) - below[place].sum(axis=(1, 2))
        out[1] += _count(b_at_s <= a_at_z, (1, 2, 3)) - below[1:][place].sum(axis=(1, 2))
        return out

    def _both_free_cross(self, q: _Chunk) -> np.ndarray:
        """The terms of ``G0`` beside the matrix product: a product of a 3-set's row (``Z + s``
        or ``S + z``) or of the whole hand (``Z + S`` or ``S + Z``) with the other side's."""
        width = self.below_b3.shape[1]
        below = self.below_b3.ravel()
        out = np.zeros((2, len(q.z)), dtype=np.int64)

        def add(sign: int, packed: np.ndarray) -> None:
            out[:] += sign * _unpacked(packed)

        a_at, a_at_z = q.s * (width - 1), q.s_z * (width - 1)  # rows of A's tables
        b_at = q.z * width  # rows of B's table over 2-sets
        b_rows = q.b_rows[:, :, None, :]  # [q, i, j, y]
        add(-1, self.a_pairs[a_at[:, None, None] + q.b_rows].sum(axis=(1, 2), dtype=np.int64))
        add(1, self.a_threes[a_at_z[:, None, :, None] + b_rows].sum(axis=(1, 2, 3), dtype=np.int64))
        a_rows = q.a_rows + 1  # B's "below" tables are read one place on (rank -1: no set)
        add(-1, self.b_pairs[b_at[:, None, None] + a_rows].sum(axis=(1, 2), dtype=np.int64))
        add(-1, self.a_threes[a_at_z + q.b_whole[:, None]].sum(axis=1, dtype=np.int64))
        add(1, self.b_pairs[b_at + q.a_whole + 1] + self.a_pairs[a_at + q.b_whole])
        place = q.z_s * width + q.a_whole[:, None]  # B's hands Z + s against A's S + Z
        out[0] -= below[place].sum(axis=1)
        out[1] -= below[1:][place].sum(axis=1)
        out[0] += q.a_whole > q.b_whole
        out[1] += q.a_whole >= q.b_whole
        return out


def _count(condition: np.ndarray, axis: int | tuple[int, ...]) -> np.ndarray:
    """How many of ``condition`` hold along ``axis`` (fewer than 2**15)."""
    counts: np.ndarray = condition.view(np.int8).sum(axis=axis, dtype=np.int16)
    return counts
