"""A correct answer to Project Euler 54 as a verify challenge: who wins each deal.

Reads one deal per line, ten cards (Player 1's five, then Player 2's, "8C TS KC 9H 4S 7D 2S 5D
3S AC"), and prints 1, 2 or both.

    handsolver verify poker --cmd "python3 examples/poker_answer.py"
"""

import sys
from collections import Counter

RANKS = "23456789TJQKA"


def value(hand):
    """A tuple that orders poker hands: the category first, then the ranks that decide ties."""
    ranks = sorted((RANKS.index(card[0].upper()) for card in hand), reverse=True)
    flush = len({card[1].upper() for card in hand}) == 1
    if ranks == [12, 3, 2, 1, 0]:
        ranks = [3, 2, 1, 0, -1]  # the wheel, A-2-3-4-5, is the lowest straight
    straight = len(set(ranks)) == 5 and ranks[0] - ranks[4] == 4
    # Ranks by how often they appear, then by rank: trips before the pair of a full house.
    groups = sorted(Counter(ranks).items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = [count for _, count in groups]
    order = [rank for rank, _ in groups]
    if straight and flush:
        category = 8
    elif shape == [4, 1]:
        category = 7
    elif shape == [3, 2]:
        category = 6
    elif flush:
        category = 5
    elif straight:
        category = 4
    elif shape == [3, 1, 1]:
        category = 3
    elif shape == [2, 2, 1]:
        category = 2
    elif shape == [2, 1, 1, 1]:
        category = 1
    else:
        category = 0
    return category, order


def winner(line):
    cards = line.split()
    first, second = value(cards[:5]), value(cards[5:])
    return "both" if first == second else "1" if first > second else "2"


for line in sys.stdin:
    if line.strip():
        print(winner(line), flush=True)
