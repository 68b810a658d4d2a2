"""Big 2 tournaments in the duplicate format: the same deals replayed with the seats rotated.

With ``n`` strategies (2, 3 or 4, one a seat), every deal is played ``n`` times: in rotation
``r`` strategy ``j`` sits in seat ``(j + r) mod n``, so every strategy plays every seat's hand
of every deal and the luck of the deal cancels.  Each seat is dealt 13 cards (17 with three
players under rules for three players); the rest of the deck stays undealt.

For each strategy (seats that share a name count together): the games it went out first in, the
share of its games that is, with a 95% interval, its mean cards left, and its mean score.  A
seat left with ``c`` cards pays ``c`` points when ``c`` is at most 9, ``2c`` for 10 to 12 and
``3c`` for 13 or more, and the seat that went out collects what the others pay, so scores sum
to zero in every game.  The interval is the share plus or minus 1.96 standard errors of the mean
over deals of the strategy's share of that deal's games (a deal's rotations are not independent
of each other; deals are), cut to [0, 1].  It rests on the normal approximation, so it is
given only from 10 deals on, where the strategy both won and lost at least 5 games (else None).

The deals are played in blocks (:mod:`handsolver.solver.big2.table.tournament_games`) through
:func:`handsolver.solver.batch.run_missing`, each block's games side by side so that a strategy
program runs once a turn for the whole block; every random choice comes from the seed, the
deal, the rotation and the turn, so the answer is the same with any number of workers.  With a
checkpoint every finished block is saved as it comes, and a resumed tournament plays only the
blocks missing (:mod:`handsolver.solver.big2.table.tournament_saves`), with the same answer.
Progress moves a game at a time here (a block's games end one by one), a block at a time from
workers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from handsolver.models.big2 import SEED_RULES, Rules
from handsolver.models.cards import InputError
from handsolver.solver.batch import run_missing
from handsolver.solver.big2.table.tournament_games import (
    BLOCK,
    GameRecord,
    block_games,
    hand_size,
    play_block,
)
from handsolver.solver.big2.table.tournament_saves import (
    block_line,
    key_line,
    read_checkpoint,
    tournament_key,
)
from handsolver.solver.big2.table.views import Strategy
from handsolver.solver.saved_files import LineWriter

__all__ = ["Progress", "StrategyResult", "TournamentResult", "play_tournament"]

Progress = Callable[[Iterator[Any], int, int], Iterable[Any]]
"""Wraps the loop over finished games, e.g. with a progress bar: (one item a game, games in
all, games done before, in a resumed tournament)."""
Z95 = 1.96
MIN_DEALS = 10
MIN_OUTCOMES = 5
"""An interval is given from :data:`MIN_DEALS` deals on, where the strategy both won and lost
at least :data:`MIN_OUTCOMES` games; with fewer the normal approximation it rests on does not
hold (four games all won would give "100% to 100%")."""


@dataclass(frozen=True)
class StrategyResult:
    """One strategy's results: ``wins`` of ``games``, the win rate and its 95% interval (None
    from too few games: see :data:`MIN_DEALS`), the mean cards left and the mean score."""

    strategy: str
    wins: int
    games: int
    win_rate: Fraction
    interval: tuple[float, float] | None
    mean_cards_left: Fraction
    mean_score: Fraction


@dataclass(frozen=True)
class TournamentResult:
    rules: Rules
    deals: int
    seed: int
    strategies: tuple[StrategyResult, ...]
    games: tuple[GameRecord, ...]


def play_tournament(
    strategies: Sequence[Strategy],
    deals: int,
    seed: int,
    rules: Rules = SEED_RULES,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
    checkpoint: Path | None = None,
    resume: bool = False,
    checkpoint_required: bool = True,
) -> TournamentResult:
    """Play ``deals`` deals, each in every rotation (see the module).

    With ``checkpoint`` every finished block of deals is saved there; ``resume`` reads it first
    and plays only the blocks it lacks (without ``resume`` the file is started afresh).  A
    checkpoint that is not ``required`` (one the user did not name) is given up if it cannot be
    written, the tournament going on, and removed once every block is played.

    :raises InputError: fewer than 2 or more than 4 strategies, a strategy's illegal move, a
        checkpoint of another tournament or one that cannot be read, or a required one that
        cannot be written.
    """
    players = len(strategies)
    if not 2 <= players <= 4:
        raise InputError(f"give 2, 3 or 4 strategies, not {players}")
    if rules.players == 3 and players != 3:
        raise InputError(f"the rules are for three players, but {players} strategies are seated")
    if players * hand_size(players, rules) > 52:
        raise InputError(
            f"{players} players cannot be dealt {hand_size(players, rules)} cards each"
        )
    blocks = {first: min(BLOCK, deals - first) for first in range(0, deals, BLOCK)}
    key = tournament_key(strategies, deals, seed, rules)
    done: dict[int, list[GameRecord]] = {}
    if checkpoint is not None and resume and checkpoint.exists():
        done = read_checkpoint(checkpoint, key, blocks, players, rules)
    writer = None
    if checkpoint is not None:
        # A resumed checkpoint is written anew from what was read, so a bad line goes.
        writer = LineWriter(checkpoint, key_line(key), checkpoint_required)
        for first, games in sorted(done.items()):
            writer.add(block_line(key, first, games))

    def save(first: int, games: list[GameRecord]) -> None:
        if writer is not None:
            writer.add(block_line(key, first, games))

    jobs = {
        first: (tuple(strategies), first, count, seed, rules) for first, count in blocks.items()
    }
    games_count = (deals * players, sum(len(block) for block in done.values()))
    try:
        if scheduler is None and workers <= 1:
            played = _played_here(jobs, done, save, progress, games_count)
        else:
            played = run_missing(
                play_block,
                jobs,
                done,
                save=save,
                workers=workers,
                scheduler=scheduler,
                progress=None if progress is None else _by_games(progress, games_count),
            )
    finally:
        if writer is not None:
            writer.close()
    if checkpoint is not None and not checkpoint_required:
        checkpoint.unlink(missing_ok=True)
    games = [game for block in played.values() for game in block]
    names = [strategy.name for strategy in strategies]
    summaries = tuple(
        _summary(name, [j for j, other in enumerate(names) if other == name], games, deals)
        for name in dict.fromkeys(names)
    )
    return TournamentResult(rules, deals, seed, summaries, tuple(games))


def _played_here(
    jobs: dict[int, tuple[Any, ...]],
    done: dict[int, list[GameRecord]],
    save: Callable[[int, list[GameRecord]], None],
    progress: Progress | None,
    games: tuple[int, int],
) -> dict[int, list[GameRecord]]:
    """Every block by first deal: those ``done``, the others played here in order, each saved
    once its last game ends; ``progress`` moves as each game ends (``games``: in all, done)."""
    found: dict[int, list[GameRecord]] = {}

    def ended() -> Iterator[None]:
        for first, job in jobs.items():
            if first in done:
                continue
            block: dict[int, GameRecord] = {}
            for index, game in block_games(job):
                block[index] = game
                yield None
            found[first] = [block[index] for index in sorted(block)]
            save(first, found[first])

    for _ in ended() if progress is None else progress(ended(), *games):
        pass
    return {first: done[first] if first in done else found[first] for first in jobs}


def _by_games(progress: Progress, games: tuple[int, int]) -> Progress:
    """``progress`` over games (``games``: in all, done), wrapped round a loop over finished
    blocks, which workers send a block at a time: the bar moves by a block's games."""

    def wrap(blocks: Iterator[Any], _total: int, _done: int) -> Iterator[Any]:
        def ticks() -> Iterator[Any]:
            for block in blocks:
                yield from [None] * (len(block) - 1)
                yield block

        return (item for item in progress(ticks(), *games) if item is not None)

    return wrap


