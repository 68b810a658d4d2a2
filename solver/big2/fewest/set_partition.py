"""The plain set-partition CP-SAT model (one Boolean per legal play, every card covered once):
the reference the count model is measured against, and the solver settings both share.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from handsolver.models.big2 import SEED_RULES, Play, PlayKind, Rules, iter_legal_plays
from handsolver.models.cards import Card, CardSet, cards_of, mask_of
from handsolver.solver.big2.fewest.bounds import count_lower_bound
from handsolver.solver.big2.fewest.partition import (
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


@dataclass(frozen=True)
class PartitionModel:
    """The plain model: one Boolean per legal play (dragons aside), and for dragons one flag per
    card (``in_dragon``) and their number (``dragons``, 0 when the rules have none): any cards
    holding as many cards of every rank as there are dragons make that many dragons."""

    model: Any
    plays: list[tuple[Play, Any]]
    in_dragon: dict[Card, Any]
    dragons: Any
    total: Any

    def chosen(self, value: Any, rules: Rules) -> list[Play]:
        """The plays of a solution (``value`` reads a variable, e.g. ``solver.boolean_value``)."""
        chosen = [play for play, var in self.plays if value(var)]
        cards = [card for card, var in self.in_dragon.items() if value(var)]
        by_rank = [sorted(c for c in cards if c >> 2 == rank) for rank in range(13)]
        for index in range(len(by_rank[0]) if cards else 0):
            group = [cards_of_rank[index] for cards_of_rank in by_rank]
            chosen.append(Play(mask_of(group), PlayKind.DRAGON))
        return chosen


def build_partition_model(
    hand: CardSet | Iterable[Card], count: int | None = None, rules: Rules = SEED_RULES
) -> PartitionModel:
    """The plain set-partition model: one Boolean per legal play, each card in exactly one.

    Minimises the number of plays, or, given ``count``, requires exactly that many (used to
    enumerate optimal partitions).  Dragons are not listed one by one (a full deck holds
    4**13 of them) but chosen card by card, the same number from every rank.
    """
    from ortools.sat.python import cp_model

    mask = hand_mask(hand)
    model = cp_model.CpModel()
    legal = iter_legal_plays(mask, sizes=(1, 2, 3, 4, 5), rules=rules)
    plays = [(play, model.new_bool_var(f"play {i}")) for i, play in enumerate(legal)]
    covering: dict[Card, list[Any]] = {card: [] for card in cards_of(mask)}
    for play, var in plays:
        for card in cards_of(play.mask):
            covering[card].append(var)
    counts = [(mask >> (4 * rank) & 15).bit_count() for rank in range(13)]
    in_dragon: dict[Card, Any] = {}
    dragons: Any = 0
    if rules.dragon and min(counts):
        dragons = model.new_int_var(0, min(counts), "dragons")
        for card in cards_of(mask):
            in_dragon[card] = model.new_bool_var(f"{card} in a dragon")
            covering[card].append(in_dragon[card])
        for rank in range(13):
            model.add(sum(var for card, var in in_dragon.items() if card >> 2 == rank) == dragons)
    for card_vars in covering.values():
        model.add_exactly_one(card_vars)
    total = sum(var for _, var in plays) + dragons
    if count is None:
        model.minimize(total)
    else:
        model.add(total == count)
    return PartitionModel(model, plays, in_dragon, dragons, total)


def solve_partition_model(
    hand: CardSet | Iterable[Card],
    *,
    prefer: Prefer = Prefer.ANY,
    rules: Rules = SEED_RULES,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
    seed: int = 0,
) -> Partition:
    """Solve :func:`build_partition_model` (the unstrengthened reference); with a preference,
    a second solve fixes the count to the optimum and optimises the preference."""
    from ortools.sat.python import cp_model

    mask = hand_mask(hand)
    plain = build_partition_model(mask, rules=rules)
    solver = cp_solver(time_limit, workers, seed)
    status = solver.solve(plain.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return fallback_partition(mask, "plain", count_lower_bound(mask.bit_count(), rules), rules)
    optimal = status == cp_model.OPTIMAL
    bound = round(solver.best_objective_bound)
    chosen = plain.chosen(solver.boolean_value, rules)
    if prefer is not Prefer.ANY and optimal:
        weight = sum(_play_weight(play.kind, prefer) * var for play, var in plain.plays)
        weight += _play_weight(PlayKind.DRAGON, prefer) * plain.dragons
        variables = [var for _, var in plain.plays] + list(plain.in_dragon.values())
        if resolve_by_preference(plain.model, solver, variables, plain.total, len(chosen), weight):
            chosen = plain.chosen(solver.boolean_value, rules)
    return Partition(len(chosen), sorted_plays(chosen, rules), optimal, bound, "plain", rules)


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


def fallback_partition(
    mask: CardSet, method: str, bound: int, rules: Rules = SEED_RULES
) -> Partition:
    """Only one-rank plays: what a solver that found nothing in time can still offer."""
    plays = sorted_plays(small_plays(mask, Prefer.ANY, rules), rules)
    return Partition(len(plays), plays, len(plays) == bound, bound, method, rules)
