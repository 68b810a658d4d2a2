"""The equilibrium of the six-card game: an LP (GLOP) made exact with rational arithmetic and
certified by its best response, and the hands every optimal strategy must mix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from handsolver.solver.sixcard.game_tables import Tables
from handsolver.solver.sixcard.strategies import Strategy, checked_strategy
from handsolver.solver.sixcard.values import best_response, split_values


@dataclass(frozen=True)
class Equilibrium:
    """An exact equilibrium strategy of the symmetric game and its certificate.

    ``exploitability`` is the best response's exact score against ``strategy``; it equals
    ``value`` (1/2) exactly, which proves the strategy optimal.  ``lp_value`` is the LP's float
    objective and ``lp`` the solved model, for :func:`must_mix`.
    """

    strategy: Strategy
    value: Fraction
    exploitability: Fraction
    lp_value: float
    lp: EquilibriumLP = field(repr=False, compare=False)


@dataclass(frozen=True)
class EquilibriumLP:
    """The GLOP model of :func:`build_equilibrium_lp`: its solver, ``x`` and reply rows."""

    solver: Any
    x: tuple[Any, ...]
    replies: tuple[Any, ...]


def build_equilibrium_lp(t: Tables) -> EquilibriumLP:
    """Maximise the worst-case score over the opponent's replies (a GLOP model).

    Variables: ``x[s]`` the chance a hand plays split ``s`` (summing to 1 per hand), and ``z[g]``
    the least expected score the opponent's hand ``g`` can hold the player to; every opponent
    split ``t`` of ``g`` bounds ``z[g] <= sum_s P(hand(s), g) x[s] result(s, t)``.  The duals of
    these reply rows are the opponent's strategy.
    """
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver("GLOP")
    if solver is None:
        raise RuntimeError("OR-Tools GLOP is not available")
    # Re-solves after tightening bounds start from a dual feasible basis.
    solver.SetSolverSpecificParametersAsString("use_dual_simplex: true")
    n_splits, n_hands = len(t.splits), len(t.hands)
    x = [solver.NumVar(0.0, 1.0, f"x{s}") for s in range(n_splits)]
    z = [solver.NumVar(-solver.infinity(), solver.infinity(), f"z{g}") for g in range(n_hands)]
    for splits_of_hand in t.hand_splits:
        row = solver.Constraint(1.0, 1.0)
        for s in splits_of_hand:
            row.SetCoefficient(x[s], 1.0)
    # Coefficients are P(h, g) * result / 2 = hand_ways * pair_ways * halves / (2 deals replies).
    weight = (
        np.asarray(t.hand_ways, dtype=np.float64)[t.split_hand][:, None] * t.pair_ways[t.split_hand]
    )
    weight /= 2.0 * t.deals * t.replies
    replies = []
    for s_opp in range(n_splits):
        g = int(t.split_hand[s_opp])
        coefficients = weight[:, g] * t.results[:, s_opp]
        row = solver.Constraint(0.0, solver.infinity())
        row.SetCoefficient(z[g], -1.0)
        for s in np.flatnonzero(coefficients).tolist():
            row.SetCoefficient(x[s], float(coefficients[s]))
        replies.append(row)
    objective = solver.Objective()
    for var in z:
        objective.SetCoefficient(var, 1.0)
    objective.SetMaximization()
    return EquilibriumLP(solver, tuple(x), tuple(replies))


def _solve_lp(lp: EquilibriumLP) -> float:
    from ortools.linear_solver import pywraplp

    if lp.solver.Solve() != pywraplp.Solver.OPTIMAL:
        raise RuntimeError("the equilibrium LP did not reach an optimum")
    return float(lp.solver.Objective().Value())


def solve_equilibrium_lp(t: Tables) -> tuple[float, NDArray[np.float64]]:
    """The LP's value and its ``x`` (floats)."""
    lp = build_equilibrium_lp(t)
    value = _solve_lp(lp)
    return value, np.array([var.solution_value() for var in lp.x])


def _rounded_replies(t: Tables, lp: EquilibriumLP, denominator: int = 2**30) -> Strategy:
    """The opponent strategy in the LP's duals, rounded to multiples of ``1 / denominator``."""
    duals = np.abs(np.array([row.dual_value() for row in lp.replies]))
    dists = []
    for splits_of_hand in t.hand_splits:
        chosen = np.array(list(splits_of_hand))
        weights = duals[chosen] / max(duals[chosen].sum(), 1e-300)
        numerators = np.rint(weights * denominator).astype(np.int64)
        numerators[int(np.argmax(numerators))] += denominator - int(numerators.sum())
        dists.append(
            {int(s): Fraction(int(n), denominator) for s, n in zip(chosen, numerators, strict=True)}
        )
    return checked_strategy(t, "lp-duals", dists)


