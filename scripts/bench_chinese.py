"""Chinese poker timings against the targets of issue 11, and the best-response study.

1. All 72,072 settings scored against one known setting, in process (target < 0.1 s), beside
   the slow reference: the split-game engine scoring every legal setting one call at a time.
2. ``handsolver chinese settings HAND --vs greedy --samples 10000`` as a whole command
   (target < 10 s).
3. CP-SAT against enumeration on the same 1,000 scenarios (the same best value is checked).
4. With ``--study-hands N``: the mean gain of the best response over greedy on N random hands.

    python scripts/bench_chinese.py [--repeats 5] [--study-hands 200] [--study-samples 1000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from timing import median_time

HANDSOLVER = [str(Path(sys.executable).with_name("handsolver"))]
HAND = "Ah Kd Qc 9s 8s 7h 6h 5c 4d 3d 3c 2s 2h"
KNOWN = "Ac Ad 4c | Kh Ks Jh Jd 9c | Th Ts Td 8c 8d"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--study-hands", type=int, default=0)
    parser.add_argument("--study-samples", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args()
    repeats = options.repeats

    from handsolver.models.cards import parse_cards
    from handsolver.models.chinese import chinese_game
    from handsolver.solver.chinese import known_scenarios, rank_settings
    from handsolver.solver.chinese.cpsat import solve_setting_model
    from handsolver.solver.chinese.indexing import setting_of_text
    from handsolver.solver.chinese.strategies import Context, Greedy, sampled_scenarios

    hand = tuple(sorted(parse_cards(HAND)))
    theirs = setting_of_text(KNOWN)
    scenarios = known_scenarios([theirs])
    rank_settings(hand, scenarios)  # build the tables once, as a long-lived process would
    took, ranking = median_time(lambda: rank_settings(hand, scenarios), repeats)
    print(f"1. all 72,072 settings vs one known setting, in process, median of {repeats}")
    print(f"   handsolver (numpy batch)      {took:8.4f} s  (< 0.1 s; ratio {took / 0.1:.2f})")
    import numpy as np

    from handsolver.solver.chinese import score_settings
    from handsolver.solver.chinese.indexing import Keys, hand_keys

    def every_setting() -> object:
        batch = hand_keys(np.array([hand]))
        keys = Keys(batch.five[0], batch.front[0], batch.front_order[0])
        return score_settings(keys, scenarios, np.arange(72072))

    took, _ = median_time(every_setting, repeats)
    print(f"   same, fouled settings scored too {took:8.4f} s")
    game = chinese_game()

    def reference() -> int:
        legal = game.legal_settings(hand)
        return max(game.score(s, theirs) for s in legal)

    slow, best = median_time(reference, 1)
    assert best == int(ranking.totals[0])
    print(f"   engine, one call per setting  {slow:8.4f} s  (x{slow / took:.0f} slower; same best)")

    def whole() -> object:
        args = ["chinese", "settings", HAND, "--vs", "greedy", "--samples", "10000"]
        return subprocess.run(
            [*HANDSOLVER, *args, "--seed", "1", "--json", "--top", "10"],
            check=True,
            capture_output=True,
        )

    took, _ = median_time(whole, repeats)
    print(f"2. settings --vs greedy --samples 10000, whole command, median of {repeats}")
    print(f"   handsolver                    {took:8.3f} s  (< 10 s; ratio {took / 10:.2f})")

    sampled = sampled_scenarios(hand, Greedy(), 1000, Context(seed=1))
    enum_time, ranking = median_time(lambda: rank_settings(hand, sampled), repeats)
    cp_repeats = max(1, min(3, repeats))
    cp_time, solved = median_time(
        lambda: solve_setting_model(hand, sampled, workers=2, time_limit=600), cp_repeats
    )
    print("3. best setting vs 1,000 sampled scenarios (greedy opponent)")
    print(f"   enumeration (median of {repeats})    {enum_time:8.3f} s")
    print(
        f"   CP-SAT, 2 workers (median of {cp_repeats}) {cp_time:8.3f} s  "
        f"(x{cp_time / enum_time:.1f}; {solved.status}; same value: "
        f"{solved.total == int(ranking.totals[0])})"
    )

    if options.study_hands:
        args = [
            "chinese", "study", "--hands", str(options.study_hands), "--vs", "greedy",
            "--samples", str(options.study_samples), "--seed", "1",
            "--workers", str(options.workers), "--json",
        ]  # fmt: skip
        start = time.perf_counter()
        done = subprocess.run([*HANDSOLVER, *args], check=True, capture_output=True, text=True)
        took = time.perf_counter() - start
        result = json.loads(done.stdout)
        print(
            f"4. study: {options.study_hands} hands, {options.study_samples} deals per hand to "
            f"choose and {options.study_samples} fresh ones to judge, {options.workers} workers"
        )
        print(
            f"   mean gain of best response over greedy {result['mean_gain']:+.4f} "
            f"± {result['stderr']:.4f} points per hand ({result['strategy_points']:+.4f} -> "
            f"{result['best_points']:+.4f}); greedy already best on "
            f"{result['share_already_best']:.1%}; {took:.1f} s"
        )


if __name__ == "__main__":
    main()
