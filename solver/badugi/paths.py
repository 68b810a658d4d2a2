"""Exact heads-up equity with two or three draws left, both hands known, where the card
sequences are few enough to list one player at a time.

A known hand plays its draws by its rule: a *path* is its draws ``(D1, ..., Dd)``, with their
card set ``U = D1 + ... + Dd``, their sizes (the path's signature) and the final key.  Both
players draw from one stub without replacement, so two paths can happen together exactly when
their card sets are disjoint, and the pair's probability is a product over the rounds,
``1 / (C(m, |D_r|) C(m - |D_r|, |E_r|))`` with ``m`` the cards left before round ``r`` — it
depends on the two signatures only.  The count is therefore, for each pair of signatures, the
disjoint pairs with A's key above (equal to) B's: the one-draw count of :mod:`.exact` with card
sets in place of draws, by inclusion-exclusion over the cards two paths could share.

The paths multiply with the cards drawn (a hand drawing one card on each of three draws has at
most 44 x 43 x 42 of them, one drawing three on two draws about 1.4 x 10**8), so the count is
exact only when both players' paths fit :data:`PATH_LIMIT` and the entries of the count fit
:data:`ENTRY_LIMIT` (about a second); otherwise the spot is estimated.

>>> from handsolver.models.badugi_draw import parse_situation
>>> spot = parse_situation(["Ac 2d 3h Kh", "5c 6d 7h 8h"], draws=2)
>>> counts = path_counts(spot)
>>> counts is not None and (counts.win + counts.tie + counts.loss, counts.sequences)
(Fraction(1, 1), 1965651)
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING, NamedTuple

from handsolver.models.badugi import HAND_SIZE
from handsolver.models.badugi_draw import DrawRule, Situation, keep_masks
from handsolver.models.cards import Card
from handsolver.solver.badugi.exact import ExactShares

if TYPE_CHECKING:
    import numpy as np

PATH_LIMIT = 400_000  # paths per player, listed
ENTRY_LIMIT = 16_000_000  # (shared set, key) entries sorted and searched: ~1 s, ~450 MB
_MOST_SHARED = 7  # a shared set is coded in base 53 below 2**63 only up to seven cards


class _Paths(NamedTuple):
    cards: np.ndarray  # (paths, |U|) the cards drawn, ascending
    keys: np.ndarray  # (paths,) the final keys


def draw_paths(
    hand: tuple[Card, ...],
    rule: DrawRule,
    stub: tuple[Card, ...],
    draws: int,
    first_keep: tuple[Card, ...] | None = None,
) -> dict[tuple[int, ...], _Paths] | None:
    """Every path of ``hand`` over ``draws`` draws from ``stub``, by signature; ``None`` when
    there are more than :data:`PATH_LIMIT`.  ``first_keep`` overrides the rule on the first
    draw (the best-discard table)."""
    import numpy as np

    from handsolver.models.badugi import badugi_keys
    from handsolver.solver.badugi.exact import draw_combinations

    cards = np.array(sorted(stub), dtype=np.int64)
    states: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {
        (): (np.array([hand], dtype=np.int64), np.zeros((1, 0), dtype=np.int64))
    }
    for draw in range(draws):
        grown: dict[tuple[int, ...], list[tuple[np.ndarray, np.ndarray]]] = {}
        for signature, (hands, used) in states.items():
            if draw == 0 and first_keep is not None:
                kept = np.isin(hands, np.array(first_keep, dtype=np.int64))
            else:
                kept = keep_masks(rule, hands, draw)
            sizes = HAND_SIZE - kept.sum(axis=1)
            for size in np.unique(sizes).tolist():
                rows = np.flatnonzero(sizes == size)
                if len(rows) * comb(len(cards) - used.shape[1], size) > PATH_LIMIT:
                    return None
                held = hands[rows][kept[rows]].reshape(len(rows), HAND_SIZE - size)
                fresh = draw_combinations(cards.tolist(), size)
                taken = (fresh[None, :, :, None] == used[rows][:, None, None, :]).any(axis=(2, 3))
                row, combo = np.nonzero(~taken)
                new_hands = np.hstack([held[row], fresh[combo]])
                new_used = np.hstack([used[rows][row], fresh[combo]])
                grown.setdefault((*signature, size), []).append((new_hands, new_used))
        states = {
            signature: (np.vstack([h for h, _ in parts]), np.vstack([u for _, u in parts]))
            for signature, parts in grown.items()
        }
        if sum(len(hands) for hands, _ in states.values()) > PATH_LIMIT:
            return None
    return {
        signature: _Paths(np.sort(used, axis=1), badugi_keys(hands))
        for signature, (hands, used) in states.items()
    }


def path_counts(spot: Situation, first_keep: tuple[Card, ...] | None = None) -> ExactShares | None:
    """The first player's exact shares, heads-up with both hands known and any draws left, or
    ``None`` when either player has too many paths (or two paths could share too many cards)."""
    if len(spot.hands) != 2 or None in spot.hands:
        return None
    return _path_counts(spot, first_keep)


@lru_cache(maxsize=32)
def _path_counts(spot: Situation, first_keep: tuple[Card, ...] | None) -> ExactShares | None:
    from handsolver.solver.badugi.exact import disjoint_counts

    hand_a, hand_b = spot.hands
    assert hand_a is not None and hand_b is not None
    paths_a = draw_paths(hand_a, spot.rules[0], spot.stub, spot.draws, first_keep)
    paths_b = draw_paths(hand_b, spot.rules[1], spot.stub, spot.draws) if paths_a else None
    if paths_a is None or paths_b is None:
        return None
    entries = 0
    for a in paths_a.values():
        for b in paths_b.values():
            most = min(a.cards.shape[1], b.cards.shape[1])
            if most > _MOST_SHARED:
                return None
            subsets = sum(comb(most, k) for k in range(most + 1))
            entries += (len(a.keys) + len(b.keys)) * subsets
    if entries > ENTRY_LIMIT:
        return None
    win = tie = Fraction(0)
    sequences = 0
    n = len(spot.stub)
    for signature_a, a in paths_a.items():
        for signature_b, b in paths_b.items():
            counts = disjoint_counts(a.cards, a.keys, b.cards, b.keys)
            weight = Fraction(1)
            left = n
            for drawn_a, drawn_b in zip(signature_a, signature_b, strict=True):
                weight /= comb(left, drawn_a) * comb(left - drawn_a, drawn_b)
                left -= drawn_a + drawn_b
            win += counts.win * weight
            tie += counts.tie * weight
            sequences += counts.total
    return ExactShares(win, tie, 1 - win - tie, sequences)
