"""Files the whole game reads back after writing them: a damaged checkpoint is never trusted (its
chunks are counted again), an endless one is refused, and a checkpoint nobody asked for that
cannot be written only costs time."""

from __future__ import annotations

import errno
import json
import os
from functools import partial
from pathlib import Path

import pytest

from handsolver.models.cards import InputError
from handsolver.models.paigow import Rules
from handsolver.models.paigow_houseway import FOXWOODS, TRUMP_PLAZA, HouseWay
from handsolver.solver.paigow.game import GameResult, game_jobs, whole_game
from handsolver.solver.paigow.hand_types import Deck

DECK = Deck((9, 10, 11, 12))  # JQKA, in chunks of 50 rank classes: three chunks


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    from handsolver.solver.paigow import game_run

    monkeypatch.setattr(game_run, "game_jobs", partial(game_jobs, size=50))


@pytest.fixture(scope="module")
def whole() -> GameResult:
    return whole_game(TRUMP_PLAZA, Rules(), DECK)


def _saved(tmp_path: Path, way: HouseWay = TRUMP_PLAZA) -> list[str]:
    from handsolver.solver.paigow.game_run import run_game

    path = tmp_path / f"{way.name}.jsonl"
    run_game(way, Rules(), DECK, checkpoint=path)
    lines = path.read_text().splitlines()
    assert len(lines) == 4
    return lines


def _resumed(path: Path, lines: list[str]) -> GameResult:
    from handsolver.solver.paigow.game_run import run_game

    path.write_text("\n".join(lines) + "\n")
    return run_game(TRUMP_PLAZA, Rules(), DECK, checkpoint=path, resume=True)


def _edited(line: str, change: object) -> str:
    record = json.loads(line)
    change(record)  # type: ignore[operator]
    return json.dumps(record, separators=(",", ":"))


def test_a_damaged_chunk_line_is_counted_again(tmp_path: Path, whole: GameResult) -> None:
    header, first, second, third = _saved(tmp_path)
    path = tmp_path / "resumed.jsonl"

    def more_wins(record: dict) -> None:  # type: ignore[type-arg]
        record["table"][-1][1] += 1000

    def renumbered(record: dict) -> None:  # type: ignore[type-arg]
        record["chunk"] = 1

    assert _resumed(path, [header, _edited(first, more_wins), second, third]) == whole
    # A chunk line copied over another with its chunk number changed.
    assert _resumed(path, [header, first, _edited(first, renumbered), third]) == whole
    # Two different lines for one chunk, and a chunk out of range.
    zero = _edited(second, lambda r: r.update(chunk=0))
    assert _resumed(path, [header, first, zero, third]) == whole
    assert _resumed(path, [header, _edited(first, lambda r: r.update(chunk=7)), second]) == whole
    # A line of another game's checkpoint.
    _, foreign, _, _ = _saved(tmp_path, FOXWOODS)
    assert _resumed(path, [header, foreign, second, third]) == whole
    # A whole line repeated is harmless; the file was rewritten with each chunk once.
    assert _resumed(path, [header, first, first, third, second]) == whole
    assert path.read_text().splitlines() == [header, first, second, third]


def test_a_chunk_whose_totals_disagree_is_counted_again(tmp_path: Path, whole: GameResult) -> None:
    """Even with a valid checksum (made here on purpose), a table whose outcomes do not add up
    to its hands times the dealer hands, or whose hands are not the chunk's, is not used."""
    from handsolver.solver.paigow.game_run import chunk_line, game_key

    header, first, second, third = _saved(tmp_path)
    key = game_key(TRUMP_PLAZA, Rules(), DECK, len(game_jobs(TRUMP_PLAZA, Rules(), DECK, size=50)))
    dealer = DECK.dealer_hands
    for extra_wins in (0, dealer):  # the row's outcomes wrong; the row right, the chunk wrong
        table = json.loads(first)["table"]
        row = next(row for row in table if row[0])
        row[0] += 1
        row[1] += extra_wins
        row[4] += extra_wins
        forged = chunk_line(key, 0, table)
        assert _resumed(tmp_path / "forged.jsonl", [header, forged, second, third]) == whole


def test_an_endless_checkpoint_is_refused() -> None:
    from handsolver.solver.paigow.game_run import run_game

    with pytest.raises(InputError, match="/dev/zero.*larger than"):
        run_game(TRUMP_PLAZA, Rules(), DECK, checkpoint=Path("/dev/zero"), resume=True)


def _game(args: list[str], cache: Path) -> tuple[int, str, str]:
    from typer.testing import CliRunner

    from handsolver.solver.cli import app

    env = {"HANDSOLVER_CACHE_DIR": str(cache)}
    done = CliRunner().invoke(app, ["paigow", "game", "--deck", "JQKA", "--json", *args], env=env)
    return done.exit_code, done.stdout, done.stderr


def test_a_full_cache_only_costs_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, whole: GameResult
) -> None:
    """The default checkpoint on a full disk (here /dev/full under its name): the game is
    counted all the same."""
    from handsolver.solver.paigow.game_run import game_checkpoint

    cache = tmp_path / "cache"
    monkeypatch.setenv("HANDSOLVER_CACHE_DIR", str(cache))
    path = game_checkpoint(TRUMP_PLAZA, Rules(), DECK)
    assert path is not None
    path.symlink_to("/dev/full")
    code, out, err = _game([], cache)
    assert code == 0, err
    assert json.loads(out)["house_way"]["win"] == whole.house_way.win
    # Asked for, the checkpoint's failure is an error naming it.
    code, out, err = _game(["--checkpoint", "/dev/full"], cache)
    assert code == 2 and out == ""
    assert err == "error: cannot write checkpoint '/dev/full': No space left on device\n"


def test_a_checkpoint_failing_mid_run_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, whole: GameResult
) -> None:
    from handsolver.solver.paigow import game_run

    real = os.fsync
    calls = []

    def full_after_header(fd: int) -> None:
        calls.append(fd)
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd)

    monkeypatch.setattr(os, "fsync", full_after_header)
    path = tmp_path / "mine.jsonl"
    with pytest.raises(InputError, match=f"cannot write checkpoint {str(path)!r}: No space left"):
        game_run.run_game(TRUMP_PLAZA, Rules(), DECK, checkpoint=path)
    calls.clear()
    # The default checkpoint failing mid-run: the game goes on without it.
    result = game_run.run_game(
        TRUMP_PLAZA, Rules(), DECK, checkpoint=path, checkpoint_required=False
    )
    assert result == whole


def test_a_cached_table_rewritten_whole_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache file whose arrays were changed and saved again (every zip CRC right, key and
    layout kept) is rebuilt, not trusted."""
    import numpy as np

    from handsolver.solver.paigow.cache import cached_arrays

    monkeypatch.setenv("HANDSOLVER_CACHE_DIR", str(tmp_path))
    builds = []

    def build() -> dict[str, np.ndarray]:
        builds.append(1)
        return {"a": np.arange(10, dtype=np.int64)}

    cached_arrays("t", {"k": 1}, build)
    (file,) = tmp_path.glob("t-*.npz")
    with np.load(file) as stored:
        arrays = {name: stored[name] for name in stored.files}
    arrays["a"] = arrays["a"] * 2
    with open(file, "wb") as handle:
        np.savez(handle, **arrays)
    assert list(cached_arrays("t", {"k": 1}, build)["a"]) == list(range(10))
    assert len(builds) == 2
