"""Exact heads-up equity with one draw left against an unknown hand, whatever the known player
draws.

The known player A keeps ``keep_a`` and draws ``D`` (``a`` cards).  The unknown hand ``H`` is
dealt from the stub ``Σ`` (``n`` cards); its rule keeps ``K`` and throws ``X`` (``b`` cards), and
it draws ``E`` (``b`` cards).  ``H``, ``D`` and ``E`` are disjoint, and every such triple with
the same ``b`` has probability ``1 / (C(n, 4) C(n-4, a) C(n-4-a, b))``.  B's final hand is
``Y = K + E``.  Listing the triples is up to 10**13 sequences; the count below never lists
them.

1. **Throws counted, not listed.**  ``D`` must miss ``X``; by inclusion-exclusion over the
   cards ``S`` of ``X`` that ``D`` holds, and over the cards ``T`` of ``E`` that ``X`` would
   hold (``X`` must miss ``E``), every hand's contribution becomes a signed sum over
   ``R ⊆ X`` and ``S ⊆ R`` of one quantity::

       F(Z, S) = #{(Y, D) disjoint : Y ⊇ Z, D ⊇ S, A's key beats B's}

   with ``Z = K + (R - S)`` and sign ``(-1)**|R|`` — a count between two *partly known* hands,
   ``|Z| + |S| <= 4``.  A hand throwing ``b`` cards gives ``3**b`` terms, about a million in
   all, and equal ``(Z, S)`` are merged.
2. **``F`` by the smaller side.** When ``|S| <= 1`` and A still draws a card besides ``S`` (or
   ``|Z|`` and the cards A draws besides ``S`` pass four), ``F`` is a sum over B's final hands
   ``Y ⊇ Z`` of ``W(S, Y)``, the draws of A holding ``S`` that miss ``Y`` and win; ``W`` is
   tabulated for every ``Y`` (and every card ``S``) by inclusion-exclusion over the cards of
   ``Y`` that ``D`` would hold, and summed up to every ``Z`` in one pass per size. Otherwise A's
   side is nearly whole: ``F`` is a sum over A's completions ``D ⊇ S`` of B's hands ``Y ⊇ Z``
   that miss ``D`` and lose, again by inclusion-exclusion over ``D`` (both in
   :mod:`.unknown_tables`). The costliest class, two known cards a side with A drawing four,
   goes by the cards both hands hold instead (:mod:`.unknown_overlap`).
3. **Every look-up is an array index.**  Sets of up to four stub cards are numbered
   (:mod:`.stub_sets`), keys are ranked, and "how many sets of four containing ``V`` rank below
   ``x``" is a table over ``(V, x)`` for each side.  Ties are the same count with the
   comparison moved by one rank.

All counts are integers; the probabilities are exact fractions.
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
from handsolver.solver.badugi.exact import ExactShares

if TYPE_CHECKING:
    import numpy as np

    from handsolver.solver.badugi.stub_sets import StubSets


class _Queries(NamedTuple):
    """The merged ``(Z, S)`` of one size pair, with each throw size's coefficient."""

    z_ids: np.ndarray
    s_ids: np.ndarray
    coefficients: np.ndarray  # (queries, 4): by the unknown hand's throw size b


def unknown_counts(
    stub: Sequence[Card],
    keep_a: Sequence[Card],
    draw_a: int,
    rule_b: DrawRule,
    progress: Callable[[Iterable[int], int, str], Iterable[int]] | None = None,
) -> ExactShares:
    """The known player's exact shares against an unknown hand playing ``rule_b``.

    >>> from handsolver.models.cards import parse_cards
    >>> hand = parse_cards("Ac 2d 3h Kh")
    >>> stub = [card for card in range(52) if card not in hand]
    >>> unknown_counts(stub, parse_cards("Ac 2d 3h"), 1, DrawRule()).sequences
    4060842368

    ``progress`` wraps the loop over the stages of the count (a progress bar).
    """
    if len(keep_a) + draw_a != HAND_SIZE:
        raise ValueError("the known hand keeps and draws four cards in all")
    return UnknownOpponent(stub, rule_b).counts(keep_a, progress)


