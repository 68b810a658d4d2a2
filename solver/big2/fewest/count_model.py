"""The strengthened CP-SAT model that counts interchangeable plays instead of naming them: one
integer per straight window (the windows of the rules), one Boolean per full-house and
four-of-a-kind rank pair, an integer per two-pair rank triple (two pair + 1), per rank pair
(two pair alone) and for dragons where the rules have them, a flush flag per card where they
have flushes, the one-rank plays per rank, and the count bounded below.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from handsolver.models.big2 import SEED_RULES, Play, PlayKind, Quads, Rules
from handsolver.models.cards import Card, CardSet, cards_of, rank_mask
from handsolver.solver.big2.fewest.bounds import plays_lower_bound
from handsolver.solver.big2.fewest.partition import (
    DEFAULT_TIME_LIMIT,
    Partition,
    Prefer,
    hand_mask,
    rank_kinds,
    small_plays,
    sorted_plays,
)
from handsolver.solver.big2.fewest.set_partition import (
    KIND_WEIGHT_BASE,
    cp_solver,
    fallback_partition,
    resolve_by_preference,
)


@dataclass(frozen=True)
class StrongModel:
    """The strengthened model and its variables (poker ranks 0..12, suits 0..3).

    ``in_flush[card]`` puts a card in some flush of its suit (``flushes[suit]`` of them);
    ``straights[window]`` (an index into ``rules.straight_ranks``),
    ``full_houses[(triple rank, pair rank)]``, ``fours[(quad rank, kicker rank)]``,
    ``two_pairs[(low pair rank, high pair rank, kicker rank)]``,
    ``two_pairs_alone[(low pair rank, high pair rank)]`` and ``dragons`` count plays that
    need ranks, not particular cards; ``left[(rank, n)]`` says ``n`` cards of the rank are
    played in one-rank plays; ``straight_flushes[(suit, window)]`` exist only when preferring
    strong plays.
    """

    model: Any
    count: Any
    rules: Rules
    in_flush: dict[Card, Any]
    flushes: dict[int, Any]
    straight_flushes: dict[tuple[int, int], Any]
    straights: dict[int, Any]
    full_houses: dict[tuple[int, int], Any]
    fours: dict[tuple[int, int], Any]
    two_pairs: dict[tuple[int, int, int], Any]
    two_pairs_alone: dict[tuple[int, int], Any]
    dragons: Any
    left: dict[tuple[int, int], Any]


def build_strong_model(
    hand: CardSet | Iterable[Card], prefer: Prefer = Prefer.ANY, rules: Rules = SEED_RULES
) -> StrongModel:
    """The strengthened model: interchangeable plays counted, the count bounded below.

    Minimises the number of plays, which is at least :func:`plays_lower_bound` of the hand.
    """
    from ortools.sat.python import cp_model

    mask = hand_mask(hand)
    model = cp_model.CpModel()
    counts = [(mask >> (4 * rank) & 15).bit_count() for rank in range(13)]
    windows = rules.straight_ranks
    # Cards of each rank each kind of play takes; the sums must use every card exactly once.
    uses: list[list[Any]] = [[] for _ in range(13)]

    # Flushes: any five cards of one suit, so a flag per card and a count per suit.
    in_flush: dict[Card, Any] = {}
    flushes: dict[int, Any] = {}
    suited = {suit: [card for card in cards_of(mask) if card & 3 == suit] for suit in range(4)}
    for suit, cards in suited.items():
        if len(cards) < 5 or not rules.flushes:
            continue
        for card in cards:
            in_flush[card] = model.new_bool_var(f"{card} in a flush")
            uses[card >> 2].append(in_flush[card])
        flushes[suit] = model.new_int_var(0, len(cards) // 5, f"flushes in suit {suit}")
        model.add(sum(in_flush[card] for card in cards) == 5 * flushes[suit])

    # Straight flushes by name, only to prefer them (a straight window may hold one anyway).
    straight_flushes: dict[tuple[int, int], Any] = {}
    if prefer is Prefer.STRONGEST:
        for suit, cards in suited.items():
            if len(cards) < 5:
                continue
            for index, ranks in enumerate(windows):
                held = [rank * 4 + suit for rank in ranks]
                if all(mask >> card & 1 for card in held):
                    var = model.new_bool_var(f"straight flush {index} in suit {suit}")
                    straight_flushes[suit, index] = var
                    for card in held:
                        uses[card >> 2].append(var)
        for card, var in in_flush.items():
            holders = [
                sf
                for (suit, i), sf in straight_flushes.items()
                if card & 3 == suit and card >> 2 in windows[i]
            ]
            model.add(var + sum(holders) <= 1)

    # Plays that need so many cards of some ranks, whichever cards.
    straights: dict[int, Any] = {}
    for index, ranks in enumerate(windows):
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
        if counts[high] == 4 and counts[low] >= 1 and rules.quads is not Quads.NO_KICKER:
            var = model.new_bool_var(f"four {high} with {low}")
            fours[high, low] = var
            uses[high].append(4 * var)
            uses[low].append(var)

    two_pairs: dict[tuple[int, int, int], Any] = {}
    if rules.two_pair:
        for low, high in itertools.combinations(range(13), 2):
            most = min(counts[low], counts[high]) // 2
            if not most:
                continue
            for kicker in range(13):
                if kicker not in (low, high) and counts[kicker]:
                    top = min(most, counts[kicker])
                    var = model.new_int_var(0, top, f"two pair {low} {high} {kicker}")
                    two_pairs[low, high, kicker] = var
                    uses[low].append(2 * var)
                    uses[high].append(2 * var)
                    uses[kicker].append(var)

    two_pairs_alone: dict[tuple[int, int], Any] = {}
    if rules.two_pair_alone:
        for low, high in itertools.combinations(range(13), 2):
            most = min(counts[low], counts[high]) // 2
            if most:
                var = model.new_int_var(0, most, f"two pair {low} {high} alone")
                two_pairs_alone[low, high] = var
                uses[low].append(2 * var)
                uses[high].append(2 * var)

    dragons: Any = 0
    if rules.dragon and min(counts):
        dragons = model.new_int_var(0, min(counts), "dragons")
        for rank in range(13):
            uses[rank].append(dragons)

    # What is left of each rank goes out in the fewest one-rank plays.
    cost = rules.small_cost
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
        + sum(two_pairs.values())
        + sum(two_pairs_alone.values())
        + dragons
        + sum(cost[n] * var for (_, n), var in left.items())
    )
    model.add(count >= plays_lower_bound(mask, rules))
    model.minimize(count)
    return StrongModel(
        model,
        count,
        rules,
        in_flush,
        flushes,
        straight_flushes,
        straights,
        full_houses,
        fours,
        two_pairs,
        two_pairs_alone,
        dragons,
        left,
    )


def _preference_objective(strong: StrongModel, prefer: Prefer) -> Any:
    """A linear objective to minimise that ranks optimal partitions like :func:`preference_key`."""
    rules = strong.rules

    def left_plays(kind: PlayKind) -> Any:
        """How many plays of ``kind`` the ranks' leftovers make."""
        return sum(
            rank_kinds(n, rules, prefer).count(kind) * var for (_, n), var in strong.left.items()
        )

    if prefer is Prefer.FEWEST_SINGLES:
        return left_plays(PlayKind.SINGLE)
    per_kind = [
        strong.dragons,
        sum(strong.straight_flushes.values()),
        sum(strong.fours.values()),
        sum(strong.full_houses.values()),
        sum(strong.flushes.values()),
        sum(strong.straights.values()),
        sum(strong.two_pairs.values()),
        left_plays(PlayKind.FOUR),
        sum(strong.two_pairs_alone.values()),
        left_plays(PlayKind.TRIPLE),
        left_plays(PlayKind.PAIR),
    ]
    return -sum(
        KIND_WEIGHT_BASE ** (len(per_kind) - 1 - i) * expr for i, expr in enumerate(per_kind)
    )


