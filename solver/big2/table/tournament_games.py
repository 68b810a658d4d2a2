"""The games of a Big 2 tournament: the deals a seed gives, a block of deals played with the
seats rotated, and a block rebuilt from its moves (to check a saved one).

Deals and every random choice come from the seed, the deal's number, the rotation and the turn,
so a game is the same wherever its block is played.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from handsolver.models.big2 import SEED_RULES, Rules
from handsolver.models.cards import CardSet, InputError
from handsolver.solver.big2.table.views import Strategy, Table, Turn, deal_score

__all__ = [
    "BLOCK",
    "GameRecord",
    "block_games",
    "dealt_hands",
    "hand_size",
    "play_block",
    "replayed_block",
]

BLOCK = 4
"""Deals a job plays (with all their rotations) side by side."""


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


def _block_games(
    first: int, count: int, players: int, seed: int, rules: Rules
) -> list[tuple[int, int, tuple[int, ...], Table]]:
    """The games of deals ``first`` .. ``first + count - 1`` at their start, every rotation of
    each deal in turn: (deal, rotation, the strategy index in each seat, the table)."""
    games = []
    for deal in range(first, first + count):
        hands = dealt_hands(seed, deal, players, rules)
        for rotation in range(players):
            seats = tuple((seat - rotation) % players for seat in range(players))
            games.append((deal, rotation, seats, Table.deal(hands, rules)))
    return games


def _record(
    deal: int, rotation: int, seats: tuple[int, ...], dealt: Table, end: Table
) -> GameRecord:
    return GameRecord(
        deal,
        rotation,
        seats,
        dealt.hands,
        end.history,
        tuple(hand.bit_count() for hand in end.hands),
    )


def play_block(
    job: tuple[Sequence[Strategy], int, int, int, Rules],
) -> list[GameRecord]:
    """Every game of deals ``first`` .. ``first + count - 1``, all rotations, played side by
    side: each turn, each strategy chooses for all the games it is to move in at once."""
    return [game for _, game in sorted(block_games(job))]


def block_games(
    job: tuple[Sequence[Strategy], int, int, int, Rules],
) -> Iterator[tuple[int, GameRecord]]:
    """The games of :func:`play_block` as each ends: (its place in the block, the game), so
    that progress can move a game at a time."""
    strategies, first, count, seed, rules = job
    games = _block_games(first, count, len(strategies), seed, rules)
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
                if tables[i].winner is not None:
                    deal, rotation, seats, start = games[i]
                    yield i, _record(deal, rotation, seats, start, tables[i])


def replayed_block(
    first: int, count: int, players: int, seed: int, rules: Rules, moves: Sequence[Sequence[int]]
) -> list[GameRecord] | None:
    """The games of a block (see :func:`play_block`) rebuilt from each game's moves as card
    masks (0 for a pass), game by game in the block's order; None unless every game replays
    legally from its deal to a seat out of cards, with no move after that."""
    games = _block_games(first, count, players, seed, rules)
    if len(moves) != len(games):
        return None
    records = []
    for (deal, rotation, seats, start), masks in zip(games, moves, strict=True):
        table = start
        for mask in masks:
            if table.winner is not None:
                return None
            legal = {0 if move is None else move.mask: move for move in table.view().legal_moves()}
            if mask not in legal:
                return None
            table = table.after(legal[mask])
        if table.winner is None:
            return None
        records.append(_record(deal, rotation, seats, start, table))
    return records
