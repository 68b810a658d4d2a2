"""Quick commands start light (none imports a heavy library or a sibling command's module), and
long work says so up front on stderr: the first run's compiling, an estimate of a long run,
a search that will use its whole time limit, and a time limit that compiling used up.

No test here times anything: the clocks the notices read are replaced by fake ones.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from handsolver.models.big2 import SEED_RULES
from handsolver.models.cards import mask_of, parse_cards
from handsolver.solver.big2.game.positions import Position
from handsolver.solver.commands import progress
from handsolver.solver.commands.big2 import game

from .processes import HANG

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "ortools", "numba", "dask", "matplotlib", "rich")
QUICK = {
    "--help": ["--help"],
    "badugi": ["badugi", "3c 2s 4d Ah", "As 3h 2d 4h"],
    "poker": ["poker", "8C TS KC 9H 4S", "7D 2S 5D 3S AC"],
    "euler54": ["euler54", str(ROOT / "tests" / "data" / "p054_poker.txt")],
    "paigow house-way": ["paigow", "house-way", "Kh Kd 7c 7s Ah 4d 3c"],
}
# Modules of the commands a quick command does not run (each group loads only the command used).
SIBLINGS = {
    "badugi": ["handsolver.solver.commands.badugi.draw"],
    "paigow house-way": ["handsolver.solver.commands.paigow.game"],
}
LOADED = (
    "import sys\n"
    "from handsolver.solver.__main__ import main\n"
    "sys.argv = ['handsolver', *sys.argv[1:]]\n"
    "try:\n    main()\nexcept SystemExit as done:\n    assert not done.code, done.code\n"
    "print('LOADED', ' '.join(sorted(sys.modules)))\n"
)


@pytest.mark.parametrize("name", list(QUICK))
def test_quick_commands_import_nothing_heavy(name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *QUICK[name]], capture_output=True, text=True, check=True
    )
    loaded = set(done.stdout.rsplit("LOADED ", 1)[1].split())
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY)
    assert heavy == [], f"{name} imports {heavy}"
    assert not set(SIBLINGS.get(name, [])) & loaded
    if name != "--help":  # the command's own module is loaded, so the probe can see modules
        assert any(m.startswith("handsolver.solver.commands.") for m in loaded)


class FakeClock:
    """A clock that moves a microsecond a reading, and as far as it is told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += 1e-6
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    import time

    fake = FakeClock()
    monkeypatch.setattr(time, "perf_counter", fake)
    yield fake


def test_a_long_run_is_estimated_once_after_a_second(clock: FakeClock) -> None:
    told: list[str] = []

    def work() -> Iterator[int]:
        for step in range(100):
            clock.now += 0.5  # each step takes half a second: 50 s in all
            yield step

    assert list(progress.estimated(work(), 100, told.append, "--samples lowers it")) == list(
        range(100)
    )
    assert told == ["this takes about 50 s with these settings; --samples lowers it"]


def test_a_short_run_says_nothing(clock: FakeClock) -> None:
    told: list[str] = []

    def work() -> Iterator[int]:
        for step in range(10):
            clock.now += 0.5  # 5 s in all
            yield step

    assert len(list(progress.estimated(work(), 10, told.append))) == 10
    assert told == []


