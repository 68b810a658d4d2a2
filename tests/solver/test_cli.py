from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

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


def test_shell_completion(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "--install-completion" in runner.invoke(app, ["--help"]).stdout
    # The shell named, not detected from the parent process: started from a script (CI, cron,
    # setsid) there is no interactive shell to detect, and typer would say "Shell  not
    # supported".  This variable (typer's own tests use it) makes --show-completion take one.
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
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
    from handsolver.solver.commands.badugi import showdown as badugi

    def broken(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(badugi, "deal_json", broken)
    monkeypatch.delenv("HANDSOLVER_TRACEBACK", raising=False)
    result = runner.invoke(app, ["badugi", "3c 2s 4d Ah", "As 3h 2d 4h"])
    assert result.exit_code == 3 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: internal error (RuntimeError: boom)")


# --- issue 19: the command line reads as one -----------------------------------------------------


def _commands() -> list[tuple[list[str], object]]:
    """Every command and group of the app, with its path."""
    from typer.main import get_command

    root = get_command(app)
    ctx = root.make_context("handsolver", ["--help"], resilient_parsing=True)
    found: list[tuple[list[str], object]] = []

    def walk(path: list[str], command: Any) -> None:
        found.append((path, command))
        if hasattr(command, "list_commands"):
            for name in command.list_commands(ctx):
                walk([*path, name], command.get_command(ctx, name))

    walk([], root)
    return found


COMMAND_PATHS = [path for path, _ in _commands()]


def test_a_misspelt_command_gets_a_suggestion() -> None:
    result = runner.invoke(app, ["pokr", "Ah Kd"])
    assert result.exit_code == 2
    assert "No such command 'pokr'. Did you mean 'poker'?" in result.stderr


@pytest.mark.parametrize("path", COMMAND_PATHS, ids=lambda path: " ".join(path) or "root")
def test_help_has_plain_placeholders(path: list[str]) -> None:
    """Usage lines without typer's {FILE}, {me} or {challenge}:<...>; no <str> anywhere."""
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    usage = result.stdout.splitlines()[0]
    assert "{" not in usage and "<" not in usage and ":" not in usage.split("]", 1)[-1], usage
    assert re.search(r"<[a-z][\w|-]*>", result.stdout) is None, result.stdout
    arguments = re.findall(r"^  ([A-Za-z]\S*)  ", result.stdout.split("Arguments:")[-1], re.M)
    if "Arguments:" in result.stdout:
        assert all(name.rstrip(".").isupper() for name in arguments), arguments


def test_every_bounded_number_states_its_range_in_its_help() -> None:
    from handsolver.solver.commands.options import StrictNumber

    missing = []
    for path, command in _commands():
        for param in getattr(command, "params", []):
            if isinstance(param.type, StrictNumber) and not param.hidden:
                help_text = param.help or ""
                if not re.search(r"[0-9]\S* to \S*[0-9]|at most", help_text):
                    missing.append((" ".join(path), param.opts[0], help_text))
    assert missing == []
    result = runner.invoke(app, ["chinese", "settings", "--help"])
    words = " ".join(result.stdout.split())
    for said in ["1 to 3", "1 to 10,000,000", "1 to 72,072", "1 to 1,000,000"]:
        assert said in words
    stats = runner.invoke(app, ["big2", "stats", "--help"]).stdout
    assert "Cards per hand (1 to 52)." in " ".join(stats.split())


def test_examples_in_help_stay_one_a_line() -> None:
    out = runner.invoke(app, ["chinese", "settings", "--help"], env={"COLUMNS": "80"}).stdout
    examples = [line.strip() for line in out.splitlines() if line.startswith("    handsolver")]
    assert len(examples) == 3 and all(line.startswith("handsolver chinese") for line in examples)


@pytest.mark.parametrize("group", ["badugi", "poker", "big2"])
def test_batch_json_is_accepted_but_not_listed(group: str, tmp_path: Path) -> None:
    help_text = runner.invoke(app, [group, "batch", "--help"]).stdout
    assert "--json" not in help_text
    deals = tmp_path / "deals.txt"
    deals.write_text("AS 4H - KD 2C\n" if group != "big2" else "AS 4H 4C\n")
    if group == "poker":
        deals.write_text("8C TS KC 9H 4S - 7D 2S 5D 3S AC\n")
    if group == "badugi":
        deals.write_text("3c 2s 4d Ah - As 3h 2d 4h\n")
    plain = runner.invoke(app, [group, "batch", str(deals)])
    with_json = runner.invoke(app, [group, "batch", str(deals), "--json"])
    assert plain.exit_code == with_json.exit_code == 0
    assert plain.stdout == with_json.stdout and json.loads(plain.stdout)


def test_export_matlab_json_says_what_it_prints() -> None:
    out = runner.invoke(app, ["sixcard", "export-matlab", "--help"], env={"COLUMNS": "200"})
    assert (
        '--json  Print {"strategy": NAME, "source": MATLAB code} instead of the code.'
        in (" ".join(out.stdout.split()).replace(" --json", "--json"))
        or '{"strategy": NAME, "source": MATLAB code}' in out.stdout
    )
    done = runner.invoke(app, ["sixcard", "export-matlab", "sorted", "--json"])
    assert set(json.loads(done.stdout)) == {"strategy", "source"}


def test_big2_threads_and_the_old_spelling() -> None:
    help_text = runner.invoke(app, ["big2", "solve", "--help"]).stdout
    assert "--threads" in help_text and "--workers" not in help_text
    hand = "AS 4H 4C 5D 6H 7C 8S"
    results = [
        runner.invoke(app, ["big2", hand, "--method", "cp-sat", option, "2", "--json"])
        for option in ("--threads", "--workers")
    ]
    assert all(result.exit_code == 0 for result in results)
    assert json.loads(results[0].stdout)["count"] == json.loads(results[1].stdout)["count"]


HAND13 = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d"


def test_chinese_vs_alone_samples_by_default() -> None:
    result = runner.invoke(app, ["chinese", "settings", HAND13, "--vs", "greedy", "--top", "1"])
    assert result.exit_code == 0, result.stderr
    assert "against: 1000 sampled deals of 1 opponent playing greedy" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--vs", "gredy"], "unknown strategy 'gredy' (did you mean 'greedy'?)"),
        (["--vs", "gredy", "--samples", "5"], "unknown strategy 'gredy' (did you mean"),
        (["--vs", "random"], "unknown strategy 'random'; use greedy"),
        ([], "say what the opponents play: --vs-setting FRONT|MIDDLE|BACK"),
    ],
)
def test_chinese_says_exactly_what_is_wrong(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["chinese", "settings", HAND13, *args])
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert message in line


