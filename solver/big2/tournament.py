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

Deals and every random choice come from the seed, the deal's number, the rotation and the turn,
so the answer is the same with any number of workers: the deals are played in blocks through
:func:`handsolver.solver.batch.run_batch`, each block's games side by side so that a strategy
program runs once a turn for the whole block.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from handsolver.models.big2 import SEED_RULES, Rules
from handsolver.models.cards import CardSet, InputError
from handsolver.solver.batch import run_batch
from handsolver.solver.big2.advise import ProgressWrapper
from handsolver.solver.big2.table import Strategy, Table, Turn, deal_score

__all__ = [
    "BLOCK",
    "GameRecord",
    "StrategyResult",
    "TournamentResult",
    "dealt_hands",
    "play_block",
    "play_tournament",
]

BLOCK = 4
"""Deals a job plays (with all their rotations) side by side."""
Z95 = 1.96


@dataclass(frozen=True)
class GameRecord:
    """One game: the deal's number, the rotation, the strategy index in each seat, the hands
    dealt, every turn, and the cards each seat held at the end."""

    deal: int
    rotation: int
    seats: tuple[int, ...]
    hands: tuple[CardSet, ...]
    turns: tuple[Turn, ...]
    cards_left: tuple[int, ...]

    @property
    def winner(self) -> int:
        """The seat that went out first."""
        return self.cards_left.index(0)

    def scores(self) -> tuple[int, ...]:
        """Each seat's score (see the module): the winner collects what the others pay."""
        paid = [deal_score(cards) for cards in self.cards_left]
        return tuple(
            sum(paid) if cards == 0 else -paid[s] for s, cards in enumerate(self.cards_left)
        )


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


def hand_size(players: int, rules: Rules) -> int:
    """Cards dealt to each seat: 17 with three players under rules for three, else 13."""
    return rules.hand_size if players == 3 and rules.players == 3 else 13


def dealt_hands(
    seed: int, deal: int, players: int, rules: Rules = SEED_RULES
) -> tuple[CardSet, ...]:
    """Deal number ``deal`` of the tournament with ``seed``: a shuffled deck handed out in
    order, the same for the same numbers on any machine."""
    cards = list(range(52))
    random.Random(f"big2 deal {seed} {deal}").shuffle(cards)
    size = hand_size(players, rules)
    return tuple(sum(1 << c for c in cards[s * size : (s + 1) * size]) for s in range(players))


def _decision_seed(seed: int, deal: int, rotation: int, turn: int) -> int:
    return random.Random(f"big2 move {seed} {deal} {rotation} {turn}").getrandbits(63)


def play_block(
    job: tuple[Sequence[Strategy], int, int, int, Rules],
) -> list[GameRecord]:
    """Every game of deals ``first`` .. ``first + count - 1``, all rotations, played side by
    side: each turn, each strategy chooses for all the games it is to move in at once."""
    strategies, first, count, seed, rules = job
    players = len(strategies)
    games: list[tuple[int, int, tuple[int, ...], Table]] = []
    for deal in range(first, first + count):
        hands = dealt_hands(seed, deal, players, rules)
        for rotation in range(players):
            seats = tuple((seat - rotation) % players for seat in range(players))
            games.append((deal, rotation, seats, Table.deal(hands, rules)))
    dealt = {(deal, rotation): table.hands for deal, rotation, _, table in games}
    tables = [table for _, _, _, table in games]
    while True:
        waiting: dict[int, list[int]] = {}
        for index, table in enumerate(tables):
            if table.winner is None:
                strategy = games[index][2][table.to_move]
                waiting.setdefault(strategy, []).append(index)
        if not waiting:
            break
        for strategy, indices in sorted(waiting.items()):
            views = [tables[i].view() for i in indices]
            seeds = [
                _decision_seed(seed, games[i][0], games[i][1], len(tables[i].history))
                for i in indices
            ]
            moves = strategies[strategy].choose(views, seeds)
            for i, view, move in zip(indices, views, moves, strict=True):
                if move not in view.legal_moves():
                    raise InputError(f"strategy {strategies[strategy].name!r} made an illegal move")
                tables[i] = tables[i].after(move)
    return [
        GameRecord(
            deal,
            rotation,
            seats,
            dealt[deal, rotation],
            table.history,
            tuple(hand.bit_count() for hand in table.hands),
        )  # fmt: skip
        for (deal, rotation, seats, _), table in zip(games, tables, strict=True)
    ]


def play_tournament(
    strategies: Sequence[Strategy],
    deals: int,
    seed: int,
    rules: Rules = SEED_RULES,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: ProgressWrapper | None = None,
) -> TournamentResult:
    """Play ``deals`` deals, each in every rotation (see the module).  ``progress`` wraps the
    loop over blocks of deals (a progress bar).

    :raises InputError: fewer than 2 or more than 4 strategies, or a strategy's illegal move.
    """
    players = len(strategies)
    if not 2 <= players <= 4:
        raise InputError(f"give 2, 3 or 4 strategies, not {players}")
    if players * hand_size(players, rules) > 52:
        raise InputError(
            f"{players} players cannot be dealt {hand_size(players, rules)} cards each"
        )
    jobs = [
        (tuple(strategies), first, min(BLOCK, deals - first), seed, rules)
        for first in range(0, deals, BLOCK)
    ]
    blocks: Iterable[list[GameRecord]]
    blocks = run_batch(play_block, jobs, workers=workers, scheduler=scheduler, chunksize=1)
    if progress is not None:
        blocks = progress(blocks, len(jobs), "big2 tournament")
    games = [game for block in blocks for game in block]
    names = [strategy.name for strategy in strategies]
    results = tuple(
        _summary(name, [j for j, other in enumerate(names) if other == name], games, deals)
        for name in dict.fromkeys(names)
    )
    return TournamentResult(rules, deals, seed, results, tuple(games))


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
