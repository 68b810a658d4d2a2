"""The count of small plays a set of cards needs, and lower bounds on the plays of a whole hand
(what play sizes 1, 2, 3 and 5 allow).
"""

from __future__ import annotations

from handsolver.models.cards import CardSet

_NIBBLES_1 = int("1" * 13, 16)
_NIBBLES_3 = _NIBBLES_1 * 3
_NIBBLES_5 = _NIBBLES_1 * 5


def small_plays_needed(rest: CardSet) -> int:
    """The fewest singles, pairs and triples that play ``rest``: sum of ``ceil(c / 3)`` by rank.

    >>> from handsolver.models.cards import mask_of, parse_cards
    >>> small_plays_needed(mask_of(parse_cards("3c 3d 3h 3s 4c 5c 5d")))
    4
    """
    # Per-rank card counts, one per nibble; ceil(c/3) is 1 for any card plus 1 for all four.
    x = rest - ((rest >> 1) & _NIBBLES_5)
    x = (x & _NIBBLES_3) + ((x >> 2) & _NIBBLES_3)
    return ((x | x >> 1 | x >> 2) & _NIBBLES_1).bit_count() + ((x >> 2) & _NIBBLES_1).bit_count()


def fewest_with_fives(rest: CardSet, least: int) -> int:
    """A lower bound on the plays for ``rest`` when at least ``least`` of them have five cards.

    Relax five-card plays to "any five cards": taking ``b`` cards out of the small plays saves
    at most one play per card from ranks holding one card (or the first card of four), one per
    two cards from ranks of two, one per three from ranks of three (or the rest of four).
    """
    x = rest - ((rest >> 1) & _NIBBLES_5)
    x = (x & _NIBBLES_3) + ((x >> 2) & _NIBBLES_3)
    low, mid, high = x & _NIBBLES_1, (x >> 1) & _NIBBLES_1, (x >> 2) & _NIBBLES_1
    fours = high.bit_count()
    cheap = (low & ~mid).bit_count() + fours  # ranks of one card, first card of four
    twos = (mid & ~low).bit_count()
    threes = (low & mid).bit_count() + fours
    small = cheap + twos + threes
    best = small if least == 0 else rest.bit_count()
    for plays in range(max(least, 1), rest.bit_count() // 5 + 1):
        budget = 5 * plays
        saved = min(budget, cheap)
        budget -= saved
        by_two = min(budget // 2, twos)
        saved += by_two + min((budget - 2 * by_two) // 3, threes)
        best = min(best, plays + small - saved)
    return best


def plays_lower_bound(hand: CardSet) -> int:
    """A lower bound on the fewest plays for ``hand`` from its rank counts and size alone.

    >>> from handsolver.models.cards import mask_of, parse_cards
    >>> spades = mask_of(parse_cards("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"))
    >>> count_lower_bound(13), plays_lower_bound(spades)
    (3, 5)
    """
    return max(count_lower_bound(hand.bit_count()), fewest_with_fives(hand, 0))


# The small plays n leftover cards need beyond whole fives (no play has four cards).
EXTRA_PLAYS = (0, 1, 1, 1, 2)


def count_lower_bound(cards: int) -> int:
    """The fewest plays that can hold ``cards`` cards, when plays have 1, 2, 3 or 5 cards.

    Five-card plays take ``cards // 5`` plays; a remainder of 1, 2 or 3 takes one more play and
    a remainder of 4 two more (there is no four-card play).

    >>> [count_lower_bound(n) for n in (13, 39, 52)]
    [3, 9, 11]
    """
    return cards // 5 + EXTRA_PLAYS[cards % 5]
