"""Bad input and left-over files in the open-face commands and the long runs: numbers bounded
before they are built, positions that run out of cards, pictures refused before the work, a
default checkpoint that outlives its run only when the run was interrupted, and a batch whose
reader has gone.

Every bad input keeps the promise of :mod:`tests.solver.test_bad_input`: exit 2, one line on
stderr naming the option or the token, nothing on stdout.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from handsolver.models.cards import card_name, parse_cards
from handsolver.solver import batch
from handsolver.solver.cli import app

from .processes import first_line, group_is_gone, handsolver, wait_for
from .test_bad_input import LEAVES, PATHS, _id, _with_required, assert_one_error, invoke

runner = CliRunner()
HAND14 = "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c"
UNREACHABLE = "tcp://127.0.0.1:1"  # loopback, a port nothing listens on
TOURNAMENT = ["big2", "tournament", "--strategies", "greedy,random", "--deals", "2"]


# --- numbers -----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["1_000", "1e999999", "1e-999999", "1e+999999", "٣", "1/0"])
def test_a_stay_value_is_bounded_before_it_is_built(text: str) -> None:
    """``Fraction`` takes ``1_000`` and builds ``1e-999999`` digit by digit: neither reaches it."""
    args = ["ofc", "fantasyland", HAND14, "--stay-value", text, "--top", "1"]
    assert_one_error(*invoke(args), names="--stay-value")


@pytest.mark.parametrize("text", ["1_0", "1e999999", "1e-999999"])
def test_a_fantasy_value_is_bounded_before_it_is_built(text: str) -> None:
    args = ["ofc", "play", "2c 3d 7c", "--board", "Kc | Jc Jd 7s | Ac Ad Tc Ts 3c"]
    args += ["--vs", "Qh Qd 4s | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 4h", "--fantasy-value", text]
    assert_one_error(*invoke(args), names="--fantasy-value")


@pytest.mark.parametrize(
    ("text", "value"), [("12.5", "25/2"), ("25/2", "25/2"), ("1e2", "100"), ("+5", "5")]
)
def test_a_stay_value_as_typed_is_exact(text: str, value: str) -> None:
    code, out, _ = invoke(["ofc", "fantasyland", HAND14, "--stay-value", text, "--json"])
    assert code == 0
    assert json.loads(out)["rules"]["stay_value"] == value


# --- cards -------------------------------------------------------------------------------------


def test_fantasyland_takes_the_cards_as_separate_arguments() -> None:
    joined = invoke(["ofc", "fantasyland", HAND14, "--top", "2", "--json"])
    separate = invoke(["ofc", "fantasyland", *HAND14.split(), "--top", "2", "--json"])
    assert joined[0] == 0 and separate == joined


def test_fantasyland_still_takes_one_hand() -> None:
    args = ["ofc", "fantasyland", *HAND14.split()[:7], "-", *HAND14.split()[7:]]
    assert_one_error(*invoke(args), names="has 7 cards")


def _all_but(*texts: str, left: int) -> str:
    """Every card not in ``texts`` but the last ``left`` of them, as dead cards."""
    seen = {card for text in texts for card in parse_cards(text.replace("|", " "))}
    return " ".join(card_name(card) for card in range(52) if card not in seen)[: -3 * left or None]


LAST_BUT_ONE = ("2c 3d 7c", "Kc | Jc Jd 7s | Ac Ad Tc Ts 3c")
COMPLETE = "Qh Qd 4s | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 4h"


@pytest.mark.parametrize(
    ("hand", "board", "vs", "dead"),
    [
        # The first street against two empty boards: 12 + 17 + 17 cards to come, 45 unseen.
        ("Ah Kd Qc Js 9d", "||", ["||", "||"], "2c 2d"),
        # The last street but one against a complete board: 3 to come, 2 unseen (exact).
        (*LAST_BUT_ONE, [COMPLETE], _all_but(*LAST_BUT_ONE, COMPLETE, left=2)),
    ],
)
def test_dead_cards_that_leave_too_few_for_the_streets_to_come(
    hand: str, board: str, vs: list[str], dead: str
) -> None:
    args = ["ofc", "play", hand, "--board", board, "--dead", dead, "--samples", "2"]
    for item in vs:
        args += ["--vs", item]
    line = assert_one_error(*invoke(args))
    assert "unseen" in line and "to come" in line


def test_dead_cards_that_leave_just_enough_are_played() -> None:
    args = ["ofc", "play", *LAST_BUT_ONE[:1], "--board", LAST_BUT_ONE[1], "--vs", COMPLETE]
    dead = _all_but(*LAST_BUT_ONE, COMPLETE, left=3)
    code, out, err = invoke([*args, "--dead", dead, "--json"])
    assert code == 0, err
    assert json.loads(out)["exact"]
    # 12 + 17 + 17 = 46 cards to come on the first street against two empty boards, 46 unseen.
    args = ["ofc", "play", "Ah Kd Qc Js 9d", "--vs", "||", "--vs", "||", "--samples", "2"]
    code, out, err = invoke([*args, "--dead", "2c", "--top", "1"])
    assert code == 0, err


# --- tables ------------------------------------------------------------------------------------


def test_a_study_with_one_hand_of_a_size_prints_no_nan() -> None:
    code, out, err = invoke(["ofc", "study", "--hands", "2", "--size-hands", "1"])
    assert code == 0, err
    assert "nan" not in out.lower()
    assert "n/a" in out


# --- pictures ----------------------------------------------------------------------------------


PLOT_COMMANDS = [
    path for path in PATHS if any("--plot" in getattr(p, "opts", []) for p in LEAVES[path].params)
]


@pytest.mark.parametrize("path", PLOT_COMMANDS, ids=_id)
def test_an_over_long_picture_name_is_refused_before_any_work(
    path: tuple[str, ...], tmp_path: Path
) -> None:
    """The name fits no folder: refused as the options are read (click names the option then),
    before any work, not by the write at the end."""
    picture = tmp_path / ("x" * 300 + ".svg")
    line = assert_one_error(*invoke([*path, *_with_required(path, ["--plot", str(picture)])]))
    assert "Invalid value for '--plot'" in line and "too long" in line
    assert list(tmp_path.iterdir()) == []


def test_a_picture_name_just_short_enough_is_taken(tmp_path: Path) -> None:
    # The picture is written through a temporary file named after it: that name must fit too.
    picture = tmp_path / ("x" * 200 + ".svg")
    code, _, err = invoke(
        ["ofc", "study", "--hands", "2", "--size-hands", "0", "--plot", str(picture)]
    )
    assert code == 0, err
    assert picture.is_file()


# --- default checkpoints -----------------------------------------------------------------------


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own, and a scheduler given up on at once."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("HANDSOLVER_CACHE_DIR", str(folder))
    monkeypatch.setattr(batch, "CONNECT_TIMEOUT", "0.2s")
    return folder


OFC_MATCH = ["ofc", "match", "--players", "policy,random", "--deals", "2"]


def _checkpoints(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.glob("*.jsonl")) if folder.exists() else []


@pytest.mark.parametrize(
    "args",
    [
        ["ofc", "study", "--hands", "2", "--size-hands", "0", "--scheduler", UNREACHABLE],
        [*TOURNAMENT, "--scheduler", UNREACHABLE],
        ["paigow", "game", "--deck", "JQKA", "--scheduler", UNREACHABLE],
        ["big2", "tournament", "--strategies", "greedy,program:false", "--deals", "2"],
        [*OFC_MATCH, "--scheduler", UNREACHABLE],
    ],
    ids=["ofc study", "big2 tournament", "paigow game", "big2 tournament program", "ofc match"],
)
def test_a_run_that_fails_leaves_no_default_checkpoint(args: list[str], cache: Path) -> None:
    assert_one_error(*invoke(args))
    assert _checkpoints(cache) == []


@pytest.mark.parametrize(
    "args",
    [
        ["ofc", "study", "--hands", "2", "--size-hands", "0"],
        TOURNAMENT,
        ["paigow", "game", "--deck", "JQKA"],
        OFC_MATCH,
    ],
    ids=["ofc study", "big2 tournament", "paigow game", "ofc match"],
)
def test_a_run_that_ends_leaves_no_default_checkpoint(args: list[str], cache: Path) -> None:
    code, _, err = invoke(args)
    assert code == 0, err
    assert _checkpoints(cache) == []


def test_a_named_checkpoint_stays_whatever_happens(cache: Path, tmp_path: Path) -> None:
    named = tmp_path / "mine.jsonl"
    args = ["ofc", "study", "--hands", "2", "--size-hands", "0", "--checkpoint", str(named)]
    assert invoke(args)[0] == 0
    assert named.is_file()
    named.unlink()
    assert_one_error(*invoke([*args, "--scheduler", UNREACHABLE]))
    assert named.is_file()


def test_an_interrupted_run_keeps_its_default_checkpoint_to_resume(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C (and SIGTERM, which the command line raises as the same) after the first block:
    the default checkpoint stays, ``--resume`` finds it (and keeps it when it fails), and the
    finished run removes it."""
    from handsolver.solver.ofc import study_run

    args = ["ofc", "study", "--hands", "120", "--size-hands", "0"]
    expected = json.loads(invoke([*args, "--json"])[1])
    real = study_run.set_fantasy_block
    calls = []

    def stopped_after_one(block: Any) -> Any:
        calls.append(block)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real(block)

    monkeypatch.setattr(study_run, "set_fantasy_block", stopped_after_one)
    result = runner.invoke(app, args)
    assert result.exit_code != 0
    assert len(_checkpoints(cache)) == 1
    monkeypatch.setattr(study_run, "set_fantasy_block", real)
    # A resumed run that fails keeps what it resumed, to be resumed again.
    assert_one_error(*invoke([*args, "--resume", "--scheduler", UNREACHABLE]))
    assert len(_checkpoints(cache)) == 1
    code, out, err = invoke([*args, "--resume", "--json"])
    assert code == 0, err
    assert json.loads(out) == expected
    assert _checkpoints(cache) == []


# --- a reader that has gone --------------------------------------------------------------------


def test_a_batch_stops_its_workers_when_the_reader_goes(tmp_path: Path) -> None:
    """``badugi draw-batch --workers 2 | head -1``: the first spot is counted at once, the second
    would take minutes; once the reader has gone the workers are stopped, not waited for.  The
    bound on the wait only guards against a hang."""
    spots = tmp_path / "spots.txt"
    spots.write_text(
        "Ac 2d 3h Kh | 5c 6d 7h 8h\nAc 2d 3h Kh | ? --draws 3\nAc 2d 3h Kh | ? --draws 3\n"
    )
    process = handsolver(
        "badugi", "draw-batch", str(spots), "--workers", "2", "--samples", "100000000"
    )
    assert first_line(process).startswith(b'{"line": 1')
    assert process.stdout is not None
    process.stdout.close()
    try:
        _, err = process.communicate(timeout=60)
    finally:  # a hang: its whole process group goes, workers too
        if process.poll() is None or not group_is_gone(process.pid):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert (process.returncode, err) == (0, b"")
    wait_for(lambda: group_is_gone(process.pid))