def must_mix(t: Tables, strategy: Strategy, lp: EquilibriumLP | None = None) -> tuple[bool, ...]:
    """For each mixed hand of ``strategy``: is it proved that every optimal strategy mixes it?

    For each split ``s`` the hand plays, GLOP re-solves the LP with the hand held to ``s``; the
    duals give an opponent strategy ``y``, which is rounded to exact fractions.  If every strategy
    playing ``s`` with that hand scores below 1/2 against ``y`` (the best such strategy, computed
    exactly), no optimal strategy plays ``s`` purely with it.
    """
    lp = lp or build_equilibrium_lp(t)
    proved = []
    for h in strategy.mixed_hands():
        splits_of_hand = t.hand_splits[h]
        held_below = True
        for s, _ in strategy.plays[h]:
            for other in splits_of_hand:
                lp.x[other].SetUb(1.0 if other == s else 0.0)
            _solve_lp(lp)
            values = split_values(t, _rounded_replies(t, lp))
            best = [
                values.numerators[s] if g == h else max(values.numerators[hand_splits])
                for g, hand_splits in enumerate(t.hand_splits)
            ]
            score = Fraction(
                sum(int(t.hand_ways[g]) * int(b) for g, b in enumerate(best)),
                2 * t.deals * values.denominator,
            )
            held_below = held_below and score < Fraction(1, 2)
        for other in splits_of_hand:
            lp.x[other].SetUb(1.0)
        proved.append(held_below)
    return tuple(proved)


def _solve_exactly(
    rows: list[list[Fraction]], rhs: list[Fraction], guess: list[Fraction]
) -> list[Fraction]:
    """Solve ``rows @ v = rhs`` by Gaussian elimination; free unknowns take ``guess``.

    >>> _solve_exactly([[Fraction(2), Fraction(1)], [Fraction(1), Fraction(-1)]],
    ...                [Fraction(3), Fraction(0)], [Fraction(0), Fraction(0)])
    [Fraction(1, 1), Fraction(1, 1)]
    """
    n = len(guess)
    matrix = [row[:] + [b] for row, b in zip(rows, rhs, strict=True)]
    pivots: list[int] = []
    r = 0
    for col in range(n):
        pivot = next((i for i in range(r, len(matrix)) if matrix[i][col]), None)
        if pivot is None:
            continue
        matrix[r], matrix[pivot] = matrix[pivot], matrix[r]
        lead = matrix[r][col]
        matrix[r] = [v / lead for v in matrix[r]]
        for i in range(len(matrix)):
            if i != r and matrix[i][col]:
                factor = matrix[i][col]
                matrix[i] = [a - factor * b for a, b in zip(matrix[i], matrix[r], strict=True)]
        pivots.append(col)
        r += 1
    solution = guess[:]
    free = [col for col in range(n) if col not in pivots]
    for i, col in enumerate(pivots):
        solution[col] = matrix[i][n] - sum((matrix[i][f] * guess[f] for f in free), Fraction(0))
    return solution


def exact_on_support(t: Tables, lp_x: NDArray[np.float64], tolerance: float = 1e-9) -> Strategy:
    """The exact strategy on the LP's support that leaves the opponent indifferent on it.

    In a symmetric zero-sum game an optimal strategy is also optimal for the opponent, so every
    split it plays is a best reply to it: for each hand ``g``, the opponent's value
    ``u_g(s)`` is equal across the support of ``g``.  With one unknown per extra split in a
    hand's support and one equation per extra split, the rational system is square.
    """
    support = [
        [s for s in splits_of_hand if lp_x[s] > tolerance] for splits_of_hand in t.hand_splits
    ]
    unknowns = [(h, s) for h, sup in enumerate(support) for s in sup[1:]]
    position = {s: i for i, (_, s) in enumerate(unknowns)}
    rows: list[list[Fraction]] = []
    rhs: list[Fraction] = []
    for g, sup_g in enumerate(support):
        for reply in sup_g[1:]:
            # The opponent's split ``reply`` scores the same as ``sup_g[0]`` against us:
            # sum over our hands h, splits s of ways(h, g) x[s] (result[s, reply] - result[s, t0]).
            diff = t.results[:, reply] - t.results[:, sup_g[0]]
            row = [Fraction(0)] * len(unknowns)
            constant = Fraction(0)
            for h, sup in enumerate(support):
                ways = t.hand_ways[h] * int(t.pair_ways[h, g])
                if not ways:
                    continue
                base = ways * int(diff[sup[0]])
                constant += base
                for s in sup[1:]:
                    row[position[s]] += ways * int(diff[s]) - base
            rows.append(row)
            rhs.append(-constant)
    guess = [Fraction(float(lp_x[s])).limit_denominator(10**6) for _, s in unknowns]
    solution = _solve_exactly(rows, rhs, guess)
    dists = []
    for sup in support:
        dist = {s: solution[position[s]] for s in sup[1:]}
        dist[sup[0]] = 1 - sum(dist.values(), Fraction(0))
        if min(dist.values()) < 0:
            raise RuntimeError("the LP support has no exact equilibrium (a probability < 0)")
        dists.append(dist)
    return checked_strategy(t, "equilibrium", dists)


@cache
def equilibrium(t: Tables) -> Equilibrium:
    """The game's equilibrium: LP by GLOP, made exact on its support, certified exactly.

    :raises RuntimeError: if the exact strategy is not a distribution or is exploitable.
    """
    lp = build_equilibrium_lp(t)
    lp_value = _solve_lp(lp)
    strategy = exact_on_support(t, np.array([var.solution_value() for var in lp.x]))
    exploitability = best_response(t, strategy).score
    value = Fraction(1, 2)
    if exploitability != value:
        raise RuntimeError(f"the LP support gives an exploitable strategy ({exploitability})")
    return Equilibrium(strategy, value, exploitability, lp_value, lp)
