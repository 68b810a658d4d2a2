"""Win, tie and loss after the draws, and the best discard: exact where it can be counted.

Exact (every card sequence counted, fractions): heads-up with one draw left, both hands known
(:mod:`.exact`) or one of them unknown (:mod:`.unknown`), whatever each player draws; and
heads-up with two or three draws left and both hands known, where each player's ways to draw
are few enough to list (:mod:`.paths`).  Otherwise a Monte Carlo estimate with standard errors
(:mod:`.montecarlo`).  The best-discard table is exact wherever all 16 choices are.

>>> from handsolver.models.badugi_draw import parse_situation
>>> answer = draw_equity(parse_situation(["Ac 2d 3h Kh", "5c 6d 7h 8h"]))
>>> answer.exact, answer.sequences, answer.players[0].win, answer.players[1].equity
(True, 1892, Fraction(379, 473), Fraction(94, 473))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple, TypeVar

from handsolver.models.badugi import HAND_SIZE
from handsolver.models.badugi_draw import DrawRule, Situation, kept_cards
from handsolver.models.cards import Card, InputError
from handsolver.solver.badugi.exact import Counts, ExactShares, one_draw_counts
from handsolver.solver.badugi.montecarlo import Tally, chunks, sample_chunk
from handsolver.solver.badugi.paths import path_counts
from handsolver.solver.badugi.unknown import UnknownOpponent

T = TypeVar("T")
Progress = Callable[[Iterable[T], int, str], Iterable[T]]
Number = Fraction | float

DEFAULT_SAMPLES = 200_000
DEFAULT_SEED = 1


@dataclass(frozen=True)
class Share:
    """One player's result: win (alone), tie (sharing the best hand), loss, and equity (the
    pot share: ties split).  Exact fractions, or estimates with their standard errors."""

    win: Number
    tie: Number
    loss: Number
    equity: Number
    stderr: dict[str, float] | None = None


@dataclass(frozen=True)
class Answer:
    """The result of :func:`draw_equity`: how it was found, and each player's share."""

    draws: int
    exact: bool
    players: tuple[Share, ...]
    sequences: int | None = None  # card sequences counted (exact)
    samples: int | None = None  # shuffles played (estimate)
    seed: int | None = None


@dataclass(frozen=True)
class Discard:
    """One keep/throw choice of the first player on this draw, and its equity."""

    keep: tuple[Card, ...]
    equity: Number
    cost: Number  # equity given up against the best choice
    default: bool  # the choice the default rule ("best") makes
    stderr: float | None = None
    cost_stderr: float | None = None


def is_exact(spot: Situation) -> bool:
    """Whether the spot is counted exactly: heads-up, and either one draw left with at least one
    hand known, or both hands known with few enough card sequences (:mod:`.paths`)."""
    if len(spot.hands) != 2 or spot.hands.count(None) == 2:
        return False
    return spot.draws == 1 or path_counts(spot) is not None


def _keep(spot: Situation, player: int) -> tuple[Card, ...]:
    hand = spot.hands[player]
    assert hand is not None
    return kept_cards(spot.rules[player], hand, 0)


def exact_counts(spot: Situation, first_keep: tuple[Card, ...] | None = None) -> Counts:
    """The first player's exact counts (heads-up, one draw, known hands)."""
    keep_a = _keep(spot, 0) if first_keep is None else first_keep
    keep_b = _keep(spot, 1)
    return one_draw_counts(
        spot.stub, keep_a, HAND_SIZE - len(keep_a), keep_b, HAND_SIZE - len(keep_b)
    )


def _exact_share(counts: Counts) -> Share:
    total = counts.total
    return Share(
        Fraction(counts.win, total),
        Fraction(counts.tie, total),
        Fraction(counts.loss, total),
        Fraction(2 * counts.win + counts.tie, 2 * total),
    )


def _run(
    jobs: list[T],
    function: Callable[[T], Tally],
    workers: int,
    scheduler: str | None,
    progress: Progress[Tally] | None,
) -> Tally:
    from handsolver.solver.batch import run_batch

    results: Iterable[Tally] = run_batch(function, jobs, workers=workers, scheduler=scheduler)
    if progress is not None:
        results = progress(results, len(jobs), "samples")
    total: Tally | None = None
    for tally in results:
        total = tally if total is None else total + tally
    assert total is not None
    return total


