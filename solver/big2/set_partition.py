"""The plain set-partition CP-SAT model (one Boolean per legal play, every card covered once):
the reference the count model is measured against, and the solver settings both share.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from handsolver.models.big2 import Play, PlayKind, legal_plays
from handsolver.models.cards import Card, CardSet, cards_of
from handsolver.solver.big2.bounds import count_lower_bound
from handsolver.solver.big2.partition import (
    DEFAULT_TIME_LIMIT,
    STRENGTH_ORDER,
    Partition,
    Prefer,
    hand_mask,
    small_plays,
    sorted_plays,
)

# More than any kind's count in a partition, so weights compare lexicographically.
KIND_WEIGHT_BASE = 16


def cp_solver(time_limit: float, workers: int, seed: int) -> Any:
    """A CP-SAT solver with a time limit, worker count and seed fixed, stopped by Ctrl-C."""
    from ortools.sat.python import cp_model

    from handsolver.solver.interrupt import stoppable

    solver = stoppable(cp_model.CpSolver())
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    return solver


def build_partition_model(
    hand: CardSet | Iterable[Card], count: int | None = None
) -> tuple[Any, list[tuple[Play, Any]]]:
    """The plain set-partition model: one Boolean per legal play, each card in exactly one.

    Minimises the number of plays, or, given ``count``, requires exactly that many (used to
    enumerate optimal partitions).
    """
    from ortools.sat.python import cp_model

    mask = hand_mask(hand)
    model = cp_model.CpModel()
    plays = [(play, model.new_bool_var(f"play {i}")) for i, play in enumerate(legal_plays(mask))]
    covering: dict[Card, list[Any]] = {card: [] for card in cards_of(mask)}
    for play, var in plays:
        for card in cards_of(play.mask):
            covering[card].append(var)
    for card_vars in covering.values():
        model.add_exactly_one(card_vars)
    total = sum(var for _, var in plays)
    if count is None:
        model.minimize(total)
    else:
        model.add(total == count)
    return model, plays


def solve_partition_model(
    hand: CardSet | Iterable[Card],
    *,
    prefer: Prefer = Prefer.ANY,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
    seed: int = 0,
) -> Partition:
    """Solve :func:`build_partition_model` (the unstrengthened reference); with a preference,
    a second solve fixes the count to the optimum and optimises the preference."""
    from ortools.sat.python import cp_model

    mask = hand_mask(hand)
    model, plays = build_partition_model(mask)
    solver = cp_solver(time_limit, workers, seed)
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return fallback_partition(mask, "plain", count_lower_bound(mask.bit_count()))
    optimal = status == cp_model.OPTIMAL
    bound = round(solver.best_objective_bound)
    chosen = [play for play, var in plays if solver.boolean_value(var)]
    if prefer is not Prefer.ANY and optimal:
        count = sum(var for _, var in plays)
        weight = sum(_play_weight(play.kind, prefer) * var for play, var in plays)
        variables = [var for _, var in plays]
        if resolve_by_preference(model, solver, variables, count, len(chosen), weight):
            chosen = [play for play, var in plays if solver.boolean_value(var)]
    return Partition(len(chosen), sorted_plays(chosen), optimal, bound, "plain")


def resolve_by_preference(
    model: Any, solver: Any, variables: list[Any], count: Any, best: int, weight: Any
) -> bool:
    """The second solve of a preference: keep the proven count ``best``, minimise ``weight``,
    starting from the first solution.  False when it finds nothing in time, in which case the
    first optimal partition (still in the caller's hands) stands."""
    from ortools.sat.python import cp_model

    for var in variables:
        model.add_hint(var, solver.value(var))
    model.add(count == best)
    model.minimize(weight)
    return solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def _play_weight(kind: PlayKind, prefer: Prefer) -> int:
    """A play's weight in a linear objective that ranks partitions like :func:`preference_key`."""
    if prefer is Prefer.FEWEST_SINGLES:
        return int(kind is PlayKind.SINGLE)
    if kind is PlayKind.SINGLE:
        return 0
    return -int(KIND_WEIGHT_BASE ** (len(STRENGTH_ORDER) - 1 - STRENGTH_ORDER.index(kind)))


def fallback_partition(mask: CardSet, method: str, bound: int) -> Partition:
    """Only small plays: what a solver that found nothing in time can still offer."""
    plays = sorted_plays(small_plays(mask, Prefer.ANY))
    return Partition(len(plays), plays, len(plays) == bound, bound, method)
