"""Duplicate open-face matches: the same deals played with the players in every seat.

A deal is a shuffled deck (from the match's seed and the deal's number): seat 0 is dealt its
first street's 5 cards, then seat 1 and so on, then each later street the variant's cards a
seat (Pineapple 3, classic 1) in the same order.  Each seat plays its street in turn, seeing
the boards as they stand (the seats before it this street included) and its own discards.
The deal is played once for each rotation of the players over the seats (2 games heads-up, 3
three-handed), so every player plays every seat's cards: luck of the cards cancels.  A game's
points are the pairwise scores (:func:`handsolver.models.ofc.score_keys`); a seat whose player
answers with an action that is not legal loses that hand (its board counts as fouled) and the
match says so.

The games of a block of deals are played in lockstep, a street at a time, so a program player
is run once a street for the whole block.  Blocks are the unit of work of
:func:`handsolver.solver.ofc.match_run.match`: the same seed gives the same match with any
number of workers.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from handsolver.models.cards import DECK, Card
from handsolver.models.ofc import PINEAPPLE, BoardKeys, OfcRules, Streets
from handsolver.solver.ofc.match_players import Player
from handsolver.solver.ofc.play import Board, Position, Scorer, after

BLOCK = 5
"""Deals a block (a unit of work)."""
MAX_DEALS = 1_000_000


@dataclass(frozen=True)
class SeatResult:
    """One player's hand in one game."""

    player: int
    points: int
    fouled: bool
    fantasy: bool
    forfeit: str | None
    """Why the hand was lost to an illegal reply, or None."""
    seconds: tuple[float, ...]
    """Seconds a decision, street by street (a batch's time shared by its decisions)."""


@dataclass(frozen=True)
class GameRecord:
    """One game as played: seat -> player, each seat's final board, forfeit and seconds."""

    seating: tuple[int, ...]
    boards: tuple[Board, ...]
    forfeits: tuple[str | None, ...]
    seconds: tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class DealResult:
    """A deal played in every rotation: each game's seats, by player (and the games as
    played, for a checkpoint)."""

    deal: int
    games: tuple[tuple[SeatResult, ...], ...]
    records: tuple[GameRecord, ...] = ()


def dealt_streets(
    seed: int,
    deal: int,
    seats: int,
    streets: Streets = PINEAPPLE,
    cards: Sequence[Card] = DECK,
) -> list[list[tuple[Card, ...]]]:
    """Each seat's cards street by street for one deal (see the module), from ``cards`` (the
    table's deck, :attr:`~handsolver.models.ofc.OfcRules.deck`); Pineapple's deals are the same
    whatever the variant's name says, and classic's are dealt from the same deck.

    >>> from handsolver.models.ofc import CLASSIC
    >>> [len(cards) for cards in dealt_streets(0, 0, 2, CLASSIC)[1]]
    [5, 1, 1, 1, 1, 1, 1, 1, 1]
    """
    deck = list(cards)
    random.Random(f"ofc-match-{seed}-{deal}").shuffle(deck)
    dealt: list[list[tuple[Card, ...]]] = [[] for _ in range(seats)]
    at = 0
    for street in range(streets.count):
        size = streets.dealt_on(streets.before(street))
        for seat in range(seats):
            dealt[seat].append(tuple(deck[at : at + size]))
            at += size
    return dealt


def rotations(players: int) -> list[tuple[int, ...]]:
    """The seatings of a deal: seat -> player, each rotation of the players once.

    >>> rotations(2), rotations(3)
    ([(0, 1), (1, 0)], [(0, 1, 2), (1, 2, 0), (2, 0, 1)])
    """
    return [tuple((seat + shift) % players for seat in range(players)) for shift in range(players)]


@dataclass
class _Game:
    seating: tuple[int, ...]
    cards: list[list[tuple[Card, ...]]]
    boards: list[Board]
    discards: list[list[Card]]
    forfeits: list[str | None]
    seconds: list[list[float]]


def play_block(
    players: Sequence[Player],
    rules: OfcRules,
    seed: int,
    first: int,
    count: int,
    rotated: bool = True,
) -> list[DealResult]:
    """Deals ``first`` to ``first + count - 1`` played in every rotation (see the module).

    ``rotated=False`` plays each deal once, player ``i`` in seat ``i``: for self-play, where
    rotating copies of one player would only play the deal again.
    """
    seats = len(players)
    streets = rules.streets
    seatings = rotations(seats) if rotated else [tuple(range(seats))]
    games: list[tuple[int, _Game]] = []
    for deal in range(first, first + count):
        cards = dealt_streets(seed, deal, seats, streets, rules.deck)
        for seating in seatings:
            empty: Board = ((), (), ())
            games.append(
                (
                    deal,
                    _Game(
                        seating,
                        cards,
                        [empty] * seats,
                        [[] for _ in range(seats)],
                        [None] * seats,
                        [[] for _ in range(seats)],
                    ),
                )
            )
    for street in range(streets.count):
        for seat in range(seats):
            for index, player in enumerate(players):
                _play_street(player, index, seat, street, games, seed, streets)
    scorer = Scorer(rules, Fraction(0))  # points only: fantasyland is counted, not valued
    results: dict[int, list[GameRecord]] = {}
    for deal, game in games:
        record = GameRecord(
            game.seating,
            tuple(game.boards),
            tuple(game.forfeits),
            tuple(tuple(spent) for spent in game.seconds),
        )
        results.setdefault(deal, []).append(record)
    return [
        DealResult(deal, tuple(scored_game(r, scorer) for r in found), tuple(found))
        for deal, found in results.items()
    ]


