"""Checkpoints of Big 2 tournaments: every finished block of deals saved as it comes, so a long
tournament (an ``advise`` seat can take hours) resumes after Ctrl-C or a crash.

A checkpoint is a file of JSON lines: first the tournament it belongs to (strategies, deals,
seed, rules, block size and the handsolver version), then one line a finished block: its first
deal and every game's moves as card masks (0 for a pass).  Nothing read back is trusted
(:mod:`handsolver.solver.saved_files`): a line carries a checksum of its content under the
tournament's key, and its games must replay legally from the deals the seed gives, each to a
seat out of cards (:func:`~handsolver.solver.big2.table.tournament.replayed_block`).  A line that
fails, or a block saved twice differently, is played again; a checkpoint of another tournament
is refused.

Strategies are known by their ``repr`` (a built-in strategy's shows its settings, a program's
its command): a program whose file changed between runs is not seen, so remove its checkpoint.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from handsolver.models.big2 import Rules
from handsolver.models.cards import InputError
from handsolver.solver.big2.table.tournament_games import BLOCK, GameRecord, replayed_block
from handsolver.solver.big2.table.views import Strategy
from handsolver.solver.saved_files import (
    checkpoint_records,
    default_checkpoint,
    part_checksum,
    program_version,
)

MAX_LINE_BYTES = 100_000 * BLOCK
"""More than any block's line takes: a game has fewer than 250 turns of at most 17 digits."""


MAX_HEADER_BYTES = 1 << 20
"""More than any checkpoint's first line takes (the strategies and rules of a tournament)."""


def tournament_key(
    strategies: Sequence[Strategy], deals: int, seed: int, rules: Rules
) -> dict[str, Any]:
    """What a checkpoint must match: the strategies in seat order, the deals, seed and rules,
    the block size and the program's version."""
    return {
        "run": "big2 tournament",
        "version": program_version(),
        "strategies": [repr(strategy) for strategy in strategies],
        "deals": deals,
        "seed": seed,
        "rules": rules.to_json(),
        "block": BLOCK,
    }


def key_line(key: dict[str, Any]) -> str:
    """The checkpoint's first line."""
    return json.dumps(key, separators=(",", ":"))


def block_line(key: dict[str, Any], first: int, games: Sequence[GameRecord]) -> str:
    """The checkpoint line of the block starting at deal ``first``, with its checksum."""
    moves = [[0 if turn.move is None else turn.move.mask for turn in game.turns] for game in games]
    check = part_checksum(key, [first, moves])
    return json.dumps({"first": first, "moves": moves, "check": check}, separators=(",", ":"))


def read_checkpoint(
    path: Path, key: dict[str, Any], blocks: dict[int, int], players: int, rules: Rules
) -> dict[int, list[GameRecord]]:
    """The blocks saved in ``path`` for the tournament ``key`` that pass every check (the others
    are left to be played again), by first deal; ``blocks`` gives each block's deal count.

    :raises InputError: the file is not a checkpoint (its first line, read alone and bounded,
        is not this tournament's: ``/dev/zero`` stops there), is of another tournament, cannot
        be read, or is larger than a checkpoint of this tournament can be.
    """
    _check_header(path, key)
    records = checkpoint_records(
        path,
        key,
        (len(blocks) + 1) * MAX_LINE_BYTES,
        "is not for this tournament (strategies, deals, seed, rules or version differ)",
    )
    saved: dict[int, list[Any]] = {}
    for record in records:
        first, moves = record.get("first"), record.get("moves")
        if (
            type(first) is int
            and first in blocks
            and isinstance(moves, list)
            and all(isinstance(game, list) for game in moves)
            and all(type(mask) is int for game in moves for mask in game)
            and record.get("check") == part_checksum(key, [first, moves])
        ):
            saved.setdefault(first, []).append(moves)
    found = {}
    for first, copies in saved.items():
        if any(moves != copies[0] for moves in copies):
            continue  # saved twice differently: neither is trusted
        games = replayed_block(first, blocks[first], players, key["seed"], rules, copies[0])
        if games is not None:
            found[first] = games
    return found


def _check_header(path: Path, key: dict[str, Any]) -> None:
    """Refuse a file whose first line is not a tournament's, reading no more than such a line
    takes, before the whole file is read (a tournament's of other settings is left to
    :func:`~handsolver.solver.saved_files.checkpoint_records` to name)."""
    header = key_line(key).encode()
    try:
        with open(path, "rb") as handle:
            first = handle.readline(MAX_HEADER_BYTES)
    except OSError as error:
        raise InputError(f"cannot read checkpoint {str(path)!r}: {error.strerror}") from None
    if first.rstrip(b"\r\n") == header:
        return
    try:
        same_run = json.loads(first).get("run") == key["run"]
    except (ValueError, AttributeError):
        same_run = False
    if not same_run:
        raise InputError(
            f"{str(path)!r} is not a checkpoint of a Big 2 tournament; remove it, name another "
            "file or run without --resume"
        )


def tournament_checkpoint(key: dict[str, Any]) -> Path | None:
    """Where the tournament's checkpoint lives by default: the user's cache directory (None
    when it cannot be made)."""
    return default_checkpoint("big2-tournament", key)
