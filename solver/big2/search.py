"""The exact search: every set of disjoint five-card plays, pruned by the lower bounds; the
fastest engine for small hands.
"""

from __future__ import annotations

from collections.abc import Iterable

from handsolver.models.big2 import big2_card_key, five_card_masks
from handsolver.models.cards import Card, CardSet, cards_of
from handsolver.solver.big2.bounds import fewest_with_fives, small_plays_needed
from handsolver.solver.big2.partition import (
    Partition,
    Prefer,
    hand_mask,
    partition_of,
    preference_key,
)


def optimal_five_sets(hand: CardSet, collect_all: bool) -> tuple[int, list[tuple[CardSet, ...]]]:
    """The fewest plays, and the first (or every) set of five-card plays reaching it.

    Sets are built in the fixed order of :func:`five_card_masks`, each once; a branch stops
    when even another five-card play and the count bound on what is left cannot do better.
    """
    fives = five_card_masks(hand)
    best = small_plays_needed(hand)
    found: list[tuple[CardSet, ...]] = [()]

    def extend(rest: CardSet, start: int, chosen: tuple[CardSet, ...]) -> None:
        nonlocal best, found
        taken = len(chosen) + 1
        left = rest.bit_count() - 5
        for index in range(start, len(fives)):
            play = fives[index]
            if rest & play != play:
                continue
            after = rest ^ play
            cost = taken + small_plays_needed(after)
            if cost < best:
                best = cost
                found = [(*chosen, play)]
            elif cost == best and collect_all:
                found.append((*chosen, play))
            if left >= 5:
                reachable = taken + fewest_with_fives(after, 1)
                if reachable < best or (collect_all and reachable == best):
                    extend(after, index + 1, (*chosen, play))

    extend(hand, 0, ())
    return best, found


def exact_search(hand: CardSet | Iterable[Card], prefer: Prefer = Prefer.ANY) -> Partition:
    """The fewest plays by exhaustive search over sets of five-card plays (proven optimal).

    Fast for small hands; its work grows quickly past about 16 cards.
    """
    mask = hand_mask(hand)
    best, sets = optimal_five_sets(mask, collect_all=prefer is not Prefer.ANY)
    partitions = (partition_of(mask, fives, prefer) for fives in sets)
    plays = min(partitions, key=lambda plays: preference_key(plays, prefer))
    return Partition(best, plays, True, best, "exact")


def rank_choices(rest: CardSet) -> list[list[list[list[Card]]]]:
    """Per rank left, every way to play its cards in the fewest small plays."""
    choices: list[list[list[list[Card]]]] = []
    for rank in range(13):
        cards = sorted(cards_of(rest & (15 << (4 * rank))), key=big2_card_key)
        if len(cards) < 4:
            if cards:
                choices.append([[cards]])
            continue
        splits = [[[cards[0], other], [c for c in cards[1:] if c != other]] for other in cards[1:]]
        splits += [[[c for c in cards if c != single], [single]] for single in cards]
        choices.append(splits)
    return choices
