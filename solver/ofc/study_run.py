"""Running the fantasyland study: blocks of hands through the one batch runner, with a checkpoint
to resume.

First every block of fantasyland hands (14 cards, then 15, 16 and 17; classic's 13), whose
values do not depend on the stay value; then the fixed point
(:mod:`handsolver.solver.ofc.studies`); then the normal hands, played valuing fantasyland at
the fixed point rounded to 1/100 of a point.

A checkpoint is a file of JSON lines: first the study it belongs to (seed, rules, hand counts,
block size and the handsolver version), then one line a finished block.  Nothing read back is
trusted (:mod:`handsolver.solver.saved_files`): a line carries a checksum of its content under
the study's key, its block must be one of the study's with as many values as hands, and each
value must be what a hand can give: royalties (or, with opponents, scores) within what the
royalty table in use allows (:func:`~handsolver.solver.ofc.studies.objective_range`: no more
than the most each row pays, no less than the least), a staying best at most the best, a fouled
board earning nothing.  A line that fails, or a block saved twice differently, is computed again; a
checkpoint of another study is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

from handsolver.models.cards import InputError
from handsolver.models.ofc import OfcRules
from handsolver.solver.batch import run_missing
from handsolver.solver.ofc.opponents import BOARD_PLAYERS, players_named
from handsolver.solver.ofc.studies import (
    BLOCK,
    FantasyBlock,
    FantasyStudy,
    HandValues,
    NormalBlock,
    NormalValues,
    blocks,
    normal_summary,
    objective_range,
    play_normal_block,
    set_fantasy_block,
    size_values,
    study_sizes,
)
from handsolver.solver.saved_files import (
    LineWriter,
    checkpoint_records,
    default_checkpoint,
    part_checksum,
    program_version,
)

MAX_LINE_BYTES = 64 * BLOCK
"""More than any block's line takes (a value is at most about 20 characters)."""
NORMAL = "normal"
Progress = Callable[[Iterable[Any], int, int, str], Iterable[Any]]
"""(results, blocks in the phase, blocks already done, what is counted)."""
BlockKey = tuple[str, int, str]
"""(part: a size or ``normal``, first hand, the fantasy value the normal hands are played for)."""


def study_key(
    seed: int,
    rules: OfcRules,
    hands: int,
    size_hands: int,
    normal_hands: int,
    opponents: int = 0,
    player: str = BOARD_PLAYERS[0],
) -> dict[str, Any]:
    """What a checkpoint must match: the study, its rules, counts, opponent boards a hand and
    who plays them (and the normal hands), the program's version."""
    tables = json.dumps([rules.royalties.back, rules.royalties.middle, rules.royalties.front])
    return {
        "study": "ofc fantasyland",
        "version": program_version(),
        "seed": seed,
        "stay": rules.stay,
        "fantasy": rules.fantasy,
        "variant": rules.variant,
        "jokers": rules.jokers,
        "royalties": hashlib.sha256(tables.encode()).hexdigest()[:32],
        "hands": [hands, size_hands, normal_hands],
        "opponents": opponents,
        "opponent_play": player,
        "block": BLOCK,
    }


