"""What the learned Big 2 player (:mod:`.learned`) sees of the hand a move leaves and of the
cards it has not seen: the shape of that hand (:func:`hand_shape`) and what the unseen cards
could answer (:func:`unseen_reach`), for many moves at once, by rank counts in numpy."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from handsolver.models.cards import CardSet

if TYPE_CHECKING:
    import numpy as np

__all__ = ["REACH_FEATURES", "SHAPE_FEATURES", "hand_shape", "unseen_reach"]

_MAX_COUNT = 13
SHAPE_FEATURES = (_MAX_COUNT + 1) + 4 + (_MAX_COUNT + 1) + 2 + 2 + 1 + 1 + 2 + 1
REACH_FEATURES = 2 + 4 + 2


def _bits(masks: Sequence[CardSet]) -> np.ndarray:
    """Each mask as 52 numbers 0 or 1, a row each (bit ``i`` is card ``i``)."""
    import numpy as np

    raw = np.array(masks, dtype="<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(raw, axis=1, bitorder="little")[:, :52].astype(np.float32)


@lru_cache(maxsize=1)
def _shape_tables() -> tuple[np.ndarray, np.ndarray]:
    """Each rank's place in Big 2's order (three lowest, deuce highest) from the cards' rank
    (deuce 0 to ace 12), and the ranks of a row of five in a run: ace low or high."""
    import numpy as np

    place = np.array([(rank - 1) % 13 for rank in range(13)])
    ranks = [12, *range(13)]  # A 2 3 ... K A
    runs = np.array([ranks[start : start + 5] for start in range(len(ranks) - 4)])
    return place, runs


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

    place, runs = _shape_tables()
    rows = len(left)
    by_rank = left.reshape(rows, 13, 4)
    counts = by_rank.sum(axis=2)
    out = np.zeros((rows, SHAPE_FEATURES), dtype=np.float32)
    cards = counts.sum(axis=1).astype(int)
    out[np.arange(rows), cards] = 1.0
    at = _MAX_COUNT + 1
    of = [(counts == k).sum(axis=1) for k in range(1, 5)]
    out[:, at : at + 4] = np.stack(of, axis=1) / 4
    at += 4
    small = np.minimum(np.ceil(counts / 3).sum(axis=1).astype(int), _MAX_COUNT)
    out[np.arange(rows), at + small] = 1.0
    at += _MAX_COUNT + 1
    out[:, at] = counts[:, 0] / 4
    out[:, at + 1] = counts[:, 12] / 4
    at += 2
    present = counts > 0
    whole = present[:, runs].all(axis=2)  # rows x runs
    out[:, at] = whole.sum(axis=1) / 4
    out[:, at + 1] = whole.any(axis=1)
    at += 2
    suits = by_rank.sum(axis=1)
    flush_suits = suits >= 5
    out[:, at] = flush_suits.sum(axis=1) / 4
    at += 1
    out[:, at] = ((of[2] + of[3]) >= 1) & ((of[1] + of[2] + of[3]) >= 2)
    at += 1
    unseen_counts = _unseen_counts(unseen, rows)
    top = np.where(unseen_counts > 0, place, -1).max(axis=1)[:, None]
    out[:, at] = (counts * (place > top)).sum(axis=1) / 4
    out[:, at + 1] = (counts * (place >= top)).sum(axis=1) / 4
    at += 2
    in_run = np.zeros((rows, 13), dtype=bool)
    for run, ranks in enumerate(runs):
        in_run[:, ranks] |= whole[:, run : run + 1]
    in_flush = (by_rank * flush_suits[:, None, :]).sum(axis=2) > 0
    out[:, at] = ((counts == 1) & ~in_run & ~in_flush).sum(axis=1) / 4
    return out


def _unseen_counts(unseen: CardSet | np.ndarray, rows: int) -> np.ndarray:
    """Per row, the cards of each rank of ``unseen`` (one set, or 52 numbers a row)."""
    import numpy as np

    bits = _bits([unseen]) if isinstance(unseen, int) else unseen
    return np.broadcast_to(bits.reshape(-1, 13, 4).sum(axis=2), (rows, 13))


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
    import numpy as np

    place, runs = _shape_tables()
    rows = len(left)
    out = np.zeros((rows, REACH_FEATURES), dtype=np.float32)
    bits = _bits([unseen]) if isinstance(unseen, int) else unseen
    seen_not = np.broadcast_to(bits.reshape(-1, 13, 4), (rows, 13, 4))
    unseen_counts = seen_not.sum(axis=2)
    # The highest place of a rank holding at least n unseen cards, n = 0 (unused) to 4.
    top = np.stack(
        [np.full(rows, -1)]
        + [np.where(unseen_counts >= n, place, -1).max(axis=1) for n in range(1, 5)],
        axis=1,
    )
    move_counts = cards.reshape(rows, 13, 4).sum(axis=2)
    size = move_counts.sum(axis=1).astype(int)
    one_rank = ((move_counts > 0).sum(axis=1) == 1) & (size <= 4)
    rank = move_counts.argmax(axis=1)
    above = top[np.arange(rows), np.minimum(size, 4)]
    out[:, 0] = one_rank & (place[rank] > above)
    out[:, 1] = one_rank & (place[rank] >= above)
    present = unseen_counts > 0
    out[:, 2] = present[:, runs].all(axis=2).any(axis=1)
    out[:, 3] = (seen_not.sum(axis=1) >= 5).any(axis=1)
    out[:, 4] = (unseen_counts >= 3).any(axis=1) & ((unseen_counts >= 2).sum(axis=1) >= 2)
    out[:, 5] = (unseen_counts == 4).any(axis=1) & (unseen_counts.sum(axis=1) >= 5)
    held = left.reshape(rows, 13, 4).sum(axis=2)
    out[:, 6] = ((held >= 2) & (place > top[:, 2:3])).sum(axis=1) / 4
    out[:, 7] = ((held >= 3) & (place > top[:, 3:4])).sum(axis=1) / 4
    return out
