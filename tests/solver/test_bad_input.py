"""Bad input and faults, generated over every command of the app (issue 13).

The commands are discovered from the app's command tree, so a command added later inherits every
check here: which arguments take cards, files or strategies, and which options take numbers or
an output path, is read from the parameters themselves (metavar, type, help text).

Every case asserts the same promise: exit code 2 (or the documented code), exactly one stderr line
starting with ``error:`` that names the bad token or path, no traceback, nothing on stdout, and no
file or temporary file left behind.  Signals and output devices use real subprocesses, bounded in
time by a generous limit that only guards against a hang (no assertion depends on speed).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.main import get_command
from typer.testing import CliRunner

from handsolver.solver.cli import COMMANDS, app
from handsolver.solver.commands.errors import MAX_MESSAGE
from handsolver.solver.commands.inputs import MAX_LINE
from handsolver.solver.commands.options import StrictNumber

from .processes import HANG, children, first_line, group_is_gone, handsolver, start, wait_for

runner = CliRunner()
DATA = Path(__file__).resolve().parents[1] / "data"
HAND = "3c 2s 4d Ah - As 3h 2d 4h"  # a deal every card command can parse as cards


# --- the command tree --------------------------------------------------------------------------


def _leaves() -> Iterator[tuple[tuple[str, ...], Any]]:
    root = get_command(app)
    ctx = root.make_context("handsolver", ["--help"], resilient_parsing=True)

    def walk(path: tuple[str, ...], command: Any) -> Iterator[tuple[tuple[str, ...], Any]]:
        subcommands = getattr(command, "commands", None)
        if subcommands is None:
            yield path, command
            return
        for name in command.list_commands(ctx):
            yield from walk((*path, name), command.get_command(ctx, name))

    yield from walk((), root)


LEAVES = dict(_leaves())
PATHS = sorted(LEAVES)


def _params(path: tuple[str, ...]) -> list[Any]:
    return list(LEAVES[path].params)


def _arguments(path: tuple[str, ...]) -> list[Any]:
    return [p for p in _params(path) if p.param_type_name == "argument"]


def _takes(path: tuple[str, ...], metavar: str) -> bool:
    return any((p.metavar or "") == metavar for p in _arguments(path))


def _strategy_params(path: tuple[str, ...]) -> list[Any]:
    """Parameters that take a strategy read from a file (the six-card game's tables)."""
    return [
        p
        for p in _params(path)
        if "best-response" in (help := getattr(p, "help", "") or "") and "file" in help
    ]


def _with_required(path: tuple[str, ...], extra: list[str], skip: Any = None) -> list[str]:
    """``extra`` plus harmless values for the other required parameters of the command."""
    args = list(extra)
    for param in _params(path):
        if not param.required or param is skip:
            continue
        value = "random" if param in _strategy_params(path) else "x"
        if param.param_type_name == "argument":
            args.append(value)
        else:
            args += [param.opts[0], value]
    return args


CARD_COMMANDS = [p for p in PATHS if _takes(p, "HAND...") or _takes(p, "HAND")]
FILE_COMMANDS = [p for p in PATHS if _takes(p, "FILE")]
STRATEGY_COMMANDS = [p for p in PATHS if _strategy_params(p)]
NUMBER_OPTIONS = [
    (path, param)
    for path in PATHS
    for param in _params(path)
    if isinstance(param.type, StrictNumber)
]
OUT_COMMANDS = [p for p in PATHS if any("--out" in getattr(q, "opts", []) for q in _params(p))]


def _id(path: tuple[str, ...]) -> str:
    return " ".join(path)


# --- the promise -------------------------------------------------------------------------------


def assert_one_error(
    code: int, out: str, err: str, *, names: str | None = None, expect: int = 2
) -> str:
    assert code == expect, (code, out, err)
    assert out == "", out
    lines = err.splitlines()
    assert len(lines) == 1, err
    (line,) = lines
    assert line.startswith("error: "), line
    assert "Traceback" not in err
    assert len(line) <= len("error: ") + MAX_MESSAGE
    if names is not None:
        assert names in line, (names, line)
    return line


def invoke(args: list[str], stdin: str | bytes | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, args, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def run_err(args: list[str], redirect: str, tmp: Path) -> tuple[int, str]:
    """Run with a shell redirection of stdout; stderr is captured in a file."""
    err = tmp / "stderr.txt"
    command = [sys.executable, "-m", "handsolver.solver", *args]
    done = subprocess.run(
        ["sh", "-c", '"$@" ' + redirect + f" 2>{err}", "sh", *command], timeout=HANG
    )
    return done.returncode, err.read_text()


# --- class 10: no arguments --------------------------------------------------------------------


@pytest.mark.parametrize("path", PATHS, ids=_id)
def test_no_arguments_is_one_line_with_a_hint(path: tuple[str, ...]) -> None:
    if not any(p.required for p in _params(path)):
        pytest.skip("runs without arguments")
    code, out, err = invoke(list(path))
    line = assert_one_error(code, out, err)
    assert "--help" in line


GROUPS = sorted({path[:-1] for path in PATHS if len(path) > 1})


@pytest.mark.parametrize("group", [(), *GROUPS], ids=lambda group: " ".join(group) or "root")
def test_a_bare_group_lists_its_commands(group: tuple[str, ...]) -> None:
    """One error line with the --help hint, then the group's commands, as its help lists them."""
    code, out, err = invoke(list(group))
    first, *rest = err.splitlines()
    assert "--help" in assert_one_error(code, out, first)
    names = {line.split()[0] for line in rest[1:] if line.startswith("  ") and line.split()}
    assert rest[0] == "Commands:"
    assert {path[len(group)] for path in PATHS if path[: len(group)] == group} <= names


def test_every_command_has_its_own_help_with_its_options() -> None:
    for path in PATHS:
        code, out, _ = invoke([*path, "--help"])
        assert code == 0 and out.startswith("Usage:"), path
        for param in _params(path):
            for opt in getattr(param, "opts", []):
                if param.param_type_name == "option" and not param.hidden:
                    assert opt in out, (path, opt)


def test_root_summaries_match_the_commands() -> None:
    root = get_command(app)
    ctx = root.make_context("handsolver", ["--help"], resilient_parsing=True)
    for name, (_, summary) in COMMANDS.items():
        command = root.get_command(ctx, name)
        assert summary.rstrip(".") in " ".join((command.help or "").split()), name


# --- class 3: numbers --------------------------------------------------------------------------

BAD_NUMBERS = ["10" * 20, "1" * 5000, "²", "٣", "nan", "inf", "-inf", "1e999", "x", "", "0x10"]


@pytest.mark.parametrize(
    ("path", "param"), NUMBER_OPTIONS, ids=[f"{_id(p)} {q.opts[0]}" for p, q in NUMBER_OPTIONS]
)
def test_numbers_are_checked_at_the_edge(path: tuple[str, ...], param: Any) -> None:
    option = param.opts[0]
    values = list(BAD_NUMBERS)
    if param.type.min is not None:
        values.append(str(param.type.min - 1))
    if param.type.max is None:
        pytest.fail(f"{_id(path)} {option} has no documented maximum")
    values.append(str(param.type.max + 1))
    for value in values:
        code, out, err = invoke(_with_required(path, [*path, option, value], skip=param))
        assert_one_error(code, out, err, names=option)


@settings(max_examples=40)
@given(st.text(alphabet=st.characters(categories=["Nd", "No"]), min_size=1, max_size=8))
def test_unicode_digits_are_not_numbers(text: str) -> None:
    if text.isascii():
        return
    code, out, err = invoke(["big2", "stats", "--deals", text])
    assert_one_error(code, out, err, names="--deals")


# --- classes 4, 8, 10: card tokens -------------------------------------------------------------


@pytest.mark.parametrize("path", CARD_COMMANDS, ids=_id)
def test_bad_cards_are_named_and_capped(path: tuple[str, ...]) -> None:
    for bad in ["Zz" * 50_000, "AS 4X", "AS AS", ",", "²S", "1" * 5000, "A" + "s" * 100_000]:
        code, out, err = invoke(_with_required(path, [*path, bad], skip=_arguments(path)[0]))
        line = assert_one_error(code, out, err)  # also: at most one short line
        assert "'" in line or "no cards" in line, line  # names the token (or its absence)


def test_sixcard_hands_take_ascii_digits_only() -> None:
    for bad in ["²11223", "١١٢٢٣٤", "1" * 5000]:
        code, out, err = invoke(["sixcard", "split", bad])
        assert_one_error(code, out, err)
    code, out, err = invoke(["sixcard", "split", "112234", "--vs-hand", "²33444"])
    assert_one_error(code, out, err, names="'²")


def test_zero_cards_is_an_error_everywhere() -> None:
    assert_one_error(*invoke(["big2", ","]), names="no cards")
    assert_one_error(*invoke(["big2", "batch", "-"], stdin=",\n"), names="line 1: no cards")


def test_an_unbalanced_bracket_is_refused() -> None:
    line = assert_one_error(*invoke(["big2", "check", "AS 4H", "[[AS, 4H"]))
    assert "'['" in line
    assert invoke(["big2", "check", "AS 4H", "[[AS], [4H]]"])[0] == 0


# --- classes 1, 2, 10: input files and stdin -----------------------------------------------------


def _file_args(path: tuple[str, ...], source: str) -> list[str]:
    return _with_required(path, [*path, source], skip=_arguments(path)[0])


@pytest.mark.parametrize("path", FILE_COMMANDS, ids=_id)
def test_unreadable_inputs_name_the_path(path: tuple[str, ...], tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    assert_one_error(*invoke(_file_args(path, str(missing))), names=str(missing))
    assert_one_error(*invoke(_file_args(path, str(tmp_path))), names=str(tmp_path))
    assert_one_error(*invoke(_file_args(path, "/dev/zero")), names="'/dev/zero': line 1")
    long_line = tmp_path / "long.txt"
    long_line.write_text("AS " * MAX_LINE + "\n")
    assert_one_error(*invoke(_file_args(path, str(long_line))), names="line 1 is longer")


@pytest.mark.parametrize("path", FILE_COMMANDS, ids=_id)
def test_files_and_stdin_read_alike(path: tuple[str, ...], tmp_path: Path) -> None:
    binary = b"AS 4H\n\xff\xfe\n"
    source = tmp_path / "binary.txt"
    source.write_bytes(binary)
    from_file = assert_one_error(*invoke(_file_args(path, str(source))), names="line 2")
    from_stdin = assert_one_error(*invoke(_file_args(path, "-"), stdin=binary), names="line 2")
    assert from_file.replace(repr(str(source)), "standard input") == from_stdin
    # A byte order mark is dropped from both.
    good = (DATA / "p054_poker.txt").read_text().splitlines()[0] + "\n"
    source.write_bytes(b"\xef\xbb\xbf" + good.encode())
    code_file, out_file, _ = invoke(_file_args(path, str(source)))
    code_stdin, out_stdin, _ = invoke(_file_args(path, "-"), stdin=b"\xef\xbb\xbf" + good.encode())
    assert (code_file, out_file) == (code_stdin, out_stdin)


@pytest.mark.parametrize(
    "args",
    [["euler54", "-"], ["big2", "batch", "-"], ["big2", "check", "AS 4H", "-"], ["badugi", "-"]],
    ids=" ".join,
)
def test_a_closed_stdin_is_one_line(args: list[str], tmp_path: Path) -> None:
    code, err = run_err(args, "0<&- >/dev/null", tmp_path)
    assert code == 2 and err.startswith("error: standard input is closed") and err.count("\n") == 1


def test_every_card_command_takes_stdin() -> None:
    for path in CARD_COMMANDS:
        if path[-1] in ("split", "check"):
            continue
        code, out, err = invoke([*path, "-"], stdin="3c 2s 4d Ah\nAs 3h 2d 4h\n")
        assert code in (0, 2), (path, err)
        assert "no cards given" not in err, path
    split = invoke(["sixcard", "split", "-", "--vs-split", "113|34|4"], stdin="112234\n")
    assert split[0] == 0 and "234|11|2" in split[1]
    check = invoke(["big2", "check", "-", "AS, 4H 4C"], stdin="AS 4H 4C\n")
    assert check[0] == 0 and "optimal: yes" in check[1]


# --- class 5: strategy files -------------------------------------------------------------------


def _strategy_files(tmp: Path) -> dict[str, tuple[Path | str, str]]:
    """Hostile strategies and a word their error must contain."""
    files: dict[str, tuple[Path | str, str]] = {}
    nested = tmp / "nested.json"
    nested.write_text("[" * 100_000 + "]" * 100_000)
    files["nested"] = (nested, "nested.json")
    latin = tmp / "latin.csv"
    latin.write_bytes("112234,234|12|1,1\n1122\xe9,x\n".encode("latin-1"))
    files["latin csv"] = (latin, "line 2")
    latin_json = tmp / "latin.json"
    latin_json.write_bytes(b'{"112234": "234|12|1\xe9"}')
    files["latin json"] = (latin_json, "latin.json")
    field = tmp / "field.csv"
    field.write_text("112234," + "1" * 200_000 + "\n")
    files["field"] = (field, "field.csv")
    tiny = tmp / "tiny.csv"
    tiny.write_text("112234,234|12|1,1e-999999999\n")
    files["exponent"] = (tiny, "bad probability")
    big = tmp / "big.csv"
    big.write_text("# padding\n" * 200_000)
    files["size"] = (big, "larger than")
    superscript = tmp / "super.csv"
    superscript.write_text("11223²,234|12|1\n")
    files["digits"] = (superscript, "super.csv")
    files["deep best-response"] = ("best-response:" * 1500 + "random", "nested")
    return files


@pytest.mark.parametrize("path", STRATEGY_COMMANDS, ids=_id)
def test_hostile_strategy_files(path: tuple[str, ...], tmp_path: Path) -> None:
    param = _strategy_params(path)[0]
    for what, (source, named) in _strategy_files(tmp_path).items():
        if path[-1] == "split":
            args = [*path, "112234", param.opts[0], str(source)]
        elif param.param_type_name == "argument":
            args = _with_required(path, [*path, str(source)], skip=param)
        else:
            args = _with_required(path, [*path, param.opts[0], str(source)], skip=param)
        code, out, err = invoke(args)
        assert_one_error(code, out, err, names=named), what


# --- classes 6, 7: output --------------------------------------------------------------------


@pytest.mark.parametrize("path", OUT_COMMANDS, ids=_id)
def test_bad_out_paths_name_the_users_path(path: tuple[str, ...], tmp_path: Path) -> None:
    if path[0] == "cases":
        base = ["cases", "badugi", "--cases", "1"]
    elif path[-1] == "stats":
        base = [*path, "--deals", "2"]
    elif path[-1] == "strategy":
        base = [*path, "--vs", "sorted"]
    elif path[-1] == "game":
        base = [*path, "--deck", "JQKA"]  # the whole game on a small deck: seconds
    else:
        base = list(path)
    for given_path in ["", ".", str(tmp_path), str(tmp_path / "no" / "x.csv")]:
        code, out, err = invoke([*base, "--out", given_path])
        assert_one_error(code, out, err, names=repr(given_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    assert_one_error(*invoke([*base, "--out", "/dev/full"]), names="No space left on device")
    # The user's umask, and an existing file keeps its mode; a symlink is written through.
    target = tmp_path / "result.csv"
    old = os.umask(0o022)
    try:
        assert invoke([*base, "--out", str(target)])[0] == 0
        assert target.stat().st_mode & 0o777 == 0o644
        target.chmod(0o640)
        assert invoke([*base, "--out", str(target)])[0] == 0
        assert target.stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(old)
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    target.write_text("old")
    assert invoke([*base, "--out", str(link)])[0] == 0
    assert link.is_symlink() and target.read_text() != "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.csv", "result.csv"]


@pytest.mark.parametrize(
    "args",
    [
        ["poker", "8C TS KC 9H 4S", "7D 2S 5D 3S AC"],
        ["badugi", "3c 2s 4d Ah", "As 3h 2d 4h"],
        ["euler54", str(DATA / "p054_poker.txt")],
        ["big2", "batch", str(DATA / "p054_poker.txt")],
        ["sixcard", "export-matlab", "sorted"],
        ["sixcard", "split", "112234", "--vs-hand", "133444"],
        ["big2", "AS 4H 4C"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_a_full_disk_on_stdout_is_one_line(args: list[str], tmp_path: Path) -> None:
    if args[:2] == ["big2", "batch"]:
        hands = tmp_path / "hands.txt"
        hands.write_text("AS 4H\n" * 5000)
        args = ["big2", "batch", str(hands)]
    code, err = run_err(args, ">/dev/full", tmp_path)
    assert code == 2, err
    assert err == "error: cannot write to standard output: No space left on device\n"


def _pipe_inputs(tmp: Path) -> dict[str, list[str]]:
    """Commands whose output is long enough to fill a pipe: line by line and in one write."""
    big2 = tmp / "big2.txt"
    big2.write_text("AS 4H\n" * 20_000)
    paigow = tmp / "paigow.txt"
    paigow.write_text("Kh Kd 7c 7s Ah 4d 3c\n" * 20_000)
    hand = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d"
    known = "Ah Ad 3c|Kh Kd 4c 4d 8s|8c 8d 8h Jc Jd"
    return {
        "big2 batch": ["big2", "batch", str(big2)],
        "big2 batch --workers 2": ["big2", "batch", str(big2), "--workers", "2"],
        "cases badugi": ["cases", "badugi", "--cases", "100000"],
        "chinese settings --json": ["chinese", "settings", hand, "--vs-setting", known, "--json"],
        "paigow house-way FILE": ["paigow", "house-way", str(paigow)],
    }


@pytest.mark.parametrize(
    "name",
    [
        "big2 batch",
        "big2 batch --workers 2",
        "cases badugi",
        "chinese settings --json",
        "paigow house-way FILE",
    ],
)
def test_a_broken_pipe_is_quiet(name: str, tmp_path: Path) -> None:
    """``handsolver ... | head -1``: the reader has what it wanted; exit 0 and not a word, as git
    and ripgrep do (docs/cli.md), whether the output goes line by line or in one write."""
    process = handsolver(*_pipe_inputs(tmp_path)[name])
    assert first_line(process)
    assert process.stdout is not None
    process.stdout.close()
    _, err = process.communicate(timeout=HANG)
    assert (process.returncode, err) == (0, b"")
    wait_for(lambda: group_is_gone(process.pid))


# --- class 9: Ctrl-C and SIGTERM ---------------------------------------------------------------


def _interrupt(
    args: list[str], ready: str, signum: int = signal.SIGINT
) -> tuple[int, list[str], str]:
    """Start the command in its own process group, wait until it is working (a first output
    line, or worker processes started), send SIGINT to the group as a terminal's Ctrl-C does
    (SIGTERM to the command alone, as ``kill PID`` does), and return the exit code, stdout
    lines and stderr."""
    process = handsolver(*args)
    first = b""
    if ready == "line":
        first = first_line(process)
        assert first, process.communicate(timeout=HANG)
    else:
        wait_for(lambda: len(children(process.pid)) >= 2)
    if signum == signal.SIGINT:
        os.killpg(process.pid, signum)
    else:
        os.kill(process.pid, signum)
    rest, err = process.communicate(timeout=HANG)
    wait_for(lambda: group_is_gone(process.pid))  # no worker is left in the group
    lines = (first + rest).decode().splitlines()
    return process.returncode, lines, err.decode()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_in_a_batch(workers: str, tmp_path: Path) -> None:
    hands = tmp_path / "hands.txt"
    # 13-card hands take milliseconds each: thousands keep the batch busy when the signal comes.
    hands.write_text("AS,4H,6D,8C,7C,3S,5H,8D,4C,2S,0C,AD,AH\n" * 20_000)
    code, lines, err = _interrupt(["big2", "batch", str(hands), "--workers", workers], "line")
    assert code == 130, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("interrupted after ") and err.rstrip().endswith("of 20000 hands")
    for line in lines:  # every line printed is complete
        assert json.loads(line)["count"] == 5
    assert err == f"interrupted after {len(lines)} of 20000 hands\n"  # counts what was printed


@pytest.mark.parametrize("workers", ["1", "2"])
def test_sigterm_in_a_batch_keeps_every_line_whole(workers: str, tmp_path: Path) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text("AS,4H,6D,8C,7C,3S,5H,8D,4C,2S,0C,AD,AH\n" * 20_000)
    args = ["big2", "batch", str(hands), "--workers", workers]
    code, lines, err = _interrupt(args, "line", signal.SIGTERM)
    assert code == 143, err
    assert all(json.loads(line)["count"] == 5 for line in lines)
    assert err == f"terminated after {len(lines)} of 20000 hands\n"


def test_ctrl_c_in_stats_with_workers() -> None:
    code, lines, err = _interrupt(
        ["big2", "stats", "--deals", "1000000", "--workers", "2", "--json"], "workers"
    )
    assert code == 130, err
    assert lines == []
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("interrupted")


STUDIES = {
    "big2 stats": ["big2", "stats", "--deals", "1000000", "--workers", "2"],
    "chinese study": ["chinese", "study", "--hands", "5000", "--samples", "200", "--workers", "2"],
    "paigow study": ["paigow", "study", "--hands", "100000", "--workers", "2"],
}


@pytest.mark.parametrize("name", sorted(STUDIES))
@pytest.mark.parametrize(
    ("signum", "code", "word"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
    ids=["SIGINT", "SIGTERM"],
)
def test_a_signal_stops_a_study_and_its_workers(
    name: str, signum: int, code: int, word: str
) -> None:
    """Ctrl-C goes to the whole process group (a terminal's way), SIGTERM to the command alone
    (``kill PID``): either way one line, the documented code, and no worker left running or
    printing a traceback."""
    process = handsolver(*STUDIES[name])
    wait_for(lambda: len(children(process.pid)) >= 2)  # the workers are up
    if signum == signal.SIGINT:
        os.killpg(process.pid, signum)
    else:
        os.kill(process.pid, signum)
    out, err = process.communicate(timeout=HANG)
    wait_for(lambda: group_is_gone(process.pid))
    assert process.returncode == code, err
    assert out == b""
    assert len(err.splitlines()) == 1 and err.startswith(word.encode()), err


def test_ctrl_c_stops_a_cp_sat_search() -> None:
    """OR-Tools would end the search as if timed out and print an unproven answer; the command
    must stop, say "interrupted" and exit 130 instead."""
    rng = __import__("random").Random(1)
    deck = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
    hand = " ".join(rng.sample(deck, 40))
    args = ["big2", "--all", "--limit", "1000000", "--time-limit", "600", hand]
    process = handsolver(*args)
    maps = Path(f"/proc/{process.pid}/maps")
    wait_for(lambda: "ortools" in maps.read_text())  # the search is being set up
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=HANG)
    assert (process.returncode, out, err) == (130, b"", b"interrupted\n")


_LOST_IN_A_FINALIZER = """
import signal, sys, time
from handsolver.solver import cli

class Finalized:
    def __del__(self):
        signal.raise_signal(signal.SIGINT)  # the handler runs here, where no exception escapes
        for _ in range(3):
            pass

def run():
    Finalized()
    for _ in range(2000):  # 20 s: far longer than the signal sent again takes to arrive
        time.sleep(0.01)
    print("ran on")
    return 0

sys.exit(cli._with_catch(run))
"""


def test_ctrl_c_lost_in_a_finalizer_still_stops_the_command() -> None:
    """A Ctrl-C that lands in a finalizer or a callback from C code (numba's compiler runs
    such callbacks) cannot raise there; the command must still stop, with one line."""
    process = start([sys.executable, "-c", _LOST_IN_A_FINALIZER])
    out, err = process.communicate(timeout=HANG)
    assert (process.returncode, out, err) == (130, b"", b"interrupted\n")


def _samples(path: tuple[str, ...], tmp: Path) -> list[tuple[list[str], str | None]]:
    """A few generated bad command lines for ``path`` and what their error must name."""
    samples: list[tuple[list[str], str | None]] = []
    if any(p.required for p in _params(path)):
        samples.append((list(path), "--help"))
    numbers = [param for where, param in NUMBER_OPTIONS if where == path]
    if numbers:
        option = numbers[0]
        samples.append((_with_required(path, [*path, option.opts[0], "1e999"], option), "1e999"))
    if path in FILE_COMMANDS:
        missing = str(tmp / "missing.txt")
        samples.append((_file_args(path, missing), missing))
    if path in CARD_COMMANDS:
        samples.append((_with_required(path, [*path, "Zz" * 50_000], _arguments(path)[0]), "'"))
    return samples


@pytest.mark.parametrize("path", PATHS, ids=_id)
def test_the_real_program_keeps_the_promise(path: tuple[str, ...], tmp_path: Path) -> None:
    """The same generated classes through the installed entry point, in a real process."""
    for args, named in _samples(path, tmp_path):
        done = subprocess.run(
            [sys.executable, "-m", "handsolver.solver", *args],
            capture_output=True,
            text=True,
            timeout=HANG,
            cwd=tmp_path,
        )
        assert_one_error(done.returncode, done.stdout, done.stderr, names=named)
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no file or temporary file left


def test_a_closed_stdout_is_one_line(tmp_path: Path) -> None:
    code, err = run_err(["badugi", "3c 2s 4d Ah", "As 3h 2d 4h"], ">&-", tmp_path)
    assert (code, err) == (2, "error: cannot write to standard output: it is closed\n")


# --- issue 22: exact or refused, inputs named ----------------------------------------------------

CHINESE_HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d"
KNOWN_SETTING = "Ah Ad 3c|Kh Kd 4c 4d 8s|8c 8d 8h Jc Jd"
IN_PATH_OPTIONS = [
    (path, param)
    for path in PATHS
    for param in _params(path)
    if type(param.type).__name__ == "InPath"
]


def _royalty_args(source: str, *extra: str) -> list[str]:
    known = ["--vs-setting", KNOWN_SETTING]
    return ["chinese", "settings", CHINESE_HAND, *known, "--royalties", source, *extra]


def _royalty_files(tmp: Path) -> dict[str, tuple[bytes, str]]:
    """Hostile royalty files and what their one error line must say."""
    row = '{{"back": {{"straight flush": {}}}}}'
    return {
        "6e18": (row.format(6 * 10**18).encode(), "out of range"),
        "5000 digits": (row.format("9" * 5000).encode(), "out of range"),
        "1e20": (row.format("1e20").encode(), "must be an integer"),
        "10**20": (row.format(10**20).encode(), "out of range"),
        "-10**20": (row.format(-(10**20)).encode(), "out of range"),
        "deep": (b'{"back": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested too deeply"),
        "latin-1": (row.format(1).encode() + b"\xe9", "line 1 is not UTF-8"),
        "utf-16": (row.format(1).encode("utf-16"), "UTF-16"),
    }


def test_royalty_files_are_exact_or_refused(tmp_path: Path) -> None:
    for name, (data, message) in _royalty_files(tmp_path).items():
        source = tmp_path / f"{name}.json"
        source.write_bytes(data)
        line = assert_one_error(*invoke(_royalty_args(str(source))), names=message)
        assert repr(str(source)) in line, name
    # A royalty CP-SAT could not hold (MODEL_INVALID at 1e17) is refused before any model.
    source = tmp_path / "big.json"
    source.write_text('{"back": {"pair": 100000000000000000}}')
    assert_one_error(*invoke(_royalty_args(str(source), "--engine", "cp-sat")), names="range")
    assert_one_error(*invoke(_royalty_args("/dev/zero")), names="'/dev/zero' is larger than")
    assert_one_error(*invoke(_royalty_args("")), names="'--royalties': '' is not a file name")
    if os.access("/proc/self/mem", os.R_OK):
        assert_one_error(*invoke(_royalty_args("/proc/self/mem")), names="'/proc/self/mem'")


def test_a_royalty_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    plain, marked = tmp_path / "plain.json", tmp_path / "marked.json"
    plain.write_text('{"back": {"straight flush": 5}}')
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    first, second = invoke(_royalty_args(str(plain))), invoke(_royalty_args(str(marked)))
    assert first[0] == 0 and first == second


@pytest.mark.parametrize(
    ("path", "param"), IN_PATH_OPTIONS, ids=[f"{_id(p)} {q.opts[0]}" for p, q in IN_PATH_OPTIONS]
)
def test_an_empty_input_path_names_its_option(path: tuple[str, ...], param: Any) -> None:
    option = param.opts[0]
    args = _with_required(path, [*path, option, ""], skip=param)
    if path[-1] == "settings" and path[0] == "chinese":
        args = [*path, CHINESE_HAND, "--vs-setting", KNOWN_SETTING, option, ""]
    assert_one_error(*invoke(args), names=f"'{option}': '' is not a file name")


def test_a_huge_six_card_value_is_a_bad_value_not_a_crash() -> None:
    line = assert_one_error(*invoke(["sixcard", "split", "1 1 2 2 3 " + "9" * 5000]))
    assert "bad card value" in line


def test_a_six_card_table_row_names_the_file_and_line(tmp_path: Path) -> None:
    table = tmp_path / "table.csv"
    table.write_text("hand,split,p\n112234,999|11|2,1\n")
    assert_one_error(*invoke(["sixcard", "score", str(table), "random"]), names="line 2")
    assert_one_error(*invoke(["sixcard", "score", str(table), "random"]), names=str(table))


@pytest.mark.parametrize("text", ["", "# only a comment\n\n"])
def test_a_pai_gow_study_of_no_hands_is_refused(text: str, tmp_path: Path) -> None:
    source = tmp_path / "hands.txt"
    source.write_text(text)
    line = assert_one_error(*invoke(["paigow", "study", "--file", str(source)]))
    assert "holds no hands" in line and str(source) in line


def _strict_json(text: str) -> Any:
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_a_standard_error_from_one_sample_is_null_in_json() -> None:
    """JSON has no NaN: one sampled deal (or one hand) has no standard error, so it is null."""
    args = ["chinese", "settings", CHINESE_HAND, "--vs", "greedy", "--samples", "1"]
    code, out, err = invoke([*args, "--json", "--top", "2"])
    assert code == 0, err
    assert [entry["stderr"] for entry in _strict_json(out)["settings"]] == [None, None]
    code, out, err = invoke(args)
    assert code == 0 and "± n/a" in out and "nan" not in out, err
    code, out, err = invoke(["chinese", "study", "--hands", "1", "--samples", "20", "--json"])
    assert code == 0 and _strict_json(out)["stderr"] is None, err


def test_a_pipe_or_device_is_a_file(tmp_path: Path) -> None:
    """``paigow house-way <(cat hands.txt)`` names /dev/fd/63: a FIFO is a file, not cards."""
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w") as writer:
            writer.write("Kh Kd 7c 7s Ah 4d 3c\n")

    feeder = threading.Thread(target=feed)
    feeder.start()
    code, out, err = invoke(["paigow", "house-way", str(fifo)])
    feeder.join(HANG)
    assert code == 0 and json.loads(out)["low"] == ["7c", "7s"], err
    assert invoke(["paigow", "house-way", "/dev/null"])[:2] == (0, "")


@pytest.mark.parametrize("path", CARD_COMMANDS, ids=_id)
def test_a_file_name_is_not_read_as_cards(path: tuple[str, ...], tmp_path: Path) -> None:
    """A missing ``hands.txt`` says it is a file name (or that no such file exists, where a
    file is taken), never "unknown rank 'h' in card 'ha'"."""
    missing = str(tmp_path / "hands.txt")
    line = assert_one_error(
        *invoke(_with_required(path, [*path, "hands.txt"], _arguments(path)[0]))
    )
    assert "'hands.txt'" in line and "rank" not in line
    line = assert_one_error(*invoke(_with_required(path, [*path, missing], _arguments(path)[0])))
    assert ("No such file" if path == ("paigow", "house-way") else "file name") in line


@pytest.mark.parametrize(
    ("args", "suggestion"),
    [
        (["big2", "chek", "AS 4H"], "'check'"),
        (["badugi", "batc", "deals.txt"], "'batch'"),
        (["poker", "shwdown", "8C TS KC 9H 4S"], "'showdown'"),
        (["pokr"], "'poker'"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else value,
)
def test_a_word_close_to_a_subcommand_suggests_it(args: list[str], suggestion: str) -> None:
    line = assert_one_error(*invoke(args))
    assert "No such command" in line and f"Did you mean {suggestion}?" in line


def test_chinese_options_are_named_in_their_errors() -> None:
    assert_one_error(
        *invoke(["chinese", "settings", CHINESE_HAND, "--vs-setting", ""]),
        names="--vs-setting: no cards given",
    )
    line = assert_one_error(
        *invoke(
            ["chinese", "settings", CHINESE_HAND, "--vs", 'program:python "x', "--samples", "2"]
        )
    )
    assert "No closing quotation" in line and "--cmd" not in line
    assert line.startswith("error: --vs: ")
    line = assert_one_error(
        *invoke(["chinese", "study", "--hands", "1", "--vs", "program:python3 'x.py"])
    )
    assert line.startswith("error: --vs: ") and "No closing quotation" in line


@pytest.mark.parametrize("command", ["settings", "study"])
def test_a_nested_strategy_program_keeps_to_the_timeout(command: str) -> None:
    """``--timeout`` bounds a program at every depth of ``best-response:`` (it was 60 s)."""
    spec = f"best-response:program:{sys.executable} -c 'import time; time.sleep(600)'"
    args = ["--vs", spec, "--timeout", "0.5", "--samples", "2", "--br-samples", "1"]
    where = [CHINESE_HAND] if command == "settings" else ["--hands", "1"]
    assert_one_error(*invoke(["chinese", command, *where, *args]), names="timed out after 0.5 s")


# --- the Big 2 rules as a string and as options: one parser ------------------------------------


@pytest.mark.parametrize(
    ("rules", "names"),
    [
        ("seed --no-triples --triples", "--triples contradicts --no-triples"),
        ("taiwan --dragon --no-dragon", "--dragon contradicts --no-dragon"),
        ("seed --quads alone --quads with-kicker", "--quads with-kicker contradicts --quads alone"),
        ("seed --players ²", "'²'"),
        ("seed --players ３", "'３'"),
        ("seed --players", "--players"),
        ("seed --bogus", "'--bogus'"),
    ],
)
@pytest.mark.parametrize("command", ["cases", "verify"])
def test_a_rules_string_is_read_as_the_options_are(command: str, rules: str, names: str) -> None:
    args = [command, "big2", "--rules", rules]
    if command == "verify":
        args += ["--cmd", f"{sys.executable} examples/big2_answer.py"]
    assert_one_error(*invoke(args), names=names)


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["stats", "--players", "３", "--deals", "1"], "'３'"),
        (["stats", "--players", "²", "--deals", "1"], "'²'"),
        (["stats", "--players", "5", "--deals", "1"], "3 or 4"),
    ],
)
def test_big2_players_take_ascii_digits(args: list[str], names: str) -> None:
    assert_one_error(*invoke(["big2", *args]), names=names)


@pytest.mark.parametrize(
    ("text", "name"),
    [("HK", "hk"), ("pusoy", "pusoy-dos"), ("West --no-dragon", "western"), ("T", "taiwan")],
)
def test_rule_profiles_are_case_blind_and_may_be_shortened(text: str, name: str) -> None:
    from handsolver.models.big2 import parse_rules

    assert parse_rules(text).name.split()[0] == name
    code, out, err = invoke(["cases", "big2", "--cases", "0", "--rules", text])
    assert code == 0, err


# --- output destinations, checked before the work ----------------------------------------------

PLOT_COMMANDS = [p for p in PATHS if any("--plot" in q.opts for q in _params(p))]
OUT_COMMANDS = [p for p in PATHS if any("--out" in q.opts for q in _params(p))]


@pytest.mark.parametrize("path", [p for p in PLOT_COMMANDS if p in OUT_COMMANDS], ids=_id)
def test_out_and_plot_may_not_be_one_file(path: tuple[str, ...], tmp_path: Path) -> None:
    target = tmp_path / "same.svg"
    args = _with_required(path, [*path, "--out", str(target), "--plot", str(target)])
    assert_one_error(*invoke(args), names="--out and --plot")
    assert not target.exists()


@pytest.mark.parametrize("option", ["--out", "--plot"])
@pytest.mark.parametrize("path", sorted(set(OUT_COMMANDS) | set(PLOT_COMMANDS)), ids=_id)
def test_an_unwritable_destination_is_refused_first(
    path: tuple[str, ...], option: str, tmp_path: Path
) -> None:
    """A file /proc cannot hold (root too is refused there): refused before any work, so no
    other output is written."""
    if path not in (PLOT_COMMANDS if option == "--plot" else OUT_COMMANDS):
        pytest.skip(f"no {option}")
    other = "--plot" if option == "--out" else "--out"
    written = tmp_path / ("other.svg" if other == "--plot" else "other.txt")
    args = [*path, option, "/proc/handsolver.svg"]
    if path in PLOT_COMMANDS and path in OUT_COMMANDS:
        args += [other, str(written)]
    assert_one_error(*invoke(_with_required(path, args)), names="'/proc/handsolver.svg'")
    assert not written.exists()


# --- smaller faults: each input read as the rest of the tool reads it ---------------------------


def test_keep_goes_with_the_default_rule_in_any_case() -> None:
    code, out, err = invoke(["badugi", "draw", "Ac 2d 3h Kh", "?", "--keep", "Ac 2d"])
    assert code == 0, err
    assert invoke(["badugi", "draw", "Ac 2d 3h Kh", "?", "--keep", "Ac 2d", "--rule", "BEST"]) == (
        code,
        out,
        err,
    )


@pytest.mark.parametrize(
    ("deck", "names"),
    [("JQKAß", "'ß'"), ("JQKAA", "'A' is given twice"), ("JQK10A", None), ("0JQKA", None)],
)
def test_paigow_game_deck_is_read_as_ranks_are(deck: str, names: str | None) -> None:
    if names is not None:
        assert_one_error(*invoke(["paigow", "game", "--deck", deck]), names=names)
        return
    from handsolver.solver.commands.paigow.game import _deck

    assert list(_deck(deck).ranks) == [8, 9, 10, 11, 12]


def test_a_misspelt_house_way_suggests_the_name() -> None:
    assert_one_error(
        *invoke(["paigow", "house-way", "As Ah Kd Qc 9s 5h 2d", "--way", "foxwood"]),
        names="did you mean 'foxwoods'?",
    )


def test_one_card_is_one_card() -> None:
    line = assert_one_error(*invoke(["badugi", "draw", "Ah", "?"]))
    assert "has 1 card;" in line
    line = assert_one_error(*invoke(["paigow", "house-way", "Ah"]))
    assert "has 1 card;" in line


def test_version_reads_no_package_metadata() -> None:
    """``--version`` prints the version the package holds: looking it up in the installed
    metadata (importlib.metadata scans every distribution) made it slower than ``--help``."""
    from importlib.metadata import version

    from handsolver.solver import __version__

    assert __version__ == version("handsolver")
    hide = "import sys; sys.modules['importlib.metadata'] = None; sys.argv[0] = 'handsolver'; "
    main = "from handsolver.solver.__main__ import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", hide + main, "--version"],
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, f"handsolver {__version__}\n", "")
