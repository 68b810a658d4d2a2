"""The public entry points: the fewest plays of a hand, and every optimal partition, choosing
the exact search or CP-SAT by hand size.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from handsolver.models.big2 import SEED_RULES, Play, PlayKind, Rules, play_kind
from handsolver.models.cards import Card, CardSet
from handsolver.solver.big2.fewest.count_model import solve_strong_model
from handsolver.solver.big2.fewest.partition import (
    DEFAULT_TIME_LIMIT,
    EXACT_MAX_CARDS,
    Enumeration,
    Method,
    Partition,
    Prefer,
    hand_mask,
    sorted_plays,
)
from handsolver.solver.big2.fewest.search import exact_search, optimal_five_sets, rank_choices
from handsolver.solver.big2.fewest.set_partition import (
    build_partition_model,
    cp_solver,
    solve_partition_model,
)


def fewest_plays(
    hand: CardSet | Iterable[Card],
    *,
    prefer: Prefer = Prefer.ANY,
    rules: Rules = SEED_RULES,
    method: Method = Method.AUTO,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
    seed: int = 0,
) -> Partition:
    """Partition ``hand`` (a card mask or a collection of cards) into the fewest legal plays.

    ``method`` AUTO uses the exact search up to :data:`EXACT_MAX_CARDS` cards and the
    strengthened CP-SAT model above; ``time_limit``, ``workers`` and ``seed`` go to CP-SAT, and
    a time limit that stops it early gives the best partition found with ``optimal=False``.
    Plays are sorted (biggest first) and so are the cards in each, so the result is
    deterministic.  ``rules`` says which plays are legal (the seed's by default); the result
    carries them.  This is the function the golf verifier calls.

    >>> from handsolver.models.cards import parse_cards
    >>> fewest_plays(parse_cards("AS 4H 6D 8C 7C 3S 5H 8D 4C 2S 0C AD AH")).count
    5
    """
    mask = hand_mask(hand)
    if not mask:
        return Partition(0, (), True, 0, "exact", rules)
    if method is Method.EXACT or (method is Method.AUTO and mask.bit_count() <= EXACT_MAX_CARDS):
        return exact_search(mask, prefer, rules)
    solve = solve_partition_model if method is Method.PLAIN else solve_strong_model
    return solve(
        mask, prefer=prefer, rules=rules, time_limit=time_limit, workers=workers, seed=seed
    )


def all_optimal(
    hand: CardSet | Iterable[Card],
    *,
    rules: Rules = SEED_RULES,
    limit: int = 100,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
    seed: int = 0,
) -> Enumeration:
    """Every partition of ``hand`` into the fewest plays, listing at most ``limit`` of them.

    Up to :data:`EXACT_MAX_CARDS` cards the exact search counts them all (``complete``);
    larger hands enumerate with the plain CP-SAT model fixed to the optimal count and stop at
    ``limit`` or the time limit.

    >>> from handsolver.models.cards import parse_cards
    >>> found = all_optimal(parse_cards("3c 3d 3h 3s"))
    >>> found.best, found.count, found.complete
    (2, 7, True)
    """
    mask = hand_mask(hand)
    if mask.bit_count() <= EXACT_MAX_CARDS:
        return _all_exact(mask, limit, rules)
    return _all_cpsat(mask, limit, time_limit, workers, seed, rules)


def _all_exact(mask: CardSet, limit: int, rules: Rules = SEED_RULES) -> Enumeration:
    best, sets = optimal_five_sets(mask, collect_all=True, rules=rules)
    total = 0
    listed: list[tuple[Play, ...]] = []
    for fives in sets:
        rest = mask
        for play in fives:
            rest ^= play
        choices = rank_choices(rest, rules)
        ways = 1
        for options in choices:
            ways *= len(options)
        total += ways
        if len(listed) >= limit:
            continue
        fixed = [Play(play, play_kind(play, rules)) for play in fives]
        for combo in itertools.islice(itertools.product(*choices), limit - len(listed)):
            small = [Play.from_cards(group, rules) for groups in combo for group in groups]
            listed.append(sorted_plays(fixed + small, rules))
    return Enumeration(best, total, True, tuple(listed))


def _all_cpsat(
    mask: CardSet, limit: int, time_limit: float, workers: int, seed: int, rules: Rules
) -> Enumeration:
    from ortools.sat.python import cp_model

    best = fewest_plays(mask, rules=rules, time_limit=time_limit, workers=workers, seed=seed)
    plain = build_partition_model(mask, count=best.count, rules=rules)
    listed: list[tuple[Play, ...]] = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            listed.append(sorted_plays(plain.chosen(self.boolean_value, rules), rules))
            if len(listed) >= limit:
                self.stop_search()

    solver = cp_solver(time_limit, workers, seed)
    solver.parameters.enumerate_all_solutions = True
    status = solver.solve(plain.model, Collect())
    # Two dragons or more: the model picks their cards, not how they pair up, so it lists
    # one grouping of each.
    grouped = any([play.kind for play in plays].count(PlayKind.DRAGON) > 1 for plays in listed)
    complete = best.optimal and status == cp_model.OPTIMAL and len(listed) < limit and not grouped
    return Enumeration(best.count, len(listed), complete, tuple(listed))
