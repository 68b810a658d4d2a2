"""A Monte Carlo run of the seed's contest harness: the human's strategy against the seed's random
player, in chunks, from a seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from handsolver.models.sixcard import counts_of
from handsolver.solver.sixcard.game_tables import IntArray, Tables
from handsolver.solver.sixcard.strategies import Strategy


@dataclass(frozen=True)
class Simulation:
    """Monte Carlo estimate of the human's score over ``rounds`` harness rounds."""

    rounds: int
    seed: int
    mean: float
    stderr: float
    wins: int
    draws: int
    running: tuple[tuple[int, float], ...] = ()
    """The mean after 100, 200, 500, 1000, ... rounds and after the last: (rounds, mean)."""

    @property
    def percent(self) -> float:
        return 100 * self.mean


def _sampler(t: Tables, strategy: Strategy) -> tuple[IntArray, NDArray[np.float64]]:
    width = max(len(plays) for plays in strategy.plays)
    choices = np.zeros((len(t.hands), width), dtype=np.int64)
    cumulative = np.ones((len(t.hands), width), dtype=np.float64)
    for h, plays in enumerate(strategy.plays):
        running = Fraction(0)
        for i, (s, p) in enumerate(plays):
            running += p
            choices[h, i] = s
            cumulative[h, i] = float(running)
        choices[h, len(plays) :] = plays[-1][0]
    return choices, cumulative


def checkpoints(rounds: int) -> list[int]:
    """Round counts 100, 200, 500, 1000, ... below ``rounds``, then ``rounds`` itself.

    >>> checkpoints(1500)
    [100, 200, 500, 1000, 1500]
    """
    marks = [step * 10**power for power in range(2, 10) for step in (1, 2, 5)]
    return [mark for mark in marks if mark < rounds] + [rounds]


def simulation_chunks(rounds: int, chunk: int = 100_000) -> list[int]:
    """The chunk sizes :func:`simulate` plays ``rounds`` in."""
    return [min(chunk, rounds - start) for start in range(0, rounds, chunk)]


def simulate(
    t: Tables,
    human: Strategy,
    computer: Strategy,
    rounds: int,
    seed: int,
    wrap: Callable[[Iterable[int]], Iterable[int]] = lambda chunks: chunks,
) -> Simulation:
    """Play the seed's ``main.m`` ``rounds`` times: shuffle ``ceil(randperm(16)/4)``, give the
    computer positions 1, 3, .., 11 and the human 2, 4, .., 12, score the human.

    ``wrap`` wraps the iterable of chunk sizes (for a progress bar).
    """
    game = t.game
    rng = np.random.default_rng(seed)
    code_base = game.hand_size + 1
    lookup = np.full(code_base**game.values, -1, dtype=np.int64)
    powers = code_base ** np.arange(game.values)
    for h, hand in enumerate(t.hands):
        lookup[int(np.dot(counts_of(hand, game), powers))] = h
    samplers = (_sampler(t, human), _sampler(t, computer))
    total = 0.0
    squares = 0.0
    wins = draws = 0
    done = 0
    marks = checkpoints(rounds)
    running = []
    for size in wrap(simulation_chunks(rounds)):
        deck = rng.random((size, game.deck_size)).argsort(axis=1) // game.copies
        dealt = (deck[:, 1 : 2 * game.hand_size : 2], deck[:, 0 : 2 * game.hand_size : 2])
        chosen = []
        for cards, (choices, cumulative) in zip(dealt, samplers, strict=True):
            counts = np.stack([(cards == v).sum(axis=1) for v in range(game.values)], axis=1)
            dealt_hands = lookup[counts @ powers]
            pick = (cumulative[dealt_hands] < rng.random(size)[:, None]).sum(axis=1)
            chosen.append(choices[dealt_hands, np.minimum(pick, choices.shape[1] - 1)])
        result = t.results[chosen[0], chosen[1]]
        wins += int((result == 2).sum())
        draws += int((result == 1).sum())
        scores = result / 2.0
        inside = [mark for mark in marks if done < mark <= done + size]
        if inside:
            sums = np.cumsum(scores)[[mark - done - 1 for mark in inside]]
            running += [
                (mark, (total + float(s)) / mark) for mark, s in zip(inside, sums, strict=True)
            ]
        total += float(scores.sum())
        squares += float((scores * scores).sum())
        done += size
    mean = total / rounds
    variance = max(squares / rounds - mean * mean, 0.0) * rounds / max(rounds - 1, 1)
    stderr = math.sqrt(variance / rounds)
    return Simulation(rounds, seed, mean, stderr, wins, draws, tuple(running))