def _play_street(
    player: Player,
    index: int,
    seat: int,
    street: int,
    games: list[tuple[int, _Game]],
    seed: int,
    streets: Streets,
) -> None:
    mine = [
        (deal, game)
        for deal, game in games
        if game.seating[seat] == index and game.forfeits[seat] is None
    ]
    if not mine:
        return
    positions = []
    for _, game in mine:
        others = tuple(
            game.boards[(seat + k) % len(game.boards)] for k in range(1, len(game.boards))
        )
        positions.append(
            Position(
                game.boards[seat],
                game.cards[seat][street],
                others,
                tuple(game.discards[seat]),
                streets,
            )
        )
    seeds = [_decision_seed(seed, deal, game.seating, seat, street) for deal, game in mine]
    start = time.perf_counter()
    replies = player.choose(positions, seeds)
    share = (time.perf_counter() - start) / len(mine)
    for (_, game), reply in zip(mine, replies, strict=True):
        game.seconds[seat].append(share)
        if isinstance(reply, str):
            game.forfeits[seat] = reply
            continue
        game.boards[seat] = after(game.boards[seat], reply)
        if reply.discard is not None:
            game.discards[seat].append(reply.discard)


def _decision_seed(seed: int, deal: int, seating: tuple[int, ...], seat: int, street: int) -> int:
    """A decision's own seed: the same whatever else the block holds."""
    code = f"{seed}/{deal}/{seating}/{seat}/{street}"
    return random.Random(code).getrandbits(32)


_FOULED = BoardKeys(True, (0, 0, 0), 0, False)


def scored_game(game: GameRecord, scorer: Scorer) -> tuple[SeatResult, ...]:
    """A game's seats scored, by player: a forfeited board counts as fouled."""
    keys = [
        _FOULED if forfeit is not None else scorer.final(board)
        for board, forfeit in zip(game.boards, game.forfeits, strict=True)
    ]
    out = []
    for seat, mine in enumerate(keys):
        points = sum(
            scorer.scaled(mine, [theirs]) for other, theirs in enumerate(keys) if other != seat
        )
        out.append(
            SeatResult(
                game.seating[seat],
                points,
                mine.fouled,
                mine.fantasy,
                game.forfeits[seat],
                game.seconds[seat],
            )
        )
    return tuple(sorted(out, key=lambda result: result.player))


@dataclass(frozen=True)
class PlayerSummary:
    """One player's figures over a match."""

    name: str
    hands: int
    points: float
    """Mean points a hand."""
    interval: tuple[float, float]
    """A 95% interval of the mean points a hand (normal, over deals)."""
    foul_rate: float
    fantasy_rate: float
    forfeits: int
    first_forfeit: str | None
    seconds_median: tuple[float, ...]
    """Median seconds a decision, street by street."""
    seconds_max: tuple[float, ...]


def summary(names: Sequence[str], deals: Sequence[DealResult]) -> list[PlayerSummary]:
    """Each player's figures over the deals (see :class:`PlayerSummary`)."""
    out = []
    for index, name in enumerate(names):
        per_deal = []
        hands = fouls = fantasy = forfeits = 0
        first_forfeit = None
        streets = max((len(s.seconds) for d in deals for g in d.games for s in g), default=0)
        seconds: list[list[float]] = [[] for _ in range(streets)]
        for deal in deals:
            total = 0
            for game in deal.games:
                seat = game[index]
                total += seat.points
                hands += 1
                fouls += seat.fouled
                fantasy += seat.fantasy
                if seat.forfeit is not None:
                    forfeits += 1
                    first_forfeit = first_forfeit or seat.forfeit
                for street, spent in enumerate(seat.seconds):
                    seconds[street].append(spent)
            per_deal.append(total / len(deal.games))
        mean = statistics.fmean(per_deal) if per_deal else math.nan
        half = (
            1.96 * statistics.stdev(per_deal) / math.sqrt(len(per_deal))
            if len(per_deal) > 1
            else math.nan
        )
        out.append(
            PlayerSummary(
                name,
                hands,
                mean,
                (mean - half, mean + half),
                fouls / hands if hands else math.nan,
                fantasy / hands if hands else math.nan,
                forfeits,
                first_forfeit,
                tuple(statistics.median(s) if s else math.nan for s in seconds),
                tuple(max(s) if s else math.nan for s in seconds),
            )
        )
    return out
