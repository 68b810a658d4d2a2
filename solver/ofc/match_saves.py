"""Checkpoints of open-face matches: every finished block of deals saved as it comes, so a long
match (the player takes seconds a decision) resumes after Ctrl-C or a crash.

A checkpoint is a file of JSON lines: first the match it belongs to (players, deals, seed,
royalty table, block size and the handsolver version), then one line a finished block: each
game's boards, forfeits and seconds.  Nothing read back is trusted
(:mod:`handsolver.solver.saved_files`): a line carries a checksum of its content under the
match's key, every board must hold only the cards its seat was dealt (13 of them, 5 from the
first street and the variant's count from each later one, unless the hand was forfeited),
and the points, fouls and fantasyland are computed again from the boards.  A line that fails,
or a block saved twice differently, is played again; a checkpoint of another match is refused.

Players are known by their ``repr`` (the player's shows its budgets, a program's its command):
a program whose file changed between runs is not seen, so remove its checkpoint.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from handsolver.models.ofc import OfcRules, Streets
from handsolver.solver.ofc.match import (
    BLOCK,
    DealResult,
    GameRecord,
    dealt_streets,
    rotations,
    scored_game,
)
from handsolver.solver.ofc.match_players import Player
from handsolver.solver.ofc.play import Scorer
from handsolver.solver.saved_files import (
    checkpoint_records,
    default_checkpoint,
    part_checksum,
    program_version,
)

MAX_LINE_BYTES = 20_000 * BLOCK
"""More than any block's line takes (a game's boards and seconds are a few hundred bytes)."""


def match_key(players: Sequence[Player], deals: int, seed: int, rules: OfcRules) -> dict[str, Any]:
    """What a checkpoint must match: the players in seat order, the deals, the seed, the
    royalty table, the variant, the jokers, the block size and the program's version."""
    table = rules.royalties
    return {
        "run": "ofc match",
        "version": program_version(),
        "players": [repr(player) for player in players],
        "deals": deals,
        "seed": seed,
        "variant": rules.variant,
        "royalties": part_checksum({"royalties": 1}, [table.back, table.middle, table.front]),
        "jokers": rules.jokers,
        "block": BLOCK,
    }


def key_line(key: dict[str, Any]) -> str:
    """The checkpoint's first line."""
    return json.dumps(key, separators=(",", ":"))


def _games_json(deals: Sequence[DealResult]) -> list[Any]:
    return [
        [[[[list(row) for row in board] for board in g.boards], list(g.forfeits),
          [list(s) for s in g.seconds]] for g in deal.records]
        for deal in deals
    ]  # fmt: skip


def block_line(key: dict[str, Any], first: int, deals: Sequence[DealResult]) -> str:
    """The checkpoint line of the block starting at deal ``first``, with its checksum."""
    games = _games_json(deals)
    check = part_checksum(key, [first, games])
    return json.dumps({"first": first, "games": games, "check": check}, separators=(",", ":"))


def read_checkpoint(
    path: Path, key: dict[str, Any], blocks: dict[int, int], players: int, rules: OfcRules
) -> dict[int, list[DealResult]]:
    """The blocks saved in ``path`` for the match ``key`` that pass every check (the others are
    left to be played again), by first deal; ``blocks`` gives each block's deal count.

    :raises InputError: the file is of another match, cannot be read, or is larger than a
        checkpoint of this match can be.
    """
    records = checkpoint_records(
        path,
        key,
        (len(blocks) + 1) * MAX_LINE_BYTES,
        "is not for this match (players, deals, seed, royalties, variant or version differ)",
    )
    saved: dict[int, list[Any]] = {}
    for record in records:
        first, games = record.get("first"), record.get("games")
        if (
            type(first) is int
            and first in blocks
            and isinstance(games, list)
            and record.get("check") == part_checksum(key, [first, games])
        ):
            saved.setdefault(first, []).append(games)
    scorer = Scorer(rules, Fraction(0))
    found = {}
    for first, copies in saved.items():
        if any(games != copies[0] for games in copies):
            continue  # saved twice differently: neither is trusted
        block = _replayed(first, blocks[first], players, key["seed"], copies[0], scorer)
        if block is not None:
            found[first] = block
    return found


def _replayed(
    first: int, count: int, players: int, seed: int, games: Any, scorer: Scorer
) -> list[DealResult] | None:
    """The block's results from its saved boards, or None if any does not hold."""
    if len(games) != count:
        return None
    out = []
    try:
        for offset, saved in enumerate(games):
            deal = first + offset
            cards = dealt_streets(seed, deal, players, scorer.rules.streets, scorer.rules.deck)
            seatings = rotations(players)
            if len(saved) != len(seatings):
                return None
            records = []
            for seating, (boards, forfeits, seconds) in zip(seatings, saved, strict=True):
                record = _game(seating, cards, boards, forfeits, seconds, scorer.rules.streets)
                if record is None:
                    return None
                records.append(record)
            out.append(
                DealResult(deal, tuple(scored_game(r, scorer) for r in records), tuple(records))
            )
    except (TypeError, ValueError):
        return None
    return out


def _game(
    seating: tuple[int, ...],
    cards: Any,
    boards: Any,
    forfeits: Any,
    seconds: Any,
    streets: Streets,
) -> GameRecord | None:
    seats = len(seating)
    if not (len(boards) == len(forfeits) == len(seconds) == seats):
        return None
    rows = []
    for seat in range(seats):
        board = tuple(tuple(int(card) for card in row) for row in boards[seat])
        forfeit = forfeits[seat]
        if len(board) != 3 or not (forfeit is None or isinstance(forfeit, str)):
            return None
        placed = [card for row in board for card in row]
        dealt = cards[seat]
        complete = all(len(row) == size for row, size in zip(board, (5, 5, 3), strict=True))
        if forfeit is None and not complete:
            return None
        if any(len(row) > size for row, size in zip(board, (5, 5, 3), strict=True)):
            return None
        if len(set(placed)) != len(placed):
            return None
        taken = [sum(card in street for card in placed) for street in dealt]
        later = taken[1:]
        if taken[0] not in (0, streets.first) or any(n not in (0, streets.placed) for n in later):
            return None
        if sum(taken) != len(placed):
            return None
        rows.append((board[0], board[1], board[2]))
        if not all(isinstance(s, float | int) and s >= 0 for s in seconds[seat]):
            return None
    return GameRecord(
        seating,
        tuple(rows),
        tuple(forfeits),
        tuple(tuple(float(s) for s in spent) for spent in seconds),
    )


def match_checkpoint(key: dict[str, Any]) -> Path | None:
    """Where the match's checkpoint lives by default: the user's cache directory (None when it
    cannot be made)."""
    return default_checkpoint("ofc-match", key)
