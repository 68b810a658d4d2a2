"""A learned Big 2 player: a value of each legal move, learned by self-play, and the move of
the highest value.

The network scores a (position, move) pair with the chance that the mover goes out first
after it (Deep Monte-Carlo, as DouZero does for Dou Di Zhu: every move of a self-play deal
is taught the deal's outcome for its mover).  It sees what a seat sees at a real table and
nothing more:

* the hand the move leaves, the move's cards, its size (a pass is size 0) and, for a
  five-card play, its kind's place in the rules' order;
* the shape of the hand the move leaves (:func:`hand_shape`): how many cards, how many
  ranks of one, two, three and four cards, the one-rank plays it needs, its deuces and aces,
  its runs of five ranks, its suits of five cards or more, whether it holds a full house, its
  cards of a rank above every card it has not seen and its singles that no run or flush takes;
* what the cards it has not seen could answer (:func:`unseen_reach`): whether nothing of them
  beats a one-rank move, which five-card plays they could make, and the pairs and triples
  the move leaves in hand above all of theirs;
* every card played so far (by anyone), the play to beat (its cards and size; none on a lead),
  which seat made it and which seats are out of the trick, counted from the mover (1 the next
  seat, 2 the one across, 3 the previous);
* the mover's card count, and each other seat's count (one-hot, 1 to 13);
* whether this is the deal's first play.

That is :data:`FEATURES` numbers a move, fed to small multilayer perceptrons (ReLU, two
hidden layers) whose weights ship with the package (:data:`MEMBERS`, each written by
``scripts/train_big2_learned.py``); inference is numpy alone.  The value of a move is the mean
of the networks of three training runs (:class:`Ensemble`): each saw the inputs above as they
stood when it was trained, the first of them (every run added inputs after the earlier ones),
and their mean chooses better than the last run alone.  Moves of equal value go to the first
in :meth:`~.views.TableView.legal_moves` order, so the player is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from handsolver.models.big2_order import KIND_STEP, play_strength
from handsolver.models.cards import CardSet
from handsolver.solver.big2.game.state import DealState
from handsolver.solver.big2.table.views import Move, TableView

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "FEATURES",
    "MEMBERS",
    "WEIGHTS",
    "Ensemble",
    "deal_state_features",
    "hand_shape",
    "Learned",
    "unseen_reach",
    "Network",
    "move_features",
    "positions_features",
    "network",
]

WEIGHTS = Path(__file__).with_name("learned_big2.npz")
"""The last training run's weights (the start of a next run's ``--warm-start``)."""
MEMBERS = (
    WEIGHTS,
    Path(__file__).with_name("learned_big2_run2.npz"),
    Path(__file__).with_name("learned_big2_run1.npz"),
)
"""The shipped networks, newest first: the runs the player's values are the mean of."""
_SIZES = 6  # a pass, then plays of 1 to 5 cards
_PLACES = 8  # a five-card play's kind's place in the rules' order
_SEATS = 4
_MAX_COUNT = 13
_FULL = (1 << 52) - 1
# What a position shows, then what a move adds; the state part is shared by every move.
STATE_FEATURES = 52 + 52 + _SIZES + 1 + (_SEATS - 1) * _MAX_COUNT + _SEATS + (_SEATS - 1) + 1
SHAPE_FEATURES = (_MAX_COUNT + 1) + 4 + (_MAX_COUNT + 1) + 2 + 2 + 1 + 1 + 2 + 1
REACH_FEATURES = 2 + 4 + 2
MOVE_FEATURES = 52 + 52 + _SIZES + _PLACES + SHAPE_FEATURES + REACH_FEATURES
FEATURES = STATE_FEATURES + MOVE_FEATURES


