"""The value of fantasyland, as a fixed point, over random hands.

Being in fantasyland with ``n`` cards is worth ``V_n``: the mean of the royalties of the best
setting plus the share that stays times the value of staying.  Staying deals 14 cards, so the
value of staying is ``V_14`` itself, and every hand is set knowing it (the stay value of the
search is ``V_14``):

    V_14 = mean(R_14) + share_14 x V_14,   so  V_14 = mean(R_14) / (1 - share_14)
    V_n  = mean(R_n) + share_n x V_14      for n = 15, 16, 17

where ``R`` and the share are those of the settings chosen for the stay value ``V_14``.  The
fixed point is found by policy iteration on the same hands: set them for a stay value, take the
value those settings give as the next stay value, until the settings stop changing the value.
Standard errors: ``V_14`` by the delta method on the ratio, ``V_n`` adding the spread of its own
hands to ``share_n`` times the error of ``V_14``.  The opponents' side (scores against them) is
not modelled: a fantasyland hand is valued by what it earns from any opponent who does not foul.

Normal hands (13 cards over five streets) are dealt and played by the policy of
:mod:`handsolver.solver.ofc.play`, to measure how often they foul and how often they earn
fantasyland, and of which size.

Each hand is dealt from its own seed (``seed``, size, index), so the answer is the same with
any number of workers.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from handsolver.models.ofc import REFANTASY_CARDS, OfcRules

SIZES = (14, 15, 16, 17)
MAX_ROUNDS = 8


@dataclass(frozen=True)
class FantasyJob:
    """One fantasyland hand to set for a stay value."""

    size: int
    index: int
    seed: int
    stay_value: Fraction
    rules: OfcRules


@dataclass(frozen=True)
class FantasyResult:
    size: int
    royalties: int
    stays: bool


@dataclass(frozen=True)
class NormalJob:
    index: int
    seed: int
    fantasy_value: Fraction
    rules: OfcRules


@dataclass(frozen=True)
class NormalResult:
    royalties: int
    fouled: bool
    fantasy_cards: int | None


def dealt_cards(seed: int, kind: str, size: int, index: int) -> list[int]:
    """The cards of one hand: a shuffled deck's first ``size``, from its own seed."""
    return random.Random(f"ofc-{kind}-{seed}-{size}-{index}").sample(range(52), size)


def set_fantasy_hand(job: FantasyJob) -> FantasyResult:
    """The best setting of one random fantasyland hand, for the job's stay value."""
    from handsolver.solver.ofc.fantasyland import Objective, solve_fantasyland

    hand = dealt_cards(job.seed, "fantasy", job.size, job.index)
    best = solve_fantasyland(hand, job.rules, Objective(job.stay_value)).settings[0]
    return FantasyResult(job.size, best.royalties.total, best.stays)


def play_normal_hand(job: NormalJob) -> NormalResult:
    """One normal hand dealt street by street and played by the policy."""
    from handsolver.models.ofc import is_foul, row_royalties
    from handsolver.solver.ofc.play import Scorer, played_out

    deck = dealt_cards(job.seed, "normal", 52, job.index)
    scorer = Scorer(job.rules, job.fantasy_value)
    board = played_out(((), (), ()), deck, scorer)
    return NormalResult(
        row_royalties(board, job.rules.royalties).total,
        is_foul(board),
        job.rules.fantasy_cards(board),
    )


@dataclass(frozen=True)
class SizeValue:
    """One hand size: its mean royalties, the share that stays and the value of being there."""

    size: int
    hands: int
    royalties: float
    royalties_stderr: float
    share_staying: float
    share_stderr: float
    value: float
    value_stderr: float


@dataclass(frozen=True)
class NormalSummary:
    hands: int
    royalties: float
    royalties_stderr: float
    share_fouled: float
    share_fantasy: dict[int, float]
    """Share of hands earning fantasyland, by the cards it deals."""
    fantasy_value: float
    """The mean, over hands, of the value of the fantasyland earned (0 without)."""
    fantasy_value_stderr: float


@dataclass(frozen=True)
class FantasyStudy:
    sizes: tuple[SizeValue, ...]
    rounds: tuple[float, ...]
    """The stay value of each round of the policy iteration, the last the fixed point."""
    royalties: dict[int, tuple[int, ...]]
    """Each size's royalties hand by hand (for pictures)."""
    normal: NormalSummary | None


Runner = Callable[[Callable[..., object], Iterable[object], int], Iterator[object]]


