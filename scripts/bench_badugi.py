"""Badugi throughput: handsolver against pokerkit, side by side in one run.

Both evaluate the same 50,000 random hands and then all 270,725 4-card hands; the script checks
that both order the hands identically (including ties) and prints hands per second and ratios.
Run: python scripts/bench_badugi.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from itertools import combinations

from models.badugi import badugi_key, badugi_keys
from models.cards import DECK, card_name


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def same_order(hands: Sequence[Sequence[int]], keys: Sequence[int], pk_hands: Sequence[object]) -> bool:
    """Sort by our keys; pokerkit must agree on every neighbouring pair (< or ==)."""
    order = sorted(range(len(hands)), key=keys.__getitem__)
    for a, b in zip(order, order[1:]):
        ours_equal = keys[a] == keys[b]
        theirs_equal = pk_hands[a] == pk_hands[b]  # type: ignore[comparison-overlap]
        if ours_equal != theirs_equal or (not ours_equal and not pk_hands[a] < pk_hands[b]):  # type: ignore[operator]
            return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2017)
    args = parser.parse_args()

    from pokerkit import BadugiHand, Card

    rng = random.Random(args.seed)
    workloads = {
        "50,000 random hands": [tuple(rng.sample(DECK, 4)) for _ in range(50_000)],
        "all 270,725 hands": list(combinations(DECK, 4)),
    }
    pk_card = {card: next(iter(Card.parse(card_name(card)))) for card in DECK}
    for title, hands in workloads.items():
        import numpy as np

        array = np.array(hands)
        pk_inputs = [[pk_card[c] for c in hand] for hand in hands]
        repeats_pk = max(1, args.repeats // 2)
        ours = median_seconds(lambda: [badugi_key(h) for h in hands], args.repeats)
        batch = median_seconds(lambda: badugi_keys(array), args.repeats)
        theirs = median_seconds(lambda: [BadugiHand.from_game(h) for h in pk_inputs], repeats_pk)
        keys = [badugi_key(h) for h in hands]
        agree = same_order(hands, keys, [BadugiHand.from_game(h) for h in pk_inputs])
        assert badugi_keys(array).tolist() == keys
        n = len(hands)
        print(f"{title}: identical order with pokerkit: {agree}")
        for name, seconds in (
            ("handsolver badugi_key (scalar)", ours),
            ("handsolver badugi_keys (numpy batch)", batch),
            ("pokerkit BadugiHand.from_game", theirs),
        ):
            print(f"  {name:<38} {seconds:8.3f} s  {n / seconds:>12,.0f} hands/s"
                  f"  {theirs / seconds:6.1f}x pokerkit")


if __name__ == "__main__":
    main()
