"""Pai Gow timings: the exact ``settings`` command against its targets, how its time splits, the
house-way batch rate, and the exact answer beside a plain Monte Carlo estimate.

Targets (issue 10): ``paigow settings HAND`` under 30 s and 4 GiB as a whole command, the
house-way batch at 100,000 hands/s or more, and the exact answer within 4 standard errors of a
Monte Carlo estimate over 1,000,000 dealer hands.  Issue 18: ``paigow house-way -`` at 150,000
hands/s or more as a whole process (start-up included), 200,000 random hands piped in.

    python scripts/bench_paigow.py [--repeats 3] [--mc-hands 1000000]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import median_time

HANDSOLVER = [str(Path(sys.executable).with_name("handsolver"))]
HANDS = ["As Ah Kd Qc 9s 5h 2d", "Kh Kd 7c 7s Ah 4d 3c", "2c 3c 4c 5c JK Kd Kh"]
BATCH = 200_000


def run(*args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [*HANDSOLVER, "paigow", *args], check=True, capture_output=True, text=True, input=stdin
    )
    return done.stdout


def run_piped(path: Path) -> bytes:
    """``paigow house-way -`` with the file ``path`` as its standard input."""
    with path.open("rb") as stdin:
        done = subprocess.run(
            [*HANDSOLVER, "paigow", "house-way", "-"], check=True, capture_output=True, stdin=stdin
        )
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--mc-hands", type=int, default=1_000_000)
    options = parser.parse_args()
    repeats = options.repeats

    print(f"whole commands, median of {repeats} (ratio = time / target)")
    for hand in HANDS:
        took, _ = median_time(lambda hand=hand: run("settings", hand, "--json"), repeats)
        print(f"  settings '{hand}'  {took:6.2f} s  (< 30 s; ratio {took / 30:.3f})")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"  peak memory of those commands: {peak:.0f} MiB (< 4096 MiB; ratio {peak / 4096:.3f})")

    start, _ = median_time(
        lambda: subprocess.run(
            [sys.executable, "-c", "import numpy, handsolver.solver.paigow"], check=True
        ),
        repeats,
    )
    import os
    import shutil

    from handsolver.models.paigow import house_way, parse_hand
    from handsolver.solver.paigow import (
        dealer_histogram,
        house_way_arrays,
        random_hands,
        sampled_value,
        tables,
        values_against,
    )
    from handsolver.solver.paigow.rank_tables import _tables, _way_tables

    empty_cache = tempfile.mkdtemp()
    os.environ["HANDSOLVER_CACHE_DIR"] = empty_cache

    def build() -> object:
        # From scratch: no tables in memory, none on disk.
        _tables.cache_clear()
        _way_tables.cache_clear()
        shutil.rmtree(empty_cache, ignore_errors=True)
        return tables()

    build_time, t = median_time(build, repeats)
    hand = parse_hand(HANDS[1]).cards
    left = [card for card in range(53) if card not in hand]
    hist_time, histogram = median_time(lambda: dealer_histogram(t, left), repeats)
    value_time, values = median_time(lambda: values_against(hand, histogram), repeats)
    print("how one settings command splits (in process, median)")
    print(f"  python start + imports         {start:6.3f} s")
    print(
        f"  tables (67,600 rank classes, 224,653 flush classes; no disk cache) {build_time:6.3f} s"
    )
    files = sorted(Path(empty_cache).glob("*.npz"))
    sizes = ", ".join(f"{f.name.rsplit('-', 1)[0]} {f.stat().st_size / 1e6:.1f} MB" for f in files)
    print(f"  table files in the disk cache: {sizes}")
    print(f"  dealer histogram (all 53,524,680 hands)  {hist_time:6.3f} s")
    print(f"  value the {len(values.settings)} legal settings     {value_time:6.3f} s")

    import numpy as np

    hands = np.array(random_hands(BATCH, 1), dtype=np.int64)
    batch_time, _ = median_time(lambda: house_way_arrays(hands), repeats)
    sample = [tuple(row) for row in hands[:2000].tolist()]
    scalar_time, _ = median_time(lambda: [house_way(h) for h in sample], 1)
    fast_rate, slow_rate = BATCH / batch_time, len(sample) / scalar_time
    print(f"house-way batch, median of {repeats}")
    print(
        f"  library, {BATCH:,} hands: {fast_rate:,.0f} hands/s (>= 100,000; ratio"
        f" {fast_rate / 1e5:.1f}); scalar reference {slow_rate:,.0f} hands/s"
        f" (batch {fast_rate / slow_rate:.0f}x faster)"
    )
    from handsolver.models.cards import card_name

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hands.txt"
        path.write_text(
            "\n".join(
                " ".join("JK" if c == 52 else card_name(c) for c in row) for row in hands.tolist()
            )
            + "\n"
        )
        one_line = Path(tmp) / "one.txt"
        one_line.write_text(HANDS[0] + "\n")
        whole, out = median_time(lambda: run_piped(path), repeats)
        assert out.count(b"\n") == BATCH
        # The same hands with a space after each: not the fixed-width shape, so line by line.
        spaced = Path(tmp) / "spaced.txt"
        spaced.write_text(path.read_text().replace("\n", " \n"))
        by_line, same = median_time(lambda: run_piped(spaced), repeats)
        assert same == out
        # The start: the same command on one line (Python, numpy, the tables from the cache).
        one, _ = median_time(lambda: run_piped(one_line), repeats)
    rate = BATCH / whole
    print(
        f"  whole command 'house-way -', {BATCH:,} lines piped in, JSON lines out: {whole:.2f} s,"
        f" {rate:,.0f} hands/s (>= 150,000; ratio {rate / 150_000:.2f});"
        f" {BATCH / (whole - one):,.0f} hands/s after the {one:.2f} s start"
    )
    print(
        f"  the same lines with a space at the end (parsed line by line): {by_line:.2f} s,"
        f" {BATCH / by_line:,.0f} hands/s"
    )

    best = values.best
    mc_time, mc = median_time(
        lambda: sampled_value(hand, (best.high, best.low), options.mc_hands, seed=1), 1
    )
    exact_warm = hist_time + value_time
    exact_cold = build_time + exact_warm
    z = abs(mc.mean - float(best.ev)) / mc.standard_error
    print(f"exact against Monte Carlo ({options.mc_hands:,} dealer hands), hand '{HANDS[1]}'")
    print(
        f"  best setting: exact EV {float(best.ev):+.6f}; Monte Carlo {mc.mean:+.6f}"
        f" +- {mc.standard_error:.6f} (|diff| = {z:.2f} standard errors; must be <= 4)"
    )
    print(
        f"  Monte Carlo {mc_time:.2f} s; exact {exact_warm:.3f} s with tables built,"
        f" {exact_cold:.2f} s from scratch"
    )
    for target in (1e-3, 1e-4):
        needed = options.mc_hands * (mc.standard_error / target) ** 2
        mc_needed = mc_time * needed / options.mc_hands
        print(
            f"  Monte Carlo to a standard error of {target:.0e} of the bet: {needed:,.0f} dealer"
            f" hands, {mc_needed:,.1f} s = {mc_needed / exact_cold:,.1f}x the exact time from"
            f" scratch, {mc_needed / exact_warm:,.1f}x with tables built (one setting; exact"
            " gives all of them)"
        )


if __name__ == "__main__":
    main()
