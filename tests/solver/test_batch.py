"""run_batch: the same answers in input order here, on a local pool and on a Dask cluster; the
badugi and poker batch commands against their one-deal commands."""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handsolver.models.cards import InputError
from handsolver.solver import batch
from handsolver.solver.batch import run_batch
from handsolver.solver.cli import app
from tests.clusters import local_cluster

from .processes import HANG, first_line, group_is_gone, start, wait_for

runner = CliRunner()


def square(n: int) -> int:
    return n * n


def fail_on_seven(n: int) -> int:
    if n == 7:
        raise ValueError("seven")
    return n


def test_local_pool_keeps_input_order_for_lists_and_generators() -> None:
    jobs = list(range(-500, 500))
    expected = [n * n for n in jobs]
    assert list(run_batch(square, jobs, workers=2)) == expected
    assert list(run_batch(square, iter(jobs), workers=3, chunksize=7)) == expected
    assert list(run_batch(square, [], workers=2)) == []


def test_finished_workers_end_on_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the work is done each worker sees its pipe close and exits 0: none holds a pipe
    end of its own or of an earlier worker open (it would wait until killed, exit -9)."""
    exit_codes: list[int | None] = []
    stop = batch._stop

    def recording_stop(pool: list[batch._Worker], *, at_once: bool) -> None:
        stop(pool, at_once=at_once)
        exit_codes.extend(worker.process.exitcode for worker in pool)

    monkeypatch.setattr(batch, "_stop", recording_stop)
    assert list(run_batch(square, range(20), workers=3)) == [n * n for n in range(20)]
    assert exit_codes == [0, 0, 0]


def test_a_generator_is_consumed_only_as_results_are_taken() -> None:
    taken = 0

    def jobs() -> Iterator[int]:
        nonlocal taken
        for n in range(10**9):
            taken += 1
            yield n

    results = run_batch(square, jobs(), workers=2, chunksize=4)
    assert [next(results) for _ in range(10)] == [n * n for n in range(10)]
    bound = 4 * 2 * batch.IN_FLIGHT_PER_WORKER + 4
    assert taken <= 10 + bound  # bounded in flight, never the whole list
    results.close()  # stops the pool


def test_a_worker_error_reaches_the_caller() -> None:
    with pytest.raises(ValueError, match="seven"):
        list(run_batch(fail_on_seven, range(20), workers=2, chunksize=3))


def _pool_script(folder: Path, *, catch: bool) -> Path:
    """A script printing the results of a slow batch on two workers; with ``catch`` it says
    "stopped" and exits 130 on Ctrl-C."""
    loop = "for result in run_batch(slow, range(10_000), workers=2, chunksize=1):\n"
    loop += "    print(result, flush=True)\n"
    if catch:
        loop = "try:\n" + textwrap.indent(loop, "    ")
        loop += 'except KeyboardInterrupt:\n    print("stopped", flush=True)\n    sys.exit(130)\n'
    script = folder / "run.py"
    script.write_text(
        "import sys, time\n"
        "from handsolver.solver.batch import run_batch\n\n"
        "def slow(n):\n    time.sleep(0.2)\n    return n\n\n"
        'if __name__ == "__main__":\n' + textwrap.indent(loop, "    ")
    )
    return script


def test_ctrl_c_stops_the_pool_and_leaves_no_worker(tmp_path: Path) -> None:
    script = _pool_script(tmp_path, catch=True)
    # SIGINT reaches the script even when this test run ignores it (started in the background
    # from a script), and every wait is bounded.
    process = start([sys.executable, str(script)])
    assert first_line(process).strip() == b"0"
    os.killpg(process.pid, signal.SIGINT)
    out, err_bytes = process.communicate(timeout=HANG)
    rest, err = out.decode(), err_bytes.decode()
    assert process.returncode == 130
    # (this script's own print may be cut by the signal: the CLI guards its lines, not this)
    assert rest.endswith("stopped\n") and "Traceback" not in err and "KeyboardInterrupt" not in err
    assert group_is_gone(process.pid)  # no worker left in the process group


def test_sigterm_to_a_worker_group_ends_it_quietly(tmp_path: Path) -> None:
    """``kill -TERM -GROUP``: the workers end by their own SIGTERM handler (SystemExit, so
    ``finally`` blocks run) without a word, even with their parent gone."""
    script = _pool_script(tmp_path, catch=False)
    process = start([sys.executable, str(script)])
    assert first_line(process).strip() == b"0"
    os.killpg(process.pid, signal.SIGTERM)  # the script has no handler: it dies at once
    _, err = process.communicate(timeout=HANG)
    wait_for(lambda: group_is_gone(process.pid))  # its workers too, by their own handler
    assert process.returncode == -signal.SIGTERM and err == b""


def test_a_dead_worker_is_an_error_not_a_hang() -> None:
    with pytest.raises(RuntimeError, match="worker process ended unexpectedly"):
        list(run_batch(_kill_self, range(20), workers=2))


def megabyte(n: int) -> bytes:
    return bytes(1 << 20)


def test_stopping_while_workers_send_large_results_leaves_no_worker() -> None:
    """The first Ctrl-C was once swallowed: ``multiprocessing.Pool`` terminated a worker that
    held the result queue's lock in the middle of a send, and its threads then waited on that
    lock for ever.  Here every worker is busy sending a result larger than a pipe holds when
    the batch is stopped; it must end, and no worker may remain."""
    import multiprocessing

    results = run_batch(megabyte, range(1000), workers=2, chunksize=1)
    assert next(results) == bytes(1 << 20)
    results.close()  # what a KeyboardInterrupt in the consumer does to the generator
    assert multiprocessing.active_children() == []


def _kill_self(n: int) -> int:
    if n == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    return n


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    with local_cluster(workers=2) as address:
        yield address


def test_dask_cluster_keeps_input_order(cluster: str) -> None:
    jobs = list(range(300))
    assert list(run_batch(square, jobs, scheduler=cluster)) == [n * n for n in jobs]
    assert list(run_batch(square, iter(jobs), scheduler=cluster, chunksize=1)) == [
        n * n for n in jobs
    ]


def test_dask_bounds_the_work_in_flight(cluster: str) -> None:
    taken = 0

    def jobs() -> Iterator[int]:
        nonlocal taken
        for n in range(10**9):
            taken += 1
            yield n

    results = run_batch(square, jobs(), scheduler=cluster, chunksize=2)
    assert [next(results) for _ in range(5)] == [0, 1, 4, 9, 16]
    assert taken <= 5 + 2 * 2 * batch.IN_FLIGHT_PER_WORKER + 2
    results.close()


def test_an_unreachable_scheduler_is_bad_input(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(batch, "CONNECT_TIMEOUT", "0.5s")
    with pytest.raises(InputError, match="cannot reach the Dask scheduler"):
        list(run_batch(square, [1], scheduler="tcp://127.0.0.1:9"))


def test_badugi_discard_table_on_a_cluster_matches_the_local_one(cluster: str) -> None:
    """The best-discard table against an unknown hand spreads its keeps over the cluster."""
    from handsolver.solver.badugi import equity

    dead = " ".join(r + s for r in "56789TJQK" for s in "cdhs") + " 4s"
    command = ["badugi", "draw", "Ac 2c 3h 3d", "?", "--dead", dead, "--best-discard", "--json"]
    local = runner.invoke(app, command)
    equity._unknown.cache_clear()  # counted again, on the cluster
    remote = runner.invoke(app, [*command, "--scheduler", cluster])
    assert local.exit_code == remote.exit_code == 0, remote.stderr
    assert local.stdout == remote.stdout
    assert len(json.loads(local.stdout)["discards"]) == 16


def test_batch_commands_on_a_cluster_match_the_local_answers(cluster: str, tmp_path: Path) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text("AS 4H 4C\n# a comment\n\n3c 3d 3h 3s 4c\n")
    local = runner.invoke(app, ["big2", "batch", str(hands)])
    remote = runner.invoke(app, ["big2", "batch", str(hands), "--scheduler", cluster])
    assert local.exit_code == remote.exit_code == 0, remote.stderr
    assert local.stdout == remote.stdout
    stats = ["big2", "stats", "--deals", "30", "--hand-size", "6", "--json"]
    assert (
        runner.invoke(app, [*stats, "--scheduler", cluster]).stdout
        == runner.invoke(app, stats).stdout
        == runner.invoke(app, [*stats, "--workers", "2"]).stdout
    )


# --- badugi batch and poker batch ------------------------------------------------------------


def _deals(game: str, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    deck = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
    lines = []
    for _ in range(count):
        players = rng.randint(2, 4)
        size = 4 if game == "badugi" else rng.randint(5, 7)
        cards = rng.sample(deck, players * size)
        hands = [" ".join(cards[i * size : (i + 1) * size]) for i in range(players)]
        lines.append(" | ".join(hands))
    return lines


@pytest.mark.parametrize("game", ["badugi", "poker"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_batch_lines_equal_the_one_deal_answers(game: str, workers: str, tmp_path: Path) -> None:
    deals = _deals(game, 25, seed=len(game) + int(workers))
    source = tmp_path / "deals.txt"
    source.write_text("# deals\n" + "\n".join(deals) + "\n")
    result = runner.invoke(app, [game, "batch", str(source), "--workers", workers])
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["line"] for line in lines] == list(range(2, 2 + len(deals)))
    for line, deal in zip(lines, deals, strict=True):
        one = json.loads(runner.invoke(app, [game, deal, "--json"]).stdout)
        assert line == {"line": line["line"], "deal": deal, **one}
    piped = runner.invoke(app, [game, "batch", "-"], input=source.read_text())
    assert piped.stdout == result.stdout


@pytest.mark.parametrize("game", ["badugi", "poker"])
def test_a_bad_batch_line_is_named_before_any_output(game: str) -> None:
    good = _deals(game, 1, seed=3)[0]
    repeated = good + " | " + good.split(" | ")[0]
    result = runner.invoke(app, [game, "batch", "-"], input=f"{good}\n{repeated}\n")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: line 2: card ")


def test_poker_plays_the_best_five_of_six_or_seven_cards() -> None:
    result = runner.invoke(app, ["poker", "--json", "3c 4c 5c 6c 7c 8c", "Ah Kh Qh Jh Th 9h 2d"])
    report = json.loads(result.stdout)
    assert report["winners"] == [1]
    assert report["hands"][0]["played"] == ["8c", "7c", "6c", "5c", "4c"]
    assert report["hands"][1]["category"] == "straight flush"
    bad = runner.invoke(app, ["poker", "3c 4c 5c 6c", "Ah Kh Qh Jh Th"])
    assert bad.exit_code == 2 and "5 to 7" in bad.stderr


def test_ctrl_c_in_a_batch_on_a_cluster(cluster: str, tmp_path: Path) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text("AS,4H,6D,8C,7C,3S,5H,8D,4C,2S,0C,AD,AH\n" * 20_000)
    command = [sys.executable, "-m", "handsolver.solver", "big2", "batch", str(hands)]
    process = start([*command, "--scheduler", cluster])
    first = first_line(process)
    os.killpg(process.pid, signal.SIGINT)
    rest, err_bytes = process.communicate(timeout=HANG)
    lines = (first + rest).decode().splitlines()
    err = err_bytes.decode()
    assert process.returncode == 130
    assert err == f"interrupted after {len(lines)} of 20000 hands\n"
    assert all(json.loads(line)["count"] == 5 for line in lines)