def _bits(masks: Sequence[CardSet]) -> np.ndarray:
    """Each mask as 52 numbers 0 or 1, a row each (bit ``i`` is card ``i``)."""
    import numpy as np

    raw = np.array(masks, dtype="<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(raw, axis=1, bitorder="little")[:, :52].astype(np.float32)


def state_features(
    played: CardSet,
    beat: CardSet,
    beat_size: int,
    counts: Sequence[int],
    by: int,
    passed: int,
    start: bool,
) -> np.ndarray:
    """The position's part, for the mover: ``counts`` and ``by`` (-1: none) counted from the
    mover (index 0 is the mover), ``passed`` the seats out of the trick as bits, from the
    mover too."""
    import numpy as np

    out = np.zeros(STATE_FEATURES, dtype=np.float32)
    out[:104] = _bits([played, beat]).reshape(-1)
    at = 104
    out[at + beat_size] = 1.0
    at += _SIZES
    out[at] = counts[0] / _MAX_COUNT
    at += 1
    for seat in range(1, _SEATS):
        if seat < len(counts) and 1 <= counts[seat] <= _MAX_COUNT:
            out[at + (seat - 1) * _MAX_COUNT + counts[seat] - 1] = 1.0
    at += (_SEATS - 1) * _MAX_COUNT
    out[at + max(by, 0)] = 1.0  # index 0: no play to beat (the mover never made it)
    at += _SEATS
    for seat in range(1, _SEATS):
        out[at + seat - 1] = passed >> seat & 1
    at += _SEATS - 1
    out[at] = start
    return out


def move_features(
    state: np.ndarray, hand: CardSet, moves: Sequence[tuple[CardSet, int, int] | None]
) -> np.ndarray:
    """A row for each move (``(mask, size, strength)``, or None for a pass): the position's
    part ``state`` (from :func:`state_features`), then the hand the move leaves, its cards,
    its size, its five-card kind's place and the :func:`hand_shape` of the hand it leaves
    (the cards not seen being those neither in ``hand`` nor played, as ``state`` shows)."""
    return positions_features([(state, hand, moves)])


def positions_features(
    positions: Sequence[tuple[np.ndarray, CardSet, Sequence[tuple[CardSet, int, int] | None]]],
) -> np.ndarray:
    """The rows of :func:`move_features` of each ``(state, hand, moves)`` of ``positions``,
    one after another: built together, since many small positions cost most in numpy's calls."""
    import numpy as np

    counts = [len(moves) for _, _, moves in positions]
    rows = sum(counts)
    out = np.zeros((rows, FEATURES), dtype=np.float32)
    out[:, :STATE_FEATURES] = np.repeat(np.stack([state for state, _, _ in positions]), counts, 0)
    played = _masks_of_bits(np.stack([state[:52] for state, _, _ in positions]))
    masks, lefts, unseens = [], [], []
    at = STATE_FEATURES + 104
    row = 0
    for (_, hand, moves), seen in zip(positions, played, strict=True):
        unseen = _FULL & ~(seen | hand)
        for move in moves:
            mask = 0 if move is None else move[0]
            masks.append(mask)
            lefts.append(hand ^ mask)
            unseens.append(unseen)
            size = 0 if move is None else move[1]
            out[row, at + size] = 1.0
            if size == 5:
                assert move is not None
                out[row, at + _SIZES + min(move[2] // KIND_STEP, _PLACES - 1)] = 1.0
            row += 1
    left, cards, unseen_bits = _bits(lefts), _bits(masks), _bits(unseens)
    out[:, STATE_FEATURES : STATE_FEATURES + 52] = left
    out[:, STATE_FEATURES + 52 : STATE_FEATURES + 104] = cards
    at += _SIZES + _PLACES
    out[:, at : at + SHAPE_FEATURES] = hand_shape(left, unseen_bits)
    at += SHAPE_FEATURES
    out[:, at:] = unseen_reach(left, cards, unseen_bits)
    return out


def _masks_of_bits(bits: np.ndarray) -> list[CardSet]:
    """The card set of each row of 52 numbers (0 or 1) of ``bits``."""
    import numpy as np

    padded = np.zeros((len(bits), 64), dtype=np.uint8)
    padded[:, :52] = bits
    return [int(mask) for mask in np.packbits(padded, axis=1, bitorder="little").view("<u8")[:, 0]]


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
    >>> from handsolver.solver.big2.table.learned import _bits
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
    >>> from handsolver.solver.big2.table.learned import _bits
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


@dataclass(frozen=True)
class Network:
    """The value network: ``layers`` as (weights, biases), ReLU between them, one output."""

    layers: tuple[tuple[np.ndarray, np.ndarray], ...]

    def values(self, rows: np.ndarray) -> np.ndarray:
        """The value of each row of features (the first of them, as many as the network
        takes: a network trained before later inputs were added ignores them)."""
        out = rows[:, : self.layers[0][0].shape[0]]
        for index, (weights, biases) in enumerate(self.layers):
            out = out @ weights + biases
            if index < len(self.layers) - 1:
                out = out * (out > 0)
        return out[:, 0]

    @classmethod
    def load(cls, path: Path) -> Network:
        import numpy as np

        with np.load(path) as saved:
            count = sum(1 for name in saved.files if name.startswith("w"))
            return cls(tuple((saved[f"w{i}"], saved[f"b{i}"]) for i in range(count)))


@dataclass(frozen=True)
class Ensemble:
    """Networks whose values are averaged: the mean of each row's values."""

    members: tuple[Network, ...]

    def values(self, rows: np.ndarray) -> np.ndarray:
        """The mean of the members' values of each row of features."""
        total = self.members[0].values(rows)
        for member in self.members[1:]:
            total = total + member.values(rows)
        return total / len(self.members)


@lru_cache(maxsize=1)
def network() -> Ensemble:
    """The shipped networks (:data:`MEMBERS`, loaded once)."""
    return Ensemble(tuple(Network.load(path) for path in MEMBERS))


def deal_state_features(
    state: DealState, played: CardSet, beat: CardSet, start: bool
) -> np.ndarray:
    """:func:`state_features` of a deal in play (:class:`~..game.state.DealState`, every
    hand known) for the seat to move, given every card played so far, the cards of the play to beat
    (0 on a lead) and whether this is the deal's first play: what
    :func:`view_state` gives from that seat's view, without building one."""
    hands, mover, size, _, by, passed = state
    players = len(hands)
    counts = [hands[(mover + step) % players].bit_count() for step in range(players)]
    rel_by = -1 if by < 0 else (by - mover) % players
    rel_passed = sum(
        1 << ((seat - mover) % players) for seat in range(players) if passed >> seat & 1
    )
    return state_features(played, beat, size, counts, rel_by, rel_passed, start)


def view_moves(view: TableView) -> tuple[list[Move], list[tuple[CardSet, int, int] | None]]:
    """The view's legal moves, and each as ``(mask, size, strength)`` (None for a pass)."""
    moves = view.legal_moves()
    tuples = [
        None if move is None else (move.mask, move.kind.size, play_strength(move, view.rules))
        for move in moves
    ]
    return moves, tuples


def view_state(view: TableView) -> np.ndarray:
    """:func:`state_features` of what ``view`` shows."""
    players = len(view.counts)
    counts = [view.counts[(view.seat + step) % players] for step in range(players)]
    by = -1 if view.by is None else (view.by - view.seat) % players
    passed = sum(1 << ((seat - view.seat) % players) for seat in view.passed)
    beat = 0 if view.beat is None else view.beat.mask
    size = 0 if view.beat is None else view.beat.kind.size
    return state_features(view.played, beat, size, counts, by, passed, view.start)


@lru_cache(maxsize=1)
def weights_digest() -> str:
    """A digest of the shipped networks' files: the player's description names it, so that a
    tournament's checkpoint of games played with other weights is not resumed."""
    import hashlib

    digest = hashlib.sha256()
    for path in MEMBERS:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class Learned:
    """The learned player as a tournament strategy: the legal move the network values most."""

    name: str = "learned"
    net: Network | Ensemble | None = field(default=None, compare=False)
    weights: str = field(default_factory=weights_digest)
    """Which shipped weights play (when ``net`` is None)."""

    def choose(self, views: Sequence[TableView], seeds: Sequence[int]) -> list[Move]:
        net = self.net or network()
        listed = [view_moves(view) for view in views]
        asked = [
            (view_state(view), view.hand, tuples)
            for view, (moves, tuples) in zip(views, listed, strict=True)
            if len(moves) > 1
        ]
        values = net.values(positions_features(asked)) if asked else None
        out: list[Move] = []
        at = 0
        for moves, _ in listed:
            if len(moves) == 1:
                out.append(moves[0])
                continue
            assert values is not None
            out.append(moves[int(values[at : at + len(moves)].argmax())])
            at += len(moves)
        return out
