"""``handsolver badugi draw`` and ``draw-batch``: the JSON contract, the table, batches, errors."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from handsolver.solver.cli import app

runner = CliRunner()
KNOWN = ["Ac 2d 3h Kh", "5c 6d 7h 8h"]


def run(*args: str) -> Any:
    result = runner.invoke(app, ["badugi", "draw", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_exact_json_contract() -> None:
    out = run(*KNOWN, "--draws", "1")
    assert out["draws"] == 1 and out["exact"] is True and out["sequences"] == 44 * 43
    first, second = out["players"]
    assert first["hand"] == ["Ac", "2d", "3h", "Kh"] and first["keep"] == ["Ac", "2d", "3h"]
    for player in out["players"]:
        assert {"hand", "win", "tie", "loss", "equity"} <= player.keys()
        assert all("/" in player[name] for name in ("win", "tie", "loss", "equity"))
        assert sum(Fraction(player[name]) for name in ("win", "tie", "loss")) == 1
    assert Fraction(first["win"]) == Fraction(second["loss"]) == Fraction(379, 473)


def test_estimate_json_has_numbers_and_standard_errors() -> None:
    args = [KNOWN[0], "?", "--draws", "3", "--samples", "20000", "--seed", "4"]
    out = run(*args)
    assert out["exact"] is False and out["samples"] == 20000 and out["seed"] == 4
    for player in out["players"]:
        assert isinstance(player["win"], float) and set(player["stderr"]) >= {"win", "equity"}
    assert out["players"][1]["hand"] is None
    assert run(*args) == out


def test_best_discard_json_ranks_sixteen_choices_best_first() -> None:
    rows = run(*KNOWN, "--best-discard")["discards"]
    assert len(rows) == 16
    equities = [Fraction(row["equity"]) for row in rows]
    assert equities == sorted(equities, reverse=True)
    assert rows[0]["keep"] == ["Ac", "2d", "3h"] and rows[0]["throw"] == ["Kh"]
    assert [row["default"] for row in rows].count(True) == 1
    assert Fraction(rows[0]["cost"]) == 0


def test_human_table_names_the_method_and_marks_the_default() -> None:
    result = runner.invoke(app, ["badugi", "draw", *KNOWN, "--best-discard"])
    assert result.exit_code == 0
    assert "exact, 1,892 card sequences counted" in result.stdout
    assert "Exact equities (ties split): 1: 379/473, 2: 94/473" in result.stdout
    assert "default rule" in result.stdout
    args = ["badugi", "draw", KNOWN[0], "?", "--draws", "2", "--samples", "500"]
    result = runner.invoke(app, args)
    assert "estimate from 500 shuffles (seed 1)" in result.stdout and "±" in result.stdout


def test_rules_keep_and_dead_cards() -> None:
    pat = run(*KNOWN, "--rule", "pat")
    assert pat["players"][0]["keep"] == ["Ac", "2d", "3h", "Kh"] and pat["sequences"] == 44
    kept = run(*KNOWN, "--keep", "Ac 2d")
    assert kept["players"][0]["rule"] == "keep:Ac 2d" and kept["sequences"] == 946 * 42
    dead = run(*KNOWN, "--dead", "4s 4c")
    assert dead["dead"] == ["4s", "4c"] and dead["sequences"] == 42 * 41
    # A pat badugi against a player throwing all four.
    four = run("Ac 2d 3h 4s", "5c 6c 7c 8c", "--rule", "best", "--rule", "keep:")
    assert four["sequences"] == comb(44, 4) and four["players"][1]["keep"] == []
    assert Fraction(four["players"][0]["tie"]) > 0


def test_an_unknown_opponent_against_a_pat_hand_is_exact() -> None:
    out = run("?", "Ac 2d 3h Ks")
    assert out["exact"] is True and out["players"][0]["hand"] is None
    assert sum(Fraction(out["players"][1][name]) for name in ("win", "tie", "loss")) == 1
    assert Fraction(out["players"][1]["equity"]) > Fraction(3, 4)


def test_ties_between_two_pat_number_ones() -> None:
    out = run("Ac 2d 3h 4s", "Ad 2c 3s 4h")
    assert out["players"][0]["tie"] == "1/1" and out["players"][0]["equity"] == "1/2"


def test_batch_reads_a_file_and_stdin_in_order_with_any_workers(tmp_path: Path) -> None:
    spots = tmp_path / "spots.txt"
    spots.write_text(
        "# heads-up, then an unknown opponent over two draws\n"
        "Ac 2d 3h Kh | 5c 6d 7h 8h\n"
        "\n"
        "Ac 2d 3h Kh | ? --draws 2 --rule 'break:9'\n"
    )
    args = ["badugi", "draw-batch", str(spots), "--samples", "3000"]
    one = runner.invoke(app, args)
    two = runner.invoke(app, [*args, "--workers", "2"])
    assert one.exit_code == 0, one.output
    assert one.stdout == two.stdout
    lines = [json.loads(line) for line in one.stdout.splitlines()]
    assert [line["line"] for line in lines] == [2, 4]
    assert lines[0]["exact"] and not lines[1]["exact"]
    piped = runner.invoke(
        app, ["badugi", "draw-batch", "-", "--samples", "3000"], input=spots.read_text()
    )
    assert piped.stdout == one.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Ac 2d 3h Kh", "Ac 6d 7h 8h"], "card 'Ac' is given twice"),
        (["Ac 2d 3h Kh", "5c 6d 7h 8h", "--dead", "8h"], "card '8h' is given twice"),
        (["Ac 2d 3h Kh", "5c 6d 7h 8h", "--keep", "Ac 4s"], "keeps '4s', not in"),
        (["Ac 2d 3h Kh", "?", "--rule", "best", "--rule", "keep:Ac"], "needs a known hand"),
        (["Ac 2d 3h Kh", "?", "--rule", "fold"], "unknown draw rule 'fold'"),
        (["Ac 2d 3h Kh", "?", "--rule", "break:5-9"], "ranks must fall"),
        (["Ac 2d 3h Kh", "?", "--rule", "best", "--rule", "best", "--rule", "pat"], "3 rules"),
        (["Ac 2d 3h Kh", "?", "?", "?", "--draws", "3", "--dead", "Ks Qs Js Ts"], "too few"),
        (["Ac 2d 3h Kh", "5c 6d 7h"], "has 3 cards"),
        (["Ac 2d 3h Kh", "5c 6d 7h 8h", "--draws", "4"], "--draws"),
        (["?", "5c 6d 7h 8h", "--best-discard"], "--best-discard needs"),
        (["Ac 2d 3h Kh"], "need at least 2 hands"),
    ],
)
def test_bad_input_is_one_line_naming_it_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["badugi", "draw", *args])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


def test_batch_errors_name_the_line(tmp_path: Path) -> None:
    spots = tmp_path / "spots.txt"
    spots.write_text("Ac 2d 3h Kh | 5c 6d 7h 8h\nAc 2d 3h Kh | ? --draws 5\n")
    result = runner.invoke(app, ["badugi", "draw-batch", str(spots)])
    assert result.exit_code == 2 and result.stdout == ""
    assert "line 2: bad --draws '5'" in result.stderr


def test_one_sample_has_no_standard_error(tmp_path: Path) -> None:
    """A standard error needs two samples: one gives n/a (JSON null), never 0."""
    args = ["badugi", "draw", KNOWN[0], "?", "--draws", "2", "--estimate", "--samples", "1"]
    table = runner.invoke(app, [*args, "--best-discard"])
    assert table.exit_code == 0, table.output
    assert "±0.00%" not in table.stdout and "n/a" in table.stdout
    out = run(*args[2:], "--best-discard")
    for player in out["players"]:
        assert set(player["stderr"].values()) == {None}
    assert all(row["stderr"] is None for row in out["discards"])
    deals = tmp_path / "deals.txt"
    deals.write_text(f"{KNOWN[0]} | ? --draws 2\n")
    batch = runner.invoke(app, ["badugi", "draw-batch", str(deals), "--samples", "1"])
    assert batch.exit_code == 0, batch.output
    line = json.loads(batch.stdout.splitlines()[0], parse_constant=lambda name: name)  # NaN
    assert set(line["players"][0]["stderr"].values()) == {None}


def test_a_question_mark_inside_a_hand_is_refused() -> None:
    result = runner.invoke(app, ["badugi", "draw", "Ac 2d 3h Kh ? 5c 6d 7h 8h"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: ") and "'?'" in result.stderr
    assert len(result.stderr.splitlines()) == 1
    run("Ac 2d 3h Kh", "?")  # a whole argument is a hand
