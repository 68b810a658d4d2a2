"""The counts of :mod:`.unknown` that depend on the known hand: its tables, and ``F(Z, S)``
over B's final hands or over A's completions (see the module docstring there).

Every function here takes several known hands drawing the same number of cards: the sets
looked up are the same for all of them, only A's ranks differ.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from handsolver.models.badugi import HAND_SIZE
from handsolver.models.cards import Card
from handsolver.solver.badugi.exact import final_keys, key_table
from handsolver.solver.badugi.stub_sets import beating, superset_counts

if TYPE_CHECKING:
    from handsolver.solver.badugi.unknown import UnknownOpponent

CHUNK = 1 << 18  # rows of intermediate arrays at a time: a few MB, so passes stay in cache
WIDTH = 1092 + 2  # ranks, one past them (a comparison), and one more (ties)


@cache
def _all_keys() -> np.ndarray:
    """Every distinct badugi key of four cards, ascending (1,092 of them)."""
    return np.unique(key_table())


def key_ranks(keys: np.ndarray) -> np.ndarray:
    """Each key's place among :func:`_all_keys`."""
    out: np.ndarray = np.searchsorted(_all_keys(), keys)
    return out


class KnownTables:
    """The counts over supersets for one known hand against an :class:`UnknownOpponent`."""

    def __init__(self, opponent: UnknownOpponent, keep_a: Sequence[Card], a: int) -> None:
        self.sets, self.a = opponent.sets, a
        self.rank_b, self.below_b = opponent.rank_b, opponent.below_b
        rank_a = key_ranks(final_keys(keep_a, opponent.cards[self.sets.members[a]]))
        self.rank_a = np.append(rank_a, -1)  # "no set": never at least anything
        # at_least_a[k][v, y]: A's draws containing set v (of k cards) ranked at least y.
        self.at_least_a = superset_counts(self.sets, a, rank_a, WIDTH, above=True)
        self._small: dict[int, list[list[np.ndarray]]] = {}

    # --- the two sides' look-ups: wins, and wins or ties ------------------------------------

    def _a_side(self, k: int, ids: np.ndarray, b_rank: np.ndarray) -> tuple[np.ndarray, ...]:
        """A's draws containing set ``ids`` (of ``k`` cards) that beat, and that beat or tie,
        a hand of rank ``b_rank``."""
        if k < self.a:
            return beating(self.at_least_a[k], ids, b_rank)
        rank = self.rank_a[ids]
        return rank > b_rank, rank >= b_rank

    # --- |S| <= 1: over B's final hands ------------------------------------------------------

    def _w_empty(self) -> list[np.ndarray]:
        """``W(∅, Y)`` for every ``Y``: A's draws missing ``Y`` that win (tie or win)."""
        sets = self.sets
        b_rank = self.rank_b[:-1]
        out = [np.zeros(sets.counts[HAND_SIZE], dtype=np.int64) for _ in range(2)]
        for k in range(min(self.a, HAND_SIZE) + 1):
            for positions in combinations(range(HAND_SIZE), k):
                ids = sets.subset_ids(HAND_SIZE, positions)
                for shift, counts in enumerate(self._a_side(k, ids, b_rank)):
                    out[shift] += (-1) ** k * counts
        return out

    def _upward(self, top: list[np.ndarray]) -> list[list[np.ndarray]]:
        """Sums over supersets: level ``k`` holds ``sum over Y ⊇ Z`` of the top level, for every
        ``Z`` of ``k`` cards (each ``Y`` is reached through ``4 - k`` cards, hence the
        division)."""
        sets = self.sets
        levels: list[list[np.ndarray]] = [[] for _ in range(HAND_SIZE + 1)]
        levels[HAND_SIZE] = top
        for k in range(HAND_SIZE - 1, 0, -1):
            for shift in range(2):
                above = levels[k + 1][shift]
                padded = np.concatenate([above, np.zeros((1, *above.shape[1:]), above.dtype)])
                plus = sets.plus[k][:-1]
                level = np.zeros((len(plus), *above.shape[1:]), dtype=np.int64)
                step = max(1, CHUNK // (sets.n * max(1, above[0].size)))
                for start in range(0, len(plus), step):
                    level[start : start + step] = padded[plus[start : start + step]].sum(axis=1)
                levels[k].append(level // (HAND_SIZE - k))
        return levels


def counts_over_hands(
    tables: Sequence[KnownTables], z: int, s: int, z_ids: np.ndarray, s_ids: np.ndarray
) -> list[np.ndarray]:
    """``F(Z, S)`` for ``|S| <= 1``, win and win-or-tie, ``(2, queries)`` for each of
    ``tables`` (known hands drawing the same number of cards): over B's final hands."""
    if s not in tables[0]._small:
        tops = _w_cards(tables) if s else [table._w_empty() for table in tables]
        for table, top in zip(tables, tops, strict=True):
            table._small[s] = table._upward(top)
    out = []
    for table in tables:
        level = table._small[s][z]
        out.append(
            np.stack(
                [level[shift][z_ids, s_ids] if s else level[shift][z_ids] for shift in range(2)]
            )
        )
    return out


def _w_cards(tables: Sequence[KnownTables]) -> list[list[np.ndarray]]:
    """``W({x}, Y)`` for every ``Y`` and card ``x``, ``(C(n, 4), n)`` per shift, for each of
    ``tables``: A's draws holding ``x`` that miss ``Y`` and win (tie or win).  The sets looked
    up are the same for every known hand.

    An entry is at most ``C(n - 1, a - 1) <= C(47, 3)`` and a partial sum at most 11 times
    that, so int32 holds them.
    """
    first = tables[0]
    sets, a = first.sets, first.a
    members = sets.members[HAND_SIZE]
    outs = [
        [np.zeros((sets.counts[HAND_SIZE], sets.n), dtype=np.int32) for _ in range(2)]
        for _ in tables
    ]
    subsets = [
        (k, sets.subset_ids(HAND_SIZE, positions))
        for k in range(a)
        for positions in combinations(range(HAND_SIZE), k)
    ]
    step = max(1, CHUNK // sets.n)
    for start in range(0, len(members), step):
        rows = slice(start, start + step)
        b_rank = first.rank_b[:-1][rows, None]
        for k, ids in subsets:
            with_card = sets.plus[k][ids[rows]]  # the set V + x
            # The place in A's table is the same for every known hand: computed once here
            # rather than through stub_sets.beating for each.
            at = with_card * WIDTH + b_rank if k + 1 < a else with_card
            for table, out in zip(tables, outs, strict=True):
                if k + 1 < a:
                    flat = table.at_least_a[k + 1].ravel()
                    counts = (flat[1:][at], flat[at])
                else:  # V + x is A's whole draw
                    rank = table.rank_a[at]
                    counts = (rank > b_rank, rank >= b_rank)
                signed = np.subtract if k % 2 else np.add
                for shift in range(2):
                    signed(out[shift][rows], counts[shift], out=out[shift][rows])
        inside = (members[rows, :, None] == np.arange(sets.n)).any(axis=1)
        for out in outs:
            for shift in range(2):
                out[shift][rows][inside] = 0
    return outs


def counts_over_draws(
    tables: Sequence[KnownTables], z: int, s: int, z_ids: np.ndarray, s_ids: np.ndarray
) -> list[np.ndarray]:
    """``F(Z, S)`` for ``|S| >= 2``, win and win-or-tie, ``(2, queries)`` for each of
    ``tables`` (known hands drawing the same number of cards).

    For each query, every completion ``D = S + D'`` clear of ``Z``, and B's hands ``Y ⊇ Z``
    that miss ``D`` and lose: inclusion-exclusion over ``U ⊆ D``.  The sets ``Z + U`` and the
    places of their rows in B's tables are the same for every known hand; only A's rank of
    ``D`` differs.
    """
    first = tables[0]
    sets, a = first.sets, first.a
    rank_b, below_b = first.rank_b, first.below_b
    plus = sets.plus
    m = a - s  # cards A still draws
    completions = sets.members[m]
    s_cards = sets.members[s][s_ids]
    # Z + U for every U ⊆ S small enough, per query: {U (positions in S): ids}.
    bases: dict[tuple[int, ...], np.ndarray] = {(): z_ids}
    for k in range(1, min(s, HAND_SIZE - z) + 1):
        for positions in combinations(range(s), k):
            bases[positions] = plus[z + k - 1][bases[positions[:-1]], s_cards[:, positions[-1]]]
    # (size of Z + U, sign) of each term, in the order the loop below builds them.
    terms = [
        (z + len(held) + k, -1 if (len(held) + k) % 2 else 1)
        for held in bases
        for k in range(0, min(m, HAND_SIZE - z - len(held)) + 1)
        for _ in combinations(range(m), k)
    ]
    # Flat views of B's tables: "below x" at row * width + x, "below x + 1" one place on.
    flats = [(table.ravel(), table.ravel()[1:]) for table in below_b]
    outs = [np.zeros((2, len(z_ids)), dtype=np.int64) for _ in tables]
    step = max(1, CHUNK // (len(completions) * len(tables)))
    for start in range(0, len(z_ids), step):
        rows = np.arange(start, min(start + step, len(z_ids)))
        whole, clear = s_ids[rows, None], z_ids[rows, None]
        for j in range(m):
            whole = plus[s + j][whole, completions[:, j]]
            clear = plus[z + j][clear, completions[:, j]]
        query, completion = np.nonzero((whole != sets.counts[a]) & (clear != sets.counts[z + m]))
        whole = whole[query, completion]
        a_ranks = [table.rank_a[whole] for table in tables]
        query_rows = rows[query]
        drawn = completions[completion]
        # totals[t][shift]: the signed sum of the terms for known hand t, per (query, D').
        totals = [np.zeros((2, len(query)), dtype=np.int64) for _ in tables]
        ids = iter(_grown_ids(plus, z, m, bases, query_rows, drawn))
        for size, sign in terms:
            grown = next(ids)
            signed = np.add if sign > 0 else np.subtract
            # B's row is the same for every known hand: its place is computed once here rather
            # than through stub_sets.losing for each.
            at = grown * below_b[size].shape[1] if size < HAND_SIZE else rank_b[grown]
            for a_rank, total in zip(a_ranks, totals, strict=True):
                if size < HAND_SIZE:
                    place = at + a_rank
                    both = [flat[place] for flat in flats[size]]
                else:
                    both = [at < a_rank, at <= a_rank]
                for shift, counts in enumerate(both):
                    signed(total[shift], counts, out=total[shift])
        for out, total in zip(outs, totals, strict=True):
            for shift in range(2):
                out[shift, rows] = np.bincount(query, total[shift], minlength=len(rows))
    return outs


def _grown_ids(
    plus: list[np.ndarray],
    z: int,
    m: int,
    bases: dict[tuple[int, ...], np.ndarray],
    query_rows: np.ndarray,
    drawn: np.ndarray,
) -> Iterator[np.ndarray]:
    """The ids of ``Z + U`` for each term of :func:`counts_over_draws`: for each ``U ∩ S`` (the keys
    of ``bases``), ``U ∩ D'`` of every size that fits, built one card at a time."""
    for held, base in bases.items():
        grown: dict[tuple[int, ...], np.ndarray] = {(): base[query_rows]}
        for k in range(0, min(m, HAND_SIZE - z - len(held)) + 1):
            for extra in combinations(range(m), k):
                if extra:
                    grown[extra] = plus[z + len(held) + k - 1][
                        grown[extra[:-1]], drawn[:, extra[-1]]
                    ]
                yield grown[extra]
