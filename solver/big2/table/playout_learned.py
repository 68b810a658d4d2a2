"""The opponents' replies to a move played by their models, the learned player's network among
them, for many moves of a deal at once.

A playout (:mod:`.playout`) plays every opponent by a fixed rule, which the compiled playouts
repeat; the learned player (:mod:`.learned`) needs numpy and what the table shows (every card
played, the cards of the play to beat), so it plays the turns that follow a move of the
player's, up to the player's next turn: the replies that decide what the move was worth.
:func:`replies_until` plays them for a list of states at once, one call of the network a
step for all the states whose seat to move is a learned one; the seats not learned play
``greedy`` (:func:`~.playout.greedy_choice`); :func:`replies_in_rounds` goes on for more of
the player's turns, the player moving by the network between them, and :func:`network_values`
is what the network makes of the player's position where they stop.  A learned seat makes
the legal move its network
values most (the first of equal value, in the order of
:meth:`~handsolver.solver.big2.game.state.DealState.legal_moves`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from handsolver.models.big2_rules import Rules
from handsolver.models.cards import CardSet
from handsolver.solver.big2.game.plays import HandPlays
from handsolver.solver.big2.game.state import DealState, Outcome, PlayOrPass
from handsolver.solver.big2.table.playout import greedy_choice

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "Replied",
    "Reply",
    "beat_after",
    "network_moves",
    "network_values",
    "replies_in_rounds",
    "replies_until",
]


class Replied(NamedTuple):
    """Where the replies stopped: the state (or the seat that went out), every card played by
    then, and the cards of the play to beat then (0 on a lead)."""

    outcome: Outcome
    played: CardSet
    beat: CardSet


class Reply(NamedTuple):
    """A state to play on from (or the seat that went out already), the plays of each seat's
    hand, every card played before it, the cards of its play to beat (0 on a lead), and the
    seats the network plays there."""

    outcome: Outcome
    plays: Sequence[HandPlays]
    played: CardSet
    beat: CardSet
    learned: frozenset[int]


def replies_until(starts: Sequence[Reply], seat: int, rules: Rules) -> list[Replied]:
    """Each of ``starts`` played on until ``seat`` is to move or a seat goes out: the state
    then (or that seat), with the cards played and the play to beat then.  The seats of its
    ``learned`` move by the network, the others by greedy's rule (see the module); the network
    runs once a step over every start whose seat to move is learned."""
    out = [start.outcome for start in starts]
    cards = [start.played for start in starts]
    beats = [start.beat for start in starts]
    while True:
        active = [
            i for i, state in enumerate(out) if not isinstance(state, int) and state.to_move != seat
        ]
        if not active:
            return [Replied(*item) for item in zip(out, cards, beats, strict=True)]
        moves: dict[int, PlayOrPass] = {}
        asked: list[tuple[int, DealState]] = []
        for i in active:
            state = out[i]
            assert not isinstance(state, int)
            mover = state.to_move
            mine = starts[i].plays[mover]
            if mover in starts[i].learned:
                asked.append((i, state))
            else:
                moves[i] = greedy_choice(mine, state.hands[mover], state.size, state.strength, 0, 0)
        chosen = network_moves(
            [state for _, state in asked],
            [starts[i].plays[state.to_move] for i, state in asked],
            [cards[i] for i, _ in asked],
            [beats[i] for i, _ in asked],
        )
        moves.update(zip((i for i, _ in asked), chosen, strict=True))
        for i in active:
            state, move = out[i], moves[i]
            assert not isinstance(state, int)
            after = state.after(move, rules)
            if move is not None:
                cards[i] |= move[0]
            beats[i] = beat_after(move, beats[i], after)
            out[i] = after


def replies_in_rounds(
    starts: Sequence[Reply], seat: int, rules: Rules, rounds: int
) -> list[Replied]:
    """Each of ``starts`` played on as :func:`replies_until` plays it, ``rounds`` times: where
    the replies stop, ``seat`` moves by the learned player's network (:func:`network_moves`)
    and the replies go on, up to its turn after ``rounds`` rounds of them."""
    replies = replies_until(starts, seat, rules)
    for _ in range(rounds - 1):
        starts = _players_moved(starts, replies, seat, rules)
        replies = replies_until(starts, seat, rules)
    return replies


def _players_moved(
    starts: Sequence[Reply], replies: list[Replied], seat: int, rules: Rules
) -> list[Reply]:
    """Where the replies stopped, the player's move by the learned player's network (all at
    once), as starts of further replies."""
    waiting = [
        (k, reply.outcome) for k, reply in enumerate(replies) if not isinstance(reply.outcome, int)
    ]
    moves = network_moves(
        [state for _, state in waiting],
        [starts[k].plays[seat] for k, _ in waiting],
        [replies[k].played for k, _ in waiting],
        [replies[k].beat for k, _ in waiting],
    )
    out = [
        start._replace(outcome=reply.outcome) for start, reply in zip(starts, replies, strict=True)
    ]
    for (k, state), move in zip(waiting, moves, strict=True):
        child = state.after(move, rules)
        played = replies[k].played | (0 if move is None else move[0])
        out[k] = Reply(
            child,
            starts[k].plays,
            played,
            beat_after(move, replies[k].beat, child),
            starts[k].learned,
        )
    return out


def network_moves(
    states: Sequence[DealState],
    plays: Sequence[HandPlays],
    played: Sequence[CardSet],
    beats: Sequence[CardSet],
) -> list[PlayOrPass]:
    """The learned player's move for the seat to move in each of ``states`` (``plays[i]`` the
    plays of its hand, ``played[i]`` every card played then, ``beats[i]`` the cards of the play
    to beat): the legal move its network values most, the first of equal value; the network
    runs once over every state's moves."""
    out: list[PlayOrPass] = []
    for legal, values in _valued(states, plays, played, beats):
        out.append(legal[0] if values is None else legal[int(values.argmax())])
    return out


