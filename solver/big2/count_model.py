"""The strengthened CP-SAT model that counts interchangeable plays instead of naming them: one
integer per straight window, one Boolean per full-house and four-of-a-kind rank pair, a flush
flag per card, the small plays per rank, and the count bounded below.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from handsolver.models.big2 import STRAIGHT_RANKS, Play, big2_card_key
from handsolver.models.cards import Card, CardSet, cards_of
from handsolver.solver.big2.bounds import EXTRA_PLAYS, plays_lower_bound
from handsolver.solver.big2.partition import (
    DEFAULT_TIME_LIMIT,
    Partition,
    Prefer,
    hand_mask,
    small_plays,
    sorted_plays,
)
from handsolver.solver.big2.set_partition import (
    KIND_WEIGHT_BASE,
    cp_solver,
    fallback_partition,
    resolve_by_preference,
)


@dataclass(frozen=True)
class StrongModel:
    """The strengthened model and its variables (poker ranks 0..12, suits 0..3).

    ``in_flush[card]`` puts a card in some flush of its suit (``flushes[suit]`` of them);
    ``straights[window]``, ``full_houses[(triple rank, pair rank)]`` and
    ``fours[(quad rank, kicker rank)]`` count plays that need ranks, not particular cards;
    ``left[(rank, n)]`` says ``n`` cards of the rank are played as singles, pairs, triples;
    ``straight_flushes[(suit, window)]`` exist only when preferring strong plays.
    """

    model: Any
    count: Any
    in_flush: dict[Card, Any]
    flushes: dict[int, Any]
    straight_flushes: dict[tuple[int, int], Any]
    straights: dict[int, Any]
    full_houses: dict[tuple[int, int], Any]
    fours: dict[tuple[int, int], Any]
    left: dict[tuple[int, int], Any]


def build_strong_model(hand: CardSet | Iterable[Card], prefer: Prefer = Prefer.ANY) -> StrongModel:
    """The strengthened model: interchangeable plays counted, the count bounded below.

    Minimises the number of plays, which is at least :func:`count_lower_bound` of the hand size.
    """
    from ortools.sat.python import cp_model

    mask = hand_mask(hand)
    model = cp_model.CpModel()
    counts = [(mask >> (4 * rank) & 15).bit_count() for rank in range(13)]
    # Cards of each rank each kind of play takes; the sums must use every card exactly once.
    uses: list[list[Any]] = [[] for _ in range(13)]

    in_flush: dict[Card, Any] = {}
    flushes: dict[int, Any] = {}
    for suit in range(4):
        suited = [card for card in cards_of(mask) if card & 3 == suit]
        if len(suited) < 5:
            continue
        for card in suited:
            in_flush[card] = model.new_bool_var(f"{card} in a flush")
            uses[card >> 2].append(in_flush[card])
        flushes[suit] = model.new_int_var(0, len(suited) // 5, f"flushes in suit {suit}")
        model.add(sum(in_flush[card] for card in suited) == 5 * flushes[suit])

    straight_flushes: dict[tuple[int, int], Any] = {}
    if prefer is Prefer.STRONGEST:
        for suit in flushes:
            for index, ranks in enumerate(STRAIGHT_RANKS):
                cards = [rank * 4 + suit for rank in ranks]
                if all(mask >> card & 1 for card in cards):
                    var = model.new_bool_var(f"straight flush {index} in suit {suit}")
                    straight_flushes[suit, index] = var
                    for card in cards:
                        uses[card >> 2].append(var)
        for card, var in in_flush.items():
            holders = [
                sf
                for (suit, i), sf in straight_flushes.items()
                if card & 3 == suit and card >> 2 in STRAIGHT_RANKS[i]
            ]
            model.add(var + sum(holders) <= 1)

    straights: dict[int, Any] = {}
    for index, ranks in enumerate(STRAIGHT_RANKS):
        most = min(counts[rank] for rank in ranks)
        if most:
            straights[index] = model.new_int_var(0, most, f"straights {index}")
            for rank in ranks:
                uses[rank].append(straights[index])

    full_houses: dict[tuple[int, int], Any] = {}
    fours: dict[tuple[int, int], Any] = {}
    for high, low in itertools.permutations(range(13), 2):
        if counts[high] >= 3 and counts[low] >= 2:
            var = model.new_bool_var(f"full house {high} over {low}")
            full_houses[high, low] = var
            uses[high].append(3 * var)
            uses[low].append(2 * var)
        if counts[high] == 4 and counts[low] >= 1:
            var = model.new_bool_var(f"four {high} with {low}")
            fours[high, low] = var
            uses[high].append(4 * var)
            uses[low].append(var)

    left: dict[tuple[int, int], Any] = {}
    for rank in range(13):
        if not counts[rank]:
            continue
        options = [model.new_bool_var(f"{n} of rank {rank} left") for n in range(counts[rank] + 1)]
        model.add_exactly_one(options)
        for n, var in enumerate(options):
            left[rank, n] = var
            uses[rank].append(n * var)
        model.add(sum(uses[rank]) == counts[rank])

    count = (
        sum(flushes.values())
        + sum(straight_flushes.values())
        + sum(straights.values())
        + sum(full_houses.values())
        + sum(fours.values())
        + sum(EXTRA_PLAYS[n] * var for (_, n), var in left.items())
    )
    model.add(count >= plays_lower_bound(mask))
    model.minimize(count)
    return StrongModel(
        model, count, in_flush, flushes, straight_flushes, straights, full_houses, fours, left
    )


def _preference_objective(strong: StrongModel, prefer: Prefer) -> Any:
    """A linear objective to minimise that ranks optimal partitions like :func:`preference_key`."""
    singles = sum(var for (_, n), var in strong.left.items() if n == 1)
    if prefer is Prefer.FEWEST_SINGLES:
        return singles
    # Four cards left play as triple + single when preferring strength.
    per_kind = [
        sum(strong.straight_flushes.values()),
        sum(strong.fours.values()),
        sum(strong.full_houses.values()),
        sum(strong.flushes.values()),
        sum(strong.straights.values()),
        sum(var for (_, n), var in strong.left.items() if n >= 3),
        sum(var for (_, n), var in strong.left.items() if n == 2),
    ]
    return -sum(
        KIND_WEIGHT_BASE ** (len(per_kind) - 1 - i) * expr for i, expr in enumerate(per_kind)
    )


def _strong_plays(mask: CardSet, strong: StrongModel, solver: Any, prefer: Prefer) -> list[Play]:
    """Turn counts into concrete plays: every choice of cards within a rank works."""
    value = solver.value
    pool = [
        sorted(cards_of(mask & (15 << (4 * rank))), key=big2_card_key, reverse=True)
        for rank in range(13)
    ]
    groups: list[list[Card]] = []
    for (suit, index), var in strong.straight_flushes.items():
        if value(var):
            groups.append([rank * 4 + suit for rank in STRAIGHT_RANKS[index]])
    for suit in strong.flushes:
        chosen = [card for card, var in strong.in_flush.items() if card & 3 == suit and value(var)]
        groups.extend(chosen[i : i + 5] for i in range(0, len(chosen), 5))
    for group in groups:
        for card in group:
            pool[card >> 2].remove(card)
    wanted: list[list[tuple[int, int]]] = []
    for index, var in strong.straights.items():
        wanted += [[(rank, 1) for rank in STRAIGHT_RANKS[index]]] * value(var)
    for (high, low), var in strong.full_houses.items():
        wanted += [[(high, 3), (low, 2)]] * value(var)
    for (high, low), var in strong.fours.items():
        wanted += [[(high, 4), (low, 1)]] * value(var)
    for need in wanted:
        groups.append([pool[rank].pop() for rank, n in need for _ in range(n)])
    plays = [Play.from_cards(group) for group in groups]
    rest = mask
    for play in plays:
        rest ^= play.mask
    return plays + small_plays(rest, prefer)


def solve_strong_model(
    hand: CardSet | Iterable[Card],
    *,
    prefer: Prefer = Prefer.ANY,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
    seed: int = 0,
) -> Partition:
    """Solve :func:`build_strong_model`; with a preference, a second solve fixes the count to
    the optimum and optimises the preference."""
    from ortools.sat.python import cp_model

    mask = hand_mask(hand)
    strong = build_strong_model(mask, prefer)
    solver = cp_solver(time_limit, workers, seed)
    status = solver.solve(strong.model)
    bound = plays_lower_bound(mask)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return fallback_partition(mask, "cp-sat", bound)
    optimal = status == cp_model.OPTIMAL
    best = round(solver.objective_value)
    bound = max(bound, round(solver.best_objective_bound))
    plays = sorted_plays(_strong_plays(mask, strong, solver, prefer))
    if prefer is not Prefer.ANY and optimal:
        weight = _preference_objective(strong, prefer)
        variables = list(_all_vars(strong))
        if resolve_by_preference(strong.model, solver, variables, strong.count, best, weight):
            plays = sorted_plays(_strong_plays(mask, strong, solver, prefer))
    return Partition(len(plays), plays, optimal, bound, "cp-sat")


def _all_vars(strong: StrongModel) -> Iterator[Any]:
    for group in (
        strong.in_flush,
        strong.flushes,
        strong.straight_flushes,
        strong.straights,
        strong.full_houses,
        strong.fours,
        strong.left,
    ):
        yield from group.values()
