"""The ``badugi`` challenge (badugi-who-wins): two 4-card hands, who wins the showdown."""

from __future__ import annotations

import random
from collections.abc import Sequence

from handsolver.models import badugi
from handsolver.models.cards import Card, parse_deal, rank_of, suit_of
from handsolver.solver.golf.challenge import (
    Case,
    CaseList,
    Hands,
    Showdown,
    distinct,
    find,
    random_hands,
)

SEED_CASES = (
    "3c 2s 4d Ah - As 3h 2d 4h",
    "3c 2s 4d Ah - As 2c 3d 4h",
    "2d Ac 4h 3c - Kh Ad 9s 2c",
    "Kc Tc Qc Jc - Ac Ad Ah As",
    "9c 9h Qc Qh - Qs Kh Jh Kd",
    "2d 5h 7c 5s - 2h 3c 8d 6c",
    "3s 6c 2d Js - 6h Jd 3c 2s",
    "Ah 6d 4d Ac - 3h 2c 3s 2s",
    "2h 8h 6h 4h - 6d 2d 5d 8d",
)

# Ace low: poker rank 12 (ace) is Badugi rank 0, the deuce 1, ..., the king 12.
LOW_ORDER = tuple((rank + 1) % 13 for rank in range(13))


def greedy_played(hand: Sequence[Card]) -> tuple[Card, ...]:
    """The shortcut many answers take: lowest card first, keep it if rank and suit are new."""
    ranks: set[int] = set()
    suits: set[int] = set()
    kept = []
    for card in sorted(hand, key=lambda c: (LOW_ORDER[rank_of(c)], suit_of(c))):
        if rank_of(card) not in ranks and suit_of(card) not in suits:
            ranks.add(rank_of(card))
            suits.add(suit_of(card))
            kept.append(card)
    return tuple(kept)


class BadugiChallenge(Showdown):
    """Badugi showdown: the hand playing more off-rank off-suit cards wins, then the lower."""

    name = "badugi"
    seed_file = "badugi-who-wins.txt"
    rank_order = LOW_ORDER

    def winners(self, hands: Hands) -> Sequence[int]:
        return badugi.winners(hands)

    def describe(self, hands: Hands) -> str:
        keys = [badugi.badugi_key(hand) for hand in hands]
        left, right = (badugi.describe_key(key) for key in keys)
        relation = (
            "beats" if keys[0] > keys[1] else "loses to" if keys[0] < keys[1] else "draws with"
        )
        return f"{self.side_cards(hands, self.side(hands))}: {left} {relation} {right}"

    def seed_cases(self) -> list[Case]:
        return [Case(f"seed-{i}", parse_deal(line).hands) for i, line in enumerate(SEED_CASES, 1)]

    def generated_cases(self, count: int, seed: int) -> list[Case]:
        rng = random.Random(seed)
        key = badugi.badugi_key
        out = CaseList(rng)

        # Greedy traps: the greedy sub-hand is worse than the best, and the opponent sits
        # between the two, so a greedy answer names the wrong winner.
        for _ in range(40):
            out.add(
                "greedy-trap",
                find(
                    rng,
                    lambda: random_hands(rng, (4, 4)),
                    lambda h: (
                        key(greedy_played(h[0])) <= key(h[1]) < key(h[0])
                        and key(greedy_played(h[1])) == key(h[1])
                    ),
                    2000,
                ),
            )
        # Same-rank / same-suit traps: hands drawn from a few ranks and two or three suits.
        for _ in range(40):
            ranks = rng.sample(range(13), rng.choice((3, 4, 5)))
            suits = rng.sample(range(4), rng.choice((2, 3)))
            pool = [rank * 4 + suit for rank in ranks for suit in suits]
            if len(pool) >= 8:
                cards = rng.sample(pool, 8)
                out.add("crowded", (tuple(cards[:4]), tuple(cards[4:])))
        # 1-card hands: four of a rank (every pair of ranks) and four of a suit.
        for low in range(13):
            for high in range(13):
                if low != high:
                    out.append(
                        Case(
                            f"quads-{len(out) + 1}",
                            (
                                tuple(range(low * 4, low * 4 + 4)),
                                tuple(range(high * 4, high * 4 + 4)),
                            ),
                        )
                    )
        for _ in range(20):
            suit, other = rng.sample(range(4), 2)
            ranks = rng.sample(range(13), 8)
            left = tuple(rank * 4 + suit for rank in ranks[:4])
            right = tuple(rank * 4 + (suit if rng.random() < 0.5 else other) for rank in ranks[4:])
            out.add("one-suit", (left, right))
        # Exact draws: the same ranks under a suit permutation, and chance draws of low hands.
        for _ in range(30):
            left = random_hands(rng, (4,))[0]
            perm = rng.sample(range(4), 4)
            right = tuple(rank_of(card) * 4 + perm[suit_of(card)] for card in left)
            hands = (left, tuple(rng.sample(right, 4)))
            if distinct(hands):
                out.add("draw", hands)
        for _ in range(30):
            out.add(
                "draw",
                find(
                    rng,
                    lambda: random_hands(rng, (4, 4)),
                    lambda h: key(h[0]) == key(h[1]),
                    3000,
                ),
            )
        out += [Case(f"random-{i}", random_hands(rng, (4, 4))) for i in range(1, count + 1)]
        return out