def draw_equity(
    spot: Situation,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress[Tally] | None = None,
    estimate: bool = False,
) -> Answer:
    """Each player's win, tie, loss and equity after the draws left (``estimate``: sample even
    where the answer could be counted, to compare the two)."""
    if not estimate and is_exact(spot):
        return _exact_answer(spot, progress)
    tally = _run(chunks(spot, samples, seed), sample_chunk, workers, scheduler, progress)
    shares = []
    for player in range(len(spot.hands)):
        win, tie = tally.win[player], tally.tie[player]
        loss = tally.samples - win - tie
        shares.append(
            Share(
                win / tally.samples,
                tie / tally.samples,
                loss / tally.samples,
                tally.equity(player),
                {
                    "win": tally.share_stderr(win),
                    "tie": tally.share_stderr(tie),
                    "loss": tally.share_stderr(loss),
                    "equity": tally.stderr(player),
                },
            )
        )
    return Answer(spot.draws, False, tuple(shares), samples=tally.samples, seed=seed)


def _exact_answer(spot: Situation, progress: Progress[Any] | None) -> Answer:
    """:func:`draw_equity` where every card sequence is counted."""
    if None in spot.hands:
        return _unknown_answer(spot, progress)
    if spot.draws > 1:
        return _path_answer(spot)
    counts = exact_counts(spot)
    return Answer(
        spot.draws,
        True,
        (_exact_share(counts), _exact_share(counts.swapped())),
        sequences=counts.total,
    )


def _unknown_answer(spot: Situation, progress: Progress[Any] | None) -> Answer:
    known = 0 if spot.hands[0] is not None else 1
    (shares,) = _unknown_shares(spot.stub, spot.rules[1 - known], [_keep(spot, known)], progress)
    mine, theirs = _both_shares(shares)
    players = (mine, theirs) if known == 0 else (theirs, mine)
    return Answer(spot.draws, True, players, sequences=shares.sequences)


def _unknown_shares(
    stub: tuple[Card, ...],
    rule: DrawRule,
    keeps: Sequence[tuple[Card, ...]],
    progress: Progress[Any] | None = None,
) -> list[ExactShares]:
    """The exact shares of a known hand keeping each of ``keeps`` against an unknown hand
    playing ``rule``, each counted once for a spot (its equity and its table ask for the
    same keep)."""
    opponent, counted = _unknown(stub, rule)
    missing = [keep for keep in dict.fromkeys(map(_sorted, keeps)) if keep not in counted]
    if missing:
        counted.update(zip(missing, opponent.counts_many(missing, progress), strict=True))
    return [counted[_sorted(keep)] for keep in keeps]


def _sorted(keep: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(keep))


def _both_shares(shares: ExactShares) -> tuple[Share, Share]:
    """A known hand's exact shares, and its one opponent's (wins and losses swapped)."""
    mine = Share(shares.win, shares.tie, shares.loss, shares.win + shares.tie / 2)
    theirs = Share(shares.loss, shares.tie, shares.win, shares.loss + shares.tie / 2)
    return mine, theirs


class _Unknown(NamedTuple):
    """The unknown hand's side of a spot's count, and the keeps counted so far (cards in
    order): built once for the spot's equity and its table."""

    opponent: UnknownOpponent
    counted: dict[tuple[Card, ...], ExactShares]


@lru_cache(maxsize=2)
def _unknown(stub: tuple[Card, ...], rule: DrawRule) -> _Unknown:
    return _Unknown(UnknownOpponent(stub, rule), {})


def _path_answer(spot: Situation) -> Answer:
    shares = path_counts(spot)
    assert shares is not None
    return Answer(spot.draws, True, _both_shares(shares), sequences=shares.sequences)


