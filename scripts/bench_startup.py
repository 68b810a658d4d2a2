"""Start-up time as a user sees it: whole-process medians of quick commands, beside
``python -c pass``, in a non-editable install.

By default the script builds a wheel of this checkout, installs it (without dependencies) into a
temporary virtual environment whose dependencies come from the running interpreter's
environment, and times that environment's ``handsolver`` command.  ``--bin DIR`` times the
``handsolver`` and ``python`` of an existing installation instead.

    python scripts/bench_startup.py            # medians of 21 runs each
    python scripts/bench_startup.py --repeats 41 --bin /path/to/venv/bin
    python scripts/bench_startup.py --source /path/to/another/checkout

The target is a median under 120 ms for ``--help``, ``badugi``, ``poker``, ``euler54`` and
``paigow house-way`` on one hand.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import median_time  # noqa: E402  (the benchmarks' shared timer, beside this file)

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


def install(directory: Path, source: Path = ROOT) -> Path:
    """A fresh environment in ``directory`` with the checkout ``source`` installed from a wheel;
    its ``bin`` folder."""
    wheels = directory / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
        + ["--wheel-dir", str(wheels), str(source)],
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


def measure(bin_dir: Path, repeats: int) -> dict[str, float]:
    """Median seconds of each command, after one untimed warm-up run each."""
    runs = {"python -c pass": [str(bin_dir / "python"), "-c", "pass"]}
    runs |= {name: [str(bin_dir / "handsolver"), *args] for name, args in COMMANDS.items()}
    medians = {}
    for name, command in runs.items():

        def once(command: list[str] = command) -> None:
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=bin_dir)

        once()
        medians[name], _ = median_time(once, repeats)
    return medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=21, help="runs per command (median)")
    parser.add_argument("--bin", type=Path, help="time this installation's bin folder")
    parser.add_argument(
        "--source", type=Path, default=ROOT, help="build and time this checkout (default: this one)"
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
    base = medians["python -c pass"]
    print(f"handsolver start-up, median of {options.repeats} runs ({where})")
    print(f"{'command':<18} {'median ms':>10} {'x python':>9}  under {TARGET_MS:.0f} ms")
    slow = []
    for name, seconds in medians.items():
        ok = "" if name == "python -c pass" else ("yes" if seconds * 1000 < TARGET_MS else "NO")
        if ok == "NO":
            slow.append(name)
        print(f"{name:<18} {seconds * 1000:>10.1f} {seconds / base:>9.2f}  {ok}")
    if slow:
        print(f"over {TARGET_MS:.0f} ms: {', '.join(slow)}")


if __name__ == "__main__":
    main()
