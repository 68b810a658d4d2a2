"""A Pineapple match run: its blocks of deals spread by :mod:`handsolver.solver.batch`, each
saved to a checkpoint as it finishes (:mod:`.match_saves`), the missing ones played on
``--resume``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from handsolver.models.cards import InputError
from handsolver.models.ofc import OfcRules
from handsolver.solver.batch import run_missing
from handsolver.solver.ofc.match import BLOCK, MAX_DEALS, DealResult, play_block
from handsolver.solver.ofc.match_players import Player
from handsolver.solver.ofc.match_saves import block_line, key_line, match_key, read_checkpoint
from handsolver.solver.saved_files import LineWriter


def match(
    players: Sequence[Player],
    rules: OfcRules,
    deals: int,
    seed: int = 0,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Callable[[Iterator[list[DealResult]], int, int], Iterable[list[DealResult]]]
    | None = None,
    checkpoint: Path | None = None,
    resume: bool = False,
    checkpoint_required: bool = True,
) -> list[DealResult]:
    """``deals`` duplicate deals between 2 or 3 players (see the module), in deal order.

    With ``checkpoint`` every finished block is saved there; ``resume`` reads it first and
    plays only the blocks it lacks (without ``resume`` the file is started afresh).  A
    checkpoint that is not ``required`` (one the user did not name) is given up if it cannot be
    written, and removed once every block is played.  ``progress`` wraps the loop over the new
    blocks: (the blocks, blocks in all, blocks done before).

    :raises InputError: a player count or a deal count out of range, a checkpoint of another
        match or one that cannot be read, or a required one that cannot be written.
    """
    if not 2 <= len(players) <= 3:
        raise InputError(f"a match seats 2 or 3 players, got {len(players)}")
    if not 1 <= deals <= MAX_DEALS:
        raise InputError(f"deals must be 1 to {MAX_DEALS:,}, got {deals}")
    blocks = {first: min(BLOCK, deals - first) for first in range(0, deals, BLOCK)}
    key = match_key(players, deals, seed, rules)
    done: dict[int, list[DealResult]] = {}
    if checkpoint is not None and resume and checkpoint.exists():
        done = read_checkpoint(checkpoint, key, blocks, len(players), rules)
    writer = None
    if checkpoint is not None:
        # A resumed checkpoint is written anew from what was read, so a bad line goes.
        writer = LineWriter(checkpoint, key_line(key), checkpoint_required)
        for first, block in sorted(done.items()):
            writer.add(block_line(key, first, block))

    def save(first: int, block: list[DealResult]) -> None:
        if writer is not None:
            writer.add(block_line(key, first, block))

    jobs = {first: (tuple(players), rules, seed, first, count) for first, count in blocks.items()}
    try:
        played = run_missing(
            _block_job,
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
    return [deal for block in played.values() for deal in block]


def _block_job(job: tuple[tuple[Player, ...], OfcRules, int, int, int]) -> list[DealResult]:
    players, rules, seed, first, count = job
    return play_block(players, rules, seed, first, count)
