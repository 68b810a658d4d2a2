"""Exact heads-up equity with one draw left, counting every replacement with card removal.

Player A keeps ``keep_a`` and draws ``a`` cards from the stub; player B keeps ``keep_b`` and
draws ``b`` of the cards left.  Every pair of disjoint draws ``(D, E)`` is one equally likely
card sequence, ``C(n, a) * C(n - a, b)`` of them for a stub of ``n`` cards.

Counting pairs one by one is ``C(44, 3)**2 = 175`` million comparisons for two three-card
draws.  Card removal is the only link between the two draws, so it is counted by
inclusion-exclusion over the cards they share instead:

    sum over disjoint (D, E) of f(D, E)
        = sum over sets S of (-1)**|S| * sum over D ⊇ S, E ⊇ S of f(D, E)

and with ``f`` a comparison of the two final keys, the inner sum is, for each draw ``D``, the
number of draws ``E ⊇ S`` with a smaller (equal) key: a binary search in B's draws sorted by
``(S, key)``.  Each draw of ``k`` cards takes part in ``2**k`` sets ``S``, so the work is
``O(8 * C(n, 3) * log)`` rather than ``C(n, 3)**2``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import chain, combinations
from typing import TYPE_CHECKING, NamedTuple

from handsolver.models.cards import Card

if TYPE_CHECKING:
    import numpy as np

# A shared set S of up to four cards is coded in base 53 (card + 1 per digit, 0 = none); the
# key goes below it, in the 19 bits a badugi key needs.
_BASE = 53
_KEY_BITS = 19


class ExactShares(NamedTuple):
    """The first player's exact win, tie and loss probabilities, and the card sequences
    counted (against an unknown hand, or over more than one draw)."""

    win: Fraction
    tie: Fraction
    loss: Fraction
    sequences: int


class Counts(NamedTuple):
    """Card sequences counted from the first player's side: won, tied, lost, and all of them."""

    win: int
    tie: int
    loss: int
    total: int

    def swapped(self) -> Counts:
        """The same counts from the other player's side."""
        return Counts(self.loss, self.tie, self.win, self.total)


def draw_combinations(stub: Sequence[Card], size: int) -> np.ndarray:
    """Every ``size``-card draw from ``stub`` as rows of an int64 array, cards ascending."""
    import numpy as np

    if size == 0:
        return np.zeros((1, 0), dtype=np.int64)  # standing pat: one empty draw
    cards = sorted(stub)
    flat = np.fromiter(chain.from_iterable(combinations(cards, size)), dtype=np.int64)
    return flat.reshape(-1, size)


def final_keys(keep: Sequence[Card], draws: np.ndarray) -> np.ndarray:
    """The badugi key of ``keep`` plus each row of ``draws``."""
    import numpy as np

    kept = np.broadcast_to(np.array(keep, dtype=np.int64), (len(draws), len(keep)))
    hands = np.hstack([kept, draws])
    if len(hands) < 50_000:
        from handsolver.models.badugi import badugi_keys

        return badugi_keys(hands)
    keys: np.ndarray = key_table()[colex_index(hands)]
    return keys


def colex_index(hands: np.ndarray) -> np.ndarray:
    """Each 4-card hand's place among all ``C(52, 4)`` in colexicographic order."""
    import numpy as np

    from handsolver.solver.badugi.stub_sets import set_ids

    return set_ids(np.sort(hands, axis=1))


@cache
def key_table() -> np.ndarray:
    """The badugi key of every 4-card hand, by :func:`colex_index` (built once, ~0.03 s)."""
    from handsolver.models.badugi import badugi_keys
    from handsolver.solver.badugi.stub_sets import colex_sets

    table: np.ndarray = badugi_keys(colex_sets(52, 4))  # row i has colex_index i
    return table


def shared_entries(draws: np.ndarray, keys: np.ndarray, most: int) -> tuple[np.ndarray, np.ndarray]:
    """For each draw and each set S of at most ``most`` of its cards: the code of ``(S, key)``
    and the inclusion-exclusion sign ``(-1)**|S|``."""
    import numpy as np

    size = draws.shape[1]
    codes, signs = [], []
    for shared in range(min(most, size) + 1):
        for positions in combinations(range(size), shared):
            code = np.zeros(len(draws), dtype=np.int64)
            for digit, position in enumerate(positions):
                code += (draws[:, position] + 1) * _BASE**digit
            codes.append(code << _KEY_BITS | keys)
            signs.append(np.full(len(draws), -1 if shared % 2 else 1, dtype=np.int64))
    return np.concatenate(codes), np.concatenate(signs)


def keyed_draws(
    stub: Sequence[Card], keep: Sequence[Card], draw: int
) -> tuple[np.ndarray, np.ndarray]:
    """Every draw of ``draw`` cards from ``stub`` and the key it makes with ``keep``."""
    draws = draw_combinations(stub, draw)
    return draws, final_keys(keep, draws)


def one_draw_counts(
    stub: Sequence[Card],
    keep_a: Sequence[Card],
    draw_a: int,
    keep_b: Sequence[Card],
    draw_b: int,
) -> Counts:
    """Exact counts of A's wins, ties and losses over every pair of disjoint draws.

    >>> from handsolver.models.cards import parse_cards
    >>> seen = parse_cards("Ac 2d 3h Ks 5c 6d 7h 8h")
    >>> stub = [card for card in range(52) if card not in seen]
    >>> one_draw_counts(stub, parse_cards("Ac 2d 3h"), 1, parse_cards("5c 6d 7h"), 1)
    Counts(win=1550, tie=0, loss=342, total=1892)
    """
    draws_a, keys_a = keyed_draws(stub, keep_a, draw_a)
    draws_b, keys_b = keyed_draws(stub, keep_b, draw_b)
    return disjoint_counts(draws_a, keys_a, draws_b, keys_b)


def disjoint_counts(
    draws_a: np.ndarray, keys_a: np.ndarray, draws_b: np.ndarray, keys_b: np.ndarray
) -> Counts:
    """A's wins, ties and losses over every pair of rows, one of A's and one of B's, that share
    no card: rows are card sets (ascending, one size per side), each with its final key."""
    import numpy as np

    most = min(draws_a.shape[1], draws_b.shape[1])
    codes_a, signs_a = shared_entries(draws_a, keys_a, most)
    codes_b, _ = shared_entries(draws_b, keys_b, most)
    codes_b.sort()
    # Equal (S, key) entries of A ask the same question once, with their signs summed.
    unique_a, inverse = np.unique(codes_a, return_inverse=True)
    weight = np.bincount(inverse.ravel(), weights=signs_a).astype(np.int64)
    low = unique_a >> _KEY_BITS << _KEY_BITS
    start = np.searchsorted(codes_b, low, side="left")
    below = np.searchsorted(codes_b, unique_a, side="left")
    through = np.searchsorted(codes_b, unique_a, side="right")
    end = np.searchsorted(codes_b, low + (1 << _KEY_BITS), side="left")
    win = int(weight @ (below - start))
    tie = int(weight @ (through - below))
    total = int(weight @ (end - start))
    return Counts(win, tie, total - win - tie, total)
