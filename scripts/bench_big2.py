"""Benchmark the Big 2 fewest-plays engines side by side, with ratios to the plain CP-SAT model,
and every rule profile beside the seed's rules.

    python scripts/bench_big2.py            # everything (the plain model on 39/52 cards is slow)
    python scripts/bench_big2.py --quick    # skip the plain model on the large hands
    python scripts/bench_big2.py --profiles # only the rule profiles against the seed's rules

Figures: 13-card hands per second in a batch (solve only, and parse + solve + JSON as
``handsolver big2 batch`` does, on one core); the exact search against the strengthened and the
plain CP-SAT models by hand size; the full deck and 39-card hands (median wall time); the whole
``handsolver big2 <13 cards>`` process.  There is no peer library for Big 2 to compare with.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from timing import median_time

from handsolver.models.big2 import PROFILES, Rules, parse_rules
from handsolver.models.cards import FULL_DECK_MASK, STANDARD, mask_of, parse_deal
from handsolver.solver.big2.fewest import exact_search, solve_partition_model, solve_strong_model
from handsolver.solver.commands.big2.fewest import _solve_line

SEED_HAND = "AS,4H,6D,8C,7C,3S,5H,8D,4C,2S,0C,AD,AH"


def hands(size: int, count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [mask_of(rng.sample(range(52), size)) for _ in range(count)]


def per_call(solve: Callable[[int], object], masks: list[int]) -> float:
    """Median seconds per hand over the list (each hand timed once)."""
    times = []
    for mask in masks:
        start = time.perf_counter()
        solve(mask)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def batch_rate(masks: list[int], repeats: int) -> tuple[float, float, int]:
    """Hands per second for solving only and for a batch line (parse, solve, JSON)."""
    lines = [" ".join(STANDARD.format(c) for c in range(52) if m >> c & 1) for m in masks]
    solve_times, batch_times = [], []
    proven = 0
    for _ in range(repeats):
        start = time.perf_counter()
        proven = sum(exact_search(mask).optimal for mask in masks)
        solve_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        for number, line in enumerate(lines):  # what `big2 batch` does: parse, solve, JSON
            job = (number, line, parse_deal(line))
            _solve_line(job, seed=0, time_limit=10.0, prefer="any", rules=PROFILES["seed"])
        batch_times.append(time.perf_counter() - start)
    return (
        len(masks) / statistics.median(solve_times),
        len(masks) / statistics.median(batch_times),
        proven,
    )


def cli_seconds(repeats: int) -> float:
    command = [str(Path(sys.executable).with_name("handsolver")), "big2", SEED_HAND]
    return median_time(lambda: subprocess.run(command, check=True, capture_output=True), repeats)[0]


#: Single switches on the seed's rules, timed beside it after the profiles.
SWITCHES = (
    "seed --no-triples",
    "seed --quads alone-or-kicker",
    "seed --two-pair",
    "seed --two-pair-alone",
    "seed --quads no-kicker",
    "seed --dragon",
    "seed --straights wrap",
)


def rule_times(
    variants: dict[str, Rules], masks: list[int], repeats: int
) -> dict[str, tuple[list[float], list[float]]]:
    """Per rules, the seconds of every repeat for the 13-card batch (exact search, as
    ``big2 batch`` runs it) and for the full deck (strong CP-SAT).  Each repeat runs every
    variant in turn, so a busy moment of the machine falls on all of them alike."""
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in variants}
    for _ in range(repeats):
        for name, rules in variants.items():
            start = time.perf_counter()
            for mask in masks:
                exact_search(mask, rules=rules)
            times[name][0].append(time.perf_counter() - start)
            start = time.perf_counter()
            solve_strong_model(FULL_DECK_MASK, rules=rules)
            times[name][1].append(time.perf_counter() - start)
    return times


def print_rules(title: str, variants: dict[str, Rules], masks: list[int], repeats: int) -> None:
    print(f"== {title}: {len(masks)} 13-card hands (exact search) and the full deck ==")
    print("   (medians over the repeats; time as a ratio to the seed's rules, run side by side)")
    variants = {"seed": PROFILES["seed"], **variants}
    times = rule_times(variants, masks, repeats)
    seed_batch, seed_deck = (statistics.median(t) for t in times["seed"])
    width = max(map(len, times))
    print(f"{'rules':{width}} {'hands/s':>9} {'time':>6}   {'52 cards':>9} {'time':>6}  plays")
    for name, (batch, deck) in times.items():
        batch_median, deck_median = statistics.median(batch), statistics.median(deck)
        count = solve_strong_model(FULL_DECK_MASK, rules=variants[name]).count
        print(
            f"{name:{width}} {len(masks) / batch_median:9.0f} {batch_median / seed_batch:5.2f}x"
            f"   {deck_median:8.3f}s {deck_median / seed_deck:5.2f}x  {count}"
        )


def print_profiles(masks: list[int], repeats: int) -> None:
    print_rules("rule profiles", dict(PROFILES), masks, repeats)
    print()
    switches = {text: parse_rules(text) for text in SWITCHES}
    print_rules("single switches", switches, masks, repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the plain model on 39/52")
    parser.add_argument("--profiles", action="store_true", help="only the rule profiles")
    parser.add_argument("--hands", type=int, default=5000, help="13-card hands in the batch")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.profiles:
        print_profiles(hands(13, args.hands, seed=1), max(args.repeats, 5))
        return

    print("== 13-card hands, one core ==")
    masks = hands(13, args.hands, seed=1)
    solve_rate, line_rate, proven = batch_rate(masks, args.repeats)
    print(f"exact search       {solve_rate:9.0f} hands/s  ({proven}/{len(masks)} proven optimal)")
    print(f"batch line         {line_rate:9.0f} hands/s  (parse + solve + JSON)")
    sample = masks[:200]
    strong = per_call(solve_strong_model, sample)
    plain = per_call(solve_partition_model, sample[:50])
    exact = per_call(exact_search, sample)
    print(f"strong CP-SAT      {1 / strong:9.0f} hands/s  (median {strong * 1e3:.2f} ms)")
    print(f"plain CP-SAT       {1 / plain:9.0f} hands/s  (median {plain * 1e3:.2f} ms)")
    print(f"ratio plain / exact {plain / exact:8.0f}x   plain / strong {plain / strong:.1f}x")

    print("\n== median ms per hand by size: exact search, strong CP-SAT, plain CP-SAT ==")
    for size in (5, 10, 13, 16, 18, 20, 22, 26):
        sized = hands(size, 30, seed=size)
        e = per_call(exact_search, sized) if size <= 22 else float("nan")
        s = per_call(solve_strong_model, sized)
        p = per_call(solve_partition_model, sized[:10])
        print(
            f"{size:3} cards  exact {e * 1e3:8.3f}  strong {s * 1e3:8.2f}  plain {p * 1e3:9.2f}"
            f"  plain/strong {p / s:6.1f}x"
        )

    print("\n== large hands (median wall time) ==")
    deck = [FULL_DECK_MASK] * 5
    strong_deck = per_call(solve_strong_model, deck)
    result = solve_strong_model(FULL_DECK_MASK)
    print(f"52 cards strong    {strong_deck:7.3f} s  count {result.count} optimal {result.optimal}")
    big = hands(39, 11, seed=39)
    strong_big = per_call(solve_strong_model, big)
    optimal = sum(solve_strong_model(mask).optimal for mask in big)
    print(f"39 cards strong    {strong_big:7.3f} s  ({optimal}/{len(big)} proven optimal)")
    if not args.quick:
        plain_deck = per_call(lambda m: solve_partition_model(m, time_limit=120), deck[:1])
        plain_big = per_call(lambda m: solve_partition_model(m, time_limit=120), big[:3])
        print(
            f"52 cards plain     {plain_deck:7.3f} s  ratio plain/strong "
            f"{plain_deck / strong_deck:.0f}x"
        )
        print(
            f"39 cards plain     {plain_big:7.3f} s  ratio plain/strong "
            f"{plain_big / strong_big:.0f}x"
        )

    print("\n== whole process: handsolver big2 <13 cards> ==")
    print(f"median             {cli_seconds(10):7.3f} s over 10 runs")
    print()
    print_profiles(masks, max(args.repeats, 5))


if __name__ == "__main__":
    main()
