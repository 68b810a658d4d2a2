"""Checkpoints of Big 2 tournaments: a resumed tournament gives the same answer and plays only
the blocks missing; a saved block is trusted only when its checksum holds and its games replay
legally from the seed's deals."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handsolver.models.big2 import SEED_RULES
from handsolver.models.cards import InputError
from handsolver.solver.big2.table.strategies import greedy_move, strategy_from_spec
from handsolver.solver.big2.table.tournament import play_tournament
from handsolver.solver.big2.table.tournament_games import GameRecord, play_block, replayed_block
from handsolver.solver.big2.table.tournament_saves import (
    block_line,
    read_checkpoint,
    tournament_key,
)
from handsolver.solver.big2.table.views import Move, TableView
from handsolver.solver.cli import app

from .processes import HANG, group_is_gone, handsolver, wait_for

runner = CliRunner()
ARGS = ["big2", "tournament", "--strategies", "greedy,random,fewest", "--deals", "10"]


def tournament_json(*extra: str) -> str:
    result = runner.invoke(app, [*ARGS, *extra, "--json"])
    assert result.exit_code == 0, result.output
    return result.stdout


def moves_of(games: Sequence[GameRecord]) -> list[list[int]]:
    return [[0 if turn.move is None else turn.move.mask for turn in game.turns] for game in games]


def test_a_block_replays_to_the_games_played() -> None:
    strategies = [strategy_from_spec(name) for name in ("greedy", "random", "shed")]
    games = play_block((strategies, 4, 2, 7, SEED_RULES))
    assert replayed_block(4, 2, 3, 7, SEED_RULES, moves_of(games)) == games


def test_a_block_that_does_not_replay_is_refused() -> None:
    strategies = [strategy_from_spec(name) for name in ("greedy", "random")]
    moves = moves_of(play_block((strategies, 0, 1, 2, SEED_RULES)))
    assert replayed_block(0, 1, 2, 2, SEED_RULES, moves) is not None
    lowest_first = moves[0][0]
    cases = {
        "a game left out": moves[:1],
        "a game unfinished": [moves[0][:-1], moves[1]],
        "a move after the end": [[*moves[0], 0], moves[1]],
        "another first play": [[lowest_first ^ 1 << 51, *moves[0][1:]], moves[1]],
        "a pass to open": [[0, *moves[0]], moves[1]],
        "another deal": None,
    }
    for name, bad in cases.items():
        if bad is None:
            assert replayed_block(0, 1, 2, 3, SEED_RULES, moves) is None, name
        else:
            assert replayed_block(0, 1, 2, 2, SEED_RULES, bad) is None, name


def test_a_resumed_checkpoint_gives_the_same_answer(tmp_path: Path) -> None:
    path = tmp_path / "tournament.jsonl"
    answer = tournament_json("--checkpoint", str(path))
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 3  # the header, then blocks of 4, 4 and 2 deals
    # Stopped after two blocks, the second line edited: that block is played again.
    edited = lines[2].replace('"moves":[[', '"moves":[[4,')
    path.write_text("\n".join([lines[0], lines[1], edited, lines[3][:40]]))
    assert tournament_json("--checkpoint", str(path), "--resume") == answer
    assert path.read_text().splitlines() == [lines[0], lines[1], lines[2], lines[3]]


def test_a_saved_game_that_does_not_replay_is_played_again(tmp_path: Path) -> None:
    strategies = [strategy_from_spec(name) for name in ("greedy", "random")]
    key = tournament_key(strategies, 8, 5, SEED_RULES)
    first = play_block((strategies, 0, 4, 5, SEED_RULES))
    second = play_block((strategies, 4, 4, 5, SEED_RULES))
    # The checksum holds (the line is written as handsolver writes one), the game does not.
    cheat = [replace(first[0], turns=first[0].turns[:-1]), *first[1:]]
    path = tmp_path / "tournament.jsonl"
    header = json.dumps(key, separators=(",", ":"))
    path.write_text("\n".join([header, block_line(key, 0, cheat), block_line(key, 4, second)]))
    assert read_checkpoint(path, key, {0: 4, 4: 4}, 2, SEED_RULES) == {4: second}
    # A block saved twice differently is trusted in neither copy.
    path.write_text(
        "\n".join([header, block_line(key, 4, second), block_line(key, 4, first[:2] * 4)])
    )
    assert read_checkpoint(path, key, {0: 4, 4: 4}, 2, SEED_RULES) == {}


class Stopped:
    """Greedy, but Ctrl-C comes after ``left`` turns of a block (a class attribute, shared);
    ``calls`` counts them."""

    name = "greedy"
    left: int | None = None
    calls = 0

    def __repr__(self) -> str:
        return "Stopped()"

    def choose(self, views: Sequence[TableView], seeds: Sequence[int]) -> list[Move]:
        if Stopped.left is not None:
            if Stopped.left <= 0:
                raise KeyboardInterrupt
            Stopped.left -= 1
        Stopped.calls += 1
        return [greedy_move(view) for view in views]


def test_an_interrupted_tournament_resumes_with_only_the_blocks_missing(tmp_path: Path) -> None:
    strategies = [Stopped(), strategy_from_spec("random")]
    whole = play_tournament(strategies, 12, 3)
    path = tmp_path / "tournament.jsonl"
    Stopped.left = Stopped.calls // 2  # in the middle block, of three alike
    with pytest.raises(KeyboardInterrupt):
        play_tournament(strategies, 12, 3, checkpoint=path)
    saved = [json.loads(line)["first"] for line in path.read_text().splitlines()[1:]]
    assert 1 <= len(saved) < 3
    Stopped.left = None
    counted: list[int] = []
    original = Stopped.choose

    def counting(self: Stopped, views: Sequence[TableView], seeds: Sequence[int]) -> list[Move]:
        counted.append(len(views))
        return original(self, views, seeds)

    Stopped.choose = counting  # type: ignore[method-assign]
    try:
        resumed = play_tournament(strategies, 12, 3, checkpoint=path, resume=True)
    finally:
        Stopped.choose = original  # type: ignore[method-assign]
    assert resumed == whole
    # Stopped decided exactly the turns of its seats in the blocks not saved.
    missing = [
        turn
        for game in whole.games
        if game.deal // 4 * 4 not in saved
        for turn in game.turns
        if game.seats[turn.seat] == 0
    ]
    assert sum(counted) == len(missing) > 0
    assert len(path.read_text().splitlines()) == 1 + 3


def test_a_checkpoint_of_another_tournament_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tournament.jsonl"
    tournament_json("--checkpoint", str(path))
    result = runner.invoke(app, [*ARGS, "--seed", "9", "--checkpoint", str(path), "--resume"])
    assert result.exit_code == 2
    assert "is not for this tournament" in result.output
    strategies = [strategy_from_spec("greedy"), strategy_from_spec("random")]
    with pytest.raises(InputError, match="is not for this tournament"):
        play_tournament(strategies, 10, 0, checkpoint=path, resume=True)


def test_resume_without_a_checkpoint_is_refused() -> None:
    result = runner.invoke(app, [*ARGS, "--seed", "123456", "--resume"])
    assert result.exit_code == 2
    assert result.output.strip().endswith("no checkpoint of this tournament to resume from")


def test_the_default_checkpoint_goes_once_the_tournament_is_over(tmp_path: Path) -> None:
    path = tmp_path / "default.jsonl"
    strategies = [strategy_from_spec("greedy"), strategy_from_spec("random")]
    play_tournament(strategies, 5, 0, checkpoint=path, checkpoint_required=False)
    assert not path.exists()
    play_tournament(strategies, 5, 0, checkpoint=path)
    assert len(path.read_text().splitlines()) == 1 + 2


def test_ctrl_c_keeps_the_checkpoint_and_resume_finishes_it(tmp_path: Path) -> None:
    """A real run stopped by Ctrl-C (to the process group, workers and all) after some blocks:
    one line, exit 130, and --resume then gives the bytes of a run never stopped."""
    path = tmp_path / "tournament.jsonl"
    # 160 deals are 40 blocks: enough left to stop after the third, few enough to play twice.
    args = ["big2", "tournament", "--strategies", "greedy,random,random,random", "--deals", "160"]
    process = handsolver(*args, "--workers", "2", "--checkpoint", str(path), "--json")

    def saved_blocks() -> int:
        return len(path.read_text().splitlines()) - 1 if path.exists() else 0

    wait_for(lambda: saved_blocks() >= 3 or process.poll() is not None)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=HANG)
    wait_for(lambda: group_is_gone(process.pid))
    assert process.returncode == 130, err
    assert out == b""
    assert err.decode() == "interrupted before every deal was played (resume with --resume)\n"
    assert 3 <= saved_blocks() < 40
    resumed = runner.invoke(app, [*args, "--checkpoint", str(path), "--resume", "--json"])
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout == runner.invoke(app, [*args, "--json"]).stdout
