"""How the whole game's house-way counts change when a house way is read another way, exactly,
without running the whole game again.

Only hands whose house-way setting changes (the set C) matter. With r the old setting's keys and
r' the new, the change of the player-wins count over all pairs (P, D) is

    sum over P in C, all D:  out(r'P, r'D) - out(rP, r'D)   (the player's change)
  + sum over all P, D in C:  out(rP, r'D) - out(rP, rD)     (the dealer's change)

and likewise for losses.  The first sum needs, for each changed hand, the histogram of the new
dealer results over the 46 cards it leaves; the second, the histogram of the old player results
over the 46 cards a changed dealer hand leaves (the same function: both sides set by the same
house way).  Changed hands are found among the rank classes whose plan changes, each hand up to
suit permutations with its multiplicity.

    python scripts/paigow_reading_delta.py            # the Foxwoods readings listed below
"""

from __future__ import annotations

import dataclasses
import sys
from fractions import Fraction

import numpy as np

from handsolver.models.paigow import DEFAULT_RULES, Rules
from handsolver.models.paigow_houseway import FOXWOODS, HouseWay, RankRule, plan_of
from handsolver.solver.paigow import dealer_histogram, house_way_arrays, tables
from handsolver.solver.paigow.game_tables import setup
from handsolver.solver.paigow.hand_types import FULL_DECK, Deck
from handsolver.solver.paigow.suits import suit_patterns

PUBLISHED = (2_402_491_783_820_756, 3_341_087_256_920_524, 2_506_879_990_473_120)


def cumulative(histogram: np.ndarray) -> np.ndarray:
    out = np.zeros((histogram.shape[0] + 1, histogram.shape[1] + 1), dtype=np.int64)
    out[1:, 1:] = histogram.cumsum(axis=0).cumsum(axis=1)
    return out


def player_counts(cum: np.ndarray, h: int, lo: int) -> tuple[int, int]:
    """Player at (h, lo) against a dealer histogram: wins (both below) and losses (both at or
    above)."""
    total = int(cum[-1, -1])
    win = int(cum[h, lo])
    loss = total - int(cum[h, -1]) - int(cum[-1, lo]) + win
    return win, loss


def dealer_counts(cum: np.ndarray, h: int, lo: int) -> tuple[int, int]:
    """Player hands of a histogram against a dealer at (h, lo): player wins (both above) and
    losses (both at or below)."""
    total = int(cum[-1, -1])
    loss = int(cum[h + 1, lo + 1])
    win = total - int(cum[h + 1, -1]) - int(cum[-1, lo + 1]) + loss
    return win, loss


def changed_hands(old: HouseWay, new: HouseWay, rules: Rules, deck: Deck = FULL_DECK):
    """(cards, multiplicity, old keys, new keys) of every hand (up to suits) set differently."""
    s = setup(old, rules, deck)
    t = s.tables
    found = []
    for index in s.player_classes.tolist():
        counts = [int(c) for c in t.class_counts[index]]
        joker = bool(t.class_joker[index])
        pattern = list(counts)
        pattern[12] += joker
        if plan_of(old, pattern) == plan_of(new, pattern):
            continue
        support = [r for r in range(13) if counts[r]]
        masks, ways = suit_patterns(tuple(counts[r] for r in support))
        hands = np.array(
            [
                [
                    r * 4 + s
                    for r, m in zip(support, pattern_masks, strict=True)
                    for s in range(4)
                    if m >> s & 1
                ]
                + [52] * joker
                for pattern_masks in masks
            ],
            dtype=np.int64,
        )
        _, _, h0, l0 = house_way_arrays(hands, old, rules)
        _, _, h1, l1 = house_way_arrays(hands, new, rules)
        for row in np.flatnonzero((h0 != h1) | (l0 != l1)):
            found.append(
                (
                    hands[row].tolist(),
                    ways[row],
                    (int(h0[row]), int(l0[row])),
                    (int(h1[row]), int(l1[row])),
                )
            )
    return found


def delta(
    old: HouseWay, new: HouseWay, rules: Rules = DEFAULT_RULES, deck: Deck = FULL_DECK
) -> tuple[int, int, int, int]:
    """Changed hands, and the change in the player's wins, pushes and losses over all pairs."""
    t_old, t_new = tables(old, rules), tables(new, rules)
    d_win = d_loss = 0
    hands = changed_hands(old, new, rules, deck)
    for cards, weight, before, after in hands:
        left = [c for c in deck.cards if c not in cards]
        dealers = cumulative(dealer_histogram(t_new, left))
        w1, l1 = player_counts(dealers, *after)
        w0, l0 = player_counts(dealers, *before)
        players = cumulative(dealer_histogram(t_old, left))
        w2, l2 = dealer_counts(players, *after)
        w3, l3 = dealer_counts(players, *before)
        d_win += weight * (w1 - w0 + w2 - w3)
        d_loss += weight * (l1 - l0 + l2 - l3)
    return sum(w for _, w, _, _ in hands), d_win, -d_win - d_loss, d_loss


def main() -> None:
    base = tuple(int(v) for v in sys.argv[1:4]) if len(sys.argv) >= 4 else None
    replace = dataclasses.replace
    variants = {
        "full house: 2s stay with A-K": replace(FOXWOODS, full_house_keep=frozenset({"2"})),
        "quads 7-T stay only with an ace": replace(
            FOXWOODS,
            quads=(
                RankRule(("2", "6"), "always"),
                RankRule(("7", "T"), "A"),
                RankRule(("J", "A"), "never"),
            ),
        ),
        "quads J-K stay with an ace": replace(
            FOXWOODS,
            quads=(
                RankRule(("2", "6"), "always"),
                RankRule(("7", "T"), "K"),
                RankRule(("J", "K"), "A"),
                RankRule(("A", "A"), "never"),
            ),
        ),
        "no ace rule for a pair with a straight": replace(FOXWOODS, pair_ace_low=None),
        "one pair and a straight: highest cards": replace(FOXWOODS, pair_straight_by_cards=True),
    }
    for name, way in variants.items():
        changed, win, push, loss = delta(FOXWOODS, way)
        line = f"{name}: {changed:,} hands change; win {win:+,} push {push:+,} loss {loss:+,}"
        if base is not None:
            counts = (base[0] + win, base[1] + push, base[2] + loss)
            gap = tuple(p - c for p, c in zip(PUBLISHED, counts, strict=True))
            line += f" -> {counts[0]:,} {counts[1]:,} {counts[2]:,}; published minus this {gap}"
            total = sum(counts)
            line += f" EV {float(Fraction(19 * counts[0] - 20 * counts[2], 20 * total)):+.6f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
