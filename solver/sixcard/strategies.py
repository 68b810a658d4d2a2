"""Strategies of the six-card game: a distribution over splits for every hand, checked, and the
built-in ones (``sorted``, the seed's ``random``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from handsolver.models.cards import InputError
from handsolver.models.sixcard import Hand, Split, counts_of, format_hand, sorted_split
from handsolver.solver.sixcard.game_tables import Plays, Tables


@dataclass(frozen=True)
class Strategy:
    """A name and, for every hand index, the distribution of the splits it plays."""

    name: str
    plays: tuple[Plays, ...]

    def mixed_hands(self) -> tuple[int, ...]:
        """The hand indices whose play is a proper mixture."""
        return tuple(h for h, plays in enumerate(self.plays) if len(plays) > 1)


def checked_strategy(t: Tables, name: str, plays: Iterable[Mapping[int, Fraction]]) -> Strategy:
    """A :class:`Strategy` from one split distribution per hand, in hand order; every one must be
    a distribution over the hand's own splits, or :class:`InputError` names the hand."""
    checked = []
    for h, dist in enumerate(plays):
        kept = tuple(sorted((s, p) for s, p in dist.items() if p))
        if not kept or sum(p for _, p in kept) != 1 or any(p < 0 for _, p in kept):
            raise InputError(
                f"{name}: hand {format_hand(t.hands[h], t.game)} is not a distribution"
            )
        if any(int(t.split_hand[s]) != h for s, _ in kept):
            raise InputError(f"{name}: a split given for hand {format_hand(t.hands[h])} is not its")
        checked.append(kept)
    return Strategy(name, tuple(checked))


def pure_strategy(t: Tables, name: str, choice: Callable[[Hand], Split]) -> Strategy:
    """The strategy that plays ``choice(hand)`` with every hand."""
    return checked_strategy(
        t, name, ({t.split_index[choice(hand)]: Fraction(1)} for hand in t.hands)
    )


def sorted_strategy(t: Tables) -> Strategy:
    """High = the largest cards, Middle = the next, Low = the smallest."""
    return pure_strategy(t, "sorted", lambda hand: sorted_split(hand, t.game))


def random_strategy(t: Tables) -> Strategy:
    """The seed's plan: shuffle the hand, deal the parts in order (High, Middle, Low).

    A split whose part ``p`` holds ``n[v, p]`` cards of value ``v`` arises from
    ``prod_v count_v! / prod_p n[v, p]!`` choices of physical cards, each in
    ``prod_p size_p!`` orders, out of ``hand_size!`` permutations.

    >>> from handsolver.solver.sixcard import tables
    >>> t = tables()
    >>> [str(p) for _, p in random_strategy(t).plays[t.hand_of("111122")]]
    ['1/5', '2/5', '1/5', '1/15', '2/15']
    """
    game = t.game
    orders = math.prod(math.factorial(size) for size in game.part_sizes)
    total = math.factorial(game.hand_size)
    plays = []
    for h, hand in enumerate(t.hands):
        dist = {}
        for s in t.hand_splits[h]:
            ways = math.prod(math.factorial(c) for c in counts_of(hand, game))
            for part in t.splits[s]:
                ways //= math.prod(math.factorial(c) for c in counts_of(part, game))
            dist[s] = Fraction(ways * orders, total)
        plays.append(dist)
    return checked_strategy(t, "random", plays)
