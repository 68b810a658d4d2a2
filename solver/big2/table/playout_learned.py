"""The opponents' replies to a move played by their models, the learned player's network among
them, for many moves of a deal at once.

A playout (:mod:`.playout`) plays every opponent by a fixed rule, which the compiled playouts
repeat; the learned player (:mod:`.learned`) needs numpy and what the table shows (every card
played, the cards of the play to beat), so it plays the turns that follow a move of the
player's, up to the player's next turn: the replies that decide what the move was worth.
:func:`replies_until` plays them for a list of states at once, one call of the network a
step for all the states whose seat to move is a learned one; the seats not learned play
``greedy`` (:func:`~.playout.greedy_choice`).  A learned seat makes the legal move its network
values most (the first of equal value, in the order of
:meth:`~handsolver.solver.big2.game.state.DealState.legal_moves`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from handsolver.models.big2_rules import Rules
from handsolver.models.cards import CardSet
from handsolver.solver.big2.game.plays import HandPlays
from handsolver.solver.big2.game.state import DealState, Outcome, PlayOrPass
from handsolver.solver.big2.table.playout import greedy_choice

__all__ = ["Replied", "Reply", "beat_after", "network_moves", "replies_until"]


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
    import numpy as np

    from handsolver.solver.big2.table.learned import deal_state_features, move_features, network

    out: list[PlayOrPass] = []
    asked: list[tuple[int, list[PlayOrPass]]] = []
    blocks = []
    for i, state in enumerate(states):
        legal = state.legal_moves(plays[i])
        out.append(legal[0])
        if len(legal) > 1:
            features = deal_state_features(state, played[i], beats[i], False)
            blocks.append(move_features(features, state.hands[state.to_move], legal))
            asked.append((i, legal))
    if blocks:
        values = network().values(np.concatenate(blocks))
        at = 0
        for i, legal in asked:
            out[i] = legal[int(values[at : at + len(legal)].argmax())]
            at += len(legal)
    return out


def beat_after(move: PlayOrPass, before: CardSet, after: Outcome) -> CardSet:
    """The cards of the play to beat after ``move`` (``before`` those of the play
    to beat then): the move's own cards, the same as before on a pass, none on a new trick."""
    if isinstance(after, int) or after.by < 0:
        return 0
    return before if move is None else move[0]
