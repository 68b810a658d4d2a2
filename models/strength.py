"""Hand strength: where a hand's value stands among every hand of its game."""

from __future__ import annotations

from typing import NamedTuple


class Strength(NamedTuple):
    """A hand's value placed among all ``total`` hands of its game's size.

    ``hand_class`` is 1 for the best distinct value; ``beats`` counts the hands strictly weaker,
    ``ties`` the *other* hands of equal value, so ``beats + ties + loses_to + 1 == total``.

    >>> s = Strength(hand_class=1, beats=270701, ties=23, total=270725)
    >>> s.loses_to, f"{s.share_beaten:.2%}"
    (0, '99.99%')
    """

    hand_class: int
    beats: int
    ties: int
    total: int

    @property
    def loses_to(self) -> int:
        return self.total - self.beats - self.ties - 1

    @property
    def share_beaten(self) -> float:
        return self.beats / self.total

    @property
    def share_tied(self) -> float:
        return self.ties / self.total
