"""Start-up time as a user sees it: whole-process medians of quick commands, beside
``python -c pass`` and ``python -c "import typer"`` (the floor every command stands on), in a
non-editable install; then the first and the later runs of the compiled Big 2 searches.

By default the script builds a wheel of this checkout, installs it (without dependencies) into a
temporary virtual environment whose dependencies come from the running interpreter's
environment, and times that environment's ``handsolver`` command.  ``--bin DIR`` times the
``handsolver`` and ``python`` of an existing installation instead.

    python scripts/bench_startup.py            # medians of 21 runs each
    python scripts/bench_startup.py --repeats 41 --bin /path/to/venv/bin
    python scripts/bench_startup.py --source /path/to/another/checkout
    python scripts/bench_startup.py --first-runs 0     # start-up only

The target is a median under 120 ms for ``--help``, ``badugi``, ``poker``, ``euler54`` and
``paigow house-way`` on one hand.  Each row gives the wall-clock median and the median CPU
time (user + system) of the process, which a busy machine disturbs less.

The compiled searches (``big2 game`` on a deal of more than 20 cards, ``big2 advise --passes``)
are compiled by numba on their first run on a machine and loaded from its cache on disk after
that: each first run here gets a fresh, empty ``NUMBA_CACHE_DIR`` (``--first-runs`` of them),
each later run the cache the first one left.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 120.0
PE54 = ROOT / "tests" / "data" / "p054_poker.txt"
COMMANDS = {
    "--help": ["--help"],
    "badugi": ["badugi", "3c 2s 4d Ah", "As 3h 2d 4h"],
    "poker": ["poker", "8C TS KC 9H 4S", "7D 2S 5D 3S AC"],
    "euler54": ["euler54", str(PE54)],
    "paigow house-way": ["paigow", "house-way", "Kh Kd 7c 7s Ah 4d 3c"],
}
# Runs of the compiled searches: a deal of 21 cards (more than the 20 searched in Python), and
# the documentation's advice with a tree, whose leaves the compiled playouts score.
COMPILED = {
    "big2 game (21 cards)": ["big2", "game", "3c 4c 5c 6c 7c 8d 9d", "3d 4d 5d 6d 7d 8h 9h"]
    + ["3h 4h 5h 6h 7h 8s 9s"],
    "big2 advise --passes": ["big2", "advise", "5h 5s 9c Jd Ad 2s", "--counts", "5"]
    + ["--played", "3d 3c 4h 6s 7s 8c 8d Th Tc Qs Kh", "--samples", "20", "--passes", "200"],
}


def install(directory: Path, source: Path = ROOT) -> Path:
    """A fresh environment in ``directory`` with the checkout ``source`` installed from a wheel;
    its ``bin`` folder."""
    wheels = directory / "wheels"
    # Built from a copy, so that the checkout is left without a build folder.
    copy = directory / "source"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns(".*", "build", "site", "__py*"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
        + ["--wheel-dir", str(wheels), str(copy)],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("handsolver-*.whl")
    venv = directory / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet"]
        + ["--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    # Dependencies (typer, numpy, ortools) from the running environment, after the new
    # environment's own site-packages; its editable-install hook (a .pth file) does not run.
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # Every site-packages folder the running interpreter sees (a worktree's environment may
    # chain to a shared one through a .pth file of its own).
    folders = [path for path in sys.path if path.rstrip("/").endswith("site-packages")]
    folders = folders or [sysconfig.get_paths()["purelib"]]
    (Path(purelib) / "zz_dependencies.pth").write_text("".join(f"{path}\n" for path in folders))
    return venv / "bin"


def run_once(
    command: list[str], cwd: Path, env: dict[str, str] | None = None
) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of one run of ``command``."""
    began = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, cwd=cwd, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, command)
    return wall, usage.ru_utime + usage.ru_stime


