"""A fast open-face player for playouts (Pineapple or classic): each street placed by a cheap
judgement of the partial board that prices the fouls in the making.

A board is three row masks (bottom, middle, top).  Each row is judged once (cached by its
mask): its royalty when complete, else what its cards promise (a pair or better, a flush or
straight draw on the bottom and middle, a pair of sixes or better on top and fantasyland with
queens or better), and its **level** (category, then main rank, on the 5-card scale; the top's
trips and pairs on the same scale).  The board's worth is the rows' worth less, for each row
that outranks the row below it, the cost of a foul times the chance the lower row does not
catch up with the places it has left (certain when both rows are complete and the order keys
say so).  The last street is played by its best action, exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from handsolver.models.cards import JOKERS, Card, cards_of
from handsolver.models.ofc import BOTTOM, HAND_SIZE, MIDDLE, TOP
from handsolver.models.poker import (
    FULL_HOUSE,
    PAIR,
    QUADS,
    TRIPS,
    TWO_PAIR,
    category_index,
    key_ranks,
)
from handsolver.solver.ofc.play import CAPACITY, FOUL_POINTS, Scorer, rank_counts

Masks = tuple[int, int, int]
"""A board being built as row masks: bottom, middle, top."""
FOUL_COST = 10.0
"""What the judgement charges for a foul: the scoop and the royalties it usually forgoes."""
CATCH_UP_MISSES = (1.0, 0.9, 0.8, 0.7, 0.6, 0.5)
"""The chance a lower row that is outranked now stays outranked, by its free places."""
LEVEL_OF_COUNTS = {(4,): QUADS, (3, 2): FULL_HOUSE, (3,): TRIPS, (2, 2): TWO_PAIR, (2,): PAIR}
_LEVEL = 13  # a level is category * 13 + main rank


def _shape(cards: Sequence[Card]) -> tuple[tuple[int, int], ...]:
    """The ranks' (count, rank) pairs, most repeated first, then highest (a joker one more of
    the most repeated: :func:`~handsolver.solver.ofc.play.rank_counts`)."""
    counts = rank_counts(cards)
    return tuple(sorted(((n, rank) for rank, n in counts.items()), reverse=True))


def _made_level(shape: tuple[tuple[int, int], ...]) -> int:
    """The level of the ranks' repeats alone (no straight or flush)."""
    if not shape:
        return -1
    counts = tuple(n for n, _ in shape if n >= 2)[:2]
    category = LEVEL_OF_COUNTS.get(counts, 0)
    return category * _LEVEL + shape[0][1]


class Judge:
    """The cheap judgement of partial boards for one table's rules and fantasyland value."""

    def __init__(self, scorer: Scorer, fantasy_value: float) -> None:
        self.scorer = scorer
        self.fantasy_value = fantasy_value
        self.rows: dict[int, tuple[float, int, int]] = {}

    def row(self, index: int, mask: int) -> tuple[float, int, int]:
        """(worth, level, order key or -1) of a row given as a mask (cached)."""
        found = self.rows.get(mask * 3 + index)
        if found is None:
            found = self._judged(index, mask)
            self.rows[mask * 3 + index] = found
        return found

    def _judged(self, index: int, mask: int) -> tuple[float, int, int]:
        cards = cards_of(mask)
        size = CAPACITY[index]
        free = size - len(cards)
        shape = _shape(cards)
        level = _made_level(shape)
        if free == 0:
            key, order, royalty = self.scorer.row(index, mask)
            if index != TOP:
                level = category_index(key) * _LEVEL + key_ranks(key)[0]
            worth = float(royalty) + level / (_LEVEL * 4)
            if index == TOP and level >= PAIR * _LEVEL + 10:
                worth += self.fantasy_value
            return worth, level, order
        worth = level / (_LEVEL * 4) if level >= 0 else 0.0
        if index == TOP:
            top_rank = shape[0][1] if shape else -1
            if shape and shape[0][0] == 3:
                worth += 10 + top_rank
                if self.fantasy_value:
                    worth += self.fantasy_value
            elif shape and shape[0][0] == 2:
                worth += max(0, top_rank - 3)
                if top_rank >= 10:
                    worth += self.fantasy_value * 0.8
            elif shape:
                worth -= top_rank / 13  # a high card on top makes the middle's job harder
            return worth, level, -1
        weight = 1.5 if index == BOTTOM else 1.0
        for n, rank in shape:
            if n >= 2:
                worth += weight * (n - 1 + rank / 13)
            worth += weight * n * rank / 65  # high cards low on the board
        real = [card for card in cards if card not in JOKERS]  # a joker fits any draw
        suits = {card & 3 for card in real}
        if len(suits) <= 1 and len(cards) >= 2:  # a flush draw
            royalty = 4 if index == BOTTOM else 8
            worth += royalty * (0.12, 0.25, 0.5)[len(cards) - 2]
        ranks = sorted({card >> 2 for card in real})
        if len(ranks) == len(real) and len(cards) >= 2 and (not ranks or _in_a_span(ranks)):
            worth += (0.3, 0.6, 1.0, 1.5)[len(cards) - 2] * (2 if index == BOTTOM else 4) / 4
        return worth, level, -1

    def worth(self, masks: Sequence[int]) -> float:
        """The judgement of a board being built (greater is better): the rows' worth if the
        board is not fouled, less the cost of a foul, each by its chance."""
        worth_b, level_b, order_b = self.row(BOTTOM, masks[0])
        worth_m, level_m, order_m = self.row(MIDDLE, masks[1])
        worth_t, level_t, order_t = self.row(TOP, masks[2])
        kept = 1.0 - _foul_chance(masks[0], BOTTOM, level_b, order_b, level_m, order_m)
        kept *= 1.0 - _foul_chance(masks[1], MIDDLE, level_m, order_m, level_t, order_t)
        return kept * (worth_b + worth_m + worth_t) - (1.0 - kept) * FOUL_COST

    def final_worth(self, masks: Sequence[int]) -> float:
        """A complete board's worth to its owner: royalties and fantasyland, or a foul's cost."""
        keys = self.scorer.final_masks(masks)
        if keys.fouled:
            return float(FOUL_POINTS)
        return keys.royalty + self.fantasy_value * keys.fantasy


