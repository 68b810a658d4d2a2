"""Pai Gow research on top of the exact values: a plain Monte Carlo estimate (the benchmark's and
the tests' cross-check) and studies of the house way over many player hands.

A study values every hand exactly (:func:`~handsolver.solver.paigow.values.setting_values`)
and compares the best setting's EV with the house way's.  The work is one job per hand, mapped with
:func:`handsolver.solver.batch.run_batch`, so it runs here, on local processes or on a Dask
cluster alike.

>>> summary = study(random_hands(2, seed=1))
>>> summary.hands, 0 <= summary.house_optimal <= 2, summary.mean_gain >= 0
(2, True, True)
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from typing import NamedTuple

from handsolver.models.cards import Card
from handsolver.models.paigow import DEFAULT_RULES, HAND_SIZE, Rules, high_key, low_key
from handsolver.models.paigow_houseway import TRUMP_PLAZA, HouseWay
from handsolver.models.split import Setting
from handsolver.solver.batch import run_batch
from handsolver.solver.paigow.keys import choose
from handsolver.solver.paigow.rank_tables import tables
from handsolver.solver.paigow.values import setting_values

_CHUNK = 1 << 17


class Sampled(NamedTuple):
    """A setting's mean result over sampled dealer hands and its standard error."""

    mean: float
    standard_error: float
    samples: int


def sampled_value(
    hand: Sequence[Card],
    setting: Setting,
    samples: int,
    seed: int,
    way: HouseWay = TRUMP_PLAZA,
    rules: Rules = DEFAULT_RULES,
) -> Sampled:
    """Plain Monte Carlo: deal ``samples`` dealer hands from the cards left, set each by the
    house way, and average the player's result for ``setting``."""
    import numpy as np

    t = tables(way, rules)
    left = np.array([card for card in range(53) if card not in hand], dtype=np.int64)
    rng = np.random.default_rng(seed)
    h, lo = high_key(setting[0], rules), low_key(setting[1])
    total = 0.0
    squares = 0.0
    done = 0
    while done < samples:
        n = min(_CHUNK, samples - done)
        picks = np.argsort(rng.random((n, len(left))), axis=1)[:, :HAND_SIZE]
        dealer = np.sort(left[picks], axis=1)
        _, high, low = choose(t, dealer)
        result = np.where(
            (h > high) & (lo > low),
            float(1 - rules.commission),
            np.where((h <= high) & (lo <= low), -1.0, 0.0),
        )
        total += float(result.sum())
        squares += float((result**2).sum())
        done += n
    mean = total / samples
    variance = max(squares / samples - mean * mean, 0.0) * samples / max(samples - 1, 1)
    return Sampled(mean, math.sqrt(variance / samples), samples)


class StudyJob(NamedTuple):
    hand: tuple[Card, ...]
    way: HouseWay
    rules: Rules


class StudyRow(NamedTuple):
    """One player hand in a study: the house way's EV, the best EV and the best setting."""

    hand: tuple[Card, ...]
    house_ev: Fraction
    best_ev: Fraction
    best_high: tuple[Card, ...]
    best_low: tuple[Card, ...]
    house_high: tuple[Card, ...]
    house_low: tuple[Card, ...]

    @property
    def gain(self) -> Fraction:
        return self.best_ev - self.house_ev


def study_hand(job: StudyJob) -> StudyRow:
    """The study's work for one hand (a module-level function, so that any worker can run it)."""
    values = setting_values(job.hand, job.way, job.rules)
    best, house = values.best, values.house
    return StudyRow(job.hand, house.ev, best.ev, best.high, best.low, house.high, house.low)


class StudySummary(NamedTuple):
    """Over the hands: how often the house way is optimal, the mean gain of the best setting
    over it with its standard error, and the hands where the house way loses most."""

    hands: int
    house_optimal: int
    mean_gain: float
    standard_error: float
    worst: tuple[StudyRow, ...]


def random_hands(count: int, seed: int) -> list[tuple[Card, ...]]:
    """``count`` random seven-card hands from the 53-card deck, the same for the same seed;
    each hand's cards from the highest (the joker first)."""
    rng = random.Random(seed)
    return [tuple(sorted(rng.sample(range(53), HAND_SIZE), reverse=True)) for _ in range(count)]


def study(
    hands: Sequence[Sequence[Card]],
    way: HouseWay = TRUMP_PLAZA,
    rules: Rules = DEFAULT_RULES,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    top: int = 10,
    progress: Callable[[Iterator[StudyRow], int], Iterable[StudyRow]] | None = None,
) -> StudySummary:
    """Run :func:`study_hand` over ``hands`` with :func:`run_batch` and summarise."""
    jobs = [StudyJob(tuple(hand), way, rules) for hand in hands]
    results: Iterable[StudyRow] = run_batch(study_hand, jobs, workers=workers, scheduler=scheduler)
    if progress is not None:
        results = progress(iter(results), len(jobs))
    rows = list(results)
    return summarize(rows, top)


def summarize(rows: Sequence[StudyRow], top: int = 10) -> StudySummary:
    """The study's figures from its rows."""
    gains = [float(row.gain) for row in rows]
    mean = statistics.fmean(gains) if gains else 0.0
    error = statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0
    worst = sorted(rows, key=lambda row: (-row.gain, row.hand))[:top]
    optimal = sum(row.gain == 0 for row in rows)
    return StudySummary(len(rows), optimal, mean, error, tuple(worst))
