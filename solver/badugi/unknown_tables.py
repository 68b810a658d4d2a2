"""The counts of :mod:`.unknown` that depend on the known hand: its tables, and ``F(Z, S)``
over B's final hands or over A's completions (see the module docstring there).

Every function here takes several known hands drawing the same number of cards: the sets
looked up are the same for all of them, only A's ranks differ.  Over B's hands, the known
hands are stacked on a trailing axis, so that one look-up fetches one contiguous row holding
all of them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

import numpy as np

from handsolver.models.badugi import HAND_SIZE
from handsolver.solver.badugi.known_tables import KnownTables
from handsolver.solver.badugi.unknown_hands import CHUNK, level_three, upward, w_top

# --- |S| <= 1: over B's final hands ----------------------------------------------------------


def counts_over_hands(
    tables: Sequence[KnownTables], z: int, s: int, z_ids: np.ndarray, s_ids: np.ndarray
) -> list[np.ndarray]:
    """``F(Z, S)`` for ``|S| <= 1``, win and win-or-tie, ``(2, queries)`` for each of
    ``tables`` (known hands drawing the same number of cards): the sum over B's final hands
    ``Y ⊇ Z`` of ``W(S, Y)`` (:func:`.unknown_hands.w_top`), taken from the sums' level ``|Z|``."""
    picked = _levels(tables, s)[z][z_ids, :, s_ids]  # (queries, shift, known hand)
    # The levels hold "at least" (win or tie) first, then "above" (win).
    return [picked[:, ::-1, i].T.astype(np.int64) for i in range(len(tables))]


def _levels(tables: Sequence[KnownTables], s: int) -> dict[int, np.ndarray]:
    """:func:`.unknown_hands.upward` of B's top level for ``tables``, kept on the first
    table while the same tables ask (the classes of one ``|S|`` share it).  With one card in
    ``S`` the top level is never held whole: :func:`.unknown_hands.level_three` sums it
    block by block."""
    first = tables[0]
    cached = first._over_hands.get(s)
    if cached is not None and len(cached[0]) == len(tables):
        if all(mine is theirs for mine, theirs in zip(cached[0], tables, strict=True)):
            return cached[1]
    if s:
        levels = upward(first.sets, level_three(tables, s), HAND_SIZE - 1)
    else:
        levels = upward(first.sets, w_top(tables, s), HAND_SIZE)
    first._over_hands[s] = (tuple(tables), levels)
    return levels


# --- |S| >= 2: over A's completions ----------------------------------------------------------


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
    # Queries at a time: a quarter of CHUNK rows per known hand keeps the look-ups in cache.
    step = max(1, CHUNK // (4 * len(completions) * len(tables)))
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
