"""Exact heads-up equity with one draw left against an unknown hand, when the known player draws
at most one card.

The unknown hand ``H`` is dealt from the stub ``Σ`` (``n`` cards), its rule keeps ``K ⊆ H`` and
throws ``X = H - K`` (``b`` cards), the known player draws ``d`` (at most one card) from
``Σ - H``, and the unknown player draws ``E`` (``b`` cards) from what is left.  Every ``(H, d,
E)`` with the same ``b`` has the same probability, ``1 / (C(n, 4) C(n-4, a) C(n-4-a, b))``.

Enumerating them is about 10**8 sequences.  The count runs over the pairs ``(K, E)`` instead
(about two million: the unknown player's kept cards and draw), with the thrown cards ``X``
counted, not listed:

- ``N_K(T)``, the number of hands that keep ``K`` and throw a superset of ``T``, is tabulated
  once from the ``C(n, 4)`` hands;
- the throws that avoid ``E`` number ``c_K(E) = Σ_{T ⊆ E} (-1)^|T| N_K(T)``;
- for each such throw, the known player's winning draws are the winning cards of ``Σ`` less
  the final hand ``Y = K + E`` and less ``X``.  Summed over the throws, the cards of ``X`` that
  would have won are ``Σ_{T ⊆ E} (-1)^|T| G_{K,T}(g)`` with ``G_{K,T}(g) = Σ_x N_K(T + x)
  [f(x) > g]``, a prefix sum over a table sorted by ``(K, T, f(x))``, less the terms with ``x``
  in ``E``.

So every count is a few table look-ups per ``(K, E)``, and the answer is exact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, NamedTuple

from handsolver.models.badugi import HAND_SIZE
from handsolver.models.badugi_draw import DrawRule, keep_masks
from handsolver.models.cards import Card
from handsolver.solver.badugi.exact import draw_combinations, final_keys

if TYPE_CHECKING:
    import numpy as np

_BASE = 53
_T_SPACE = _BASE**3  # a thrown subset T has at most three cards (a hand keeps at least one)
_KEY_SPACE = 1 << 19
MOST_DRAWN = 1  # the known player's largest draw this method counts


class UnknownCounts(NamedTuple):
    """The known player's win, tie and loss probabilities, and the sequences counted."""

    win: Fraction
    tie: Fraction
    loss: Fraction
    sequences: int


