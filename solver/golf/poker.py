"""The ``poker`` challenge (Project Euler 54): Player 1's five against Player 2's five."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from handsolver.models import poker
from handsolver.models.cards import RANKS, Notation, parse_deal, rank_of, suit_of
from handsolver.solver.golf.challenge import (
    Case,
    CaseList,
    Hands,
    Showdown,
    distinct,
    find,
    random_hands,
    swap,
)

# The rows of p054_poker.txt the seed's notebook prints, and the five examples of the problem.
SEED_CASES = (
    "8C TS KC 9H 4S 7D 2S 5D 3S AC",
    "5C AD 5D AC 9C 7C 5H 8D TD KS",
    "3H 7H 6S KC JS QH TD JC 2D 8S",
    "TH 8H 5C QS TC 9H 4D JC KS JS",
    "7C 5H KC QH JD AS KH 4C AD 4S",
    "3S AD 9H JC 6D JD AS KH 6S JH",
    "AD 3D TS KS 7H JH 2D JS QD AC",
    "9C JD 7C 6D TC 6H 6C JC 3D 3S",
    "QC KC 3S JC KD 2C 8D AH QS TS",
    "5H 5C 6S 7S KD 2C 3S 8S 8D TD",
    "5D 8C 9S JS AC 2C 5C 7D 8S QH",
    "2D 9C AS AH AC 3D 6D 7D TD QD",
    "4D 6S 9H QH QC 3D 6D 7H QD QS",
    "2H 2D 4C 4D 4S 3C 3D 3S 9S 9D",
)

_ACE = 12
# Every straight's ranks, the wheel (A-2-3-4-5) first.
STRAIGHTS = ((_ACE, 0, 1, 2, 3),) + tuple(tuple(range(low, low + 5)) for low in range(9))


def _first_difference(left: Sequence[int], right: Sequence[int]) -> int:
    return next((i for i, (a, b) in enumerate(zip(left, right, strict=True)) if a != b), 5)


class PokerChallenge(Showdown):
    """PE54: the stronger 5-card poker hand wins (A-2-3-4-5 is the lowest straight); or a draw.

    Project Euler promises a clear winner, so with a ``--map`` that names no ``both`` the draw
    cases are left out.
    """

    name = "poker"
    seed_file = "project-euler-54-poker.txt"
    notation = Notation(upper_suits=True)
    hand_size = 5

    def winners(self, hands: Hands) -> Sequence[int]:
        return poker.winners(hands)

    def seed_line(self, hands: Hands) -> str:
        return " ".join(self.notation.format(card) for hand in hands for card in hand)

    def answer(self, hands: Hands) -> str:
        return {"left": "1", "right": "2", "both": "both"}[self.side(hands)]

    def describe(self, hands: Hands) -> str:
        keys = [poker.poker_key(hand) for hand in hands]
        left, right = (
            f"{poker.category_of(k)} {''.join(RANKS[r] for r in poker.key_ranks(k))}" for k in keys
        )
        relation = (
            "beats" if keys[0] > keys[1] else "loses to" if keys[0] < keys[1] else "draws with"
        )
        return f"{left} {relation} {right}"

    def draws_allowed(self) -> bool:
        return self.answer_map is None or "both" in self.answer_map.values()

    def notes(self) -> list[str]:
        if self.draws_allowed():
            return []
        return ["--map names no 'both', so draw cases are left out (PE54 has a clear winner)"]

    def cases(self, count: int, seed: int) -> list[Case]:
        out = super().cases(count, seed)
        if self.draws_allowed():
            return out
        return [case for case in out if len(self.winners(case.hands)) == 1]

    def neighbours(self, hands: Hands) -> Iterator[Hands]:
        # Shrinking must stay among the cases asked: no draws when the map cannot say one.
        near = super().neighbours(hands)
        if self.draws_allowed():
            return near
        return (case for case in near if len(self.winners(case)) == 1)

    def seed_cases(self) -> list[Case]:
        out = []
        for i, line in enumerate(SEED_CASES, 1):
            (cards,) = parse_deal(line, hand_size=10).hands
            out.append(Case(f"seed-{i}", (cards[:5], cards[5:])))
        return out

    def generated_cases(self, count: int, seed: int) -> list[Case]:
        rng = random.Random(seed)
        key = poker.poker_key
        out = CaseList(rng)

        def straight(ranks: Sequence[int], suits: Sequence[int]) -> tuple[int, ...]:
            # Off-suit unless all five suits given are equal.
            return tuple(rank * 4 + suits[i % len(suits)] for i, rank in enumerate(ranks))

        # Every straight against every other, wheel included; then straight flushes.
        for left in STRAIGHTS:
            for right in STRAIGHTS:
                hands = (straight(left, (0, 1)), straight(right, (2, 3)))
                out.append(Case(f"straights-{len(out) + 1}", hands))
        for _ in range(10):
            suits = rng.sample(range(4), 2)
            out.add(
                "straight-flush",
                (straight(STRAIGHTS[0], suits[:1]), straight(STRAIGHTS[1], suits[1:])),
            )
            out.add(
                "straight-flush",
                (straight(STRAIGHTS[0], suits[:1]), straight(STRAIGHTS[1], (0, 1, 2, 3))),
            )

        # Wheels against near misses: three of a kind, ace-high, 6-high straights.
        def against_wheel() -> Hands:
            wheel = straight(STRAIGHTS[0], rng.sample(range(4), 2))
            return (wheel, random_hands(rng, (5,))[0])

        for _ in range(20):
            out.add(
                "wheel",
                find(
                    rng,
                    against_wheel,
                    lambda h: distinct(h) and poker.category_index(key(h[1])) in (1, 3, 4),
                    3000,
                ),
            )
        # Kickers at every depth: the same category, equal down to position ``depth``.
        # (Positions are those of ``key_ranks``: a pair fills two, so depth 1 cannot differ.)
        depths = {
            poker.HIGH_CARD: (0, 1, 2, 3, 4),
            poker.PAIR: (0, 2, 3, 4),
            poker.TWO_PAIR: (0, 2, 4),
            poker.FLUSH: (0, 1, 2, 3, 4),
        }
        for category, category_depths in depths.items():
            for depth in category_depths:
                for _ in range(2):
                    out.add("kicker", self._kicker_case(rng, category, depth))
        # Draws: the same ranks in other suits.
        for _ in range(30):
            hand = random_hands(rng, (5,))[0]
            perm = rng.sample(range(4), 4)
            other = tuple(rank_of(card) * 4 + perm[suit_of(card)] for card in hand)
            if distinct((hand, other)) and key(hand) == key(other):
                out.add("draw", (hand, other))
        out += [Case(f"random-{i}", random_hands(rng, (5, 5))) for i in range(1, count + 1)]
        return out

    def _kicker_case(self, rng: random.Random, category: int, depth: int) -> Hands | None:
        key = poker.poker_key

        def make() -> Hands | None:
            if category == poker.FLUSH:
                suit, other = rng.sample(range(4), 2)
                ranks = rng.sample(range(13), 5)
                hand = tuple(rank * 4 + suit for rank in ranks)
                twin = [rank * 4 + other for rank in ranks]
            else:
                hand = random_hands(rng, (5,))[0]
                twin = [rank_of(card) * 4 + rng.randrange(4) for card in hand]
            position = rng.randrange(5)
            twin[position] = rng.randrange(13) * 4 + suit_of(twin[position])
            return (hand, tuple(twin))

        def ok(hands: Hands) -> bool:
            if not distinct(hands):
                return False
            keys = [key(hand) for hand in hands]
            return (
                poker.category_index(keys[0]) == category == poker.category_index(keys[1])
                and _first_difference(*(poker.key_ranks(k) for k in keys)) == depth
            )

        found = find(rng, make, ok, 4000)
        return found if found is None or rng.random() < 0.5 else swap(found)
