"""Badugi throughput: handsolver against pokerkit, side by side in one run.

Both evaluate the same 50,000 random hands and then all 270,725 4-card hands; the script checks
that both order the hands identically (ties included) and prints hands per second and ratios.
Run: python scripts/bench_badugi.py [--repeats 5] (needs the bench extra for pokerkit).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from itertools import combinations, pairwise
from typing import Any

import numpy as np
from timing import median_time

from handsolver.models.badugi import badugi_key, badugi_keys
from handsolver.models.cards import DECK, card_name


def same_order(keys: Sequence[int], pk_hands: Sequence[Any]) -> bool:
    """Sort by our keys; pokerkit must agree on every neighbouring pair (< or ==)."""
    order = sorted(range(len(keys)), key=keys.__getitem__)
    for a, b in pairwise(order):
        ours_equal = keys[a] == keys[b]
        if ours_equal != (pk_hands[a] == pk_hands[b]):
            return False
        if not ours_equal and not pk_hands[a] < pk_hands[b]:
            return False
    return True


def compare(title: str, hands: list[tuple[int, ...]], repeats: int) -> None:
    from pokerkit import BadugiHand, Card

    pk_card = {card: next(iter(Card.parse(card_name(card)))) for card in DECK}
    pk_inputs = [[pk_card[c] for c in hand] for hand in hands]
    array = np.array(hands)
    keys = [badugi_key(h) for h in hands]
    assert badugi_keys(array).tolist() == keys
    agree = same_order(keys, [BadugiHand.from_game(h) for h in pk_inputs])

    ours, _ = median_time(lambda: [badugi_key(h) for h in hands], repeats)
    batch, _ = median_time(lambda: badugi_keys(array), repeats)
    ranked, _ = median_time(lambda: sorted(hands, key=badugi_key), repeats)
    theirs, _ = median_time(
        lambda: [BadugiHand.from_game(h) for h in pk_inputs], max(1, repeats // 2)
    )
    print(f"{title}: identical order with pokerkit: {agree}")
    for name, seconds in (
        ("handsolver badugi_key (scalar)", ours),
        ("handsolver badugi_keys (numpy batch)", batch),
        ("handsolver sorted(hands, key=badugi_key)", ranked),
        ("pokerkit BadugiHand.from_game", theirs),
    ):
        print(
            f"  {name:<42} {seconds:8.3f} s  {len(hands) / seconds:>12,.0f} hands/s"
            f"  {theirs / seconds:6.1f}x pokerkit"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2017)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    random_hands = [tuple(rng.sample(DECK, 4)) for _ in range(50_000)]
    compare("50,000 random hands", random_hands, args.repeats)
    compare("all 270,725 hands", list(combinations(DECK, 4)), args.repeats)


if __name__ == "__main__":
    main()
