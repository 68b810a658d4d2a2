"""A correct answer to the Big 2 challenge: a hand split into the fewest legal plays.

Reads one hand per line ("AS,4H,6D,8C,7C,3S,5H,8D,4C,2S,0C,AD,AH"; ten may be 0, T or 10) and
prints its plays separated by ", ", each play's cards run together, in the hand's notation
("8D8CADAHAS, 3S4C5H6D2S, 4H, 7C, 0C").

The idea: once the five-card plays (straight, flush, full house, four of a kind + 1, straight
flush) are chosen, the cards left are best played by rank, three at most to a play, so a rank
with c cards left costs ceil(c / 3) plays.  A search over sets of five-card plays, with a memo
on the cards still in hand, finds the minimum.

    handsolver verify big2 --cmd "python3 examples/big2_answer.py"
"""

import sys
from functools import cache
from itertools import combinations

RANKS = "A23456789TJQK"  # positions only; Big 2's own order does not matter for counting
# A straight is five consecutive ranks; the ace ends one at either end (A2345 and TJQKA) and
# never sits in the middle, so JQKA2 is not a straight.
STRAIGHTS = [set(range(low, low + 5)) for low in range(9)] + [{9, 10, 11, 12, 0}]


def rank_of(token):
    text = token[:-1].upper()
    return 9 if text in ("0", "10") else RANKS.index(text)


def five_card_plays(cards):
    """Every five-card play in the hand, as frozensets of card indices."""
    by_rank, by_suit = {}, {}
    for i, (rank, suit) in enumerate(cards):
        by_rank.setdefault(rank, []).append(i)
        by_suit.setdefault(suit, []).append(i)
    plays = set()
    for window in STRAIGHTS:
        if window <= by_rank.keys():
            groups = [by_rank[rank] for rank in window]
            plays.update(frozenset(pick) for pick in _product(groups))
    for same_suit in by_suit.values():
        plays.update(frozenset(five) for five in combinations(same_suit, 5))
    for rank, triple_cards in by_rank.items():
        for other, other_cards in by_rank.items():
            if other == rank:
                continue
            for triple in combinations(triple_cards, 3):
                plays.update(frozenset(triple + pair) for pair in combinations(other_cards, 2))
            if len(triple_cards) == 4:
                plays.update(frozenset([*triple_cards, one]) for one in other_cards)
    return sorted(plays, key=sorted)


def _product(groups):
    if not groups:
        yield ()
        return
    for first in groups[0]:
        for rest in _product(groups[1:]):
            yield (first, *rest)


def fewest_plays(tokens):
    cards = [(rank_of(token), token[-1].upper()) for token in tokens]
    plays = five_card_plays(cards)

    def by_rank(left):
        """The cards left played by rank, three at most to a play."""
        groups = {}
        for i in sorted(left):
            groups.setdefault(cards[i][0], []).append(i)
        return [group[start : start + 3] for group in groups.values() for start in (0, 3)]

    @cache
    def best(left):
        """The fewest plays for the cards in `left`, and the five-card plays that reach it."""
        result = (sum(1 for group in by_rank(left) if group), ())
        for play in plays:
            if play <= left:
                count, chosen = best(left - play)
                if count + 1 < result[0]:
                    result = (count + 1, (play, *chosen))
        return result

    everything = frozenset(range(len(cards)))
    _, chosen = best(everything)
    left = everything.difference(*chosen)
    groups = [sorted(play) for play in chosen] + [group for group in by_rank(left) if group]
    return ["".join(tokens[i] for i in group) for group in groups]


for line in sys.stdin:
    tokens = [token for token in line.replace(",", " ").split() if token]
    if tokens:
        print(", ".join(fewest_plays(tokens)), flush=True)
