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
of each other; deals are), cut to [0, 1].

The deals are played in blocks (:mod:`handsolver.solver.big2.table.tournament_games`) through
:func:`handsolver.solver.batch.run_missing`, each block's games side by side so that a strategy
program runs once a turn for the whole block; every random choice comes from the seed, the
deal, the rotation and the turn, so the answer is the same with any number of workers.  With a
checkpoint every finished block is saved as it comes, and a resumed tournament plays only the
blocks missing (:mod:`handsolver.solver.big2.table.tournament_saves`), with the same answer.
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
from handsolver.solver.big2.table.tournament_games import BLOCK, GameRecord, hand_size, play_block
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
"""Wraps the loop over finished blocks, e.g. with a progress bar: (the blocks' games, blocks in
all, blocks done before, in a resumed tournament)."""
Z95 = 1.96


@dataclass(frozen=True)
class StrategyResult:
    """One strategy's results: ``wins`` of ``games``, the win rate and its 95% interval, the
    mean cards left and the mean score."""

    strategy: str
    wins: int
    games: int
    win_rate: Fraction
    interval: tuple[float, float]
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
    try:
        played = run_missing(
            play_block,
            jobs,
            done,
            save=save,
            workers=workers,
            scheduler=scheduler,
            progress=progress,
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
    return StrategyResult(
        name,
        wins,
        played,
        rate,
        _interval(rate, [Fraction(sum(w), len(w)) for w in per_deal.values()]),
        Fraction(cards, played) if played else Fraction(0),
        Fraction(score, played) if played else Fraction(0),
    )


def _interval(rate: Fraction, shares: list[Fraction]) -> tuple[float, float]:
    """``rate`` plus or minus 1.96 standard errors of the mean of the per-deal ``shares``."""
    if len(shares) < 2:
        return 0.0, 1.0
    mean = sum(shares, Fraction(0)) / len(shares)
    variance = sum((share - mean) ** 2 for share in shares) / (len(shares) - 1)
    half = Z95 * math.sqrt(variance / len(shares))
    return max(0.0, float(rate) - half), min(1.0, float(rate) + half)
