"""Running the whole game: chunks through the one batch runner, with checkpoints to resume.

A checkpoint is a file of JSON lines: first the game it belongs to (house way, rules, deck,
chunking and the handsolver version), then one line per finished chunk with its table.  Each
line is written whole and flushed to disk before the next chunk is counted, so a run stopped by
Ctrl-C, a crash or a power cut loses at most the chunks in flight.  A checkpoint of another game
is refused, never merged.  The counts are sums of independent chunks, so a resumed run gives
the same counts as an uninterrupted one.

Nothing read back is trusted (:mod:`handsolver.solver.saved_files`): each chunk line carries a
checksum of its chunk number and table under the game's key, and its table must add up (each
row's wins, pushes and losses to its hands times the dealer hands; its hands to the chunk's).
A line that fails (torn by a stop, edited, copied from another line or another game), a chunk
number out of range and a chunk saved twice differently are counted again.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from handsolver.models.paigow import DEFAULT_RULES, Rules
from handsolver.models.paigow_houseway import TRUMP_PLAZA, HouseWay
from handsolver.solver.batch import run_missing
from handsolver.solver.paigow.game import (
    GameJob,
    GameResult,
    chunk_counts,
    combine,
    game_jobs,
)
from handsolver.solver.paigow.game_tables import setup
from handsolver.solver.paigow.hand_types import COLUMNS, FULL_DECK, HAND_TYPES, Deck
from handsolver.solver.saved_files import (
    LineWriter,
    checkpoint_records,
    default_checkpoint,
    part_checksum,
)

MAX_LINE_BYTES = 64 * 1024
"""More than any line of a checkpoint takes: the header, or a table of 100 rows of 7 counts."""

# (results, chunks in the whole game, chunks already done before these results)
Progress = Callable[[Iterator[Any], int, int], Iterable[Any]]


def game_key(way: HouseWay, rules: Rules, deck: Deck, chunks: int) -> dict[str, Any]:
    """What a checkpoint must match: the game, the chunking and the program's version."""
    from handsolver.solver.paigow.cache import stable
    from handsolver.solver.saved_files import program_version

    return {
        "game": "paigow",
        "version": program_version(),
        "way": stable(way),
        "wheel_second": rules.wheel_second,
        "five_aces_top": rules.five_aces_top,
        "commission": str(rules.commission),
        "deck": list(deck.ranks),
        "chunks": chunks,
    }


def run_game(
    way: HouseWay = TRUMP_PLAZA,
    rules: Rules = DEFAULT_RULES,
    deck: Deck = FULL_DECK,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    checkpoint: Path | None = None,
    resume: bool = False,
    checkpoint_required: bool = True,
    progress: Progress | None = None,
) -> GameResult:
    """The whole game, spread over ``workers`` processes or a Dask ``scheduler``.

    With ``checkpoint``, every finished chunk is saved there; ``resume`` reads it first and
    counts only the chunks it lacks (without ``resume`` the file is started afresh).  A
    checkpoint that is not ``checkpoint_required`` (one the user did not ask for) that cannot
    be written is given up: the run goes on without it.

    :raises InputError: the checkpoint belongs to another game or cannot be read, or a required
        one cannot be written (naming the file).
    """
    jobs = game_jobs(way, rules, deck)
    done: dict[int, list[list[int]]] = {}
    if checkpoint is not None and resume and checkpoint.exists():
        done = read_checkpoint(checkpoint, jobs)
    # A resumed checkpoint is written anew from what was read, so a bad line goes.
    key = game_key(way, rules, deck, len(jobs))
    writer = None
    if checkpoint is not None:
        writer = LineWriter(checkpoint, json.dumps(key, separators=(",", ":")), checkpoint_required)
        for index, table in sorted(done.items()):
            writer.add(chunk_line(key, index, table))

    def save(index: int, table: list[list[int]]) -> None:
        if writer is not None:
            writer.add(chunk_line(key, index, table))

    try:
        counted = run_missing(
            chunk_counts,
            dict(enumerate(jobs)),
            done,
            save=save,
            workers=workers,
            scheduler=scheduler,
            progress=progress,  # a resumed run starts part done
        )
    finally:
        if writer is not None:
            writer.close()
    return combine(way, rules, deck, counted.values())


def chunk_line(key: dict[str, Any], index: int, table: list[list[int]]) -> str:
    """The checkpoint line of chunk ``index`` of the game ``key``, with its checksum."""
    check = part_checksum(key, [index, table])
    return json.dumps({"chunk": index, "table": table, "check": check}, separators=(",", ":"))


def read_checkpoint(path: Path, jobs: list[GameJob]) -> dict[int, list[list[int]]]:
    """The chunk tables saved in ``path`` for the game of ``jobs`` that pass every check (the
    others are left to be counted again).

    :raises InputError: the file is of another game, or cannot be read, or is larger than a
        checkpoint of this game can be.
    """
    way, rules, deck = jobs[0].way, jobs[0].rules, jobs[0].deck
    key = game_key(way, rules, deck, len(jobs))
    records = checkpoint_records(
        path,
        key,
        (len(jobs) + 1) * MAX_LINE_BYTES,
        "is not for this game (house way, rules, deck or version differ)",
    )
    found: dict[int, list[list[list[int]]]] = {}
    for record in records:
        try:
            index, table, check = record["chunk"], record["table"], record["check"]
        except (KeyError, TypeError):
            continue  # a record of another shape: that chunk is counted again
        if (
            type(index) is int
            and 0 <= index < len(jobs)
            and _is_table(table)
            and check == part_checksum(key, [index, table])
            and _adds_up(table, jobs[index])
        ):
            found.setdefault(index, []).append(table)
    return {i: tables[0] for i, tables in found.items() if all(t == tables[0] for t in tables)}


def _is_table(table: object) -> bool:
    return (
        isinstance(table, list)
        and len(table) == len(HAND_TYPES)
        and all(
            isinstance(row, list)
            and len(row) == len(COLUMNS)
            and all(type(v) is int and v >= 0 for v in row)
            for row in table
        )
    )


def _adds_up(table: list[list[int]], job: GameJob) -> bool:
    """Each row's outcomes (house way, best play) add up to its hands times the dealer hands,
    and the rows' hands to the hands of the chunk's rank classes."""
    dealer = job.deck.dealer_hands
    hands = COLUMNS.index("hands")
    outcomes = [
        [COLUMNS.index(f"{side}_{what}") for what in ("win", "push", "loss")]
        for side in ("hw", "best")
    ]
    rows_add_up = all(
        sum(row[i] for i in columns) == row[hands] * dealer for row in table for columns in outcomes
    )
    return rows_add_up and sum(row[hands] for row in table) == _chunk_hands(job)


def _chunk_hands(job: GameJob) -> int:
    """The player hands of a chunk: C(4, c) ways for each rank held c times (one joker)."""
    tables = setup(job.way, job.rules, job.deck).tables
    return sum(
        math.prod(math.comb(4, int(c)) for c in tables.class_counts[index]) for index in job.classes
    )


def game_checkpoint(way: HouseWay, rules: Rules, deck: Deck) -> Path | None:
    """Where the game's checkpoint lives by default: the user's cache directory (None when it
    cannot be made)."""
    key = game_key(way, rules, deck, len(game_jobs(way, rules, deck)))
    return default_checkpoint(f"paigow-game-{way.name}", key)


__all__ = [
    "GameJob",
    "chunk_line",
    "default_checkpoint",
    "game_jobs",
    "game_key",
    "read_checkpoint",
    "run_game",
]
