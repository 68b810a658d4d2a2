from __future__ import annotations

import pytest
from typer.testing import CliRunner

from handsolver.solver.cli import app

runner = CliRunner()


def test_version_and_help() -> None:
    assert runner.invoke(app, ["--version"]).stdout.startswith("handsolver ")
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("badugi", "poker", "euler54", "big2", "sixcard", "verify", "cases"):
        assert command in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuch"], "No such command 'nosuch'"),
        (["badugi", "--bogus", "3c 2s 4d Ah"], "No such option: --bogus"),
        (["verify", "nope", "--cmd", "x"], "'nope' is not one of"),
        (["big2", "stats", "--deals", "x"], "'x' is not a whole number"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ") and message in line
