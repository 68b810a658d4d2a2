from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from handsolver.solver.cli import app
from tests.models.test_badugi import SEED_CASES

runner = CliRunner()


@pytest.mark.parametrize(("deal", "expected", "left", "right"), SEED_CASES)
def test_seed_cases_through_the_cli(deal: str, expected: str, left: str, right: str) -> None:
    result = runner.invoke(app, ["badugi", deal, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    winning = " - ".join(" ".join(report["hands"][i]["cards"]) for i in report["winners"])
    assert winning == expected
    assert [hand["value"] for hand in report["hands"]] == [left, right]
    assert report["draw"] == (" - " in expected)


def test_hands_as_separate_arguments_and_three_way() -> None:
    result = runner.invoke(app, ["badugi", "3c 2s 4d Ah", "As 2c 3d 4h", "Kc Kd Kh Ks", "--json"])
    report = json.loads(result.stdout)
    assert report["winners"] == [0, 1]
    assert report["hands"][2]["played"] == ["Kc"]


def test_output_keeps_the_input_notation() -> None:
    result = runner.invoke(app, ["badugi", "0H 9S 8D 7C|AH AD AC AS", "--json"])
    assert json.loads(result.stdout)["hands"][0]["played"] == ["0H", "9S", "8D", "7C"]


def test_human_output_names_the_winner_and_draws() -> None:
    result = runner.invoke(app, ["badugi", "3c 2s 4d Ah - As 3h 2d 4h"])
    assert result.exit_code == 0
    assert "Hand 1 wins: 3c 2s 4d Ah" in result.stdout
    assert "4-3-2-A" in result.stdout
    result = runner.invoke(app, ["badugi", "2h 8h 6h 4h - 6d 2d 5d 8d"])
    assert "Draw: hands 1, 2" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["3c 2s 4d Xh - As 3h 2d 4h"], "unknown rank 'X' in card 'Xh'"),
        (["3c 2s 4d Ax - As 3h 2d 4h"], "unknown suit 'x' in card 'Ax'"),
        (["3c 2s 4d Ah - As 3h 2d 3c"], "card '3c' is given twice"),
        (["3c 2s 4d - As 3h 2d 4h"], "hand '3c 2s 4d' has 3 cards"),
        (["3c 2s 4d Ah 5h - As 3h 2d 4h"], "hand '3c 2s 4d Ah 5h' has 5 cards"),
        ([""], "no cards given"),
        (["3c 2s 4d Ah"], "need at least 2 hands"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["badugi", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {message}")
    assert "Traceback" not in result.output


def test_table_shares_come_from_the_counts_not_the_rounded_json() -> None:
    # 23 other hands tie 4-3-2-A: 23 / 270,725 = 0.008496%, shown as 0.008%; formatting the
    # JSON's share (rounded to 0.000085 first) would show 0.009%.
    result = runner.invoke(app, ["badugi", "3c 2s 4d Ah - As 3h 2d 4h"])
    assert result.exit_code == 0, result.output
    assert "0.008%" in result.stdout and "0.009%" not in result.stdout
