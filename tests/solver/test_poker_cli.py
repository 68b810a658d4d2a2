"""``handsolver poker`` and ``handsolver euler54`` through the typer app."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handsolver.solver.cli import app

PE54 = Path(__file__).resolve().parents[1] / "data" / "p054_poker.txt"
runner = CliRunner()


def poker_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["poker", *args, "--json"])
    assert result.exit_code == 0, result.output
    report: dict[str, object] = json.loads(result.stdout)
    return report


def test_poker_json() -> None:
    report = poker_json("8C TS KC 9H 4S", "7D 2S 5D 3S AC")
    assert report["winners"] == [1] and report["draw"] is False
    hands = report["hands"]
    assert isinstance(hands, list)
    assert [hand["category"] for hand in hands] == ["high card", "high card"]
    assert hands[1]["played"] == ["AC", "7D", "5D", "3S", "2S"]
    assert hands[1]["cards"] == ["7D", "2S", "5D", "3S", "AC"]
    assert hands[1]["winner"] is True and hands[0]["winner"] is False


def test_poker_wheel_loses_to_six_high_and_keeps_notation() -> None:
    report = poker_json("Ah 2c 3d 4s 5h - 2h 3c 4d 5s 6h")
    assert report["winners"] == [1]
    hands = report["hands"]
    assert isinstance(hands, list)
    assert hands[0]["played"] == ["5h", "4s", "3d", "2c", "Ah"]
    report = poker_json("0H 9H 8H 7H 6H", "AS KS QS JS 9S")
    hands = report["hands"]
    assert isinstance(hands, list)
    assert hands[0]["played"][0] == "0H" and hands[0]["category"] == "straight flush"


def test_poker_board_and_draw() -> None:
    report = poker_json("Ah Kd", "As Kc", "7c 7d", "--board", "Qh Jh Th | 2s | 3d")
    assert report["winners"] == [0, 1] and report["draw"] is True
    assert report["board"] == ["Qh", "Jh", "Th", "2s", "3d"]
    hands = report["hands"]
    assert isinstance(hands, list)
    assert hands[2]["category"] == "pair" and hands[2]["cards"] == ["7c", "7d"]
    assert hands[0]["played"] == ["Ah", "Kd", "Qh", "Jh", "Th"]


def test_poker_human_output() -> None:
    result = runner.invoke(app, ["poker", "8C TS KC 9H 4S", "7D 2S 5D 3S AC"])
    assert result.exit_code == 0
    assert "Hand 2 wins: 7D 2S 5D 3S AC" in result.stdout
    assert "high card" in result.stdout
    result = runner.invoke(app, ["poker", "Ah Kd 5s 5c 2h", "As Kc 5h 5d 2s"])
    assert "Draw: hands 1, 2" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["8C TS KC 9H 4X", "7D 2S 5D 3S AC"], "unknown suit 'X' in card '4X'"),
        (["8C TS KC 9H 4S", "7D 2S 5D 3S 8C"], "card '8C' is given twice"),
        (["8C TS KC 9H", "7D 2S 5D 3S AC"], "hand '8C TS KC 9H' has 4 cards"),
        (["8C TS KC 9H 4S"], "need at least 2 hands"),
        (["Ah Kd", "As Kc"], "hand 'Ah Kd' has 2 cards"),
        (["Ah", "As Kc", "--board", "2c 3d 4h"], "hand 'Ah' and the board make 4 cards"),
        (["Ah Kd", "--board", "2c 3d 4h"], "need at least 2 hands"),
        (["Ah Kd", "As Kc", "--board", "2c 3d Kd"], "card 'Kd' is given twice"),
    ],
)
def test_poker_bad_input(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["poker", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {message}")
    assert "Traceback" not in result.output


def test_euler54_file() -> None:
    result = runner.invoke(app, ["euler54", str(PE54)])
    assert result.exit_code == 0
    assert result.stdout == "Player 1 wins 376 of 1000 deals (Player 2 wins 624, 0 draws)\n"
    assert runner.invoke(app, ["euler54", str(PE54), "-q"]).stdout == "376\n"
    result = runner.invoke(app, ["euler54", str(PE54), "--json", "--strict"])
    report = json.loads(result.stdout)
    assert report["player1_wins"] == 376 and report["deals"] == 1000
    assert report["player2_wins"] == 624 and report["bad_lines"] == []


def test_euler54_stdin_and_details() -> None:
    deals = "8C TS KC 9H 4S 7D 2S 5D 3S AC\n5C AD 5D AC 9C 7C 5H 8D TD KS\n"
    result = runner.invoke(app, ["euler54", "-", "--details"], input=deals)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "line 1: 8C TS KC 9H 4S (high card) vs 7D 2S 5D 3S AC (high card): player 2 wins",
        "line 2: 5C AD 5D AC 9C (two pair) vs 7C 5H 8D TD KS (high card): player 1 wins",
        "Player 1 wins 1 of 2 deals (Player 2 wins 1, 0 draws)",
    ]
    result = runner.invoke(app, ["euler54", "-", "--details", "--json"], input=deals)
    details = json.loads(result.stdout)["details"]
    assert details[1] == {
        "line": 2,
        "player1": {"cards": ["5C", "AD", "5D", "AC", "9C"], "category": "two pair"},
        "player2": {"cards": ["7C", "5H", "8D", "TD", "KS"], "category": "high card"},
        "winner": 1,
    }


BAD_DEALS = "8C TS KC 9H 4S 7D 2S 5D 3S AC\n8C TS KC 9H 4S 7D 2S 5D 3S 8C\n\nXX\n"


def test_euler54_bad_lines_are_reported_and_skipped() -> None:
    result = runner.invoke(app, ["euler54", "-", "--json"], input=BAD_DEALS)
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["deals"] == 1 and report["player1_wins"] == 0
    assert [bad["line"] for bad in report["bad_lines"]] == [2, 4]
    assert result.stderr.splitlines() == [
        "warning: line 2: card '8C' is given twice",
        "warning: line 4: unknown rank 'X' in card 'XX'",
    ]


def test_euler54_byte_order_mark(tmp_path: Path) -> None:
    deals = "\ufeff8C TS KC 9H 4S 7D 2S 5D 3S AC\r\n5C AD 5D AC 9C 7C 5H 8D TD KS\r\n"
    path = tmp_path / "deals.txt"
    path.write_text(deals, encoding="utf-8", newline="")
    for source, stdin in ((str(path), None), ("-", deals)):
        result = runner.invoke(app, ["euler54", source, "--strict", "--json"], input=stdin)
        assert result.exit_code == 0, result.stderr
        report = json.loads(result.stdout)
        assert (report["deals"], report["player1_wins"]) == (2, 1)


def test_euler54_strict_and_missing_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["euler54", "-", "--strict"], input=BAD_DEALS)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "error: line 2: card '8C' is given twice\n"
    result = runner.invoke(app, ["euler54", str(tmp_path / "missing.txt")])
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: No such file")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    result = runner.invoke(app, ["euler54", str(binary)])
    assert result.exit_code == 2 and "not UTF-8" in result.stderr


def test_euler54_does_not_import_heavy_modules() -> None:
    code = (
        "import sys; from handsolver.solver.cli import app\n"
        "try:\n    app(['euler54', sys.argv[1]])\nexcept SystemExit:\n    pass\n"
        "heavy = {'numpy', 'ortools', 'rich', 'handsolver.models.poker_batch'} & set(sys.modules)\n"
        "print(sorted(heavy))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(PE54)], capture_output=True, text=True, check=True
    )
    assert out.stdout.splitlines()[-1] == "[]" and "wins 376 of 1000" in out.stdout
