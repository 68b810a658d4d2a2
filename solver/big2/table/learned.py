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
from functools import cached_property, lru_cache
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING

from handsolver.models.big2_order import KIND_STEP, play_strength
from handsolver.models.cards import CardSet
from handsolver.solver.big2.game.state import DealState
from handsolver.solver.big2.table.learned_shape import (
    _MAX_COUNT,
    REACH_FEATURES,
    SHAPE_FEATURES,
    Unseen,
    _bits,
    _masks,
    hand_shape,
    shapes_and_reaches,
    unseen_reach,
)
from handsolver.solver.big2.table.views import Move, TableView

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "FEATURES",
    "MEMBERS",
    "WEIGHTS",
    "Ensemble",
    "deal_state_features",
    "deal_states_features",
    "hand_shape",
    "Learned",
    "unseen_reach",
    "Network",
    "move_features",
    "positions_features",
    "states_features",
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
_FULL = (1 << 52) - 1
_PASS = (0, 0, 0)  # a pass as a move's (mask, size, strength): no cards
# What a position shows, then what a move adds; the state part is shared by every move.
STATE_FEATURES = 52 + 52 + _SIZES + 1 + (_SEATS - 1) * _MAX_COUNT + _SEATS + (_SEATS - 1) + 1
MOVE_FEATURES = 52 + 52 + _SIZES + _PLACES + SHAPE_FEATURES + REACH_FEATURES
FEATURES = STATE_FEATURES + MOVE_FEATURES


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
    return states_features([(played, beat, beat_size, counts, by, passed, start)])[0]


StateAsked = tuple[CardSet, CardSet, int, Sequence[int], int, int, bool]
"""The arguments of :func:`state_features`, in its order."""


def states_features(asked: Sequence[StateAsked]) -> np.ndarray:
    """A row of :func:`state_features` for each of ``asked`` (its arguments): built together,
    as a playout's network asks about a thousand positions at once."""
    import numpy as np

    rows = len(asked)
    played, beats, sizes, counts, by, passed, start = (
        zip(*asked, strict=True) if asked else [()] * 7
    )
    at_row = np.arange(rows)
    out = np.zeros((rows, STATE_FEATURES), dtype=np.float32)
    out[:, :52] = _bits(played)
    out[:, 52:104] = _bits(beats)
    at = 104
    out[at_row, at + np.array(sizes, dtype=np.intp)] = 1.0
    at += _SIZES
    seats = np.array([(*seat, *(0,) * (_SEATS - len(seat))) for seat in counts]).reshape(-1, 4)
    out[:, at] = seats[:, 0] / _MAX_COUNT
    at += 1
    for seat in range(1, _SEATS):
        shown = at_row[(seats[:, seat] >= 1) & (seats[:, seat] <= _MAX_COUNT)]
        out[shown, at + (seat - 1) * _MAX_COUNT + seats[shown, seat] - 1] = 1.0
    at += (_SEATS - 1) * _MAX_COUNT
    # Index 0: no play to beat (the mover never made it).
    out[at_row, at + np.maximum(np.array(by, dtype=np.intp), 0)] = 1.0
    at += _SEATS
    passed_bits = np.array(passed, dtype=np.int64)
    for seat in range(1, _SEATS):
        out[:, at + seat - 1] = passed_bits >> seat & 1
    at += _SEATS - 1
    out[:, at] = np.array(start, dtype=bool)
    return out


def move_features(
    state: np.ndarray, hand: CardSet, moves: Sequence[tuple[CardSet, int, int] | None]
) -> np.ndarray:
    """A row for each move (``(mask, size, strength)``, or None for a pass): the position's
    part ``state`` (from :func:`state_features`), then the hand the move leaves, its cards,
    its size, its five-card kind's place and the :func:`hand_shape` of the hand it leaves
    (the cards not seen being those neither in ``hand`` nor played, as ``state`` shows)."""
    return positions_features([(state, hand, moves)])


Position = tuple["np.ndarray", CardSet, Sequence[tuple[CardSet, int, int] | None]]
"""A position asked about: its part of the features (from :func:`state_features`), the mover's
hand and its moves (as :func:`move_features` takes them)."""


