"""Open-face Chinese poker timings against the targets.

1. The exact fantasyland search, in one process: the median time per hand over random hands of
   14 to 17 cards (targets: 14 cards < 10 ms, 17 cards < 200 ms), with hands a second beside the
   anchor (an open-source Rust solver: 148.7 hands/s for 14 cards, 1.5 for 17, in a joker
   variant), with the stay value 0 and 15.
2. ``handsolver ofc fantasyland`` on 17 cards as a whole command (start-up included).

    python scripts/bench_ofc.py [--hands 200] [--repeats 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

from timing import median_time

HANDSOLVER = [str(Path(sys.executable).with_name("handsolver"))]
TARGET_MS = {14: 10.0, 17: 200.0}
ANCHOR = {14: 148.7, 17: 1.5}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="random hands of each size")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()

    from handsolver.models.ofc import OfcRules
    from handsolver.solver.ofc import Objective, solve_fantasyland

    rules = OfcRules()
    solve_fantasyland(range(14), rules)  # the tables every hand shares, built once
    print(f"1. fantasyland, exact, one process: median of {options.hands} random hands a size")
    print("   cards  stay  median ms  p90 ms  max ms  hands/s  target  anchor hands/s")
    for size in (14, 15, 16, 17):
        for stay in (0, 15):
            rng = random.Random(options.seed * 100 + size)
            objective = Objective(Fraction(stay))
            times = []
            for _ in range(options.hands):
                hand = rng.sample(range(52), size)
                start = time.perf_counter()
                solve_fantasyland(hand, rules, objective)
                times.append(time.perf_counter() - start)
            times.sort()
            median = statistics.median(times) * 1000
            p90 = times[int(0.9 * (len(times) - 1))] * 1000
            rate = len(times) / sum(times)
            target = f"< {TARGET_MS[size]:g}" if size in TARGET_MS else ""
            anchor = f"{ANCHOR[size]:g}" if size in ANCHOR else ""
            print(
                f"   {size:5d}  {stay:4d}  {median:9.2f}  {p90:6.2f}  {times[-1] * 1000:6.1f}"
                f"  {rate:7.1f}  {target:6}  {anchor}"
            )

    hand = "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c 5d 6d Jh"
    command = [*HANDSOLVER, "ofc", "fantasyland", hand, "--stay-value", "15"]
    took, _ = median_time(lambda: subprocess.run(command, check=True, capture_output=True), 3)
    print(f"2. handsolver ofc fantasyland (17 cards) as a command, median of 3: {took:.3f} s")


if __name__ == "__main__":
    main()
