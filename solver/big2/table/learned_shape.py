"""What the learned Big 2 player (:mod:`.learned`) sees of the hand a move leaves and of the
cards it has not seen: the shape of that hand (:func:`hand_shape`) and what the unseen cards
could answer (:func:`unseen_reach`), for many moves at once.

Both are counted on card sets as 64-bit words in numpy (card ``rank * 4 + suit``, so a rank is
four bits of the word), a word a move, with the bit tricks of counting set bits four bits at a
time.  What depends only on the unseen cards (:class:`Unseen`) is counted once a position, and
a position's moves index it (:func:`shapes_and_reaches`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from handsolver.models.cards import CardSet

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "REACH_FEATURES",
    "SHAPE_FEATURES",
    "Unseen",
    "hand_shape",
    "shapes_and_reaches",
    "unseen_reach",
]

_MAX_COUNT = 13
SHAPE_FEATURES = (_MAX_COUNT + 1) + 4 + (_MAX_COUNT + 1) + 2 + 2 + 1 + 1 + 2 + 1
REACH_FEATURES = 2 + 4 + 2
_RANKS = sum(1 << 4 * rank for rank in range(13))
"""A bit a rank (its lowest card's): the form of a set of ranks below."""
_SUITS = tuple(_RANKS << suit for suit in range(4))
_RUN_STARTS = sum(1 << 4 * start for start in range(10))
"""The ten first ranks of a run of five in a row of ranks written ace, deuce, ..., ace."""


def _bits(masks: Sequence[CardSet] | np.ndarray) -> np.ndarray:
    """Each mask as 52 numbers 0 or 1, a row each (bit ``i`` is card ``i``)."""
    import numpy as np

    raw = np.asarray(masks, dtype="<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(raw, axis=1, bitorder="little")[:, :52].astype(np.float32)


def _masks(bits: np.ndarray) -> np.ndarray:
    """The card set of each row of 52 numbers (0 or 1) of ``bits``, as 64-bit words."""
    import numpy as np

    padded = np.zeros((len(bits), 64), dtype=np.uint8)
    padded[:, :52] = bits
    return np.packbits(padded, axis=1, bitorder="little").view("<u8")[:, 0]


@lru_cache(maxsize=1)
def _place_tables() -> tuple[np.ndarray, np.ndarray]:
    """For each place ``top`` in Big 2's order from -1 to 12 (at index ``top + 1``), the ranks
    of a place above it, and of it or above, as sets of ranks: a rank's place (three lowest,
    deuce highest) is one below the cards' rank (deuce 0 to ace 12), the deuce's 12."""
    import numpy as np

    place = [(rank - 1) % 13 for rank in range(13)]
    tops = range(-1, 13)
    above = [sum(1 << 4 * rank for rank in range(13) if place[rank] > top) for top in tops]
    from_top = [sum(1 << 4 * rank for rank in range(13) if place[rank] >= top) for top in tops]
    return np.array(above, dtype=np.uint64), np.array(from_top, dtype=np.uint64)


def _rank_counts(masks: np.ndarray) -> np.ndarray:
    """Each rank's four bits of ``masks`` replaced by the number of them set (0 to 4)."""
    import numpy as np

    twos = np.uint64(0x3333333333333)
    pairs = masks - (masks >> np.uint64(1) & np.uint64(0x5555555555555))
    return (pairs & twos) + (pairs >> np.uint64(2) & twos)


def _ranks_with(counts: np.ndarray, at_least: int) -> np.ndarray:
    """The ranks holding ``at_least`` (1 to 4) cards, from :func:`_rank_counts`: a count's
    bits 4, 2, 1 are those of a number from 0 to 4, so "3 or more" is "4, or 2 and 1"."""
    import numpy as np

    one, two = np.uint64(1), np.uint64(2)
    if at_least == 1:
        held = counts | counts >> one | counts >> two
    elif at_least == 2:
        held = counts >> one | counts >> two
    elif at_least == 3:
        held = counts >> two | counts >> one & counts
    else:
        held = counts >> two
    return held & np.uint64(_RANKS)


def _runs(ranks: np.ndarray) -> np.ndarray:
    """The runs of five ranks (ace low or high) among ``ranks``, as the set of their first
    ranks in a row written ace, deuce, three, ..., ace (the ace's bit put first)."""
    import numpy as np

    four, twelve = np.uint64(4), np.uint64(48)
    row = ranks << four | ranks >> twelve
    runs = row
    for step in range(1, 5):
        runs = runs & row >> np.uint64(4 * step)
    return runs & np.uint64(_RUN_STARTS)


def _top_place(ranks: np.ndarray) -> np.ndarray:
    """The highest place in Big 2's order of a set of ranks (-1: none): 12 for the deuce (the
    lowest bit), else the place of its highest bit's rank, one below the rank itself."""
    import numpy as np

    # frexp gives 4 * rank + 1 for a highest bit 4 * rank (exact: the words are under 2**53).
    exponent = np.frexp((ranks & ~np.uint64(1)).astype(np.float64))[1]
    return np.where(ranks & np.uint64(1), 12, np.maximum((exponent - 1) // 4 - 1, -1))


def _count(masks: np.ndarray) -> np.ndarray:
    """How many bits (cards, or ranks) each word of ``masks`` holds."""
    import numpy as np

    return np.bitwise_count(masks).astype(np.int64)


@dataclass(frozen=True)
class Unseen:
    """What the cards a mover has not seen show, for each of many positions: for ``n`` from 0
    to 4 the highest place of a rank of which they hold ``n`` cards or more (-1: none, and
    always for 0), and whether they hold five ranks in a row, five cards of a suit, a triple
    and another pair, and four of a rank with a fifth card (the five-card plays they could
    make), as 0 or 1.  The same for every move of a position, so counted once a position."""

    tops: np.ndarray  # positions x 5
    plays: np.ndarray  # positions x 4

    @classmethod
    def of(cls, masks: np.ndarray) -> Unseen:
        """The unseen cards of each position, ``masks`` (64-bit words)."""
        import numpy as np

        counts = _rank_counts(masks)
        tops = np.full((len(masks), 5), -1)
        for n in range(1, 5):
            tops[:, n] = _top_place(_ranks_with(counts, n))
        plays = np.zeros((len(masks), 4), dtype=np.float32)
        pairs = _ranks_with(counts, 2)
        plays[:, 0] = _runs(_ranks_with(counts, 1)) != 0
        plays[:, 1] = np.stack([_count(masks & np.uint64(suit)) for suit in _SUITS]).max(0) >= 5
        plays[:, 2] = (_ranks_with(counts, 3) != 0) & (_count(pairs) >= 2)
        plays[:, 3] = (_ranks_with(counts, 4) != 0) & (_count(masks) >= 5)
        return cls(tops, plays)


def shapes_and_reaches(
    left: np.ndarray, cards: np.ndarray, unseen: Unseen, of: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`hand_shape` and :func:`unseen_reach` of each move, its cards ``cards`` and the
    hand it leaves ``left`` (64-bit words), ``of[i]`` the position of move ``i`` in
    ``unseen``."""
    import numpy as np

    above, from_top = _place_tables()
    tops = unseen.tops[of]
    rows = len(left)
    at_row = np.arange(rows)
    shape = np.zeros((rows, SHAPE_FEATURES), dtype=np.float32)
    counts = _rank_counts(left)
    held = [_ranks_with(counts, n) for n in range(1, 5)]  # 1, 2, 3, 4 cards or more
    shape[at_row, _count(left)] = 1.0
    at = _MAX_COUNT + 1
    exactly = [_count(more & ~fewer) for more, fewer in zip(held, held[1:], strict=False)]
    for k, ranks in enumerate([*exactly, _count(held[3])]):
        shape[:, at + k] = ranks / 4
    at += 4
    # The one-rank plays, ceil(count / 3) a rank: one a rank held, and one more for four.
    small = np.minimum(_count(held[0]) + _count(held[3]), _MAX_COUNT)
    shape[at_row, at + small] = 1.0
    at += _MAX_COUNT + 1
    shape[:, at] = (counts & np.uint64(15)) / 4
    shape[:, at + 1] = (counts >> np.uint64(48)) / 4
    at += 2
    runs = _runs(held[0])
    shape[:, at] = _count(runs) / 4
    shape[:, at + 1] = runs != 0
    at += 2
    flush = np.zeros(rows, dtype=np.uint64)  # the cards of the suits of five or more
    flush_suits = np.zeros(rows, dtype=np.int64)
    for suit in _SUITS:
        of_suit = left & np.uint64(suit)
        five = _count(of_suit) >= 5
        flush |= np.where(five, of_suit, np.uint64(0))
        flush_suits += five
    shape[:, at] = flush_suits / 4
    at += 1
    shape[:, at] = (held[2] != 0) & (_count(held[1]) >= 2)
    at += 1
    # A rank's four cards from its bit: the bit times 15 (ranks four bits apart do not carry).
    fifteen = np.uint64(15)
    shape[:, at] = _count(left & above[tops[:, 1] + 1] * fifteen) / 4
    shape[:, at + 1] = _count(left & from_top[tops[:, 1] + 1] * fifteen) / 4
    at += 2
    # The ranks of a run: each of its five from its first, the row's ace put back as the ace.
    row = runs | runs << np.uint64(4) | runs << np.uint64(8) | runs << np.uint64(12)
    row |= runs << np.uint64(16)
    in_run = (row >> np.uint64(4) | (row & np.uint64(1)) << np.uint64(48)) & np.uint64(_RANKS)
    lone = (held[0] & ~held[1] & ~in_run) * fifteen & left & ~flush
    shape[:, at] = _count(lone) / 4

    reach = np.zeros((rows, REACH_FEATURES), dtype=np.float32)
    move_ranks = _ranks_with(_rank_counts(cards), 1)
    # A one-rank move's rivals: the ranks of which the unseen cards hold as many (at most 4).
    one_rank = _count(move_ranks) == 1
    rivals = tops[at_row, np.minimum(_count(cards), 4)] + 1
    reach[:, 0] = one_rank & ((move_ranks & above[rivals]) != 0)
    reach[:, 1] = one_rank & ((move_ranks & from_top[rivals]) != 0)
    reach[:, 2:6] = unseen.plays[of]
    reach[:, 6] = _count(held[1] & above[tops[:, 2] + 1]) / 4
    reach[:, 7] = _count(held[2] & above[tops[:, 3] + 1]) / 4
    return shape, reach


def _positions(unseen: CardSet | np.ndarray, rows: int) -> tuple[Unseen, np.ndarray]:
    """:class:`Unseen` of ``unseen`` (one set for every row, or 52 numbers a row) and each
    row's position in it."""
    import numpy as np

    masks = np.array([unseen], dtype=np.uint64) if isinstance(unseen, int) else _masks(unseen)
    of = np.zeros(rows, dtype=np.intp) if len(masks) == 1 else np.arange(rows)
    return Unseen.of(masks), of


def hand_shape(left: np.ndarray, unseen: CardSet | np.ndarray) -> np.ndarray:
    """For each row of ``left`` (a hand as 52 numbers 0 or 1, card ``rank * 4 + suit``), what
    its shape shows (counts divided by 4): its number of cards (one-hot, 0 to 13); the ranks
    holding one, two, three and four of its cards; the one-rank plays (singles, pairs,
    triples) that play it, ``ceil(count / 3)`` a rank (one-hot, 0 to 13); its deuces and
    aces; its runs of five ranks (ace low or high; as runs need not be the rules' straights,
    whatever the rules) and whether it has one; its suits of five cards or more; whether it
    holds a triple and another pair (a full house); its cards of a rank above every rank of
    ``unseen`` (the cards the mover has not seen: one set for every row, or a row of 52
    numbers for each), and of the highest rank of ``unseen`` or above; and its singles (ranks
    of one card) that no run of its own and no suit of five of its own takes.

    >>> from handsolver.models.cards import mask_of, parse_cards
    >>> from handsolver.solver.big2.table.learned_shape import _bits
    >>> hand = mask_of(parse_cards("3c 4d 5h 6s 7c 9d 9h 2s"))
    >>> unseen = (1 << 52) - 1 & ~hand & ~mask_of(parse_cards("2c 2d 2h"))  # top: an ace
    >>> row = hand_shape(_bits([hand]), unseen)[0]
    >>> int(row[:14].argmax()), row[14:18].tolist(), int(row[18:32].argmax())
    (8, [1.5, 0.25, 0.0, 0.0], 7)
    >>> row[32:38].tolist()  # a deuce, no ace, 3 to 7 and 2 to 6, no flush, no full house
    [0.25, 0.0, 0.5, 1.0, 0.0, 0.0]
    >>> row[38:].tolist()  # the deuce above every unseen card; every single in a run
    [0.25, 0.25, 0.0]
    """
    import numpy as np

    masks = _masks(left)
    return shapes_and_reaches(masks, np.zeros_like(masks), *_positions(unseen, len(left)))[0]


def unseen_reach(left: np.ndarray, cards: np.ndarray, unseen: CardSet | np.ndarray) -> np.ndarray:
    """For each move (``cards``, 52 numbers 0 or 1, and the hand it leaves ``left``), what the
    cards the mover has not seen (``unseen``) could answer, by rank (as :func:`hand_shape`):
    whether the move is a play of one rank above every rank of which ``unseen`` holds as many
    cards (nothing unseen beats it), and at least as high (only a higher suit of its rank
    could); whether ``unseen`` holds five ranks in a row, five cards of a suit, a triple and
    another pair, and four of a rank with a fifth card (the five-card plays it could make);
    and the pairs and the triples of the hand left (ranks of at least two, of at least three
    of its cards) above every rank of which ``unseen`` holds as many (counts divided by 4).
    ``unseen`` is one set for every row, or a row of 52 numbers for each.

    >>> from handsolver.models.cards import mask_of, parse_cards
    >>> from handsolver.solver.big2.table.learned_shape import _bits
    >>> hand, move = mask_of(parse_cards("Ac Ad 2c 2d Kh")), mask_of(parse_cards("Ac Ad"))
    >>> unseen = mask_of(parse_cards("Ah 2h Kc Kd Ks 3c 4c 5c 6c"))
    >>> unseen_reach(_bits([hand ^ move]), _bits([move]), unseen)[0].tolist()
    [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.25, 0.0]
    """
    return shapes_and_reaches(_masks(left), _masks(cards), *_positions(unseen, len(left)))[1]
