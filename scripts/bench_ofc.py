"""Open-face Chinese poker timings against the targets.

1. The exact fantasyland search, in one process: the median time per hand over random hands of
   14 to 17 cards (targets: 14 cards < 10 ms, 17 cards < 200 ms), with hands a second beside the
   anchor (an open-source Rust solver: 148.7 hands/s for 14 cards, 1.5 for 17, in a joker
   variant), with the stay value 0 and 15; ``--jokers J`` deals J jokers in every hand.

Every time is printed twice: wall clock and CPU time (this process's, or the command's).  On a
machine shared with other jobs the wall clock counts their turns too; the CPU time is what the
work itself took, and the targets are compared with it.
2. ``handsolver ofc fantasyland`` on 17 cards as a whole command (start-up included).
3. ``handsolver ofc play`` as a whole command: the last street, and two streets left against a
   complete board (targets: 0.5 s and 5 s).
4. With ``--study-hands N``: ``handsolver ofc study --hands N`` (and ``--size-hands``,
   ``--normal-hands``, ``--workers``, ``--opponents``, ``--opponent-play``) as a whole command:
   its figures, its wall clock and CPU time and the machine's load (target: the fixed point's
   standard error under 0.1 points in under 10 minutes on 2 cores).

    python scripts/bench_ofc.py [--hands 200] [--repeats 5]
    python scripts/bench_ofc.py --hands 0 --study-hands 20000 --size-hands 2000 \
        --normal-hands 2000 --workers 2
    python scripts/bench_ofc.py --hands 0 --study-hands 5000 --size-hands 800 \
        --normal-hands 0 --workers 2 --opponents 5 --opponent-play policy

5. With ``--match-deals N``: the player of ``ofc play`` (its defaults; ``--subject rollout``:
   its rollout player alone) in duplicate heads-up deals against ``--against`` (``policy``,
   the hand-written policy, or the same player: self-play), in this one process: the foul
   rate and fantasyland entry rate of each, the points a hand with a 95% interval, and the
   seconds a decision (median and slowest, street by street).  ``--record FILE`` appends each
   deal as a JSON line as it finishes and a rerun with the same file plays only the deals
   missing, so a partial run still gives a figure.

    python scripts/bench_ofc.py --hands 0 --match-deals 1000 --against policy \
        --record policy.jsonl

   ``--once`` plays each deal once, the seats not rotated: in self-play the two seats hold
   copies of one player, so a rotation would only play the deal again (its foul and
   fantasyland rates come from twice as many deals in the same time).

    python scripts/bench_ofc.py --hands 0 --match-deals 1000 --against player --once \
        --record self.jsonl

6. With ``--decision-positions N``: the player's seconds a decision with its defaults, street
   by street, over N positions a street (heads-up, both boards built by the rollout player
   from seeded deals, the opponent a street behind): median and slowest, wall clock and CPU
   (targets: the first street under 10 s, each later one under 3 s).

    python scripts/bench_ofc.py --hands 0 --decision-positions 50

   ``--variant classic`` times classic open-face's nine streets instead (5 cards, then one card a
   street); ``--complete-opponent`` plays the opponent's whole board first, so that the last
   streets are exact (Pineapple's last, classic's last four: this one and three to come).

    python scripts/bench_ofc.py --hands 0 --decision-positions 10 --variant classic
    python scripts/bench_ofc.py --hands 0 --decision-positions 10 --variant classic \
        --complete-opponent
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

HANDSOLVER = [str(Path(sys.executable).with_name("handsolver"))]
TARGET_MS = {14: 10.0, 17: 200.0}
BOARD = "Qh Qd 4s | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 4h"
PLAY = [
    (
        "last street",
        0.5,
        ["2c 3d Qc", "--board", "Kc Ks | Jc Jd 7s 7d | Ac Ad Tc Ts 3c", "--vs", BOARD],
    ),
    (
        "two streets left, a complete board",
        5.0,
        ["2c 3d 7c", "--board", "Kc | Jc Jd 7s | Ac Ad Tc Ts 3c", "--vs", BOARD],
    ),
]
ANCHOR = {14: 148.7, 17: 1.5}
STUDY_SECONDS, STUDY_ERROR = 600, 0.1  # the study: its wall clock on 2 workers, its error


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="random hands of each size")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--jokers",
        type=int,
        default=0,
        choices=(0, 1, 2),
        help="jokers in every fantasyland hand of part 1 (the 54-card deck's rules)",
    )
    parser.add_argument("--study-hands", type=int, default=0)
    parser.add_argument("--size-hands", type=int, default=2000)
    parser.add_argument("--normal-hands", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--opponents", type=int, default=0, help="the study's opponent boards a hand (0: none)"
    )
    parser.add_argument(
        "--opponent-play",
        default="rollout",
        help="who plays the study's opponent boards and normal hands: rollout, policy or player",
    )
    parser.add_argument("--match-deals", type=int, default=0)
    parser.add_argument("--against", default="policy", help="policy, player, rollout or random")
    parser.add_argument("--subject", default="player", help="the player measured (or rollout)")
    parser.add_argument("--fantasy-value", default="15", help="the players' fantasyland value")
    parser.add_argument("--record", type=Path, default=None)
    parser.add_argument(
        "--once",
        action="store_true",
        help="section 5: each deal played once, the seats not rotated (for self-play)",
    )
    parser.add_argument("--decision-positions", type=int, default=0)
    parser.add_argument("--variant", default="pineapple", help="pineapple or classic (section 6)")
    parser.add_argument("--complete-opponent", action="store_true", help="section 6")
    options = parser.parse_args()
    if options.decision_positions:
        decisions(
            options.decision_positions,
            options.seed,
            Fraction(options.fantasy_value),
            options.variant,
            options.complete_opponent,
        )
    if options.match_deals:
        matches(options)
    if options.hands:
        fantasyland(options.hands, options.seed, options.repeats, options.jokers)
    if options.study_hands:
        study(options)


def fantasyland(hands: int, seed: int, repeats: int, jokers: int = 0) -> None:

    from handsolver.models.cards import JOKERS
    from handsolver.models.ofc import MAX_JOKERS, OfcRules
    from handsolver.solver.ofc import Objective, solve_fantasyland

    rules = OfcRules(jokers=MAX_JOKERS if jokers else 0)
    solve_fantasyland(range(14), rules)  # the tables every hand shares, built once
    held = f", {jokers} joker(s) in each (the 54-card deck)" if jokers else ""
    print(f"1. fantasyland, exact, one process: median of {hands} random hands a size{held}")
    print(
        "   cards  stay  wall ms  CPU ms  CPU p90  CPU max  hands/s (CPU)  target  anchor hands/s"
    )
    for size in (14, 15, 16, 17):
        for stay in (0, 15):
            rng = random.Random(seed * 100 + size)
            objective = Objective(Fraction(stay))
            walls, cpus = [], []
            for _ in range(hands):
                hand = rng.sample(range(52), size - jokers) + list(JOKERS[:jokers])
                wall, cpu = time.perf_counter(), time.process_time()
                solve_fantasyland(hand, rules, objective)
                cpus.append(time.process_time() - cpu)
                walls.append(time.perf_counter() - wall)
            cpus.sort()
            median = statistics.median(cpus) * 1000
            p90 = cpus[int(0.9 * (len(cpus) - 1))] * 1000
            rate = len(cpus) / sum(cpus)
            target = f"< {TARGET_MS[size]:g}" if size in TARGET_MS else ""
            anchor = f"{ANCHOR[size]:g}" if size in ANCHOR else ""
            print(
                f"   {size:5d}  {stay:4d}  {statistics.median(walls) * 1000:7.2f}  {median:6.2f}"
                f"  {p90:7.2f}  {cpus[-1] * 1000:7.1f}  {rate:13.1f}  {target:6}  {anchor}"
            )

    hand = "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c 5d 6d Jh"
    command = [*HANDSOLVER, "ofc", "fantasyland", hand, "--stay-value", "15"]
    wall, cpu = command_times(command, 3)
    print(
        f"2. handsolver ofc fantasyland (17 cards) as a command, median of 3: {wall:.3f} s wall,"
        f" {cpu:.3f} s CPU"
    )
    print(f"3. handsolver ofc play as a command, median of {repeats}")
    for label, target, args in PLAY:
        wall, cpu = command_times([*HANDSOLVER, "ofc", "play", *args], repeats)
        print(
            f"   {label:34} {wall:7.3f} s wall  {cpu:6.3f} s CPU  (< {target:g} s; ratio "
            f"{cpu / target:.2f})"
        )


def command_times(command: list[str], repeats: int) -> tuple[float, float]:
    """The median wall-clock and CPU (user + system) seconds of a command over ``repeats``."""
    walls, cpus = [], []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def study(options: argparse.Namespace) -> None:
    command = [
        *HANDSOLVER,
        "ofc",
        "study",
        "--hands",
        str(options.study_hands),
        "--size-hands",
        str(options.size_hands),
        "--normal-hands",
        str(options.normal_hands),
        "--workers",
        str(options.workers),
        *(["--opponents", str(options.opponents)] if options.opponents else []),
        "--opponent-play",
        options.opponent_play,
        "--seed",
        str(options.seed),
        "--json",
    ]
    load_before = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    load_after = os.getloadavg()[0]
    answer = json.loads(done.stdout)
    error = answer["sizes"][0]["value_stderr"]
    print(f"4. {' '.join(['handsolver', *command[1:-1]])}")
    print(
        f"   {took:.0f} s wall (target < {STUDY_SECONDS} s: ratio {took / STUDY_SECONDS:.2f}), "
        f"{cpu:.0f} s CPU over all processes ({cpu / options.workers:.0f} s a worker); "
        f"load {load_before:.1f} before, {load_after:.1f} after"
    )
    print(
        f"   the fixed point: {float(Fraction(answer['stay_value'])):.3f} ± {error:.3f} points "
        f"(target: standard error < {STUDY_ERROR}: ratio {error / STUDY_ERROR:.2f})"
    )
    rounds = ", ".join(f"{value:.3f}" for value in answer["stay_value_rounds"])
    print(f"   stay value by round: {rounds}")
    points = "points" if options.opponents else "royalties"  # points: royalties and score
    print(f"   cards  hands  {points:9}        stay            value of fantasyland")
    for item in answer["sizes"]:
        hands = options.study_hands if item["cards"] == 14 else options.size_hands
        print(
            f"   {item['cards']:5d}  {hands:5d}  {item[f'mean_{points}']:6.2f} ± "
            f"{item[f'{points}_stderr']:.2f}  {item['share_staying']:6.1%} ± "
            f"{item['share_stderr']:.1%}  {item['value']:6.2f} ± {item['value_stderr']:.3f}"
        )
    normal = answer.get("normal")
    if normal:
        shares = ", ".join(f"{k}: {v:.2%}" for k, v in normal["share_fantasy"].items())
        print(
            f"   normal hands by the {options.opponent_play} ({normal['hands']}): royalties "
            f"{normal['mean_royalties']:.2f} ± {normal['royalties_stderr']:.2f}, fouled "
            f"{normal['share_fouled']:.1%}, fantasyland {normal['share_fantasy_earned']:.2%} "
            f"({shares}); worth "
            f"{normal['fantasy_value']:.2f} ± {normal['fantasy_value_stderr']:.2f} a hand"
        )


def matches(options: argparse.Namespace) -> None:
    """Section 5: duplicate deals, the player against ``--against`` (see the module)."""
    import dataclasses

    from handsolver.models.ofc import OfcRules
    from handsolver.solver.ofc.match import DealResult, SeatResult, play_block
    from handsolver.solver.ofc.match_players import player_from_spec

    rules = OfcRules()
    value = Fraction(options.fantasy_value)
    subject, against = options.subject, options.against
    players = [player_from_spec(name, rules, value) for name in (subject, against)]
    names = [subject, against if against != subject else f"{against} (2)"]
    done: dict[int, DealResult] = {}
    if options.record is not None and options.record.exists():
        for line in options.record.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                games = tuple(
                    tuple(
                        SeatResult(**{**seat, "seconds": tuple(seat["seconds"])}) for seat in game
                    )
                    for game in row["games"]
                )
                done[row["deal"]] = DealResult(row["deal"], games)
    played = "deals, each played once" if options.once else "duplicate deals"
    print(
        f"5. ofc match as the bench plays it: {subject} (defaults) against {against}, "
        f"{options.match_deals} {played}, "
        f"seed {options.seed}, fantasyland valued at "
        f"{value} by both; {len(done)} read from the record",
        flush=True,
    )
    started = time.process_time()
    for deal in range(options.match_deals):
        if deal in done:
            continue
        (result,) = play_block(players, rules, options.seed, deal, 1, rotated=not options.once)
        done[deal] = result
        if options.record is not None:
            with options.record.open("a") as out:
                out.write(json.dumps(dataclasses.asdict(result)) + "\n")
        if (deal + 1) % 25 == 0:
            report(names, [done[d] for d in sorted(done)], started)
    report(names, [done[d] for d in sorted(done) if d < options.match_deals], started)


def report(names: list[str], deals: list, started: float) -> None:
    from handsolver.solver.ofc.match import summary

    print(f"   after {len(deals)} deals ({time.process_time() - started:.0f} s CPU this run):")
    for row in summary(names, deals):
        low, high = row.interval
        print(
            f"   {row.name:12} {row.points:+7.3f} a hand (95% {low:+.3f} to {high:+.3f}), "
            f"fouled {row.foul_rate:6.1%}, fantasyland {row.fantasy_rate:5.1%}, "
            f"{row.hands} hands"
        )
        medians = " ".join(f"{m:.2f}" for m in row.seconds_median)
        slowest = " ".join(f"{m:.2f}" for m in row.seconds_max)
        print(f"   {'':12} seconds a decision by street: median {medians}; slowest {slowest}")
    sys.stdout.flush()


def decisions(count: int, seed: int, value: Fraction, variant: str, complete: bool) -> None:
    """Section 6: the player's decisions timed street by street (see the module)."""
    from handsolver.models.ofc import OfcRules
    from handsolver.solver.ofc.play import Position, Scorer
    from handsolver.solver.ofc.player import advise
    from handsolver.solver.ofc.rollout import Judge, best_street, finished

    rules = OfcRules(variant=variant)
    streets = rules.streets
    judge = Judge(Scorer(rules, value), float(value))
    against = "a complete board" if complete else "a board a street behind"
    print(
        f"6. the player's decisions with its defaults ({variant}, against {against}), {count} "
        f"positions a street (seed {seed})"
    )
    print("   street  wall median  wall slowest  CPU median  CPU slowest  exact  target")
    for street in range(streets.count):
        walls, cpus, exact = [], [], 0
        for index in range(count):
            deck = list(range(52))
            random.Random(f"bench-decisions-{seed}-{street}-{index}").shuffle(deck)
            mine = theirs = (0, 0, 0)
            if complete:
                theirs = finished(judge, theirs, deck)
            for done in range(street):
                size = streets.dealt_on(streets.before(done))
                last = streets.is_last(streets.before(done))
                mine = best_street(judge, mine, [deck.pop() for _ in range(size)], last=last)
                if not complete and done < street - 1:
                    theirs = best_street(judge, theirs, [deck.pop() for _ in range(size)], last)
            dealt = tuple(deck.pop() for _ in range(streets.dealt_on(streets.before(street))))
            position = Position(board_of_masks(mine), dealt, (board_of_masks(theirs),), (), streets)
            wall, cpu = time.perf_counter(), time.process_time()
            advice = advise(position, rules, value, seed=index)
            cpus.append(time.process_time() - cpu)
            walls.append(time.perf_counter() - wall)
            exact += advice.answer.exact
        target = 10.0 if street == 0 else 3.0
        print(
            f"   {street + 1:6d}  {statistics.median(walls):9.2f} s  {max(walls):10.2f} s"
            f"  {statistics.median(cpus):8.2f} s  {max(cpus):9.2f} s  {exact:5d}  < {target:g} s",
            flush=True,
        )


def board_of_masks(masks: tuple[int, int, int]) -> tuple[tuple[int, ...], ...]:
    from handsolver.models.cards import cards_of

    return tuple(tuple(cards_of(mask)) for mask in masks)


if __name__ == "__main__":
    main()