def _strong_plays(mask: CardSet, strong: StrongModel, solver: Any, prefer: Prefer) -> list[Play]:
    """Turn counts into concrete plays: every choice of cards within a rank works."""
    value = solver.value
    rules = strong.rules
    windows = rules.straight_ranks
    pool = [
        sorted(cards_of(mask & rank_mask(rank)), key=rules.card_keys.__getitem__, reverse=True)
        for rank in range(13)
    ]
    groups: list[list[Card]] = []
    for (suit, index), var in strong.straight_flushes.items():
        if value(var):
            groups.append([rank * 4 + suit for rank in windows[index]])
    for suit in strong.flushes:
        chosen = [card for card, var in strong.in_flush.items() if card & 3 == suit and value(var)]
        groups.extend(chosen[i : i + 5] for i in range(0, len(chosen), 5))
    for group in groups:
        for card in group:
            pool[card >> 2].remove(card)
    wanted: list[list[tuple[int, int]]] = []
    for index, var in strong.straights.items():
        wanted += [[(rank, 1) for rank in windows[index]]] * value(var)
    for (high, low), var in strong.full_houses.items():
        wanted += [[(high, 3), (low, 2)]] * value(var)
    for (high, low), var in strong.fours.items():
        wanted += [[(high, 4), (low, 1)]] * value(var)
    for (low, high, kicker), var in strong.two_pairs.items():
        wanted += [[(low, 2), (high, 2), (kicker, 1)]] * value(var)
    for (low, high), var in strong.two_pairs_alone.items():
        wanted += [[(low, 2), (high, 2)]] * value(var)
    if not isinstance(strong.dragons, int):
        wanted += [[(rank, 1) for rank in range(13)]] * value(strong.dragons)
    for need in wanted:
        groups.append([pool[rank].pop() for rank, n in need for _ in range(n)])
    plays = [Play.from_cards(group, rules) for group in groups]
    rest = mask
    for play in plays:
        rest ^= play.mask
    return plays + small_plays(rest, prefer, rules)


