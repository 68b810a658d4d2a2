"""Single hands: the scenarios a hand meets (a known split, a known hand, a strategy) and its
splits ranked by exact score against them.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from handsolver.models.sixcard import Hand, Split
from handsolver.solver.sixcard.game_tables import Plays, Tables
from handsolver.solver.sixcard.strategies import Strategy


@dataclass(frozen=True)
class SplitScore:
    """A split's expected result against a set of opponent scenarios."""

    split: Split
    score: Fraction
    win: Fraction
    draw: Fraction
    worst: Fraction

    @property
    def percent(self) -> float:
        return float(self.score * 100)


def scenarios_vs_split(t: Tables, split: Split) -> Plays:
    """The opponent's split is known: (a)."""
    return ((t.split_index[split], Fraction(1)),)


def scenarios_vs_hand(t: Tables, hand: Hand, opponent: Strategy) -> Plays:
    """The opponent's hand and strategy are known: (b)."""
    return opponent.plays[t.hand_index[hand]]


def scenarios_vs_strategy(t: Tables, mine: Hand, opponent: Strategy) -> Plays:
    """Only the opponent's strategy is known: their hand is dealt from the rest of the deck: (c)."""
    h = t.hand_index[mine]
    dist: dict[int, Fraction] = defaultdict(Fraction)
    for g, plays in enumerate(opponent.plays):
        ways = int(t.pair_ways[h, g])
        for s, p in plays if ways else ():
            dist[s] += Fraction(ways, t.replies) * p
    return tuple(sorted(dist.items()))


def rank_splits(t: Tables, hand: Hand, scenarios: Plays) -> list[SplitScore]:
    """Every split of ``hand`` scored against ``scenarios``, best first (ties in split order).

    ``worst`` is the lowest round result over the scenarios: the maximin criterion.
    """
    scale = math.lcm(*(p.denominator for _, p in scenarios))
    columns = [s for s, _ in scenarios]
    weights = [p.numerator * (scale // p.denominator) for _, p in scenarios]
    ranked = []
    for s in t.hand_splits[t.hand_index[hand]]:
        row = [int(r) for r in t.results[s, columns]]
        win = sum(w for w, r in zip(weights, row, strict=True) if r == 2)
        draw = sum(w for w, r in zip(weights, row, strict=True) if r == 1)
        ranked.append(
            SplitScore(
                split=t.splits[s],
                score=Fraction(2 * win + draw, 2 * scale),
                win=Fraction(win, scale),
                draw=Fraction(draw, scale),
                worst=Fraction(min(row), 2),
            )
        )
    return sorted(ranked, key=lambda item: -item.score)


def maximin_splits(t: Tables, hand: Hand, theirs: Hand) -> list[SplitScore]:
    """The splits of ``hand`` ranked by their worst result over all splits of ``theirs``.

    Ties on the worst case are broken by the average over the opponent's distinct splits.
    """
    their_splits = t.hand_splits[t.hand_index[theirs]]
    uniform = tuple((s, Fraction(1, len(their_splits))) for s in their_splits)
    return sorted(rank_splits(t, hand, uniform), key=lambda item: (-item.worst, -item.score))