def positions_features(positions: Sequence[Position]) -> np.ndarray:
    """The rows of :func:`move_features` of each ``(state, hand, moves)`` of ``positions``,
    one after another: built together, since many small positions cost most in numpy's calls."""
    import numpy as np

    counts = [len(moves) for _, _, moves in positions]
    out = np.zeros((sum(counts), FEATURES), dtype=np.float32)
    out[:, :STATE_FEATURES] = np.repeat(np.stack([state for state, _, _ in positions]), counts, 0)
    _fill_move_parts(positions, out[:, STATE_FEATURES:])
    return out


def _fill_move_parts(positions: Sequence[Position], out: np.ndarray) -> None:
    """Write the moves' part of the rows of :func:`positions_features` (every column after the
    state's) into ``out``, a row of zeros for each move: the networks' values need no more,
    since the state part is the same for every move of a position."""
    import numpy as np

    counts = [len(moves) for _, _, moves in positions]
    of = np.repeat(np.arange(len(positions)), counts)
    hands = np.array([hand for _, hand, _ in positions], dtype=np.uint64)
    played = _masks(np.stack([state[:52] for state, _, _ in positions]))
    # Each move's (mask, size, strength), a pass (0, 0, 0), read in one pass of numpy's.
    flat = chain.from_iterable(move or _PASS for _, _, moves in positions for move in moves)
    listed = np.fromiter(flat, dtype=np.int64).reshape(-1, 3)
    cards = listed[:, 0].astype(np.uint64)
    left = hands[of] ^ cards
    out[:, :52] = _bits(left)
    out[:, 52:104] = _bits(cards)
    rows, sizes = np.arange(len(listed)), listed[:, 1]
    at = 104
    out[rows, at + sizes] = 1.0
    five = rows[sizes == 5]
    out[five, at + _SIZES + np.minimum(listed[five, 2] // KIND_STEP, _PLACES - 1)] = 1.0
    at += _SIZES + _PLACES
    unseen = Unseen.of(np.uint64(_FULL) & ~(played | hands))
    shape, reach = shapes_and_reaches(left, cards, unseen, of)
    out[:, at : at + SHAPE_FEATURES] = shape
    out[:, at + SHAPE_FEATURES :] = reach


@dataclass(frozen=True)
class Network:
    """The value network: ``layers`` as (weights, biases), ReLU between them, one output."""

    layers: tuple[tuple[np.ndarray, np.ndarray], ...]

    def values(self, rows: np.ndarray) -> np.ndarray:
        """The value of each row of features (the first of them, as many as the network
        takes: a network trained before later inputs were added ignores them)."""
        import numpy as np

        out = rows[:, : self.layers[0][0].shape[0]]
        for index, (weights, biases) in enumerate(self.layers):
            out = out @ weights
            out += biases
            if index < len(self.layers) - 1:
                np.maximum(out, 0, out=out)
        return out[:, 0]

    def values_of_positions(self, positions: Sequence[Position]) -> np.ndarray:
        """:meth:`values` of the rows of :func:`positions_features` of ``positions``, the
        first layer taken apart (see :class:`_Split`)."""
        return _members_values(self._split, positions)[0]

    @cached_property
    def _split(self) -> _Split:
        return _Split.of((self,))

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

    def values_of_positions(self, positions: Sequence[Position]) -> np.ndarray:
        """:meth:`values` of the rows of :func:`positions_features` of ``positions``, the
        members' first layers taken apart and run as one (see :class:`_Split`)."""
        values = _members_values(self._split, positions)
        total = values[0]
        for more in values[1:]:
            total = total + more
        return total / len(self.members)

    @cached_property
    def _split(self) -> _Split:
        return _Split.of(self.members)


@dataclass(frozen=True)
class _Split:
    """Networks' first layers side by side, split where a row's state part ends.

    A position's moves share its state part, so that part goes through the first layer once a
    position and the moves' part once a row, and the rows of :func:`positions_features` (the
    state repeated over every move: most of their numbers) are never built.  The members' first
    layers are one matrix (each member its own columns; the rows past a narrower member's
    inputs zero, which it thereby ignores), so that the rows meet them in one product of
    contiguous operands rather than one a member over a slice of the rows' columns.
    """

    state: np.ndarray  # STATE_FEATURES x every member's first layer's outputs
    moves: np.ndarray  # MOVE_FEATURES x the same
    biases: np.ndarray
    members: tuple[tuple[int, int, tuple[tuple[np.ndarray, np.ndarray], ...]], ...]
    """Each member's columns of the first layer's outputs (start, stop) and its later layers."""

    @classmethod
    def of(cls, networks: Sequence[Network]) -> _Split:
        import numpy as np

        firsts = [net.layers[0] for net in networks]
        width = sum(weights.shape[1] for weights, _ in firsts)
        dtype = np.result_type(*(weights for weights, _ in firsts))
        joined = np.zeros((FEATURES, width), dtype=dtype)
        members, at = [], 0
        for net, (weights, _) in zip(networks, firsts, strict=True):
            inputs, outputs = weights.shape
            assert inputs <= FEATURES, f"a network of {inputs} inputs, more than {FEATURES}"
            joined[:inputs, at : at + outputs] = weights
            members.append((at, at + outputs, net.layers[1:]))
            at += outputs
        return cls(
            np.ascontiguousarray(joined[:STATE_FEATURES]),
            np.ascontiguousarray(joined[STATE_FEATURES:]),
            np.concatenate([biases for _, biases in firsts]),
            tuple(members),
        )


def _members_values(split: _Split, positions: Sequence[Position]) -> list[np.ndarray]:
    """Each network's values of the rows of :func:`positions_features` of ``positions``, each
    distinct position valued once: sampled deals that agree on all the mover sees ask for the
    same position many times in one batch (a third of the rows of an advisor's decision)."""

    distinct, rows = _distinct(positions)
    values = _distinct_values(split, distinct)
    return values if rows is None else [member[rows] for member in values]


def _distinct(positions: Sequence[Position]) -> tuple[list[Position], np.ndarray | None]:
    """The distinct positions of ``positions`` in the order they first come, and for each row of
    ``positions`` the row of the same move of the same position among theirs (None when all
    are distinct)."""
    import numpy as np

    first: dict[tuple[bytes, CardSet], int] = {}
    distinct: list[Position] = []
    which = []
    for position in positions:
        state, hand, moves = position
        key = (state.tobytes(), hand)
        at = first.get(key)
        if at is None or distinct[at][2] != moves:
            at = len(distinct)
            first.setdefault(key, at)
            distinct.append(position)
        which.append(at)
    if len(distinct) == len(positions):
        return distinct, None
    counts = np.array([len(moves) for _, _, moves in distinct])
    starts = np.cumsum(counts) - counts
    asked = counts[which]
    # Row r of position i (its rows from before[i]) is row r - before[i] of its distinct one.
    before = np.cumsum(asked) - asked
    return distinct, np.repeat(starts[which] - before, asked) + np.arange(asked.sum())


def _distinct_values(split: _Split, positions: Sequence[Position]) -> list[np.ndarray]:
    """:func:`_members_values` of positions valued as they come, each once."""
    import numpy as np

    counts = [len(moves) for _, _, moves in positions]
    moves = np.zeros((sum(counts), MOVE_FEATURES), dtype=np.float32)
    _fill_move_parts(positions, moves)
    states = np.stack([state for state, _, _ in positions]) @ split.state
    states += split.biases
    first = moves @ split.moves
    first += np.repeat(states, counts, axis=0)
    out = []
    for start, stop, layers in split.members:
        values = first[:, start:stop]
        for weights, biases in layers:
            np.maximum(values, 0, out=values)
            values = values @ weights
            values += biases
        out.append(values[:, 0])
    return out


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
    return deal_states_features([state], [played], [beat], start)[0]


def deal_states_features(
    states: Sequence[DealState], played: Sequence[CardSet], beats: Sequence[CardSet], start: bool
) -> np.ndarray:
    """A row of :func:`deal_state_features` for each of ``states`` (``played[i]`` and
    ``beats[i]`` its cards played and to beat), built together."""
    asked = []
    for (hands, mover, size, _, by, passed), seen, beat in zip(states, played, beats, strict=True):
        players = len(hands)
        counts = [hands[(mover + step) % players].bit_count() for step in range(players)]
        rel_by = -1 if by < 0 else (by - mover) % players
        rel_passed = sum(
            1 << ((seat - mover) % players) for seat in range(players) if passed >> seat & 1
        )
        asked.append((seen, beat, size, counts, rel_by, rel_passed, start))
    return states_features(asked)


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
        values = net.values_of_positions(asked) if asked else None
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