def solve_strong_model(
    hand: CardSet | Iterable[Card],
    *,
    prefer: Prefer = Prefer.ANY,
    rules: Rules = SEED_RULES,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
    seed: int = 0,
) -> Partition:
    """Solve :func:`build_strong_model`; with a preference, a second solve fixes the count to
    the optimum and optimises the preference."""
    from ortools.sat.python import cp_model

    mask = hand_mask(hand)
    strong = build_strong_model(mask, prefer, rules)
    solver = cp_solver(time_limit, workers, seed)
    status = solver.solve(strong.model)
    bound = plays_lower_bound(mask, rules)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return fallback_partition(mask, "cp-sat", bound, rules)
    optimal = status == cp_model.OPTIMAL
    best = round(solver.objective_value)
    bound = max(bound, round(solver.best_objective_bound))
    plays = sorted_plays(_strong_plays(mask, strong, solver, prefer), rules)
    if prefer is not Prefer.ANY and optimal:
        weight = _preference_objective(strong, prefer)
        variables = list(_all_vars(strong))
        if resolve_by_preference(strong.model, solver, variables, strong.count, best, weight):
            plays = sorted_plays(_strong_plays(mask, strong, solver, prefer), rules)
    return Partition(len(plays), plays, optimal, bound, "cp-sat", rules)


def _all_vars(strong: StrongModel) -> Iterator[Any]:
    for group in (
        strong.in_flush,
        strong.flushes,
        strong.straight_flushes,
        strong.straights,
        strong.full_houses,
        strong.fours,
        strong.two_pairs,
        strong.two_pairs_alone,
        strong.left,
    ):
        yield from group.values()
    if not isinstance(strong.dragons, int):
        yield strong.dragons