def test_progress_estimates_only_where_asked(
    clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    def work() -> Iterator[int]:
        for step in range(100):
            clock.now += 1.0
            yield step

    list(progress.progress(work(), 100, "x"))
    assert capsys.readouterr().err == ""
    list(progress.progress(work(), 100, "x", lowers="--samples lowers it"))
    assert capsys.readouterr().err == (
        "this takes about 2 min with these settings; --samples lowers it\n"
    )


def test_durations_read_as_a_person_says_them() -> None:
    assert [progress.duration(s) for s in (3, 41.7, 89, 185, 5400)] == [
        "10 s",
        "40 s",
        "90 s",
        "3 min",
        "1.5 h",
    ]


def test_compiling_is_said_on_a_terminal_when_the_cache_is_cold(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[int] = []
    monkeypatch.setattr(progress, "_isatty", lambda stream: True)
    progress.compile_first(False, lambda: ran.append(1), "the search")
    assert capsys.readouterr().err.startswith("compiling the search (first run only")
    progress.compile_first(True, lambda: ran.append(1), "the search")  # warm: loads quietly
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(progress, "_isatty", lambda stream: False)
    progress.compile_first(False, lambda: ran.append(1), "the search")  # no progress shown here
    assert capsys.readouterr().err == "" and ran == [1, 1, 1]


def test_compiling_is_said_when_the_cache_cannot_be_read_and_it_takes_long(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "_isatty", lambda stream: True)
    said = threading.Event()
    monkeypatch.setattr(progress, "say", lambda line: said.set())
    # The compile waits until the two-second notice has been given: it comes on its own.
    progress.compile_first(None, lambda: said.wait(HANG), "the search")
    assert said.is_set()


def test_the_cache_is_read_for_each_kernel() -> None:
    class Codegen:
        def magic_tuple(self) -> tuple[str, ...]:
            return ("this machine",)

    class Kernel:
        def __init__(self, keys: list[tuple[object, ...]]) -> None:
            index = type("Index", (), {"_load_index": lambda self: dict.fromkeys(keys)})()
            self._cache = type("Cache", (), {"_cache_file": index})()
            self.targetctx = type("Context", (), {"codegen": lambda self: Codegen()})()

    here = Kernel([("sig", ("this machine",), "code")])
    other = Kernel([("sig", ("another machine",), "code")])
    assert progress.numba_cached(here) is True
    assert progress.numba_cached(here, other) is False
    assert progress.numba_cached(object()) is None


def test_the_time_limit_counts_compiling(
    clock: FakeClock, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    texts = ("3d 4d 5h 6s 8c 9d Th Jc Qh Ks", "3c 4h 5s 7d 8h 9s Td Js Qc Kd")
    hands = tuple(mask_of(parse_cards(text)) for text in texts)

    def compiling(position: Position) -> bool:
        clock.now += 30.0  # a first run's compiling, longer than the limit
        return True

    monkeypatch.setattr(game, "_compile_first", compiling)
    result = game._solve_showing_progress(Position(hands), SEED_RULES, 20.0, None, 1000)
    err = capsys.readouterr().err
    assert "the compiled search took 30.0 s to start, all of --time-limit 20" in err
    assert result.forced_win == (None, None)  # nothing was searched: nothing is proven
    small = tuple(mask_of(parse_cards(text)) for text in ("3d 4d 5h 9s", "6c 7c 8h Ts"))
    monkeypatch.setattr(game, "_compile_first", lambda position: False)
    result = game._solve_showing_progress(Position(small), SEED_RULES, 20.0, None, 1000)
    assert None not in result.forced_win and capsys.readouterr().err == ""


def test_a_search_that_runs_on_says_how_long_it_may_take(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    said = threading.Event()
    lines: list[str] = []
    monkeypatch.setattr(progress, "say", lambda line: (lines.append(line), said.set()))
    with progress.long_wait(60.0, "--time-limit lowers it", after=0.0):
        said.wait(HANG)  # the search "runs" until the notice is out
    assert lines == ["this takes up to 60 s more with these settings; --time-limit lowers it"]
    lines.clear()
    with progress.long_wait(20.0, "--time-limit lowers it", after=0.0):
        pass  # a limit this short is not announced
    assert lines == []


def test_closing_the_progress_closes_the_work(clock: FakeClock) -> None:
    closed: list[str] = []

    def work() -> Iterator[int]:
        try:
            yield from range(100)
        finally:
            closed.append("closed")

    for lowers in ("", "--samples lowers it"):
        running = work()  # held here too, so only an explicit close ends it
        shown = progress.progress(running, 100, "x", lowers=lowers)
        assert next(shown) == 0
        shown.close()  # as emit_lines does when the reader has gone: the pool stops now
        assert closed == ["closed"]
        closed.clear()


def test_a_batch_positions_time_limit_counts_compiling(
    clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from handsolver.models.cards import STANDARD

    texts = ("3d 4d 5h 6s 8c 9d Th Jc Qh Ks", "3c 4h 5s 7d 8h 9s Td Js Qc Kd")
    hands = tuple(mask_of(parse_cards(text)) for text in texts)

    def compiling(position: Position) -> bool:
        clock.now += 30.0
        return True

    monkeypatch.setattr(game, "_compile_first", compiling)
    job = (1, "", (Position(hands), STANDARD, SEED_RULES))
    line = game._game_line(job, time_limit=20.0, max_nodes=None, table_size=1000)
    assert [p["forced_win"] for p in json.loads(line)["players"]] == [None, None]