def run_study(
    hands: int,
    seed: int,
    rules: OfcRules,
    *,
    size_hands: int = 0,
    normal_hands: int = 0,
    opponents: int = 0,
    opponent_play: str = BOARD_PLAYERS[0],
    workers: int = 1,
    scheduler: str | None = None,
    checkpoint: Path | None = None,
    resume: bool = False,
    checkpoint_required: bool = True,
    progress: Progress | None = None,
) -> FantasyStudy:
    """The study of ``hands`` 14-card hands (classic: 13), ``size_hands`` of 15, 16 and 17 cards
    each (none in classic) and ``normal_hands`` normal hands, spread over ``workers`` processes
    or a Dask ``scheduler``; ``opponents`` boards a fantasyland hand add the mean score against
    them (0: royalties alone).  ``opponent_play`` names who plays the opponent boards and the
    normal hands (:data:`~handsolver.solver.ofc.opponents.BOARD_PLAYERS`).

    With ``checkpoint`` every finished block is saved there; ``resume`` reads it first and
    computes only the blocks it lacks (without ``resume`` the file is started afresh).

    :raises InputError: an unknown player, normal hands without hands of 15 to 17 cards (they
        may earn them), a checkpoint of another study or one that cannot be read, a required one
        that cannot be written, or every 14-card hand able to stay.
    """
    if opponent_play not in BOARD_PLAYERS:
        raise InputError(f"unknown opponent player {opponent_play!r}; use {players_named()}")
    sizes = study_sizes(rules)
    if normal_hands and not size_hands and len(sizes) > 1:
        raise InputError(
            "normal hands may earn fantasyland of 15 to 17 cards: they need --size-hands above 0"
        )
    counts = {size: hands if size == sizes[0] else size_hands for size in sizes}
    wanted = {(str(size), first): count for size in sizes for first, count in blocks(counts[size])}
    wanted.update({(NORMAL, first): count for first, count in blocks(normal_hands)})
    key = study_key(seed, rules, hands, size_hands, normal_hands, opponents, opponent_play)
    done: dict[BlockKey, list[Any]] = {}
    if checkpoint is not None and resume and checkpoint.exists():
        done = read_checkpoint(checkpoint, key, wanted, rules)
    writer = None
    if checkpoint is not None:
        # A resumed checkpoint is written anew from what was read, so a bad line goes.
        writer = LineWriter(checkpoint, json.dumps(key, separators=(",", ":")), checkpoint_required)
        for (part, first, tag), values in sorted(done.items()):
            writer.add(block_line(key, part, first, tag, values))
    try:
        fantasy = [
            FantasyBlock(size, first, count, seed, rules, opponents, opponent_play)
            for size in sizes
            for first, count in blocks(counts[size])
        ]
        found = _run(
            set_fantasy_block,
            {(str(job.size), job.first, ""): job for job in fantasy},
            done,
            writer,
            key,
            workers,
            scheduler,
            progress,
            "fantasyland hands",
        )
        by_size: dict[int, list[HandValues]] = {size: [] for size in sizes if counts[size]}
        for job in fantasy:
            by_size[job.size].extend(found[(str(job.size), job.first, "")])
        study = size_values(by_size, sizes[0])
        if not normal_hands:
            return study
        fantasy_value = Fraction(round(study.value * 100), 100)
        tag = str(fantasy_value)
        normal = {
            (NORMAL, first, tag): NormalBlock(
                first, count, seed, fantasy_value, rules, opponent_play
            )
            for first, count in blocks(normal_hands)
        }
        played_blocks = _run(
            play_normal_block,
            normal,
            done,
            writer,
            key,
            workers,
            scheduler,
            progress,
            "normal hands",
        )
    finally:
        if writer is not None:
            writer.close()
    played = [hand for block in normal for hand in played_blocks[block]]
    worth = {item.size: item.value for item in study.sizes}
    return FantasyStudy(
        study.sizes,
        study.value,
        study.rounds,
        study.royalties,
        normal_summary(played, worth, sizes),
    )


def _run(
    function: Callable[[Any], list[Any]],
    jobs: dict[BlockKey, Any],
    done: dict[BlockKey, list[Any]],
    writer: LineWriter | None,
    key: dict[str, Any],
    workers: int,
    scheduler: str | None,
    progress: Progress | None,
    what: str,
) -> dict[BlockKey, list[Any]]:
    """The values of every block of ``jobs``: those in ``done``, the others computed (and
    saved by ``writer``)."""

    def save(block: BlockKey, values: list[Any]) -> None:
        if writer is not None:
            writer.add(block_line(key, *block, values))

    def tracked(items: Iterator[list[Any]], total: int, before: int) -> Iterable[list[Any]]:
        return items if progress is None else progress(items, total, before, what)

    return run_missing(
        function, jobs, done, save=save, workers=workers, scheduler=scheduler, progress=tracked
    )