def medians_of(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """The median wall-clock and the median CPU seconds of ``runs``."""
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def measure(bin_dir: Path, repeats: int) -> dict[str, tuple[float, float]]:
    """Median wall-clock and CPU seconds of each command, after one untimed warm-up run each."""
    python = str(bin_dir / "python")
    runs = {"python -c pass": [python, "-c", "pass"]}
    runs["python -c 'import typer'"] = [python, "-c", "import typer"]
    runs |= {name: [str(bin_dir / "handsolver"), *args] for name, args in COMMANDS.items()}
    medians = {}
    for name, command in runs.items():
        run_once(command, bin_dir)
        medians[name] = medians_of([run_once(command, bin_dir) for _ in range(max(1, repeats))])
    return medians


def measure_compiled(bin_dir: Path, first: int, later: int) -> dict[str, list[tuple[float, float]]]:
    """Per compiled command: ``first`` first runs (each with an empty numba cache), then
    ``later`` runs with the cache the last first run left."""
    found: dict[str, list[tuple[float, float]]] = {}
    for name, args in COMPILED.items():
        command = [str(bin_dir / "handsolver"), *args]
        firsts = []
        with tempfile.TemporaryDirectory() as cache:
            env = os.environ | {"NUMBA_CACHE_DIR": cache}
            for _ in range(first):
                for entry in Path(cache).iterdir():
                    shutil.rmtree(entry)
                firsts.append(run_once(command, bin_dir, env))
            laters = [run_once(command, bin_dir, env) for _ in range(later)]
        found[f"{name}, first run"] = firsts
        found[f"{name}, later runs"] = laters
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=21, help="runs per command (median)")
    parser.add_argument("--bin", type=Path, help="time this installation's bin folder")
    parser.add_argument(
        "--source", type=Path, default=ROOT, help="build and time this checkout (default: this one)"
    )
    parser.add_argument(
        "--first-runs", type=int, default=3, help="first runs of each compiled search (0: none)"
    )
    parser.add_argument(
        "--later-runs", type=int, default=5, help="runs of each compiled search after its first"
    )
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        bin_dir = options.bin or install(Path(scratch), options.source)
        # The installed package, not this checkout, must be what runs.
        where = subprocess.run(
            [bin_dir / "python", "-c", "import handsolver.solver as s; print(s.__file__)"],
            check=True,
            capture_output=True,
            text=True,
            cwd=bin_dir,
        ).stdout.strip()
        medians = measure(bin_dir, options.repeats)
        compiled = {}
        if options.first_runs > 0:
            compiled = measure_compiled(bin_dir, options.first_runs, options.later_runs)
    base, _ = medians["python -c pass"]
    floor, floor_cpu = medians["python -c 'import typer'"]
    print(f"handsolver start-up, median of {options.repeats} runs ({where})")
    print(
        f"{'command':<26} {'median ms':>10} {'cpu ms':>7} {'x python':>9} "
        f"{'ms over typer (cpu)':>20}  under {TARGET_MS:.0f} ms"
    )
    slow = []
    for name, (seconds, cpu) in medians.items():
        quick = name in COMMANDS
        ok = ("yes" if seconds * 1000 < TARGET_MS else "NO") if quick else ""
        if ok == "NO":
            slow.append(name)
        over = f"{(seconds - floor) * 1000:+.1f} ({(cpu - floor_cpu) * 1000:+.1f})" if quick else ""
        print(
            f"{name:<26} {seconds * 1000:>10.1f} {cpu * 1000:>7.1f} {seconds / base:>9.2f} "
            f"{over:>20}  {ok}"
        )
    typer_ms = (floor - base) * 1000
    print(f"typer's import: {typer_ms:.1f} ms over python ({floor_cpu * 1000:.1f} ms cpu in all)")
    if slow:
        print(f"over {TARGET_MS:.0f} ms: {', '.join(slow)}")
    if compiled:
        print()
        print("compiled Big 2 searches (first run: an empty numba cache; later: the cache it left)")
        print(f"{'command':<40} {'runs':>4} {'median s':>9} {'cpu s':>7}")
        for name, runs in compiled.items():
            if runs:
                wall, cpu = medians_of(runs)
                print(f"{name:<40} {len(runs):>4} {wall:>9.2f} {cpu:>7.2f}")


if __name__ == "__main__":
    main()
