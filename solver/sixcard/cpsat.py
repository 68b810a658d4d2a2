"""The CP-SAT model of the best split of one hand against a set of scenarios: a cross-check of
enumeration, built apart from solving.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from handsolver.models.sixcard import Hand, Split, split_game
from handsolver.solver.sixcard.game_tables import Plays, Tables


@dataclass(frozen=True)
class SplitModel:
    """A CP-SAT model choosing a split, and the variables to read the answer from."""

    model: Any
    assignment: tuple[tuple[Any, ...], ...]
    hand: Hand
    scale: int


@dataclass(frozen=True)
class SplitModelResult:
    status: str
    split: Split
    score: Fraction
    wall_time: float


def build_split_model(t: Tables, hand: Hand, scenarios: Plays) -> SplitModel:
    """Assign each card of ``hand`` to one part, maximising the expected round result.

    Each part picks one of the multisets it can hold (``add_exactly_one``), tied to the cards
    assigned to it value by value.  Against every scenario two literals are equivalent to the
    round's half points reaching ``parts`` (at least a draw) and ``parts + 1`` (a win), so their
    sum is the round result (0, 1, 2 half points) and fixing the cards fixes everything.  The
    objective weighs results by the scenario probabilities, scaled to integers by their common
    denominator.  Equal cards fill the parts in order (symmetry breaking), and the search
    branches on the cards first.
    """
    from ortools.sat.python import cp_model

    game = t.game
    model = cp_model.CpModel()
    parts = range(len(game.part_sizes))

    # Variables: card c goes to part p.
    assignment = tuple(
        tuple(model.new_bool_var(f"card {c} ({value}) in {game.part_names[p]}") for p in parts)
        for c, value in enumerate(hand)
    )
    for c in range(len(hand)):
        model.add_exactly_one(assignment[c])
    for p in parts:
        model.add(sum(assignment[c][p] for c in range(len(hand))) == game.part_sizes[p])
    # Copies of a value are interchangeable: the later copy never goes to an earlier part.
    for c in range(len(hand) - 1):
        if hand[c] == hand[c + 1]:
            for p in parts:
                model.add(sum(assignment[c + 1][: p + 1]) <= sum(assignment[c][: p + 1]))

    # Each part is exactly one of the multisets it can be, matching the cards assigned to it.
    candidates = [
        sorted({t.splits[s][p] for s in t.hand_splits[t.hand_index[hand]]}) for p in parts
    ]
    chosen = []
    for p in parts:
        picks = {
            part: model.new_bool_var(f"{game.part_names[p]} = {part}") for part in candidates[p]
        }
        model.add_exactly_one(picks.values())
        for value in range(1, game.values + 1):
            held = sum(assignment[c][p] for c, v in enumerate(hand) if v == value)
            model.add(sum(part.count(value) * var for part, var in picks.items()) == held)
        chosen.append(picks)

    # Scenarios grouped by the opponent's part keys, weights as integers.
    grouped: dict[tuple[tuple[int, ...], ...], Fraction] = defaultdict(Fraction)
    row_key = split_game(game).row_key
    for s, chance in scenarios:
        keys = tuple(row_key(q, part) for q, part in enumerate(t.splits[s]))
        grouped[keys] += chance
    scale = math.lcm(*(chance.denominator for chance in grouped.values()))
    objective = []
    for index, (keys, chance) in enumerate(sorted(grouped.items())):
        halves = []
        for q in parts:
            for part, var in chosen[q].items():
                mine = row_key(q, part)
                halves.append((2 * (mine > keys[q]) + (mine == keys[q])) * var)
        results = []
        for threshold in (len(game.part_sizes), len(game.part_sizes) + 1):
            reached = model.new_bool_var(f"scenario {index} reaches {threshold} half points")
            model.add(sum(halves) >= threshold).only_enforce_if(reached)
            model.add(sum(halves) < threshold).only_enforce_if(~reached)
            results.append(reached)
        weight = chance.numerator * (scale // chance.denominator)
        objective.append(weight * sum(results))
    model.maximize(sum(objective))
    model.add_decision_strategy(
        [var for row in assignment for var in row],
        cp_model.CHOOSE_FIRST,
        cp_model.SELECT_MAX_VALUE,
    )
    return SplitModel(model, assignment, hand, scale)


def solve_split_model(
    built: SplitModel, *, time_limit: float = 30.0, workers: int = 1, seed: int = 0
) -> SplitModelResult:
    """Solve a :func:`build_split_model` model; raise unless CP-SAT proves the optimum."""
    from ortools.sat.python import cp_model

    from handsolver.solver.interrupt import stoppable

    solver = stoppable(cp_model.CpSolver())
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    status = solver.solve(built.model)
    if status != cp_model.OPTIMAL:
        raise RuntimeError(f"CP-SAT split model ended {solver.status_name(status)}")
    parts: list[list[int]] = [[] for _ in built.assignment[0]]
    for c, row in enumerate(built.assignment):
        for p, var in enumerate(row):
            if solver.boolean_value(var):
                parts[p].append(built.hand[c])
    return SplitModelResult(
        status=solver.status_name(status),
        split=tuple(tuple(sorted(part)) for part in parts),
        score=Fraction(round(solver.objective_value), 2 * built.scale),
        wall_time=solver.wall_time,
    )