def _summary(name: str, indices: list[int], games: list[GameRecord], deals: int) -> StrategyResult:
    wins = played = cards = score = 0
    per_deal: dict[int, list[int]] = {}
    for game in games:
        scores = game.scores()
        for seat, strategy in enumerate(game.seats):
            if strategy in indices:
                won = int(game.cards_left[seat] == 0)
                wins += won
                played += 1
                cards += game.cards_left[seat]
                score += scores[seat]
                per_deal.setdefault(game.deal, []).append(won)
    rate = Fraction(wins, played) if played else Fraction(0)
    shares = [Fraction(sum(w), len(w)) for w in per_deal.values()]
    enough = len(shares) >= MIN_DEALS and min(wins, played - wins) >= MIN_OUTCOMES
    return StrategyResult(
        name,
        wins,
        played,
        rate,
        _interval(rate, shares) if enough else None,
        Fraction(cards, played) if played else Fraction(0),
        Fraction(score, played) if played else Fraction(0),
    )


def _interval(rate: Fraction, shares: list[Fraction]) -> tuple[float, float]:
    """``rate`` plus or minus 1.96 standard errors of the mean of the per-deal ``shares`` (at
    least :data:`MIN_DEALS` of them)."""
    mean = sum(shares, Fraction(0)) / len(shares)
    variance = sum((share - mean) ** 2 for share in shares) / (len(shares) - 1)
    half = Z95 * math.sqrt(variance / len(shares))
    return max(0.0, float(rate) - half), min(1.0, float(rate) + half)
