"""Big 2 game positions with every hand known: how long the exact solver takes on random deals.

Each case deals random hands (a fixed seed) and solves the start of the deal (the holder of the
lowest card leads and must play it) as ``handsolver big2 game --start`` does: every player's
verdict, every opening move's verdict and the fastest line.  Printed per case: how many deals
were solved within the budget, the median and 95th percentile of the time per deal (a deal not
solved counts as its time or the budget, whichever is longer), the median positions searched,
and the peak memory of the run.

    python scripts/bench_big2_game.py                 # 2x13 (20 deals), 3x5 and 4x5 (50 each)
    python scripts/bench_big2_game.py --full 100      # and 100 four-player deals of 13 cards
    python scripts/bench_big2_game.py --rules taiwan --budget 10

The cases are the issue's: two players with 13 cards each (median under 1 s and 95th
percentile under 10 s asked), three and four players with 5 cards each (median under 0.5 s),
and full four-player deals (how many of 100 are solved within 60 s each).  There is no peer
solver for Big 2 to run beside it.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time

from handsolver.models.big2 import Rules, parse_rules
from handsolver.models.big2_order import lowest_card
from handsolver.models.cards import mask_of
from handsolver.solver.big2.game import Position, solve_position


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


def run_case(
    label: str, players: int, size: int, count: int, budget: float, rules: Rules, seed: int
) -> None:
    times, solved_times, nodes = [], [], []
    for hands in deals(players, size, count, seed):
        start = time.perf_counter()
        result = solve_position(start_of(hands, rules), rules, time_limit=budget)
        elapsed = time.perf_counter() - start
        solved = None not in result.forced_win and all(
            move.forced_win is not None for move in result.moves
        )
        times.append(elapsed if solved else max(elapsed, budget))
        nodes.append(result.nodes)
        if solved:
            solved_times.append(elapsed)
    line = (
        f"{label}: {len(solved_times)} of {count} solved within {budget:g} s; "
        f"median {statistics.median(times):.3f} s, p95 {percentile(times, 0.95):.3f} s, "
        f"median {statistics.median(nodes):,.0f} positions"
    )
    if solved_times and len(solved_times) < count:
        line += (
            f"; the solved ones: median {statistics.median(solved_times):.3f} s, "
            f"max {max(solved_times):.3f} s"
        )
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="seed", help="rule profile and switches")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--two", type=int, default=20, help="two-player 13-card deals")
    parser.add_argument("--small", type=int, default=50, help="3x5 and 4x5 deals")
    parser.add_argument("--budget", type=float, default=30.0, help="seconds per deal")
    parser.add_argument("--full", type=int, default=0, help="four-player 13-card deals")
    parser.add_argument("--full-budget", type=float, default=60.0)
    args = parser.parse_args()
    rules = parse_rules(args.rules)
    print(f"rules: {rules.name}; seed {args.seed}; start of each deal")
    if args.small:
        run_case("3 players x 5 cards", 3, 5, args.small, args.budget, rules, args.seed)
        run_case("4 players x 5 cards", 4, 5, args.small, args.budget, rules, args.seed)
    if args.two:
        run_case("2 players x 13 cards", 2, 13, args.two, args.budget, rules, args.seed)
    if args.full:
        run_case("4 players x 13 cards", 4, 13, args.full, args.full_budget, rules, args.seed)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
