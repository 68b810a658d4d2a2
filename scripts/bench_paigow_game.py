"""Pai Gow as a whole game: how fast the exact count runs, against a brute force in the same run.

Prints, as medians over repeats:

- the brute force's rate in player/dealer pairs per second: random player hands against random
  dealer hands from the cards they leave, every dealer hand set by the (vectorized) house way
  and compared with the player's settings, one pair at a time in numpy;
- the engine's rate on random chunks of rank classes (the unit of work), its time split (keys
  and house way, the no-flush counts, the flush corrections, the rest) and the whole game's
  time extrapolated from them, for ``--workers`` processes;
- with ``--full WAY``, the whole game run by the command (``--workers``, ``nice`` advised), its
  wall time, peak memory and rate, and the ratio to the brute force;
- the targets of issue 18 for the commands around it: ``paigow settings HAND`` warm (disk cache
  filled) under 0.3 s, ``paigow house-way -`` at least 150,000 hands/s, whole processes.

    python scripts/bench_paigow_game.py [--repeats 3] [--chunks 4] [--full foxwoods --workers 2]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

from timing import median_time

HANDSOLVER = [str(Path(sys.executable).with_name("handsolver"))]
PAIRS = 8_250_459_031_214_400
SETTINGS_HAND = "As Ah Kd Qc 9s 5h 2d"


def run(*args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [*HANDSOLVER, "paigow", *args], check=True, capture_output=True, text=True, input=stdin
    )
    return done.stdout


def brute_force_rate(pairs: int, seed: int) -> float:
    """Pairs per second of the plain method: set each dealer hand, compare with every setting."""
    import numpy as np

    from handsolver.solver.paigow import house_way_arrays
    from handsolver.solver.paigow.keys import setting_keys
    from handsolver.solver.paigow.rank_tables import tables

    rng = random.Random(seed)
    t = tables()
    player = sorted(rng.sample(range(53), 7))
    rest = [c for c in range(53) if c not in player]
    dealers = np.array([rng.sample(rest, 7) for _ in range(pairs)], dtype=np.int64)
    start = time.perf_counter()
    high, low = setting_keys(t, np.array([player], dtype=np.int64))
    _, _, dh, dl = house_way_arrays(dealers)
    for h, lo in zip(high[0].tolist(), low[0].tolist(), strict=True):
        int(((h > dh) & (lo > dl)).sum()), int(((h <= dh) & (lo <= dl)).sum())
    return pairs / (time.perf_counter() - start)


def engine_sample(way_name: str, chunks: int, seed: int) -> tuple[float, float, dict[str, float]]:
    """Seconds per rank class and pairs per second on random chunks, and the time split."""
    from handsolver.models.paigow import Rules
    from handsolver.models.paigow_houseway import house_way_named
    from handsolver.solver.paigow.game import chunk_counts, game_jobs
    from handsolver.solver.paigow.game_tables import setup

    way = house_way_named(way_name)
    setup(way, Rules())
    jobs = random.Random(seed).sample(game_jobs(way, Rules()), chunks)
    start = time.perf_counter()
    tables = [chunk_counts(job) for job in jobs]
    took = time.perf_counter() - start
    # The split from a second, profiled pass (the profiler slows it; shares stay).
    profile = cProfile.Profile()
    profile.enable()
    for job in jobs:
        chunk_counts(job)
    profile.disable()
    profiled = sum(
        row[3] for key, row in pstats.Stats(profile).stats.items() if key[2] == "chunk_counts"
    )  # type: ignore[attr-defined]
    classes = sum(len(job.classes) for job in jobs)
    pairs = sum(row[0] for table in tables for row in table) * 53_524_680
    stats = pstats.Stats(profile)
    split = {}
    names = {
        "setting_keys": "keys of every setting",
        "pick": "house way of every hand",
        "_base_counts": "no-flush counts (by rank class)",
        "__init__": "flush classes binned",
        "corrections": "flush corrections",
        "moved_hands": "bounds for pruning",
        "_hands_of": "suit patterns",
    }
    for (_file, _line, function), row in stats.stats.items():  # type: ignore[attr-defined]
        if function in names and "paigow" in _file:
            split[names[function]] = split.get(names[function], 0.0) + row[3]
    split["rest"] = profiled - sum(split.values())
    return took / classes, pairs / took, split


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--chunks", type=int, default=3, help="random chunks timed per repeat")
    parser.add_argument("--brute-pairs", type=int, default=200_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--full", metavar="WAY", action="append", default=[])
    parser.add_argument("--skip-commands", action="store_true")
    options = parser.parse_args()
    repeats = options.repeats

    from handsolver.solver.paigow.game import rank_pattern_count

    classes = rank_pattern_count()
    rates = [brute_force_rate(options.brute_pairs, seed) for seed in range(repeats)]
    brute = sorted(rates)[len(rates) // 2]
    print(f"brute force, one pair at a time (numpy), median of {repeats}")
    print(
        f"  {brute:,.0f} pairs/s: the whole game would take {PAIRS / brute / 86400 / 365:,.0f}"
        " years on one core"
    )

    samples = [engine_sample("foxwoods", options.chunks, seed) for seed in range(repeats)]
    per_class = sorted(s[0] for s in samples)[len(samples) // 2]
    rate = sorted(s[1] for s in samples)[len(samples) // 2]
    split = samples[len(samples) // 2][2]
    whole = per_class * classes
    print(f"engine on {options.chunks} random chunks of 256 rank classes, median of {repeats}")
    print(
        f"  {per_class * 1000:.1f} ms per rank class; {rate:,.0f} pairs/s on one core"
        f" ({rate / brute:,.0f}x the brute force)"
    )
    print(
        f"  whole game extrapolated: {whole / 60:.1f} min on one core,"
        f" {whole / 60 / options.workers:.1f} min on {options.workers} (target < 120 min,"
        f" goal < 20 min; ratio {whole / options.workers / 1200:.2f} of the goal)"
    )
    total = sum(split.values())
    print("  time split:")
    for name, seconds in sorted(split.items(), key=lambda item: -item[1]):
        print(f"    {name:34s} {100 * seconds / total:5.1f} %")

    for way in options.full:
        start = time.perf_counter()
        text = run("game", "--way", way, "--workers", str(options.workers), "--json")
        took = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        data = json.loads(text)
        print(f"whole game, house way {way}, --workers {options.workers}: {took / 60:.1f} min")
        print(
            f"  {PAIRS / took:,.0f} pairs/s ({PAIRS / took / brute:,.0f}x the brute force);"
            f" peak memory of one process {peak:.0f} MiB (< 4096; ratio {peak / 4096:.2f})"
        )
        for part in ("house_way", "best"):
            item = data[part]
            print(
                f"  {part:9s} win {item['win']:,} push {item['push']:,} loss {item['loss']:,}"
                f" EV {item['ev_float']:+.6f}"
            )

    if options.skip_commands:
        return
    run("settings", SETTINGS_HAND, "--json")  # fills the disk cache
    took, _ = median_time(lambda: run("settings", SETTINGS_HAND, "--json"), max(5, repeats))
    print(f"paigow settings '{SETTINGS_HAND}', warm, whole process, median of {max(5, repeats)}")
    print(f"  {took:.3f} s (target < 0.3 s; ratio {took / 0.3:.2f})")
    from handsolver.models.cards import card_name
    from handsolver.solver.paigow import random_hands

    hands = random_hands(200_000, 1)
    lines = "\n".join(" ".join("JK" if c == 52 else card_name(c) for c in row) for row in hands)
    run("house-way", "-", stdin="As Ah Kd Qc 9s 5h 2d\n")
    took, _ = median_time(lambda: run("house-way", "-", stdin=lines + "\n"), repeats)
    print(f"paigow house-way - with {len(hands):,} hands, whole process, median of {repeats}")
    rate = len(hands) / took
    print(f"  {rate:,.0f} hands/s (target >= 150,000; ratio {rate / 150_000:.2f})")


if __name__ == "__main__":
    main()