def block_line(key: dict[str, Any], part: str, first: int, tag: str, values: list[Any]) -> str:
    """The checkpoint line of one block of the study ``key``, with its checksum: a fantasyland
    hand's values in units of 1/K of a point for K opponent boards (integers)."""
    scale = _scale(key)
    plain = [
        list(value) if part == NORMAL else [_units(item, scale) for item in value]
        for value in values
    ]
    check = part_checksum(key, [part, first, tag, plain])
    record = {"part": part, "first": first, "tag": tag, "values": plain, "check": check}
    return json.dumps(record, separators=(",", ":"))


def _scale(key: dict[str, Any]) -> int:
    """What a fantasyland hand's values are multiplied by in a checkpoint: the boards in a mean."""
    return max(1, int(key["opponents"]))


def _units(value: Fraction | None, scale: int) -> int | None:
    if value is None:
        return None
    units = value * scale
    if units.denominator != 1:
        raise ValueError(f"{value} is not a whole number of 1/{scale} points")
    return int(units)


def read_checkpoint(
    path: Path, key: dict[str, Any], wanted: dict[tuple[str, int], int], rules: OfcRules
) -> dict[BlockKey, list[Any]]:
    """The blocks saved in ``path`` for the study ``key`` that pass every check (the others
    are left to be computed again); ``wanted`` gives each block's hand count, ``rules`` the
    royalty table that bounds each value.

    :raises InputError: the file is of another study, cannot be read, or is larger than a
        checkpoint of this study can be.
    """
    records = checkpoint_records(
        path,
        key,
        (len(wanted) + 1) * MAX_LINE_BYTES,
        "is not for this study (seed, rules, variant, hands, opponents or version differ)",
    )
    found: dict[BlockKey, list[list[Any]]] = {}
    rules_range = _saved_ranges(key, rules)
    sizes = study_sizes(rules)
    for record in records:
        try:
            part, first, tag = record["part"], record["first"], record["tag"]
            values, check = record["values"], record["check"]
        except (KeyError, TypeError):
            continue  # a record of another shape: that block is computed again
        if (
            isinstance(part, str)
            and type(first) is int
            and isinstance(tag, str)
            and isinstance(values, list)
            and len(values) == wanted.get((part, first), -1)
            and check == part_checksum(key, [part, first, tag, values])
            and all(_is_value(part, value, rules_range, sizes) for value in values)
        ):
            found.setdefault((part, first, tag), []).append(values)
    scale = _scale(key)
    return {
        block: _typed(block[0], saved[0], scale)
        for block, saved in found.items()
        if all(values == saved[0] for values in saved)
    }


def _saved_ranges(key: dict[str, Any], rules: OfcRules) -> dict[str, tuple[int, int]]:
    """The least and the most a saved value can be, by kind: a fantasyland hand's (in units of
    1/K points for K opponent boards) and a normal hand's royalties."""
    scale = _scale(key)
    low, high = objective_range(rules, bool(key["opponents"]))
    return {"fantasy": (low * scale, high * scale), NORMAL: objective_range(rules, False)}


def _is_value(
    part: str, value: object, ranges: dict[str, tuple[int, int]], sizes: tuple[int, ...]
) -> bool:
    """Whether ``value`` is what one hand of ``part`` can give (within ``ranges``, earning
    fantasyland of one of ``sizes``)."""
    if not isinstance(value, list) or len(value) != (3 if part == NORMAL else 2):
        return False
    if part == NORMAL:
        royalties, fouled, cards = value
        low, high = ranges[NORMAL]
        return (
            type(royalties) is int
            and low <= royalties <= high
            and type(fouled) is bool
            and (cards is None or cards in sizes)
            and (not fouled or (royalties == 0 and cards is None))
        )
    best, staying = value
    low, high = ranges["fantasy"]
    return (
        type(best) is int
        and low <= best <= high
        and (staying is None or (type(staying) is int and low <= staying <= best))
    )


def _typed(part: str, values: list[list[Any]], scale: int) -> list[Any]:
    if part == NORMAL:
        return [NormalValues(*value) for value in values]
    return [
        HandValues(Fraction(best, scale), None if staying is None else Fraction(staying, scale))
        for best, staying in values
    ]


def study_checkpoint(key: dict[str, Any]) -> Path | None:
    """Where the study's checkpoint lives by default: the user's cache directory (None when it
    cannot be made)."""
    return default_checkpoint("ofc-study", key)
