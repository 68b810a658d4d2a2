"""One hand's plays, listed once by size and strength: what every search and playout of a deal
in play looks up instead of listing a hand's plays again at each turn.

A play is a :data:`~.state.PlayTuple`, ``(mask, size, strength)``; the plays of a smaller
hand are those listed whose mask lies inside it, so the plays of a starting hand serve every
hand it becomes.

>>> from handsolver.models.big2 import SEED_RULES
>>> from handsolver.models.cards import card_name, cards_of, mask_of, parse_cards
>>> hand = mask_of(parse_cards("3d 3c 9h"))
>>> plays = hand_plays(hand, SEED_RULES)
>>> [size for _, size, _ in plays.leads]
[2, 1, 1, 1]
>>> three = plays.strengths[mask_of(parse_cards("3d"))]  # what beats a 3d:
>>> [card_name(cards_of(mask)[0]) for mask, _, _ in beating_plays(plays, hand, 1, three)]
['3c', '9h']
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache

from handsolver.models.big2 import PlayKind, iter_legal_plays
from handsolver.models.big2_order import BOMB_KINDS, play_strength
from handsolver.models.big2_rules import Rules
from handsolver.models.cards import CardSet

__all__ = ["DEUCE_KEY", "HandPlays", "PlayTuple", "beating_plays", "hand_plays"]

PlayTuple = tuple[CardSet, int, int]
"""A play as (mask, size, strength); strengths compare within a size."""
#: A single's strength is its card key: the twos are the keys from 48 up.
DEUCE_KEY = 48


class HandPlays:
    """Every play of one hand, listed once.

    ``leads``: by size (largest first), then strength (lowest first); ``replies[size]``: the
    strengths and plays of that size, lowest first (equal strengths in the order of the
    leads); ``bombs``: the plays that beat a single two, by strength, where the rules have
    bombs (else none); ``kinds`` and ``strengths``: each play's kind and strength by mask
    (a hand is one play exactly when it is a key of ``kinds``).
    """

    __slots__ = ("bombs", "kinds", "leads", "replies", "strengths")

    def __init__(self, hand: CardSet, rules: Rules) -> None:
        listed = [
            (play.mask, play.kind.size, play_strength(play, rules), play.kind)
            for play in iter_legal_plays(hand, rules=rules)
        ]
        listed.sort(key=lambda play: (-play[1], play[2]))
        self.leads: list[PlayTuple] = [(mask, size, strength) for mask, size, strength, _ in listed]
        self.kinds: dict[CardSet, PlayKind] = {mask: kind for mask, _, _, kind in listed}
        self.strengths: dict[CardSet, int] = {mask: strength for mask, _, strength, _ in listed}
        by_size: dict[int, list[PlayTuple]] = {}
        for play in sorted(self.leads, key=lambda play: play[2]):
            by_size.setdefault(play[1], []).append(play)
        self.replies: dict[int, tuple[list[int], list[PlayTuple]]] = {
            size: ([play[2] for play in plays], plays) for size, plays in by_size.items()
        }
        self.bombs: list[PlayTuple] = []
        if rules.bombs:
            self.bombs = [(m, s, st) for m, s, st, kind in listed if kind in BOMB_KINDS]
            self.bombs.sort(key=lambda play: play[2])


@lru_cache(maxsize=1 << 12)
def hand_plays(hand: CardSet, rules: Rules) -> HandPlays:
    """The plays of ``hand`` (cached: a player's own hand recurs in every sampled deal)."""
    return HandPlays(hand, rules)


def beating_plays(mine: HandPlays, hand: CardSet, size: int, strength: int) -> Iterator[PlayTuple]:
    """The plays inside ``hand`` that beat (size, strength), lowest first, bombs last (a bomb
    beats a single two or above)."""
    listed = mine.replies.get(size)
    if listed is not None:
        strengths, plays = listed
        for index in range(bisect_right(strengths, strength), len(plays)):
            play = plays[index]
            if play[0] & hand == play[0]:
                yield play
    if mine.bombs and size == 1 and strength >= DEUCE_KEY:
        yield from (play for play in mine.bombs if play[0] & hand == play[0])
