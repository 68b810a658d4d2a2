"""A Chinese poker strategy: the three lowest cards in front, the next five in the middle."""

import sys

ORDER = "23456789TJQKA"
for line in sys.stdin:
    cards = sorted(line.split(), key=lambda card: ORDER.index(card[0].upper()))
    print(" ".join(cards[:3]), "|", " ".join(cards[3:8]), "|", " ".join(cards[8:]))