def network_values(
    states: Sequence[DealState],
    plays: Sequence[HandPlays],
    played: Sequence[CardSet],
    beats: Sequence[CardSet],
) -> list[float]:
    """What the learned player's network makes of each of ``states`` for the seat to move (the
    arguments as for :func:`network_moves`): the value of its best legal move, its chance of
    going out first by the network."""
    return [float(values.max()) for _, values in _valued(states, plays, played, beats, True)]


def _valued(
    states: Sequence[DealState],
    plays: Sequence[HandPlays],
    played: Sequence[CardSet],
    beats: Sequence[CardSet],
    every: bool = False,
) -> list[tuple[list[PlayOrPass], np.ndarray | None]]:
    """Each state's legal moves and the network's value of each, in one call of the network
    (None where only one move is legal, unless ``every``)."""
    from handsolver.solver.big2.table.learned import deal_states_features, network

    out: list[tuple[list[PlayOrPass], np.ndarray | None]] = []
    wanted = []
    for i, state in enumerate(states):
        legal = state.legal_moves(plays[i])
        out.append((legal, None))
        if every or len(legal) > 1:
            wanted.append(i)
    if wanted:
        features = deal_states_features(
            [states[i] for i in wanted],
            [played[i] for i in wanted],
            [beats[i] for i in wanted],
            False,
        )
        asked = [
            (row, states[i].hands[states[i].to_move], out[i][0])
            for i, row in zip(wanted, features, strict=True)
        ]
        values = network().values_of_positions(asked)
        at = 0
        for i, (legal, _) in enumerate(out):
            if every or len(legal) > 1:
                out[i] = (legal, values[at : at + len(legal)])
                at += len(legal)
    return out


def beat_after(move: PlayOrPass, before: CardSet, after: Outcome) -> CardSet:
    """The cards of the play to beat after ``move`` (``before`` those of the play
    to beat then): the move's own cards, the same as before on a pass, none on a new trick."""
    if isinstance(after, int) or after.by < 0:
        return 0
    return before if move is None else move[0]
