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


def _complete(words: str) -> list[str]:
    env = {"COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - (not words.endswith(" ")))}
    env["_HANDSOLVER_COMPLETE"] = "complete_bash"
    result = runner.invoke(app, [], env=env, prog_name="handsolver")
    return result.stdout.split()


def test_shell_completion() -> None:
    assert "--install-completion" in runner.invoke(app, ["--help"]).stdout
    shown = runner.invoke(app, ["--show-completion", "bash"])
    assert shown.exit_code == 0 and "_HANDSOLVER_COMPLETE" in shown.stdout
    assert _complete("handsolver bi") == ["big2"]
    assert _complete("handsolver big2 st") == ["stats"]
    assert "--json" in _complete("handsolver poker --j")
    assert "export-matlab" in _complete("handsolver sixcard ")


def test_every_group_help_shows_the_default_commands_options() -> None:
    for group, option in [("big2", "--prefer"), ("poker", "--board"), ("badugi", "--json")]:
        result = runner.invoke(app, [group, "--help"])
        assert result.exit_code == 0 and option in result.stdout
        assert "batch" in result.stdout


def test_big2_all_says_how_many_it_shows() -> None:
    result = runner.invoke(app, ["big2", "--all", "--limit", "4", "3c 3d 3h 3s 4c 4d"])
    assert "exactly 6 optimal partitions, showing 4 of 6" in result.stdout
    listed = [line for line in result.stdout.splitlines() if line.strip()[:2] in ("1.", "4.")]
    assert len(listed) == 2


def test_an_internal_error_is_one_line_with_exit_3(monkeypatch: pytest.MonkeyPatch) -> None:
    from handsolver.solver.commands import badugi

    def broken(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(badugi, "deal_json", broken)
    monkeypatch.delenv("HANDSOLVER_TRACEBACK", raising=False)
    result = runner.invoke(app, ["badugi", "3c 2s 4d Ah", "As 3h 2d 4h"])
    assert result.exit_code == 3 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: internal error (RuntimeError: boom)")
