"""Exact values: what every split is worth against a strategy, the score of one strategy against
another, and the best response.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from handsolver.solver.sixcard.game_tables import IntArray, Tables, tables
from handsolver.solver.sixcard.strategies import Strategy, checked_strategy


@dataclass(frozen=True)
class SplitValues:
    """Every split's expected payoff against an opponent strategy, given its own hand.

    ``numerators[s] / denominator`` is the expected payoff of playing split ``s`` (payoff matrix
    entries per round over the opponent's hands and splits, given ``s``'s hand).
    """

    numerators: NDArray[Any]
    denominator: int

    def value(self, s: int) -> Fraction:
        return Fraction(int(self.numerators[s]), self.denominator)


def split_values(t: Tables, opponent: Strategy, payoff: IntArray | None = None) -> SplitValues:
    """The expected payoff (default: round result in half points) of every split vs ``opponent``.

    Integers stay in int64 when the strategy's common denominator is small, else exact Python ints.
    """
    matrix = t.results if payoff is None else payoff
    scale = math.lcm(*(p.denominator for plays in opponent.plays for _, p in plays))
    dtype: Any = np.int64 if scale < 2**40 else object
    total = np.zeros(len(t.splits), dtype=dtype)
    ways_by_split = t.pair_ways[t.split_hand]
    for g, plays in enumerate(opponent.plays):
        columns = [s for s, _ in plays]
        weights = np.array([p.numerator * (scale // p.denominator) for _, p in plays], dtype=dtype)
        total += ways_by_split[:, g].astype(dtype) * (matrix[:, columns].astype(dtype) @ weights)
    return SplitValues(total, scale * t.replies)


@dataclass(frozen=True)
class Evaluation:
    """The contest score of one strategy against another, with the round shares, all exact."""

    score: Fraction
    win: Fraction
    draw: Fraction
    loss: Fraction

    @property
    def percent(self) -> float:
        return float(self.score * 100)


def _expected(t: Tables, strategy: Strategy, values: SplitValues) -> Fraction:
    total = Fraction(0)
    for h, plays in enumerate(strategy.plays):
        total += t.hand_ways[h] * sum(p * int(values.numerators[s]) for s, p in plays)
    return total / (t.deals * values.denominator)


def evaluate(me: Strategy, opponent: Strategy, t: Tables | None = None) -> Evaluation:
    """The exact contest score of ``me`` against ``opponent`` (the harness's human average).

    >>> from handsolver.solver.sixcard import random_strategy, sorted_strategy
    >>> t = tables()
    >>> e = evaluate(sorted_strategy(t), sorted_strategy(t), t)
    >>> e.score, e.win == e.loss
    (Fraction(1, 2), True)
    """
    t = t or tables()
    win = _expected(t, me, split_values(t, opponent, t.wins))
    draw = _expected(t, me, split_values(t, opponent, t.draws))
    return Evaluation(win + draw / 2, win, draw, 1 - win - draw)


@dataclass(frozen=True)
class BestResponse:
    """A pure best response, its exact score against the opponent, and per-hand values."""

    strategy: Strategy
    score: Fraction
    hand_scores: tuple[Fraction, ...]


def best_response(t: Tables, opponent: Strategy) -> BestResponse:
    """The best split of every hand against ``opponent``; ties go to the split listed first.

    >>> from handsolver.solver.sixcard import random_strategy, sorted_strategy
    >>> t = tables()
    >>> br = best_response(t, random_strategy(t))
    >>> br.score >= evaluate(sorted_strategy(t), random_strategy(t), t).score
    True
    """
    values = split_values(t, opponent)
    choices = []
    hand_scores = []
    for splits_of_hand in t.hand_splits:
        best = max(splits_of_hand, key=lambda s: (values.numerators[s], -s))
        choices.append({best: Fraction(1)})
        hand_scores.append(values.value(best) / 2)
    strategy = checked_strategy(t, f"best-response:{opponent.name}", choices)
    score = sum((t.hand_ways[h] * v for h, v in enumerate(hand_scores)), Fraction(0)) / t.deals
    return BestResponse(strategy, score, tuple(hand_scores))
