"""The exact search: every set of disjoint plays of several ranks (five-card plays, two pair
alone and dragons), pruned by the lower bounds; the fastest engine for small hands.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from handsolver.models.big2 import (
    SEED_RULES,
    Rules,
    dragon_masks,
    five_card_masks,
    four_card_masks,
)
from handsolver.models.cards import Card, CardSet, cards_of, rank_mask
from handsolver.solver.big2.fewest.bounds import play_bounds
from handsolver.solver.big2.fewest.partition import (
    Partition,
    Prefer,
    hand_mask,
    partition_of,
    preference_key,
    rank_groups,
)


def optimal_five_sets(
    hand: CardSet, collect_all: bool, rules: Rules = SEED_RULES
) -> tuple[int, list[tuple[CardSet, ...]]]:
    """The fewest plays, and the first (or every) set of several-rank plays reaching it.

    Sets are built in a fixed order, dragons first, then :func:`five_card_masks` and
    :func:`four_card_masks` (two pair alone), each set once; a branch stops when even another
    such play and the count bound on what is left cannot do better.
    """
    fives = five_card_masks(hand, rules)
    fours = four_card_masks(hand, rules)
    dragons = list(dragon_masks(hand)) if rules.dragon else []
    plays = dragons + fives + fours
    sizes = [13] * len(dragons) + [5] * len(fives) + [4] * len(fours)
    # The largest and the smallest play that may come after index i (0: none).
    next_size, next_least = [0] * len(sizes), [0] * len(sizes)
    for index in range(len(sizes) - 2, -1, -1):
        after = sizes[index + 1]
        next_size[index] = max(after, next_size[index + 1])
        next_least[index] = min(after, next_least[index + 1] or after)
    bounds = play_bounds(rules)
    small, with_fives = bounds.small, bounds.with_fives
    best = small(hand)
    found: list[tuple[CardSet, ...]] = [()]

    def extend(rest: CardSet, start: int, chosen: tuple[CardSet, ...]) -> None:
        nonlocal best, found
        taken = len(chosen) + 1
        cards = rest.bit_count()
        for index in range(start, len(plays)):
            play = plays[index]
            if rest & play != play:
                continue
            after = rest ^ play
            cost = taken + small(after)
            if cost < best:
                best = cost
                found = [(*chosen, play)]
            elif cost == best and collect_all:
                found.append((*chosen, play))
            if next_least[index] and cards - sizes[index] >= next_least[index]:
                reachable = taken + with_fives(after, 1, next_size[index])
                if reachable < best or (collect_all and reachable == best):
                    extend(after, index + 1, (*chosen, play))

    extend(hand, 0, ())
    return best, found


def exact_search(
    hand: CardSet | Iterable[Card], prefer: Prefer = Prefer.ANY, rules: Rules = SEED_RULES
) -> Partition:
    """The fewest plays by exhaustive search over sets of several-rank plays (proven optimal).

    Fast for small hands; its work grows quickly past about 16 cards.
    """
    mask = hand_mask(hand)
    best, sets = optimal_five_sets(mask, collect_all=prefer is not Prefer.ANY, rules=rules)
    partitions = (partition_of(mask, fives, prefer, rules) for fives in sets)
    plays = min(partitions, key=lambda plays: preference_key(plays, prefer))
    return Partition(best, plays, True, best, "exact", rules)


def rank_choices(rest: CardSet, rules: Rules = SEED_RULES) -> list[list[list[list[Card]]]]:
    """Per rank left, every way to play its cards in the fewest one-rank plays."""
    choices: list[list[list[list[Card]]]] = []
    key = rules.card_keys.__getitem__
    for rank in range(13):
        cards = sorted(cards_of(rest & rank_mask(rank)), key=key)
        if not cards:
            continue
        fewest = len(rank_groups(cards, rules, Prefer.ANY))
        choices.append(
            [split for split in _splits(cards, rules.small_sizes) if len(split) == fewest]
        )
    return choices


def _splits(cards: list[Card], sizes: tuple[int, ...]) -> list[list[list[Card]]]:
    """Every way to cut ``cards`` into groups of the given sizes (each way once; the group
    holding the first card comes first)."""
    if not cards:
        return [[]]
    first, others = cards[0], cards[1:]
    out = []
    for size in sizes:
        for mates in itertools.combinations(others, size - 1):
            left = [card for card in others if card not in mates]
            out += [[[first, *mates], *split] for split in _splits(left, sizes)]
    return out
