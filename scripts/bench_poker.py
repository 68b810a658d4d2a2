"""Poker evaluators side by side: handsolver against treys, phevaluator and eval7.

Every peer ranks the same hands, and the script checks that each orders them exactly as
handsolver does (same winners, same draws) before printing medians and ratios.  Peers that are
not installed (``pip install -e .[bench]``) are skipped.

    python scripts/bench_poker.py [--repeats 5] [--hands 100000] [--pe54 FILE]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from timing import median_time

from handsolver.models.cards import card_name
from handsolver.models.poker import NUM_KEYS, best_key, poker_key
from handsolver.models.poker_batch import _tables, all_hands, rank_hands

PE54 = Path(__file__).resolve().parents[1] / "tests" / "data" / "p054_poker.txt"


def same_order(ours: Sequence[int], theirs: Sequence[int], *, lower_is_stronger: bool) -> bool:
    """True if the two keys agree on every comparison between the hands (wins and draws)."""
    a = np.asarray(ours, dtype=np.int64)
    b = np.asarray(theirs, dtype=np.int64)
    if lower_is_stronger:
        b = -b
    pairs = np.unique(np.stack([a, b], axis=1), axis=0)  # sorted by ours, then theirs
    return bool(
        len(pairs) == len(np.unique(a)) == len(np.unique(b)) and (np.diff(pairs[:, 1]) > 0).all()
    )


class Report:
    def __init__(self) -> None:
        self.failed = False

    def section(self, title: str, hands: int) -> None:
        print(f"\n== {title} ({hands:,} hands) ==")

    def row(self, name: str, seconds: float, hands: int, base: float | None = None) -> None:
        ratio = f"  {seconds / base:6.2f}x handsolver's time" if base else ""
        per_hand = seconds / hands * 1e9
        print(f"{name:<44} {seconds * 1e3:9.1f} ms  {per_hand:8.1f} ns/hand{ratio}")

    def check(self, what: str, ok: bool) -> None:
        print(f"{'':<44} {what}: {'yes' if ok else 'NO'}")
        self.failed |= not ok


def peers() -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name in ("treys", "phevaluator._pheval", "eval7"):
        try:
            found[name] = __import__(name, fromlist=["_"])
        except ImportError:
            print(f"({name} not installed: skipped)")
    return found


def bench_scalar5(hands: np.ndarray, repeats: int, mods: dict[str, Any], report: Report) -> None:
    rows = [tuple(row) for row in hands.tolist()]
    report.section("scalar 5-card key, one call per hand", len(rows))
    base, ours = median_time(lambda: [poker_key(row) for row in rows], repeats)
    report.row("handsolver poker_key", base, len(rows))
    if "treys" in mods:
        treys = mods["treys"]
        evaluator = treys.Evaluator()
        cards = [[treys.Card.new(card_name(c)) for c in row] for row in rows]
        t, theirs = median_time(lambda: [evaluator.evaluate(h, []) for h in cards], repeats)
        report.row("treys Evaluator.evaluate(hand, [])", t, len(rows), base)
        report.check("same order as treys", same_order(ours, theirs, lower_is_stronger=True))
    if "phevaluator._pheval" in mods:
        five = mods["phevaluator._pheval"].evaluate_5cards
        t, theirs = median_time(lambda: [five(*row) for row in rows], repeats)
        report.row("phevaluator evaluate_5cards (C)", t, len(rows), base)
        report.check("same order as phevaluator", same_order(ours, theirs, lower_is_stronger=True))
    if "eval7" in mods:
        eval7 = mods["eval7"]
        cards = [[eval7.Card(card_name(c)) for c in row] for row in rows]
        t, theirs = median_time(lambda: [eval7.evaluate(h) for h in cards], repeats)
        report.row("eval7.evaluate (5 cards)", t, len(rows), base)
        report.check("same order as eval7", same_order(ours, theirs, lower_is_stronger=False))


def bench_all_hands(repeats: int, mods: dict[str, Any], report: Report) -> None:
    start = time.perf_counter()
    _tables()
    print(f"\n(handsolver batch tables built in {(time.perf_counter() - start) * 1e3:.0f} ms)")
    hands = all_hands()
    report.section("all 5-card hands ranked", len(hands))
    base, ours = median_time(lambda: rank_hands(hands), repeats)
    report.row("handsolver rank_hands(all_hands())", base, len(hands))
    t, _ = median_time(lambda: rank_hands(all_hands()), repeats)
    report.row("  ... including generating the hands", t, len(hands), base)
    counts = np.bincount(ours, minlength=NUM_KEYS)
    print(f"{'':<44} {len(counts)} distinct keys, all used: {bool((counts > 0).all())}")
    if "phevaluator._pheval" in mods:
        five = mods["phevaluator._pheval"].evaluate_5cards
        rows = [tuple(row) for row in hands.tolist()]
        t, theirs = median_time(lambda: [five(*row) for row in rows], max(1, repeats // 2))
        report.row("phevaluator evaluate_5cards per hand (C)", t, len(rows), base)
        report.check("same order as phevaluator", same_order(ours, theirs, lower_is_stronger=True))


def bench_seven(hands: np.ndarray, repeats: int, mods: dict[str, Any], report: Report) -> None:
    rows = hands.tolist()
    report.section("best five of seven", len(rows))
    base, ours = median_time(lambda: rank_hands(hands), repeats)
    report.row("handsolver rank_hands (batch)", base, len(rows))
    few = rows[: max(1, len(rows) // 10)]
    t, scalar = median_time(lambda: [best_key(row) for row in few], repeats)
    report.row(f"best_key scalar, memo warm ({len(few):,} hands)", t, len(few))
    report.check("scalar best_key equals batch", scalar == ours[: len(few)].tolist())
    if "eval7" in mods:
        eval7 = mods["eval7"]
        cards = [[eval7.Card(card_name(c)) for c in row] for row in rows]
        t, theirs = median_time(lambda: [eval7.evaluate(h) for h in cards], repeats)
        report.row("eval7.evaluate (7 cards)", t, len(rows), base)
        report.check("same order as eval7", same_order(ours, theirs, lower_is_stronger=False))
    if "phevaluator._pheval" in mods:
        seven = mods["phevaluator._pheval"].evaluate_7cards
        t, theirs = median_time(lambda: [seven(*row) for row in rows], repeats)
        report.row("phevaluator evaluate_7cards (C)", t, len(rows), base)
        report.check("same order as phevaluator", same_order(ours, theirs, lower_is_stronger=True))
    if "treys" in mods:
        treys = mods["treys"]
        evaluator = treys.Evaluator()
        cards = [[treys.Card.new(card_name(c)) for c in row] for row in few]
        t, theirs = median_time(lambda: [evaluator.evaluate(h[:2], h[2:]) for h in cards], 1)
        report.row(f"treys Evaluator.evaluate ({len(few):,} hands)", t, len(few))
        report.check(
            "same order as treys", same_order(ours[: len(few)], theirs, lower_is_stronger=True)
        )


def bench_euler54(path: Path, repeats: int, report: Report) -> None:
    handsolver = shutil.which("handsolver") or str(Path(sys.executable).parent / "handsolver")
    print(f"\n== handsolver euler54 {path.name}, whole process ==")
    runs = max(repeats, 10)

    def run(command: list[str]) -> tuple[float, str]:
        return median_time(
            lambda: subprocess.run(command, capture_output=True, text=True, check=True).stdout, runs
        )

    bare, _ = run([sys.executable, "-c", "pass"])
    whole, answer = run([handsolver, "euler54", str(path), "--quiet"])
    help_only, _ = run([handsolver, "--help"])
    print(f"{'python -c pass':<44} {bare * 1e3:9.1f} ms")
    print(f"{'handsolver --help':<44} {help_only * 1e3:9.1f} ms")
    print(f"{'handsolver euler54 (target < 150 ms)':<44} {whole * 1e3:9.1f} ms")
    report.check("answer is 376", answer.strip() == "376")
    report.check("under 150 ms", whole < 0.150)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=54)
    parser.add_argument("--pe54", type=Path, default=PE54)
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    # Seven distinct cards per row: the first seven of a random permutation of the deck.
    sevens = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :7].astype(np.uint8)
    mods = peers()
    report = Report()
    bench_scalar5(sevens[:, :5], args.repeats, mods, report)
    bench_all_hands(args.repeats, mods, report)
    bench_seven(sevens, args.repeats, mods, report)
    if args.pe54.exists():
        bench_euler54(args.pe54, args.repeats, report)
    print("\nall checks passed" if not report.failed else "\nSOME CHECKS FAILED")
    sys.exit(1 if report.failed else 0)


if __name__ == "__main__":
    main()
