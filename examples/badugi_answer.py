"""A correct answer to the Badugi challenge, written to be read rather than golfed.

Reads one showdown per line, two hands split by '-' ("3c 2s 4d Ah - As 3h 2d 4h"), and prints
who wins: left, right or both (a draw).

    handsolver verify badugi --cmd "python3 examples/badugi_answer.py"
"""

import sys
from itertools import combinations

RANKS = "A23456789TJQK"  # ace low


def value(hand):
    """The hand's Badugi value; greater is better.

    A hand plays its largest set of cards with distinct ranks and distinct suits.  More cards
    beat fewer; between equal sizes the lower top card wins, then the next, and so on.
    """
    cards = [(RANKS.index(card[0].upper()), card[1].lower()) for card in hand]
    for size in range(4, 0, -1):
        playable = [
            sub
            for sub in combinations(cards, size)
            if len({rank for rank, _ in sub}) == size and len({suit for _, suit in sub}) == size
        ]
        if playable:
            # Lower ranks are better, so compare the negated ranks from the highest down.
            return size, max(tuple(sorted((-rank for rank, _ in sub))) for sub in playable)
    raise ValueError(f"empty hand {hand!r}")


def winner(line):
    left, right = (value(part.split()) for part in line.split("-"))
    return "both" if left == right else "left" if left > right else "right"


for line in sys.stdin:
    if line.strip():
        print(winner(line), flush=True)
