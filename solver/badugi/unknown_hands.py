"""The sums over B's final hands of :mod:`.unknown_tables` (``|S| <= 1``): ``W(S, Y)``, A's
draws holding ``S`` that miss B's hand ``Y`` and win, for every ``Y``, and its sums over the
hands ``Y ⊇ Z`` for every ``Z``, several known hands side by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import comb

import numpy as np

from handsolver.models.badugi import HAND_SIZE
from handsolver.solver.badugi.known_tables import WIDTH, KnownTables
from handsolver.solver.badugi.stub_sets import StubSets, set_ids

CHUNK = 1 << 18  # rows of intermediate arrays at a time: a few MB, so passes stay in cache


def w_top(tables: Sequence[KnownTables], s: int) -> np.ndarray:
    """``W(S, Y)`` for every B's final hand ``Y`` and every ``S`` of ``s <= 1`` cards: A's
    draws holding ``S`` that miss ``Y`` and win, or win or tie.

    The array is ``(C(n, 4) + 1, shift, S, known hand)`` (``S`` is the card ``x``, or one
    empty set), shift 0 "at least" (win or tie) and 1 "above" (win), with a zero last row.
    """
    sets = tables[0].sets
    hands = sets.counts[HAND_SIZE]
    w = _WRows(tables, s)
    out = np.zeros((hands + 1, 2, w.row), w.dtype)
    w.fill(out[:hands], 0)
    return out.reshape(len(out), 2, -1, len(tables))


def level_three(tables: Sequence[KnownTables], s: int) -> np.ndarray:
    """``sum over Y ⊇ Z`` of ``W(S, Y)`` for every 3-set ``Z`` (:func:`upward`'s level 3),
    ``(C(n, 3) + 1, shift, S, known hand)`` with a zero last row, from B's hands taken a
    block at a time: those whose largest card is ``m``, ``Y = X + m`` with ``X`` a 3-set of
    the cards below ``m``.  In colexicographic order they are numbered ``C(m, 4) + id(X)``,
    and the 3-sets with largest card ``m`` are ``C(m, 3) + id(P)`` for the 2-sets ``P`` below
    it.  So ``Y`` without ``m`` is ``X``: the block adds onto the first ``C(m, 3)`` rows;
    and ``Y`` without a card ``x`` of ``X`` is ``P + m`` with ``P = X - x``: row ``P`` of
    those gets the block's rows ``P + x`` for every ``x < m``.  Each ``Y ⊇ Z`` is reached
    once, and only one block of the top level (at most ``C(n - 1, 3)`` rows) is ever held.
    """
    sets = tables[0].sets
    w = _WRows(tables, s)
    # Level 3 of one card: at most 45 * C(n - 5, a - 1), below 2**16 for a <= 3 on the full
    # deck: then it is summed in the blocks' int16, exact modulo 2**16, and read as uint16.
    most = (sets.n - HAND_SIZE + 1) * comb(sets.n - HAND_SIZE - 1, tables[0].a - 1)
    narrow = w.dtype == np.int16 and most < 1 << 16
    level = np.zeros((sets.counts[HAND_SIZE - 1] + 1, 2 * w.row), w.dtype if narrow else np.int32)
    buffer = np.empty((comb(sets.n - 1, 3) + 1, 2, w.row), w.dtype)
    for m in range(HAND_SIZE - 1, sets.n):
        size, pairs = comb(m, 3), comb(m, 2)
        block = buffer[: size + 1]
        block[size] = 0  # "no set" (x in P)
        w.fill(block[:size], comb(m, HAND_SIZE))
        flat = block.reshape(size + 1, -1)
        np.add(level[:size], flat[:size], out=level[:size])
        grown = np.minimum(sets.plus[2][:pairs, :m], size)  # P + x
        step = max(1, CHUNK // flat.shape[1])
        for start in range(0, pairs, step):
            part = level[size + start : size + min(start + step, pairs)]
            for x in range(m):
                np.add(part, flat[grown[start : start + len(part), x]], out=part)
    if narrow:
        level = level.view(np.uint16)
    return level.reshape(len(level), 2, -1, len(tables))


class _WRows:
    """``W(S, Y)`` (:func:`w_top`) for a run of B's hands at a time.

    Inclusion-exclusion over the cards ``V ⊆ Y`` that the draw would hold::

        W(S, Y) = sum over V ⊆ Y of (-1)**|V| #{D ⊇ V + S : rank_A(D) >= rank_B(Y) (+1)}

    exact: every draw holding ``S`` is counted once for each ``V ⊆ D ∩ Y``, and those signs
    cancel unless ``D ∩ Y`` is empty.  The counts come from :func:`_stacked`: one row per
    ``(V, rank)`` or per ``V`` when ``V + S`` is the whole draw.  ``W(S, Y)`` is zero when
    ``S`` meets ``Y``.  For ``s = 1`` the entries fit int16 (at most ``C(n - 5, a - 1)``,
    12,341 on the full deck); a sum wrapping on the way is still exact, as int16
    arithmetic is exact modulo 2**16.
    """

    def __init__(self, tables: Sequence[KnownTables], s: int) -> None:
        first = tables[0]
        self.sets, self.a, self.s, self.known = first.sets, first.a, s, len(tables)
        self.row = (self.sets.n if s else 1) * len(tables)  # (S, known hand) per shift
        small = s == 1 and comb(self.sets.n - HAND_SIZE - 1, self.a - 1) < 1 << 15
        self.dtype = np.dtype(np.int16 if small else np.int32)
        # (k, positions of V in Y, A's counts); V's numbers are found a run of hands at a time
        self.terms: list[tuple[int, list[int], np.ndarray]] = []
        for k in range(min(self.a - s, HAND_SIZE) + 1):
            table = _stacked(tables, k, s)
            for positions in combinations(range(HAND_SIZE), k):
                self.terms.append((k, list(positions), table))
        self.rank_b = first.rank_b[:-1].astype(np.int16)

    def fill(self, out: np.ndarray, first: int) -> None:
        """Write ``W`` of hands ``first, first + 1, ...`` into ``out`` (``(hands, 2, row)``)."""
        sets, a, s = self.sets, self.a, self.s
        members = sets.members[HAND_SIZE]
        step = max(1, CHUNK // self.row)  # rows of Y: about 1 MB of int16 totals
        for start in range(0, len(out), step):
            total = out[start : start + step]
            rows = slice(first + start, first + start + len(total))
            total[:] = 0
            rank = self.rank_b[rows]
            # Where V + S is the whole draw: comparisons, counted apart in int8 (at most six
            # terms, all of one sign) and added once.
            whole = np.zeros(total.shape, np.int8)
            hands = members[rows]
            for k, positions, table in self.terms:
                ids = set_ids(hands[:, positions])
                if k + s < a:  # "at least rank" and "at least rank + 1" side by side
                    at = ids * WIDTH + rank
                    got = np.take(table, np.stack([at, at + 1], axis=1), axis=0)
                    signed = np.subtract if k % 2 else np.add
                    signed(total, got.reshape(total.shape), out=total)
                else:
                    got = np.take(table, ids, axis=0)
                    whole[:, 0] += (got >= rank[:, None]).view(np.int8)
                    whole[:, 1] += (got > rank[:, None]).view(np.int8)
            signed = np.subtract if (a - s) % 2 else np.add
            signed(total, whole, out=total)
            if s:
                by_card = total.reshape(len(rank), 2, sets.n, self.known)
                for column in range(HAND_SIZE):
                    by_card[np.arange(len(rank)), :, hands[:, column]] = 0


def _stacked(tables: Sequence[KnownTables], k: int, s: int) -> np.ndarray:
    """A's counts for the sets ``V + S`` (``|V| = k``, ``S`` every card or the empty set),
    the known hands side by side in each row.

    If ``V + S`` is smaller than the draw: rows ``V * WIDTH + t`` of ``(S, known hand)``,
    A's draws containing ``V + S`` ranked at least ``t`` (rows ``t`` and ``t + 1`` side by
    side: a tie-or-win and a win).  If it is the whole draw:
    rows ``V`` of ``(S, known hand)``, A's ranks (-1 where ``S`` is in ``V``: no set).
    """
    first = tables[0]
    sets, j = first.sets, k + s
    ids = sets.plus[k][:-1] if s else np.arange(sets.counts[k])[:, None]
    if j == first.a:
        ranks = np.stack([table.rank_a[ids] for table in tables], axis=-1)
        return ranks.astype(np.int16).reshape(len(ids), -1)
    most = comb(sets.n - j, first.a - j)  # draws containing a set of j cards
    dtype = np.int8 if most < 1 << 7 else np.int16 if most < 1 << 15 else np.int32
    out = np.empty((len(ids), WIDTH, ids.shape[1], len(tables)), dtype)
    step = max(1, CHUNK // (ids.shape[1] * WIDTH))
    for i, table in enumerate(tables):
        for start in range(0, len(ids), step):
            part = table.at_least_a[j][ids[start : start + step]]
            out[start : start + step, :, :, i] = part.transpose(0, 2, 1)
    return out.reshape(len(ids) * WIDTH, -1)


def upward(sets: StubSets, start: np.ndarray, size: int) -> dict[int, np.ndarray]:
    """Sums over supersets: from level ``size`` (``start``), level ``k`` holds ``sum over
    Y ⊇ Z`` of the top level, for every ``Z`` of ``k`` cards, each with a zero last row.
    Level ``k`` is ``sum over c`` of level ``k + 1`` at ``Z + c``, which reaches each ``Y``
    through its ``4 - k`` cards outside ``Z``: hence the exact division."""
    levels = {size: start}
    for k in range(size - 1, 0, -1):
        above = levels[k + 1]
        flat = above.reshape(len(above), -1)
        level = np.zeros((sets.counts[k] + 1, flat.shape[1]), np.int64)
        plus = sets.plus[k][:-1]
        step = max(1, CHUNK // flat.shape[1])
        for begin in range(0, len(plus), step):
            ids = plus[begin : begin + step]
            part = level[begin : begin + len(ids)]
            for column in range(sets.n):
                np.add(part, flat[ids[:, column]], out=part)
        if k < HAND_SIZE - 1:
            level //= HAND_SIZE - k
        levels[k] = level.reshape(len(level), *above.shape[1:])
    return levels
