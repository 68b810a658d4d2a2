"""Six-card game timings: whole commands against their targets, and engines side by side.

Targets (issue 5): a best-response table against any strategy in under 1 s and the equilibrium in
under 2 s, each as a whole ``handsolver sixcard ...`` command (process start included).  Then,
in process: the exact engines, and CP-SAT against enumeration for single-hand splits.

    python scripts/bench_sixcard.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from timing import median_time

# The console script installed beside this interpreter: the command exactly as a user runs it.
HANDSOLVER = [str(Path(sys.executable).with_name("handsolver"))]


def command(*args: str) -> Callable[[], object]:
    def run() -> object:
        return subprocess.run(
            [*HANDSOLVER, "sixcard", *args], check=True, capture_output=True, text=True
        )

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats

    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "beat_random.json"
        command("strategy", "--vs", "random", "--out", str(table))()
        print(f"whole commands, median of {repeats} (target; ratio = time / target)")
        rows = [
            (f"strategy --vs {vs}", command("strategy", "--vs", vs, "--json"), 1.0)
            for vs in ("random", "sorted", "equilibrium", "best-response:random", str(table))
        ]
        rows.append(("equilibrium", command("equilibrium", "--json"), 2.0))
        rows.append(("score equilibrium random", command("score", "equilibrium", "random"), 1.0))
        for name, run, target in rows:
            took, _ = median_time(run, repeats)
            label = name.replace(str(table), "TABLE.json")
            print(f"  {label:42s} {took:7.3f} s  (< {target:.0f} s; ratio {took / target:.2f})")

    from handsolver.models.sixcard import hands
    from handsolver.solver.sixcard import (
        best_response,
        build_split_model,
        equilibrium,
        evaluate,
        must_mix,
        random_strategy,
        rank_splits,
        scenarios_vs_strategy,
        solve_split_model,
        tables,
    )

    print(f"\nin process, median of {repeats}")
    t = tables()
    opponent = random_strategy(t)
    eq = equilibrium(t)
    engines = [
        ("best_response vs random", lambda: best_response(t, opponent)),
        ("evaluate equilibrium vs random", lambda: evaluate(eq.strategy, opponent, t)),
        ("equilibrium (LP + exact + certificate)", lambda: equilibrium.__wrapped__(t)),
        ("must_mix (13 hands)", lambda: must_mix(t, eq.strategy, eq.lp)),
    ]
    for name, run in engines:
        print(f"  {name:42s} {median_time(run, repeats)[0]:7.3f} s")

    print("\nbest split vs random for 10 hands: enumeration and CP-SAT side by side")
    sample = hands()[::7]
    scenarios = [scenarios_vs_strategy(t, hand, opponent) for hand in sample]
    enum_time, _ = median_time(
        lambda: [rank_splits(t, h, s) for h, s in zip(sample, scenarios, strict=True)], repeats
    )
    cp_time, _ = median_time(
        lambda: [
            solve_split_model(build_split_model(t, h, s))
            for h, s in zip(sample, scenarios, strict=True)
        ],
        repeats,
    )
    print(f"  {'enumeration':42s} {enum_time:7.3f} s")
    print(f"  {'CP-SAT (build + solve)':42s} {cp_time:7.3f} s  (ratio {cp_time / enum_time:.1f}x)")


if __name__ == "__main__":
    main()