def _foul_chance(
    lower_mask: int, lower: int, level: int, order: int, upper_level: int, upper: int
) -> float:
    """The chance the upper row ends outranking the lower one, judged by their levels now and
    the places the lower row has left."""
    if order >= 0 and upper >= 0:
        return 1.0 if upper > order else 0.0
    if upper_level < 0 or upper_level < level:
        return 0.0
    miss = CATCH_UP_MISSES[CAPACITY[lower] - lower_mask.bit_count()]
    if upper_level == level:
        return miss * 0.5  # level now: the kickers and what comes decide
    gap = upper_level // _LEVEL - level // _LEVEL
    return min(1.0, miss * (1 + 0.5 * max(0, gap - 1)))


def _in_a_span(ranks: list[int]) -> bool:
    """Whether distinct ranks fit in five consecutive ones (the ace also low)."""
    if ranks[-1] - ranks[0] <= 4:
        return True
    if ranks[-1] == 12:
        low = [-1, *ranks[:-1]]
        return low[-1] - low[0] <= 4
    return False


def best_street(judge: Judge, masks: Masks, dealt: Sequence[Card], last: bool) -> Masks:
    """The rollout player's street: every legal placement (all of the first street's 5 cards,
    else the variant's: Pineapple 2 of 3 with 1 discarded, classic the card) judged, the best
    kept; the last street by its own final worth (royalties, fantasyland, a foul's cost)
    exactly."""
    counts = [mask.bit_count() for mask in masks]
    free = [CAPACITY[i] - counts[i] for i in range(3)]
    keep = len(dealt) if sum(counts) == 0 else judge.scorer.rules.streets.placed
    best: Masks | None = None
    best_worth = -1e18
    for placed in placements(dealt, free, keep):
        board = (masks[0] | placed[0], masks[1] | placed[1], masks[2] | placed[2])
        value = judge.final_worth(board) if last else judge.worth(board)
        if value > best_worth:
            best, best_worth = board, value
    assert best is not None
    return best


def placements(dealt: Sequence[Card], free: Sequence[int], keep: int) -> list[Masks]:
    """The row masks each legal way to play the dealt cards adds, ``keep`` of them placed and
    the rest discarded (see :func:`best_street`)."""
    found: list[Masks] = []
    for out in combinations(range(len(dealt)), len(dealt) - keep):  # the discards, in order
        kept = tuple(card for i, card in enumerate(dealt) if i not in out)
        _spread(kept, 0, [0, 0, 0], list(free), found)
    return found


def _spread(cards: tuple[Card, ...], at: int, rows: list[int], free: list[int], out: list) -> None:
    if at == len(cards):
        out.append((rows[0], rows[1], rows[2]))
        return
    bit = 1 << cards[at]
    for row in range(3):
        if free[row]:
            free[row] -= 1
            rows[row] |= bit
            _spread(cards, at + 1, rows, free, out)
            rows[row] &= ~bit
            free[row] += 1


def finished(judge: Judge, masks: Masks, deck: list[Card]) -> Masks:
    """A board completed by the rollout player from the top of ``deck`` (cards are taken off
    it), its last street by its own final worth."""
    streets = judge.scorer.rules.streets
    placed = sum(mask.bit_count() for mask in masks)
    while placed < HAND_SIZE:
        dealt = [deck.pop() for _ in range(streets.dealt_on(placed))]
        last = streets.is_last(placed)
        placed += streets.placed_on(placed)
        masks = best_street(judge, masks, dealt, last=last)
    return masks
