"""Peak memory of ``handsolver chinese settings HAND --vs greedy --samples N`` as N grows.

Issue 22: at the documented maximum (10,000,000 samples) the command once used 6 GB, because
every deal was dealt at once.  Deals are now dealt, set and scored a block at a time, so the
peak should not grow with N.  Each run is a whole process; its peak resident set size comes
from the kernel (``wait4``), its time from the wall clock.

    python scripts/bench_chinese_memory.py                       # 20,000, 200,000, 1,000,000
    python scripts/bench_chinese_memory.py --samples 20000 200000 --opponents 3
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HANDSOLVER = str(Path(sys.executable).with_name("handsolver"))
HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d"


def peak(samples: int, opponents: int) -> tuple[float, float]:
    """(peak resident MB, wall seconds) of one whole run."""
    command = [HANDSOLVER, "chinese", "settings", HAND, "--vs", "greedy"]
    command += ["--samples", str(samples), "--opponents", str(opponents), "--top", "1"]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited with {process.returncode}")
    return usage.ru_maxrss / 1024, seconds  # ru_maxrss is in KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, nargs="+", default=[20_000, 200_000, 1_000_000])
    parser.add_argument("--opponents", type=int, default=1)
    options = parser.parse_args()
    print(f"chinese settings --vs greedy --opponents {options.opponents}, whole process")
    print(f"{'samples':>10} {'peak MB':>9} {'x first':>8} {'seconds':>9}")
    first = None
    for samples in options.samples:
        megabytes, seconds = peak(samples, options.opponents)
        first = first or megabytes
        print(f"{samples:>10,} {megabytes:>9.0f} {megabytes / first:>8.2f} {seconds:>9.1f}")


if __name__ == "__main__":
    main()
