"""One known hand's side of the count against an unknown hand (:mod:`.unknown`): each final
key's rank among every Badugi key, and the known hand's counts over supersets of stub cards.

:mod:`.unknown_hands` and :mod:`.unknown_tables` read these tables; :mod:`.unknown` builds them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Protocol

import numpy as np

from handsolver.models.cards import Card
from handsolver.solver.badugi.exact import final_keys, key_table
from handsolver.solver.badugi.stub_sets import StubSets, superset_counts

WIDTH = 1092 + 2  # ranks, one past them (a comparison), and one more (ties)


class Opponent(Protocol):
    """What a known hand's tables need of the unknown hand (:class:`.unknown.UnknownOpponent`)."""

    cards: np.ndarray
    sets: StubSets
    rank_b: np.ndarray
    below_b: list[np.ndarray]


@cache
def _all_keys() -> np.ndarray:
    """Every distinct badugi key of four cards, ascending (1,092 of them)."""
    return np.unique(key_table())


def key_ranks(keys: np.ndarray) -> np.ndarray:
    """Each key's place among :func:`_all_keys`."""
    out: np.ndarray = np.searchsorted(_all_keys(), keys)
    return out


class KnownTables:
    """The counts over supersets for one known hand against an unknown one (:class:`Opponent`)."""

    def __init__(self, opponent: Opponent, keep_a: Sequence[Card], a: int) -> None:
        self.sets, self.a = opponent.sets, a
        self.rank_b, self.below_b = opponent.rank_b, opponent.below_b
        rank_a = key_ranks(final_keys(keep_a, opponent.cards[self.sets.members[a]]))
        self.rank_a = np.append(rank_a, -1)  # "no set": never at least anything
        # at_least_a[k][v, y]: A's draws containing set v (of k cards) ranked at least y.
        self.at_least_a = superset_counts(self.sets, a, rank_a, WIDTH, above=True)
        # The sums over B's hands, by |S|, for the known hands first stacked with this one.
        self._over_hands: dict[int, tuple[tuple[KnownTables, ...], dict[int, np.ndarray]]] = {}