def keep_choices(hand: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """The 16 keep/throw choices of a 4-card hand, from keeping all to throwing all."""
    return [
        tuple(card for i, card in enumerate(hand) if mask >> i & 1)
        for mask in range(2**HAND_SIZE - 1, -1, -1)
    ]


def best_discard(
    spot: Situation,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress[Tally] | None = None,
    estimate: bool = False,
) -> list[Discard]:
    """Every keep/throw choice of the first player on this draw, best first, against the
    others' rules (later draws follow the first player's own rule).

    >>> from handsolver.models.badugi_draw import parse_situation
    >>> table = best_discard(parse_situation(["Ac 2d 3h Kh", "5c 6d 7h 8h"]))
    >>> [(len(row.keep), row.default) for row in table[:2]], table[1].cost
    ([(3, True), (4, False)], Fraction(27, 946))
    """
    hand = spot.hands[0]
    if hand is None:
        raise ValueError("the best discard needs the first player's hand")
    need = spot.cards_needed() - spot.rules[0].most_drawn(0) + HAND_SIZE
    if need > len(spot.stub):
        raise InputError(
            f"too few cards for the best-discard table: {len(spot.stub)} left, and throwing "
            f"all four may need {need} (no reshuffle of discards)"
        )
    choices = keep_choices(hand)
    default = kept_cards(DrawRule(), hand, 0)
    equities = None
    if not estimate and is_exact(spot):
        equities = _exact_equities(spot, choices, progress, workers, scheduler)
    if equities is not None:
        best = max(equities)
        table = [
            Discard(keep, equity, best - equity, set(keep) == set(default))
            for keep, equity in zip(choices, equities, strict=True)
        ]
    else:
        masks = tuple(
            sum(1 << i for i, card in enumerate(hand) if card in keep) for keep in choices
        )
        tally = _run(chunks(spot, samples, seed, masks), sample_chunk, workers, scheduler, progress)
        top = max(range(len(choices)), key=tally.equity)
        table = [
            Discard(
                keep,
                tally.equity(row),
                tally.equity(top) - tally.equity(row),
                set(keep) == set(default),
                tally.stderr(row),
                tally.stderr(top, row),
            )
            for row, keep in enumerate(choices)
        ]
    order = {keep: index for index, keep in enumerate(choices)}
    return sorted(table, key=lambda row: (-row.equity, HAND_SIZE - len(row.keep), order[row.keep]))


def _exact_equities(
    spot: Situation,
    choices: list[tuple[Card, ...]],
    progress: Progress[Any] | None,
    workers: int = 1,
    scheduler: str | None = None,
) -> list[Fraction] | None:
    """The first player's exact equity for each keep choice, or ``None`` if one of them has too
    many card sequences to count (more than one draw left)."""
    if spot.hands[1] is None:
        return _unknown_equities(spot, choices, progress, workers, scheduler)
    rows: Iterable[tuple[Card, ...]] = choices
    if progress is not None:
        rows = progress(choices, len(choices), "keep choices")
    if spot.draws == 1:
        return [Fraction(_exact_share(exact_counts(spot, keep)).equity) for keep in rows]
    equities = []
    for keep in rows:
        paths = path_counts(spot, keep)
        if paths is None:
            return None
        equities.append(paths.win + paths.tie / 2)
    return equities


def _unknown_equities(
    spot: Situation,
    choices: list[tuple[Card, ...]],
    progress: Progress[Any] | None,
    workers: int,
    scheduler: str | None,
) -> list[Fraction]:
    """:func:`_exact_equities` against an unknown hand.

    Keeps that draw the same number of cards share most of their count, so they travel as one
    job; with several workers the jobs go out largest draw first (the costliest), and the
    unknown hand's side is built here before the pool starts, so forked workers inherit it
    instead of building it again.
    """
    stub, rule = spot.stub, spot.rules[1]
    if workers > 1 or scheduler is not None:
        _spread_keeps(stub, rule, choices, progress, workers, scheduler)
    return [share.win + share.tie / 2 for share in _unknown_shares(stub, rule, choices, progress)]


def _spread_keeps(
    stub: tuple[Card, ...],
    rule: DrawRule,
    choices: list[tuple[Card, ...]],
    progress: Progress[Any] | None,
    workers: int,
    scheduler: str | None,
) -> None:
    """Count the keeps not counted yet on ``workers`` processes or a Dask cluster."""
    from handsolver.solver.batch import run_batch

    # Built here, before the pool starts: forked workers inherit the unknown hand's side.
    counted = _unknown(stub, rule).counted
    by_draw: dict[int, list[tuple[Card, ...]]] = {}
    for keep in dict.fromkeys(map(_sorted, choices)):
        if keep not in counted:
            by_draw.setdefault(HAND_SIZE - len(keep), []).append(keep)
    jobs = [(stub, rule, tuple(by_draw[a])) for a in sorted(by_draw, reverse=True)]
    results: Iterable[list[ExactShares]] = run_batch(
        _keep_group_counts, jobs, workers=workers, scheduler=scheduler, chunksize=1
    )
    if progress is not None:
        results = progress(results, len(jobs), "keep groups")
    for (_, _, keeps), shares in zip(jobs, results, strict=True):
        counted.update(zip(keeps, shares, strict=True))


def _keep_group_counts(
    job: tuple[tuple[Card, ...], DrawRule, tuple[tuple[Card, ...], ...]],
) -> list[ExactShares]:
    """One job of :func:`_unknown_equities` (top level, so a worker process can run it)."""
    stub, rule, keeps = job
    return _unknown(stub, rule).opponent.counts_many(keeps)