class UnknownOpponent:
    """An unknown hand dealt from ``stub`` that draws once by ``rule_b``: the part of the count
    every known hand shares (B's hands, kept sets, key ranks and the ``(Z, S)`` asked for)."""

    def __init__(self, stub: Sequence[Card], rule_b: DrawRule) -> None:
        import numpy as np

        from handsolver.solver.badugi.exact import key_table
        from handsolver.solver.badugi.known_tables import WIDTH, key_ranks
        from handsolver.solver.badugi.stub_sets import StubSets, set_ids, superset_counts

        self.cards = np.array(sorted(stub), dtype=np.int64)
        self.sets = sets = StubSets(len(self.cards))
        hands = self.cards[sets.members[HAND_SIZE]]
        kept = keep_masks(rule_b, hands, 0)
        self.throws = np.bincount(HAND_SIZE - kept.sum(axis=1), minlength=HAND_SIZE + 1)
        self.queries = _queries(sets, kept)
        # The rows of hands are ascending, so their numbers over the whole deck index key_table.
        keys = key_table()[set_ids(hands)]
        self.rank_b = np.append(key_ranks(keys), WIDTH)  # "no set": never below
        # below_b[k][v, x]: B's final hands containing set v (of k cards) ranked below x.
        self.below_b = superset_counts(sets, HAND_SIZE, self.rank_b[:-1], WIDTH, above=False)

    def counts(
        self,
        keep_a: Sequence[Card],
        progress: Callable[[Iterable[int], int, str], Iterable[int]] | None = None,
    ) -> ExactShares:
        """The exact shares of a known hand that keeps ``keep_a`` and draws the rest."""
        return self.counts_many([keep_a], progress)[0]

    def counts_many(
        self,
        keeps: Sequence[Sequence[Card]],
        progress: Callable[[Iterable[int], int, str], Iterable[int]] | None = None,
    ) -> list[ExactShares]:
        """:meth:`counts` for each of ``keeps``, in order.  Keeps that draw the same number of
        cards share the index work of the count over A's completions (only A's ranks differ
        between them)."""
        import numpy as np

        from handsolver.solver.badugi.known_tables import KnownTables
        from handsolver.solver.badugi.unknown_overlap import KnownSide, UnknownSide, overlap_counts
        from handsolver.solver.badugi.unknown_tables import counts_over_draws, counts_over_hands

        n = self.sets.n
        most_thrown = max(b for b in range(HAND_SIZE + 1) if self.throws[b])
        by_draw: dict[int, list[int]] = {}
        for index, keep_a in enumerate(keeps):
            a = HAND_SIZE - len(keep_a)
            if n < HAND_SIZE + a + most_thrown:
                raise ValueError(f"{n} cards cannot deal a hand and both draws")
            by_draw.setdefault(a, []).append(index)
        work = [
            (a, key)
            for a in sorted(by_draw)
            for key in sorted(key for key in self.queries if key[1] <= a)  # A's draw holds S
        ]
        stages: Iterable[int] = range(len(work))
        if progress is not None:
            stages = progress(stages, len(work), "stages")
        # totals[index][shifted, b]: wins (or wins and ties) by B's throw size b.
        totals = [np.zeros((2, HAND_SIZE), dtype=object) for _ in keeps]
        tables: dict[int, list[KnownTables]] = {}
        for stage in stages:
            a, (z, s) = work[stage]
            if a not in tables:
                tables = {a: [KnownTables(self, keeps[index], a) for index in by_draw[a]]}
            batch = self.queries[(z, s)]
            if s <= 1 and (a > s or z + a - s > HAND_SIZE):  # over B's hands
                values = counts_over_hands(tables[a], z, s, batch.z_ids, batch.s_ids)
            elif (z, s, a) == (2, 2, HAND_SIZE):  # the costliest class: by the hands' overlap
                values = overlap_counts(
                    self.sets,
                    UnknownSide(self.rank_b, self.below_b),
                    [KnownSide(table.rank_a, table.at_least_a) for table in tables[a]],
                    batch.z_ids,
                    batch.s_ids,
                )
            else:
                values = counts_over_draws(tables[a], z, s, batch.z_ids, batch.s_ids)
            for index, value in zip(by_draw[a], values, strict=True):
                totals[index] += _exact_dot(value, batch.coefficients)
        return [
            self._shares(HAND_SIZE - len(keep_a), total)
            for keep_a, total in zip(keeps, totals, strict=True)
        ]

    def _shares(self, a: int, totals: np.ndarray) -> ExactShares:
        """The probabilities from the summed counts of a known hand drawing ``a`` cards."""
        n = self.sets.n
        win = tie = Fraction(0)
        sequences = 0
        for b in range(HAND_SIZE):
            if not self.throws[b]:
                continue
            deals = comb(n - HAND_SIZE, a) * comb(n - HAND_SIZE - a, b)
            weight = comb(n, HAND_SIZE) * deals
            win += Fraction(int(totals[0][b]), weight)
            tie += Fraction(int(totals[1][b] - totals[0][b]), weight)
            sequences += int(self.throws[b]) * deals
        return ExactShares(win, tie, 1 - win - tie, sequences)


