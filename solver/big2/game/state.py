"""A Big 2 deal in play with every hand known, as a small tuple: the state the game search,
the playouts and the line search share, and the move that changes it.

A state is ``(hands, seat to move, size and strength of the play to beat, the seat that made
it or -1, the seats out of the trick as bits)``; a size of 0 is a free lead.  A play is
``(mask, size, strength)``, strengths comparing within a size.
"""

from __future__ import annotations

from handsolver.models.big2_rules import Rules
from handsolver.models.cards import CardSet

__all__ = ["DEUCE_KEY", "PlayTuple", "State", "after", "next_seat"]

PlayTuple = tuple[CardSet, int, int]
"""A play as (mask, size, strength); strengths compare within a size."""
# A single's strength is its card key: the twos are the keys from 48 up.
DEUCE_KEY = 48


def next_seat(seat: int, passed: int, players: int) -> int:
    """The seat after ``seat`` that is still in the trick (``passed``: the seats out, as bits)."""
    seat = (seat + 1) % players
    while passed >> seat & 1:
        seat = (seat + 1) % players
    return seat


State = tuple[tuple[CardSet, ...], int, int, int, int, int]
"""(hands, seat to move, size and strength of the play to beat (size 0 on a lead), the seat
that made it or -1, the seats out of the trick as bits)."""


def after(state: State, move: PlayTuple | None, rules: Rules) -> State | int:
    """The state after the seat to move makes ``move`` (None: a pass), or that seat's number
    when the play empties its hand."""
    hands, mover, size, strength, by, passed = state
    players = len(hands)
    if move is not None:
        rest = hands[mover] ^ move[0]
        if not rest:
            return mover
        hands = (*hands[:mover], rest, *hands[mover + 1 :])
        nxt = next_seat(mover, passed, players)
        if nxt == mover:
            return (hands, mover, 0, 0, -1, 0)
        return (hands, nxt, move[1], move[2], mover, passed)
    if rules.pass_final:
        passed |= 1 << mover
    nxt = next_seat(mover, passed, players)
    if nxt == by:
        return (hands, by, 0, 0, -1, 0)
    return (hands, nxt, size, strength, by, passed)