def test_chinese_json_lists_the_top_unless_all() -> None:
    base = ["chinese", "settings", HAND13, "--vs-setting", "Ah Ad 3c|Kh Kd 4c 4d 8s|8c 8d 8h Jc Jd"]
    top = json.loads(runner.invoke(app, [*base, "--json"]).stdout)
    assert len(top["settings"]) == 10
    three = json.loads(runner.invoke(app, [*base, "--json", "--top", "3"]).stdout)
    assert three["settings"] == top["settings"][:3]
    every = json.loads(runner.invoke(app, [*base, "--json", "--all"]).stdout)
    assert len(every["settings"]) == every["legal"] == 20_678


def test_stdin_at_a_terminal_says_it_is_waiting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io
    import sys

    from handsolver.solver.commands.inputs import card_texts

    class Terminal(io.TextIOWrapper):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal(io.BytesIO(b"3c 2s 4d Ah\n")))
    assert card_texts(["-"]) == ["3c 2s 4d Ah"]
    assert capsys.readouterr().err == (
        "reading standard input, one line at a time; end it with Ctrl-D\n"
    )
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"3c 2s 4d Ah\n")))
    assert card_texts(["-"]) == ["3c 2s 4d Ah"]
    assert capsys.readouterr().err == ""  # a pipe or a file: nothing to say


def test_euler54_labels_its_answer(tmp_path: Path) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text("5H 5C 6S 7S KD 2C 3S 8S 8D TD\n5D 8C 9S JS AC 2C 5C 7D 8S QH\n")
    labelled = runner.invoke(app, ["euler54", str(deals)])
    assert labelled.stdout == "Player 1 wins 1 of 2 deals (Player 2 wins 1, 0 draws)\n"
    assert runner.invoke(app, ["euler54", str(deals), "--quiet"]).stdout == "1\n"
    assert (
        json.loads(runner.invoke(app, ["euler54", str(deals), "--json"]).stdout)["player1_wins"]
        == 1
    )
