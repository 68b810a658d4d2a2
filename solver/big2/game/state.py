"""A Big 2 deal in play with every hand known: the one rules machine that the game search,
the playouts, the line search, the tree and the table all step.

A :class:`DealState` is the hands, the seat to move and the trick: the size and strength of the
play to beat (size 0 on a free lead), the seat that made it (-1 on a lead) and the seats out of
the trick (where passes are final), as bits.  Its API is that of a game state in a game
library: :meth:`~DealState.legal_moves`, :meth:`~DealState.after` (the state a move leads to,
or the winner once a hand is empty), :func:`winner` and :meth:`~DealState.seen_since` (what a
seat sees of the moves between two states).  A move is a play (:data:`PlayTuple`) or None for
a pass (:data:`PlayOrPass`).

The trick rules, written here once: seats move in turn; a play must beat the play to beat (on
a lead, any play); where passes are final a seat that passed is skipped until the trick ends;
the trick ends when the turn comes back to the seat that made the last play, which then leads
(or at once when every other seat is out of the trick); the deal ends when a play empties the
mover's hand.

>>> from handsolver.models.big2 import SEED_RULES
>>> from handsolver.models.cards import mask_of, parse_cards
>>> from handsolver.solver.big2.game.plays import hand_plays
>>> hands = tuple(mask_of(parse_cards(text)) for text in ("3d 9c", "5c 7h"))
>>> state = DealState(hands, 0, 0, 0, -1, 0)
>>> play = state.legal_moves(hand_plays(hands[0], SEED_RULES))[0]  # the 3d
>>> state = state.after(play, SEED_RULES)
>>> state.to_move, state.by
(1, 0)
>>> state = state.after(None, SEED_RULES)  # seat 1 passes: seat 0 leads again
>>> state.to_move, state.size, winner(state)
(0, 0, None)
>>> winner(state.after(state.legal_moves(hand_plays(hands[0], SEED_RULES))[0], SEED_RULES))
0
"""

from __future__ import annotations

from typing import NamedTuple

from handsolver.models.big2_rules import Rules
from handsolver.models.cards import CardSet
from handsolver.solver.big2.game.plays import DEUCE_KEY, HandPlays, PlayTuple, beating_plays

__all__ = [
    "DEUCE_KEY",
    "DealState",
    "Observation",
    "Outcome",
    "PlayOrPass",
    "PlayTuple",
    "winner",
]

PlayOrPass = PlayTuple | None
"""A move of the machine: a play, or None for a pass."""
Observation = tuple[tuple[CardSet, ...], int, int, int, int]
"""What a seat sees between two states (:meth:`DealState.seen_since`): the cards each seat
played, and the trick then (size and strength of the play to beat, who made it, who passed)."""


class DealState(NamedTuple):
    """A deal in play (see the module).  A tuple, so that it is a dictionary key as it is."""

    hands: tuple[CardSet, ...]
    to_move: int
    size: int
    """The play to beat's size; 0 on a free lead."""
    strength: int
    """The play to beat's strength (0 on a lead)."""
    by: int
    """The seat that made the play to beat; -1 on a lead."""
    passed: int
    """The seats out of this trick, as bits (only where passes are final)."""

    def legal_moves(self, plays: HandPlays) -> list[PlayOrPass]:
        """The legal moves of the seat to move, whose plays (of its hand now or of any hand
        holding it) are ``plays``: on a lead every play, the most cards first and the lowest
        first; on a play to beat the plays that beat it, lowest first, then None (a pass)."""
        hand, size = self.hands[self.to_move], self.size
        if size == 0:
            return [play for play in plays.leads if play[0] & hand == play[0]]
        return [*beating_plays(plays, hand, size, self.strength), None]

    def after(self, move: PlayOrPass, rules: Rules) -> Outcome:
        """The state after the seat to move makes ``move`` (None: a pass; it must be legal),
        or that seat's number when the play empties its hand."""
        hands, mover, size, strength, by, passed = self
        players = len(hands)
        if move is not None:
            rest = hands[mover] ^ move[0]
            if not rest:
                return mover
            hands = (*hands[:mover], rest, *hands[mover + 1 :])
        elif rules.pass_final:
            passed |= 1 << mover
        # The next seat still in the trick (written out: this is every search's inner loop).
        nxt = mover + 1 if mover + 1 < players else 0
        while passed >> nxt & 1:
            nxt = nxt + 1 if nxt + 1 < players else 0
        if move is not None:
            if nxt == mover:  # every other seat is out of the trick: a new one
                return _new(DealState, (hands, mover, 0, 0, -1, 0))
            return _new(DealState, (hands, nxt, move[1], move[2], mover, passed))
        if nxt == by:  # the turn is back with the play to beat: its seat leads
            return _new(DealState, (hands, by, 0, 0, -1, 0))
        return _new(DealState, (hands, nxt, size, strength, by, passed))

    def seen_since(self, before: DealState) -> Observation:
        """What any seat sees from ``before`` to this state, the other hands hidden: the cards
        each seat played, and the trick now."""
        played = tuple(old ^ new for old, new in zip(before.hands, self.hands, strict=True))
        return played, self.size, self.strength, self.by, self.passed


# A NamedTuple's own constructor takes keywords and costs twice a plain tuple's; the searches
# make a state a node.
_new = tuple.__new__

Outcome = DealState | int
"""What a move leads to: the next state, or the seat that went out (the winner)."""


def winner(outcome: Outcome) -> int | None:
    """The seat that went out first, or None while the deal is in play."""
    return outcome if isinstance(outcome, int) else None
