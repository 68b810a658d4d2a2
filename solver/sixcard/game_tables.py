"""The six-card game as integer tables: hands and splits numbered, every round result between
splits, and the ways each pair of hands can be dealt together.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
from numpy.typing import NDArray

from handsolver.models.sixcard import (
    SIX_CARD,
    Game,
    Hand,
    Split,
    hand_ways,
    hands,
    parse_hand,
    parse_split,
    split_game,
    splits,
)

Plays = tuple[tuple[int, Fraction], ...]
"""A distribution over splits: (split index, probability > 0) pairs in split-index order."""

IntArray = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Tables:
    """The game's hands and splits as indices, and the integer data every computation shares.

    ``results[s, t]`` is the round result of split ``s`` against split ``t`` in half points
    (2 win, 1 draw, 0 loss), ``wins`` and ``draws`` its indicators.  ``pair_ways[h, g]`` counts
    the ways hand ``g`` can be dealt from the deck left after hand ``h`` (0 when the deck cannot
    hold both) and ``hand_ways[h]`` the ways hand ``h`` can be dealt; probabilities are these
    counts over ``deals`` and ``replies``.
    """

    game: Game
    hands: tuple[Hand, ...]
    hand_index: Mapping[Hand, int]
    splits: tuple[Split, ...]
    split_index: Mapping[Split, int]
    split_hand: IntArray
    hand_splits: tuple[range, ...]
    results: IntArray
    wins: IntArray
    draws: IntArray
    hand_ways: tuple[int, ...]
    pair_ways: IntArray
    deals: int
    replies: int

    def hand_of(self, text: str) -> int:
        return self.hand_index[parse_hand(text, self.game)]

    def split_of(self, text: str) -> int:
        return self.split_index[parse_split(text, self.game)]


@cache
def tables(game: Game = SIX_CARD) -> Tables:
    """The :class:`Tables` of ``game`` (computed once per game)."""
    all_hands = hands(game)
    all_splits: list[Split] = []
    ranges = []
    owner = []
    for index, hand in enumerate(all_hands):
        start = len(all_splits)
        all_splits.extend(splits(hand, game))
        ranges.append(range(start, len(all_splits)))
        owner.extend([index] * (len(all_splits) - start))
    halves = np.zeros((len(all_splits), len(all_splits)), dtype=np.int64)
    row_key = split_game(game).row_key
    for part in range(len(game.part_sizes)):
        keys = [row_key(part, split[part]) for split in all_splits]
        rank_of = {key: rank for rank, key in enumerate(sorted(set(keys)))}
        rank = np.array([rank_of[key] for key in keys], dtype=np.int64)
        halves += 2 * (rank[:, None] > rank[None, :]) + (rank[:, None] == rank[None, :])
    parts = len(game.part_sizes)
    results = 2 * (halves > parts) + (halves == parts)
    pair_ways = np.array(
        [[hand_ways(g, game, taken=h) for g in all_hands] for h in all_hands], dtype=np.int64
    )
    return Tables(
        game=game,
        hands=all_hands,
        hand_index={hand: i for i, hand in enumerate(all_hands)},
        splits=tuple(all_splits),
        split_index={split: i for i, split in enumerate(all_splits)},
        split_hand=np.array(owner, dtype=np.int64),
        hand_splits=tuple(ranges),
        results=results.astype(np.int64),
        wins=(results == 2).astype(np.int64),
        draws=(results == 1).astype(np.int64),
        hand_ways=tuple(hand_ways(hand, game) for hand in all_hands),
        pair_ways=pair_ways,
        deals=math.comb(game.deck_size, game.hand_size),
        replies=math.comb(game.deck_size - game.hand_size, game.hand_size),
    )
