"""Running the whole game: chunks through the one batch runner, with checkpoints to resume.

A checkpoint is a file of JSON lines: first the game it belongs to (house way, rules, deck,
chunking and the handsolver version), then one line per finished chunk with its table.  Each
line is written whole and flushed to disk before the next chunk is counted, so a run stopped by
Ctrl-C, a crash or a power cut loses at most the chunks in flight; a torn last line is ignored.
A checkpoint of another game is refused, never merged.  The counts are sums of independent
chunks, so a resumed run gives the same counts as an uninterrupted one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from handsolver.models.cards import InputError
from handsolver.models.paigow import DEFAULT_RULES, Rules
from handsolver.models.paigow_houseway import TRUMP_PLAZA, HouseWay
from handsolver.solver.batch import run_batch
from handsolver.solver.paigow.game import (
    GameJob,
    GameResult,
    chunk_counts,
    combine,
    game_jobs,
)
from handsolver.solver.paigow.hand_types import COLUMNS, FULL_DECK, HAND_TYPES, Deck

# (results, chunks in the whole game, chunks already done before these results)
Progress = Callable[[Iterable[Any], int, int], Iterable[Any]]


def game_key(way: HouseWay, rules: Rules, deck: Deck, chunks: int) -> dict[str, Any]:
    """What a checkpoint must match: the game, the chunking and the program's version."""
    from handsolver.solver.paigow.cache import program_version, stable

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
    progress: Progress | None = None,
) -> GameResult:
    """The whole game, spread over ``workers`` processes or a Dask ``scheduler``.

    With ``checkpoint``, every finished chunk is saved there; ``resume`` reads it first and
    counts only the chunks it lacks (without ``resume`` the file is started afresh).

    :raises InputError: the checkpoint belongs to another game or cannot be read or written.
    """
    jobs = game_jobs(way, rules, deck)
    key = game_key(way, rules, deck, len(jobs))
    done: dict[int, list[list[int]]] = {}
    if checkpoint is not None and resume and checkpoint.exists():
        done = read_checkpoint(checkpoint, key)
    pending = [(index, job) for index, job in enumerate(jobs) if index not in done]
    results: Iterator[list[list[int]]] = run_batch(
        chunk_counts, [job for _, job in pending], workers=workers, scheduler=scheduler, chunksize=1
    )
    tracked: Iterable[list[list[int]]] = results
    if progress is not None:
        tracked = progress(results, len(jobs), len(done))  # a resumed run starts part done
    # A resumed checkpoint is written anew from what was read, so a torn last line goes.
    writer = _Writer(checkpoint, key, done) if checkpoint is not None else None
    try:
        for (index, _job), table in zip(pending, tracked, strict=True):
            done[index] = table
            if writer is not None:
                writer.add(index, table)
    finally:
        if writer is not None:
            writer.close()
    return combine(way, rules, deck, (done[i] for i in range(len(jobs))))


def read_checkpoint(path: Path, key: dict[str, Any]) -> dict[int, list[list[int]]]:
    """The chunk tables saved in ``path`` for the game ``key``."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read checkpoint {str(path)!r}: {error}") from None
    lines = text.split("\n")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError:
        header = None
    if header != key:
        raise InputError(
            f"checkpoint {str(path)!r} is not for this game (house way, rules, deck or"
            " version differ); remove it or run without --resume"
        )
    done: dict[int, list[list[int]]] = {}
    for line in lines[1:]:
        try:
            record = json.loads(line)
            index, table = int(record["chunk"]), record["table"]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            continue  # a torn last line: that chunk is counted again
        if _is_table(table) and 0 <= index < key["chunks"]:
            done[index] = table
    return done


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


class _Writer:
    """Appends chunk lines to a checkpoint, each flushed to disk."""

    def __init__(self, path: Path, key: dict[str, Any], done: dict[int, list[list[int]]]) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115
            self._line(key)
            for index, table in sorted(done.items()):
                self.add(index, table)
        except OSError as error:
            raise InputError(f"cannot write checkpoint {str(path)!r}: {error.strerror}") from None

    def add(self, index: int, table: list[list[int]]) -> None:
        self._line({"chunk": index, "table": table})

    def _line(self, value: object) -> None:
        self.file.write(json.dumps(value, separators=(",", ":")) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self) -> None:
        self.file.close()


def default_checkpoint(way: HouseWay, rules: Rules, deck: Deck) -> Path | None:
    """Where the game's checkpoint lives by default: the user's cache directory (None when it
    cannot be made)."""
    import hashlib

    from handsolver.solver.paigow.cache import cache_dir

    folder = cache_dir()
    if folder is None:
        return None
    key = game_key(way, rules, deck, len(game_jobs(way, rules, deck)))
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    return folder / f"paigow-game-{way.name}-{digest}.jsonl"


__all__ = ["GameJob", "default_checkpoint", "read_checkpoint", "run_game"]