def _mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    count = len(values)
    mean = sum(values) / count
    if count < 2:
        return mean, math.nan
    variance = sum((v - mean) ** 2 for v in values) / (count - 1)
    return mean, math.sqrt(variance / count)


def fantasy_study(
    hands: int,
    seed: int,
    rules: OfcRules,
    run: Runner,
    normal_hands: int = 0,
    size_hands: int | None = None,
) -> FantasyStudy:
    """The value of fantasyland of each size, as a fixed point, over ``hands`` random hands a
    size (see the module).  ``run(function, jobs, count)`` maps ``function`` over ``jobs`` in
    order (the command passes :func:`handsolver.solver.batch.run_batch` with progress).
    ``size_hands`` hands of 15 to 17 cards (default ``hands``)."""
    rounds: list[float] = []

    def set_all(count: int, stay: Fraction) -> tuple[list[FantasyResult], Fraction]:
        """The first ``count`` 14-card hands set for ``stay``, and the value they give."""
        jobs = [FantasyJob(REFANTASY_CARDS, i, seed, stay, rules) for i in range(count)]
        found = [r for r in run(set_fantasy_hand, jobs, count) if isinstance(r, FantasyResult)]
        share = Fraction(sum(r.stays for r in found), count)
        mean = Fraction(sum(r.royalties for r in found), count)
        following = mean / (1 - share) if share < 1 else mean
        # The stay value rounded to 1/100 of a point keeps the search's integers small.
        following = Fraction(round(following * 100), 100)
        rounds.append(float(following))
        return found, following

    # Policy iteration, first on a quarter of the hands (at least 200) to come near the fixed
    # point cheaply, then on all of them until the value stops moving.
    stay = Fraction(0)
    base: list[FantasyResult] = []
    first = min(hands, max(200, hands // 4))
    for count in dict.fromkeys((first, hands)):
        for _ in range(MAX_ROUNDS):
            base, following = set_all(count, stay)
            if following == stay:
                break
            stay = following
    value = float(stay)
    royalties14 = [float(r.royalties) for r in base]
    stays14 = [float(r.stays) for r in base]
    share14, share14_error = _mean_and_error(stays14)
    # Delta method: V solves mean(R - V (1 - s)) = 0.
    residuals = [r - value * (1 - s) for r, s in zip(royalties14, stays14, strict=True)]
    _, residual_error = _mean_and_error(residuals)
    value_error = residual_error / (1 - share14) if share14 < 1 else math.nan
    mean14, mean14_error = _mean_and_error(royalties14)
    sizes = [SizeValue(14, hands, mean14, mean14_error, share14, share14_error, value, value_error)]
    by_size = {14: tuple(r.royalties for r in base)}
    others = hands if size_hands is None else size_hands
    for size in SIZES[1:] if others else ():
        jobs = [FantasyJob(size, i, seed, stay, rules) for i in range(others)]
        results = [
            r for r in run(set_fantasy_hand, jobs, len(jobs)) if isinstance(r, FantasyResult)
        ]
        royalties = [float(r.royalties) for r in results]
        stays = [float(r.stays) for r in results]
        totals = [r + value * s for r, s in zip(royalties, stays, strict=True)]
        mean, mean_error = _mean_and_error(royalties)
        share, share_error = _mean_and_error(stays)
        size_value, size_error = _mean_and_error(totals)
        size_error = math.sqrt(size_error**2 + (share * value_error) ** 2)
        sizes.append(
            SizeValue(size, others, mean, mean_error, share, share_error, size_value, size_error)
        )
        by_size[size] = tuple(r.royalties for r in results)
    normal = None
    if normal_hands:
        values = {item.size: item.value for item in sizes}
        jobs_n = [NormalJob(i, seed, stay, rules) for i in range(normal_hands)]
        played = [
            r for r in run(play_normal_hand, jobs_n, normal_hands) if isinstance(r, NormalResult)
        ]
        royalties_n = [float(r.royalties) for r in played]
        mean_n, error_n = _mean_and_error(royalties_n)
        worth = [values[r.fantasy_cards] if r.fantasy_cards else 0.0 for r in played]
        worth_mean, worth_error = _mean_and_error(worth)
        normal = NormalSummary(
            hands=normal_hands,
            royalties=mean_n,
            royalties_stderr=error_n,
            share_fouled=sum(r.fouled for r in played) / normal_hands,
            share_fantasy={
                size: sum(r.fantasy_cards == size for r in played) / normal_hands for size in SIZES
            },
            fantasy_value=worth_mean,
            fantasy_value_stderr=worth_error,
        )
    return FantasyStudy(tuple(sizes), tuple(rounds), by_size, normal)
