"""``handsolver big2 game`` and ``big2 game-batch``: the JSON answer, bad input as one line,
batches in input order with any number of workers, Ctrl-C."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handsolver.solver.cli import app

from .processes import HANG, handsolver

runner = CliRunner()


def test_json_answer_names_players_from_one() -> None:
    result = runner.invoke(
        app,
        [
            "big2",
            "game",
            "3d 3c 2s",
            "4d 5d 6d",
            "--beat",
            "9h",
            "--by",
            "1",
            "--to-move",
            "2",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["position"] == {
        "hands": [["3d", "3c", "2s"], ["4d", "5d", "6d"]],
        "to_move": 2,
        "beat": ["9h"],
        "by": 1,
        "passed": [],
        "start": False,
    }
    # Player 2 cannot beat 9h: the pass is the only move, and player 1 then wins.
    assert data["moves"] == [{"play": [], "forced_win": False}]
    assert data["players"] == [
        {"player": 1, "forced_win": True},
        {"player": 2, "forced_win": False},
    ]
    assert data["line"][0] == {"player": 2, "play": []}
    assert data["line"][-1]["player"] == 1
    assert {"rank_order", "five_card_order", "pass_final", "bombs"} <= set(data["rules"])


def test_start_of_deal_leads_with_the_lowest_card() -> None:
    result = runner.invoke(app, ["big2", "game", "5s 6s", "3d 4c", "--start", "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["position"]["to_move"] == 2
    assert all("3d" in move["play"] for move in data["moves"])


@pytest.mark.parametrize(
    ("args", "token"),
    [
        (["3d 4c", "4c"], "'4c' is given twice"),
        (["3d", "4c", "--to-move", "3"], "--to-move '3'"),
        (["3d", "4c", "--beat", "5c 6c", "--by", "2"], "'5c 6c'"),
        (["3d", "4c", "--beat", "5c"], "--beat needs --by"),
        (["3d", "4c", "--beat", "5c", "--by", "2", "--passed", "1"], "--pass-final"),
        (["3d"], "give 2, 3 or 4 hands, not 1"),
        (["3d", "4c", "--by", "2"], "--by needs --beat"),
        (["3d", "4c", "--start", "--to-move", "2"], "player 1 holds 3d"),
    ],
)
def test_bad_input_is_one_line(args: list[str], token: str) -> None:
    result = runner.invoke(app, ["big2", "game", *args])
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ") and token in line


def test_batch_in_order_with_any_workers(tmp_path: Path) -> None:
    lines = [
        "3d 3c 2s | 4d 5d 6d",
        '{"hands": ["3d 4d", "5c 6c", "7h 8h"], "to_move": 2, "beat": "9s", "by": 3}',
        '{"hands": [["5s", "6s"], ["3d", "4c"]], "start": true}',
        "# a comment",
        "4c 4d 4h | 5s | 6s 6d | 7c 8c",
    ]
    source = tmp_path / "positions.txt"
    source.write_text("\n".join(lines) + "\n")
    outputs = []
    for workers in ("1", "2"):
        result = runner.invoke(app, ["big2", "game-batch", str(source), "--workers", workers])
        assert result.exit_code == 0, result.stderr
        answers = [json.loads(line) for line in result.stdout.splitlines()]
        assert [a["input_line"] for a in answers] == [1, 2, 3, 5]
        for answer in answers:
            answer.pop("seconds")
        outputs.append(answers)
    assert outputs[0] == outputs[1]
    assert outputs[0][1]["position"]["to_move"] == 2


def test_batch_bad_line_names_it(tmp_path: Path) -> None:
    source = tmp_path / "positions.txt"
    source.write_text("3d | 4c\n" + '{"hands": ["3d", "4c"], "to_move": 7}\n')
    result = runner.invoke(app, ["big2", "game-batch", str(source)])
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert "line 2" in line and "to_move '7'" in line  # the JSON field, by its name


def test_ctrl_c_stops_cleanly() -> None:
    # A full four-player deal: more than ten seconds even for the compiled search.
    hands = [
        "3c 4d 5h 6s 7c 8d 9h Ts Jc Qd Kh As 2c",
        "3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac 2d",
        "3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc Ad 2h",
        "3s 4c 5d 6h 7s 8c 9d Th Js Qc Kd Ah 2s",
    ]
    process = handsolver("big2", "game", *hands, "--time-limit", "3600")
    time.sleep(2)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=HANG)
    assert process.returncode == 130
    (line,) = stderr.decode().splitlines()
    assert "interrupted" in line