def _exact_dot(values: np.ndarray, coefficients: np.ndarray) -> np.ndarray:
    """``values @ coefficients`` in Python integers: a sum of up to 10**6 products of 10**10
    and 10**4 can pass 2**63.

    ``values`` is cut into base-``2**bits`` digits, with ``bits`` small enough that no sum of a
    digit's products with the coefficients can reach 2**53: each digit is then one float64
    matrix product (BLAS), exact whatever order it adds in, and the digits are put together in
    Python.  (If even one-bit digits could reach it, all of it is done in Python.)

    >>> import numpy as np
    >>> values = np.array([[3, 2**40], [-5, 7]])
    >>> _exact_dot(values, np.array([[1, 0], [-2**30, 2]])).tolist()
    [[-1180591620717411303421, 2199023255552], [-7516192773, 14]]
    """
    import numpy as np

    rows = coefficients.shape[0]
    bound = int(np.abs(coefficients).max(initial=0)) * max(rows, 1)
    bits = 53 - bound.bit_length()
    if bits < 1:
        columns = coefficients.T.tolist()
        return np.array(
            [[sum(map(int.__mul__, row, column)) for column in columns] for row in values.tolist()],
            dtype=object,
        )
    out = np.zeros((values.shape[0], coefficients.shape[1]), dtype=object)
    weights = coefficients.astype(np.float64)

    def product(digit: np.ndarray) -> np.ndarray:
        exact: np.ndarray = (digit.astype(np.float64) @ weights).astype(np.int64).astype(object)
        return exact

    rest, place = values.astype(np.int64), 0
    while ((rest != 0) & (rest != -1)).any():  # a negative rest shifts down to -1, not 0
        out += product(rest & ((1 << bits) - 1)) * (1 << place)  # a digit: 0 <= d < 2**bits
        rest, place = rest >> bits, place + bits
    out += product(rest) * (1 << place)  # the sign: 0 or -1
    return out


def _queries(sets: StubSets, kept: np.ndarray) -> dict[tuple[int, int], _Queries]:
    """Every ``(Z, S)`` the hands ask for, merged, by ``(|Z|, |S|)``.

    Hand ``K + X`` asks, for each ``R ⊆ X`` and ``S ⊆ R``, for ``F(K + R - S, S)`` with sign
    ``(-1)**|R|``, counted under its throw size ``b = |X|``.  A pair is coded
    ``Z * C(n, |S|) + S``: the codes of one size pair fit an array, so they are merged by
    counting, not sorting.  With ``|Z| + |S| = 4`` (``R = X``) the pair is the hand split in
    two, so no two hands ask for it: it is only placed.
    """
    import numpy as np

    from handsolver.solver.badugi.stub_sets import set_ids

    patterns = kept @ (1 << np.arange(HAND_SIZE))
    order = np.argsort(patterns, kind="stable")  # the hands of each pattern together
    bounds = np.searchsorted(patterns[order], np.arange(2**HAND_SIZE + 1))
    members = sets.members[HAND_SIZE][order]
    # Per size pair: the codes asked for, each piece with its sign times (b + 1).
    parts: dict[tuple[int, int], list[tuple[np.ndarray, int]]] = {}
    for pattern in range(2**HAND_SIZE):
        rows = members[bounds[pattern] : bounds[pattern + 1]]
        if not len(rows):
            continue
        keep = [i for i in range(HAND_SIZE) if pattern >> i & 1]
        throw = [i for i in range(HAND_SIZE) if not pattern >> i & 1]
        b = len(throw)
        for r in range(b + 1):
            for held in combinations(throw, r):
                for s in range(r + 1):
                    for drawn in combinations(held, s):
                        z_positions = sorted(keep + [i for i in held if i not in drawn])
                        codes = set_ids(rows[:, z_positions]) * sets.counts[s]
                        codes += set_ids(rows[:, list(drawn)])
                        value = (-1 if r % 2 else 1) * (b + 1)
                        parts.setdefault((len(z_positions), s), []).append((codes, value))
    queries = {}
    for (z, s), pieces in parts.items():
        space = sets.counts[z] * sets.counts[s]
        codes = np.concatenate([codes for codes, _ in pieces])
        values = np.repeat([value for _, value in pieces], [len(codes) for codes, _ in pieces])
        if z + s == HAND_SIZE:
            placed = np.zeros(space, dtype=np.int8)
            placed[codes] = values
            unique = np.flatnonzero(placed)
            values = placed[unique]
            coefficients = np.zeros((len(unique), HAND_SIZE), dtype=np.int64)
            coefficients[np.arange(len(unique)), np.abs(values) - 1] = np.sign(values)
        else:
            # Signed counts by (code, b), exact in float64 (each at most a few hundred).
            summed = np.bincount(
                codes * HAND_SIZE + np.abs(values) - 1,
                weights=np.sign(values),
                minlength=space * HAND_SIZE,
            ).reshape(space, HAND_SIZE)
            unique = np.flatnonzero(summed.any(axis=1))
            coefficients = summed[unique].astype(np.int64)
        queries[(z, s)] = _Queries(unique // sets.counts[s], unique % sets.counts[s], coefficients)
    return queries