def _codes(cards: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Base-53 codes of the masked cards of each row, in row order (a set's code)."""
    import numpy as np

    digit = np.cumsum(mask, axis=1) - 1
    terms = np.where(mask, (cards + 1) * _BASE ** np.maximum(digit, 0), 0)
    out: np.ndarray = terms.sum(axis=1)
    return out


def _lookup(keys: np.ndarray, values: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """``values`` at ``queries`` in the sorted ``keys``, 0 where a query is absent."""
    import numpy as np

    at = np.searchsorted(keys, queries)
    at = np.minimum(at, len(keys) - 1)
    found = keys[at] == queries
    out: np.ndarray = np.where(found, values[at], 0)
    return out


def unknown_counts(
    stub: Sequence[Card],
    keep_a: Sequence[Card],
    draw_a: int,
    rule_b: DrawRule,
    progress: Callable[[Iterable[int], int, str], Iterable[int]] | None = None,
) -> UnknownCounts:
    """The known player's exact shares against an unknown hand playing ``rule_b``.

    >>> from handsolver.models.cards import parse_cards
    >>> hand = parse_cards("Ac 2d 3h Kh")
    >>> stub = [card for card in range(52) if card not in hand]
    >>> unknown_counts(stub, parse_cards("Ac 2d 3h"), 1, DrawRule()).sequences
    4060842368

    ``progress`` wraps the loop over the unknown hand's draw sizes (a progress bar).
    """
    import numpy as np

    if draw_a > MOST_DRAWN:
        raise ValueError(f"counts a known draw of at most {MOST_DRAWN} card, not {draw_a}")
    n = len(stub)
    cards = np.array(sorted(stub), dtype=np.int64)
    hands = draw_combinations(cards.tolist(), HAND_SIZE)
    kept = keep_masks(rule_b, hands, 0)
    k_codes = _codes(hands, kept)
    k_unique, k_first, k_id = np.unique(k_codes, return_index=True, return_inverse=True)
    k_id = k_id.ravel()
    k_size = kept[k_first].sum(axis=1)

    # N_K(T) for every hand's K and every subset T of its throw.
    entries = []
    for size in range(HAND_SIZE + 1):
        for positions in combinations(range(HAND_SIZE), size):
            chosen = np.zeros((len(hands), HAND_SIZE), dtype=bool)
            chosen[:, list(positions)] = True
            rows = np.flatnonzero((chosen & ~kept).sum(axis=1) == size)
            entries.append(k_id[rows] * _T_SPACE + _codes(hands[rows], chosen[rows]))
    n_keys, n_counts = np.unique(np.concatenate(entries), return_counts=True)

    # The known player's key with each card of the stub (or alone, standing pat).
    if draw_a:
        card_keys = np.zeros(52, dtype=np.int64)
        card_keys[cards] = final_keys(keep_a, cards.reshape(-1, 1))
        sorted_keys = np.sort(card_keys[cards])
        g_table = _g_table(n_keys, n_counts, card_keys)
    else:
        (pat_key,) = final_keys(keep_a, np.zeros((1, 0), dtype=np.int64))

    win = tie = Fraction(0)
    sequences = 0
    sizes: Iterable[int] = sorted(set((HAND_SIZE - k_size).tolist()))
    if progress is not None:
        sizes = progress(sizes, len(list(sizes)), "draw sizes")
    for b in sizes:
        ks = np.flatnonzero(HAND_SIZE - k_size == b)
        keep_cards = np.sort(np.where(kept[k_first[ks]], hands[k_first[ks]], 99), axis=1)[
            :, : HAND_SIZE - b
        ]
        draws = draw_combinations(cards.tolist(), b)
        # Every (K, E) with E clear of K.
        pair_k = np.repeat(np.arange(len(ks)), len(draws))
        pair_e = np.tile(np.arange(len(draws)), len(ks))
        clear = ~(draws[pair_e][:, :, None] == keep_cards[pair_k][:, None, :]).any(axis=(1, 2))
        pair_k, pair_e = pair_k[clear], pair_e[clear]
        kid = ks[pair_k]
        e_cards = draws[pair_e]
        finals = np.hstack([keep_cards[pair_k], e_cards])
        g = final_keys([], finals)
        throws = np.zeros(len(kid), dtype=np.int64)  # c_K(E)
        for size in range(b + 1):
            for positions in combinations(range(b), size):
                code = np.zeros(len(kid), dtype=np.int64)
                for digit, position in enumerate(positions):
                    code += (e_cards[:, position] + 1) * _BASE**digit
                found = _lookup(n_keys, n_counts, kid * _T_SPACE + code)
                throws += -found if size % 2 else found
        sequences_b = int(throws.sum()) * (n - HAND_SIZE - b if draw_a else 1)
        if draw_a:
            won, tied = _one_card_counts(
                kid, e_cards, finals, g, throws, card_keys, sorted_keys, n_keys, n_counts, g_table
            )
        else:
            won = int(throws[pat_key > g].sum())
            tied = int(throws[pat_key == g].sum())
        weight = comb(n, HAND_SIZE) * comb(n - HAND_SIZE, draw_a) * comb(n - HAND_SIZE - draw_a, b)
        win += Fraction(won, weight)
        tie += Fraction(tied, weight)
        sequences += sequences_b
    return UnknownCounts(win, tie, 1 - win - tie, sequences)


class _GTable(NamedTuple):
    """``G_{K,T}(g)`` as prefix sums: entries sorted by ``((K, T), f(x))``."""

    keys: np.ndarray  # (K, T) * KEY_SPACE + f(x), sorted
    cumulative: np.ndarray  # weights summed up to and including each entry


def _g_table(n_keys: np.ndarray, n_counts: np.ndarray, card_keys: np.ndarray) -> _GTable:
    """Entries ``(K, T = R - x, f(x))`` weighted ``N_K(R)`` for every tabulated ``R`` and
    ``x`` in ``R``."""
    import numpy as np

    groups, codes = n_keys // _T_SPACE, n_keys % _T_SPACE
    digits = [(codes // _BASE**i) % _BASE for i in range(3)]  # card + 1, or 0
    parts_key, parts_weight = [], []
    for drop in range(3):
        has = digits[drop] > 0
        rest = np.zeros(len(codes), dtype=np.int64)
        place = 0
        for i in range(3):
            if i == drop:
                continue
            rest += digits[i] * _BASE**place
            place += 1
        x = np.maximum(digits[drop] - 1, 0)
        key = (groups * _T_SPACE + rest) * _KEY_SPACE + card_keys[x]
        parts_key.append(key[has])
        parts_weight.append(n_counts[has])
    keys = np.concatenate(parts_key)
    weights = np.concatenate(parts_weight)
    order = np.argsort(keys, kind="stable")
    return _GTable(keys[order], np.cumsum(weights[order]))


def _g_sums(table: _GTable, group: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``G`` above ``g`` and at ``g`` for each ``(K, T)`` group: weights with ``f(x) > g`` and
    with ``f(x) == g``."""
    import numpy as np

    cumulative = np.concatenate([[0], table.cumulative])
    base = group * _KEY_SPACE
    end = np.searchsorted(table.keys, base + _KEY_SPACE, side="left")
    below = np.searchsorted(table.keys, base + g, side="left")
    through = np.searchsorted(table.keys, base + g, side="right")
    above: np.ndarray = cumulative[end] - cumulative[through]
    equal: np.ndarray = cumulative[through] - cumulative[below]
    return above, equal


def _one_card_counts(
    kid: np.ndarray,
    e_cards: np.ndarray,
    finals: np.ndarray,
    g: np.ndarray,
    throws: np.ndarray,
    card_keys: np.ndarray,
    sorted_keys: np.ndarray,
    n_keys: np.ndarray,
    n_counts: np.ndarray,
    g_table: _GTable,
) -> tuple[int, int]:
    """Wins and ties of a one-card draw over every ``(K, X, E, d)``, summed for these rows."""
    import numpy as np

    # Winning (tying) cards of the stub less the final hand Y.
    final_f = card_keys[finals]
    above = len(sorted_keys) - np.searchsorted(sorted_keys, g, side="right")
    above -= (final_f > g[:, None]).sum(axis=1)
    equal = np.searchsorted(sorted_keys, g, side="right") - np.searchsorted(sorted_keys, g)
    equal -= (final_f == g[:, None]).sum(axis=1)
    won = throws * above
    tied = throws * equal
    # Less the winning (tying) cards of each throw X, summed over the throws avoiding E.
    b = e_cards.shape[1]
    for size in range(b + 1):
        for positions in combinations(range(b), size):
            code = np.zeros(len(kid), dtype=np.int64)
            for digit, position in enumerate(positions):
                code += (e_cards[:, position] + 1) * _BASE**digit
            sign = -1 if size % 2 else 1
            g_above, g_equal = _g_sums(g_table, kid * _T_SPACE + code, g)
            won -= sign * g_above
            tied -= sign * g_equal
            if size:
                # The terms with x in E: R = T here, x one of its cards.
                count = _lookup(n_keys, n_counts, kid * _T_SPACE + code)
                in_f = card_keys[e_cards[:, list(positions)]]
                won -= sign * count * (in_f > g[:, None]).sum(axis=1)
                tied -= sign * count * (in_f == g[:, None]).sum(axis=1)
    return int(won.sum()), int(tied.sum())
