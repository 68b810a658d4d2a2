"""How much a best response gains over a strategy, over random Chinese poker hands.

For each hand: the strategy's own setting; the best response, chosen on ``samples`` deals of
opponents who play the strategy; and both settings scored on ``samples`` *fresh* deals (common
to both), so that the gain is not flattered by the deals the choice was made on.  A hand's gain
is the mean of its per-deal differences; the study's gain is the mean over hands, with the
standard error of that mean (which includes the sampling noise of every hand).

Each hand is one job for :func:`handsolver.solver.batch.run_batch`, so a study runs in this
process, on local workers or on a Dask cluster with the same results.

>>> jobs = study_jobs(2, "greedy", samples=50, seed=1)
>>> result = summarize([study_hand(job) for job in jobs], samples=50)
>>> result.hands, result.samples
(2, 50)
>>> result.mean_gain >= 0
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt
from typing import NamedTuple

from handsolver.models.cards import Card
from handsolver.models.chinese import HAND_SIZE, Royalties
from handsolver.solver.chinese.indexing import Keys, hand_keys
from handsolver.solver.chinese.scoring import rank_settings, score_settings
from handsolver.solver.chinese.strategies import (
    DEFAULT_BR_SAMPLES,
    DEFAULT_TIMEOUT,
    Context,
    SampledScenarios,
    strategy_from_spec,
)


class StudyJob(NamedTuple):
    """One hand of a study (picklable: it may run on another machine)."""

    hand: tuple[Card, ...]
    strategy: str
    opponents: int
    samples: int
    seed: int
    scoring: str = "1-6"
    royalties: Royalties | None = None
    br_samples: int = DEFAULT_BR_SAMPLES
    timeout: float = DEFAULT_TIMEOUT
    """Seconds a strategy program may run, at every level of ``best-response:``."""
    sandbox: str = "auto"
    """How a strategy program is isolated."""


class HandGain(NamedTuple):
    """One hand's result: points per deal of the strategy's setting and of the best response
    on the evaluation deals, the mean gain and its standard error."""

    hand: tuple[Card, ...]
    strategy_setting: int
    best_setting: int
    strategy_points: float
    best_points: float
    gain: float
    gain_stderr: float
    same: bool
    """The strategy's setting scored as well as the best response on the choosing deals."""


def study_jobs(
    hands: int,
    strategy: str,
    *,
    opponents: int = 1,
    samples: int = 1000,
    seed: int = 0,
    scoring: str = "1-6",
    royalties: Royalties | None = None,
    br_samples: int = DEFAULT_BR_SAMPLES,
    timeout: float = DEFAULT_TIMEOUT,
    sandbox: str = "auto",
) -> list[StudyJob]:
    """``hands`` random hands, each with its own seed drawn from ``seed``.

    :raises InputError: for an unknown strategy or scoring rule.
    """
    import numpy as np

    strategy_from_spec(strategy, br_samples, timeout, sandbox)  # fail before any work
    rng = np.random.default_rng(seed)
    deals = np.sort(rng.random((hands, 52)).argsort(axis=1)[:, :HAND_SIZE], axis=1)
    seeds = np.random.SeedSequence(seed).generate_state(max(1, hands))
    return [
        StudyJob(
            tuple(row),
            strategy,
            opponents,
            samples,
            int(s),
            scoring,
            royalties,
            br_samples,
            timeout,
            sandbox,
        )
        for row, s in zip(deals.tolist(), seeds.tolist(), strict=False)
    ]


def study_hand(job: StudyJob) -> HandGain:
    """The best response's gain over the strategy on one hand (module level for run_batch)."""
    import numpy as np

    strategy = strategy_from_spec(job.strategy, job.br_samples, job.timeout, job.sandbox)
    own_seed, choose_seed, judge_seed = np.random.SeedSequence(job.seed).generate_state(3)

    def context(seed: int) -> Context:
        return Context(job.opponents, job.scoring, job.royalties, int(seed))

    own = int(strategy.choose([job.hand], context(own_seed))[0])
    choosing = SampledScenarios(job.hand, strategy, job.samples, context(choose_seed))
    ranking = rank_settings(job.hand, choosing, job.scoring, job.royalties)
    best = int(ranking.order[0])
    placed = np.flatnonzero(ranking.order == own)
    same = bool(placed.size) and ranking.totals[placed[0]] == ranking.totals[0]

    judging = SampledScenarios(job.hand, strategy, job.samples, context(judge_seed))
    batch = hand_keys(np.array([sorted(job.hand)]))
    keys = Keys(batch.five[0], batch.front[0], batch.front_order[0])
    scores = score_settings(keys, judging, np.array([best, own]), job.scoring, job.royalties)
    difference = scores.batches[0] - scores.batches[1]
    deals = scores.batch_deals
    gain = difference.sum() / job.samples
    if len(deals) > 1:
        spread = ((difference - gain * deals) ** 2 / deals).sum() / (len(deals) - 1)
        stderr = sqrt(spread / job.samples)
    else:
        stderr = float("nan")
    best_points, own_points = (scores.totals / job.samples).tolist()
    return HandGain(job.hand, own, best, own_points, best_points, float(gain), stderr, bool(same))


@dataclass(frozen=True)
class StudyResult:
    """Means over the hands, with the standard errors of the means."""

    hands: int
    samples: int
    mean_gain: float
    gain_stderr: float
    strategy_points: float
    best_points: float
    share_same: float
    biggest: tuple[HandGain, ...]
    """The hands where the best response gains most, largest first (at most 5)."""


def summarize(results: Sequence[HandGain], samples: int) -> StudyResult:
    """The study's means from the hands' results."""
    import numpy as np

    gains = np.array([r.gain for r in results], dtype=np.float64)
    count = len(results)
    stderr = float(gains.std(ddof=1) / sqrt(count)) if count > 1 else float("nan")
    biggest = sorted(results, key=lambda r: (-r.gain, r.hand))[:5]
    return StudyResult(
        hands=count,
        samples=samples,
        mean_gain=float(gains.mean()) if count else float("nan"),
        gain_stderr=stderr,
        strategy_points=float(np.mean([r.strategy_points for r in results])) if count else 0.0,
        best_points=float(np.mean([r.best_points for r in results])) if count else 0.0,
        share_same=float(np.mean([r.same for r in results])) if count else 0.0,
        biggest=tuple(biggest),
    )
