"""A wrong answer to the Badugi challenge, kept to show what `handsolver verify` reports.

It builds each hand greedily: the lowest card first, then every card whose rank and suit are
both new.  That misses better hands: from Ad Ah 2d 3s it keeps Ad, so 2d can never play and
the hand is 3-A instead of 3-2-A.

    handsolver verify badugi --cmd "python3 examples/badugi_greedy.py"
"""

import sys

RANKS = "A23456789TJQK"  # ace low


def value(hand):
    ranks, suits = set(), set()
    for rank, suit in sorted((RANKS.index(card[0].upper()), card[1].lower()) for card in hand):
        if rank not in ranks and suit not in suits:
            ranks.add(rank)
            suits.add(suit)
    return len(ranks), sorted(-rank for rank in ranks)


def winner(line):
    left, right = (value(part.split()) for part in line.split("-"))
    return "both" if left == right else "left" if left > right else "right"


for line in sys.stdin:
    if line.strip():
        print(winner(line), flush=True)
