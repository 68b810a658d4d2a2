"""Big 2 game positions with every hand known: how long the exact solver takes on random deals.

Each case deals random hands (a fixed seed) and solves the start of the deal (the holder of the
lowest card leads and must play it) as ``handsolver big2 game --start`` does: every player's
verdict, every opening move's verdict and the fastest line.  Printed per case: how many deals
were solved within the budget, the median and 95th percentile of the time per deal (a deal not
solved counts as its time or the budget, whichever is longer), the median positions searched,
and the peak memory of the run.  ``--kernel`` picks the search (auto, as the commands choose it;
compiled; python; or both: then each case runs compiled and in Python, and the ratio of the
medians is printed); loading numba (and, on a fresh machine, compiling the kernel) is timed
apart, before the first deal.

    python scripts/bench_big2_game.py                 # 2x13 (30 deals), 3x5 and 4x5 (50 each)
    python scripts/bench_big2_game.py --kernel both --two 10
    python scripts/bench_big2_game.py --fresh-cache --two 0 --small 0   # numba's compile time
    python scripts/bench_big2_game.py --two 0 --small 0 --full 100 --budget 60 --out full.jsonl
    python scripts/bench_big2_game.py --rules taiwan --budget 10

With ``--out FILE`` every deal's result is appended to FILE as a JSON line, and a rerun with the
same FILE skips the deals already there, so a long ``--full`` run can stop and go on.

The cases are the targets: two players with 13 cards each (median under 1 s and 95th
percentile under 10 s asked), three and four players with 5 cards each (median under 0.5 s),
and full four-player deals (how many of 100 are solved within 60 s each).  There is no peer
solver for Big 2 to run beside it.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from handsolver.models.big2 import Rules, parse_rules
from handsolver.models.big2_order import lowest_card
from handsolver.models.cards import mask_of, parse_cards
from handsolver.solver.big2.game.positions import Position, solve_position


def deals(players: int, size: int, count: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(f"{seed} {players}x{size}")
    out = []
    for _ in range(count):
        cards = rng.sample(range(52), players * size)
        out.append(tuple(mask_of(cards[p * size : (p + 1) * size]) for p in range(players)))
    return out


def start_of(hands: tuple[int, ...], rules: Rules) -> Position:
    low = lowest_card(sum(hands), rules)
    holder = next(p for p, hand in enumerate(hands) if hand >> low & 1)
    return Position(hands, holder, start=True)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def warm_up(kernel: str, rules: Rules) -> None:
    """Load (and if need be compile) the kernel before the clock runs, and say how long it took."""
    if kernel == "python":
        return
    start = time.perf_counter()
    # Two small hands whose search runs the kernel (one card each would need none).
    hands = (mask_of(parse_cards("3d 5c 9h")), mask_of(parse_cards("4c 6s 6h")))
    solve_position(Position(hands), rules, kernel="compiled")
    print(f"loading the compiled kernel: {time.perf_counter() - start:.2f} s", flush=True)


def done_deals(out: Path | None, run: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The deals of this run (case, search, rules, seed, budget) already in ``out``, by number."""
    if out is None or not out.exists():
        return {}
    found = {}
    for line in out.read_text().splitlines():
        record = json.loads(line)
        if all(record.get(key) == value for key, value in run.items()):
            found[record["deal"]] = record
    return found


def run_case(
    label: str,
    players: int,
    size: int,
    count: int,
    budget: float,
    rules: Rules,
    seed: int,
    kernel: str,
    out: Path | None,
) -> float:
    """Print the case's line; the median time per deal."""
    run = {"case": label, "kernel": kernel, "rules": rules.name, "seed": seed, "budget": budget}
    records = done_deals(out, run)
    for number, hands in enumerate(deals(players, size, count, seed)):
        if number in records:
            continue
        start = time.perf_counter()
        result = solve_position(start_of(hands, rules), rules, time_limit=budget, kernel=kernel)
        elapsed = time.perf_counter() - start
        solved = None not in result.forced_win and all(
            move.forced_win is not None for move in result.moves
        )
        record = {
            **run,
            "deal": number,
            "solved": solved,
            "seconds": round(elapsed, 4),
            "nodes": result.nodes,
        }
        records[number] = record
        if out is not None:
            with out.open("a") as file:
                file.write(json.dumps(record) + "\n")
        # Full deals take up to minutes each: each one is shown.
        if (number + 1) % (1 if players * size == 52 else 10) == 0:
            print(f"  {label}: {number + 1} of {count} deals", file=sys.stderr, flush=True)
    chosen = [records[number] for number in range(count)]
    times = [r["seconds"] if r["solved"] else max(r["seconds"], budget) for r in chosen]
    solved_times = [r["seconds"] for r in chosen if r["solved"]]
    nodes = [r["nodes"] for r in chosen]
    line = (
        f"{label} ({kernel}): {len(solved_times)} of {count} solved within {budget:g} s; "
        f"median {statistics.median(times):.3f} s, p95 {percentile(times, 0.95):.3f} s, "
        f"max {max(times):.3f} s; median {statistics.median(nodes):,.0f} positions"
    )
    if solved_times and len(solved_times) < count:
        line += (
            f"; the solved ones: median {statistics.median(solved_times):.3f} s, "
            f"max {max(solved_times):.3f} s"
        )
    print(line, flush=True)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="seed", help="rule profile and switches")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--two", type=int, default=30, help="two-player 13-card deals")
    parser.add_argument("--small", type=int, default=50, help="3x5 and 4x5 deals")
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per deal")
    parser.add_argument("--full", type=int, default=0, help="four-player 13-card deals")
    parser.add_argument("--full-budget", type=float, default=60.0)
    parser.add_argument(
        "--kernel",
        choices=["auto", "compiled", "python", "both"],
        default="auto",
        help="the search",
    )
    parser.add_argument("--out", type=Path, help="JSON lines of every deal; a rerun goes on")
    parser.add_argument(
        "--fresh-cache",
        action="store_true",
        help="compile the kernel into an empty cache, as on a fresh machine",
    )
    args = parser.parse_args()
    if args.fresh_cache:
        # numba reads it when it loads, which is at the first compiled search.
        cache = tempfile.mkdtemp(prefix="bench-big2-numba-")
        atexit.register(shutil.rmtree, cache, True)
        os.environ["NUMBA_CACHE_DIR"] = cache
    rules = parse_rules(args.rules)
    kernels = ["compiled", "python"] if args.kernel == "both" else [args.kernel]
    print(f"rules: {rules.name}; seed {args.seed}; start of each deal")
    cases = []
    if args.small:
        cases += [("3 players x 5 cards", 3, 5, args.small, args.budget)]
        cases += [("4 players x 5 cards", 4, 5, args.small, args.budget)]
    if args.two:
        cases.append(("2 players x 13 cards", 2, 13, args.two, args.budget))
    if args.full:
        cases.append(("4 players x 13 cards", 4, 13, args.full, args.full_budget))
    for kernel in kernels:
        warm_up(kernel, rules)
    for label, players, size, count, budget in cases:
        medians = [
            run_case(label, players, size, count, budget, rules, args.seed, kernel, args.out)
            for kernel in kernels
        ]
        if len(medians) == 2:
            print(f"  python / compiled, median time: {medians[1] / medians[0]:.1f}", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
