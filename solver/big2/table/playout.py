"""Big 2 deals played to the end, fast, with every hand known and one policy for every seat.

The advisor (:mod:`.advise`) scores a move in a sampled deal by playing the deal out after it;
this module is that playout: a policy chooses each seat's move and the deal's state
(:class:`~handsolver.solver.big2.game.state.DealState`) steps.  Each hand's plays are listed
once, as ``(mask, size, strength)`` (:class:`~handsolver.solver.big2.game.plays.HandPlays`); a
turn looks only at masks and numbers, so a whole deal of four hands takes well under a
millisecond.

Two policies choose the moves:

- :func:`greedy_choice`: the ``greedy`` strategy's rule (:mod:`.strategies`): on a play to
  beat the lowest play that beats it, else a pass; on a lead the plays of the most cards
  first, the lowest of them.
- :func:`shed_choice`, the playout policy, greedy with rules on top:

  1. a play that empties the hand is made;
  2. when an opponent has one card left, a single goes out as the highest single (on a lead,
     a play of more cards goes first where there is one);
  3. a play does not break a group of one rank: every rank it uses goes out whole (a single
     is a rank held once, a pair a rank held twice, a five-card lead uses no card of a pair it
     leaves behind; a five-card reply is taken as it comes); a lead falls back to greedy's
     play when every play breaks one;
  4. a reply that would break a group is made only when the hand has at most
     :data:`BREAK_AT` cards or an opponent has at most :data:`DANGER_AT`; else the seat
     passes;
  5. the twos are kept for later: a single two is not led while another lead keeps the
     groups, and no single or pair of twos goes on a play to beat unless the hand or an
     opponent is down to those few cards (rule 4).

>>> from handsolver.models.big2 import SEED_RULES
>>> from handsolver.models.cards import mask_of, parse_cards
>>> hands = tuple(mask_of(parse_cards(text)) for text in ("3d 4c 4d", "5d 6c 6d"))
>>> plays = [hand_plays(hand, SEED_RULES) for hand in hands]
>>> play_out(plays, DealState(hands, 0, 0, 0, -1, 0), SEED_RULES, [shed_choice, greedy_choice])
1

(the player leads 4c 4d, the other beats it with 6c 6d and goes out with 5d).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from handsolver.models.big2_rules import Rules
from handsolver.models.cards import CardSet
from handsolver.solver.big2.game.plays import (
    DEUCE_KEY,
    HandPlays,
    beating_plays,
    hand_plays,
)
from handsolver.solver.big2.game.state import DealState, Outcome, PlayOrPass

__all__ = [
    "BREAK_AT",
    "DANGER_AT",
    "HandPlays",
    "Policy",
    "beating_plays",
    "greedy_choice",
    "hand_plays",
    "play_out",
    "play_until",
    "shed_choice",
]

Policy = Callable[[HandPlays, CardSet, int, int, int, CardSet], PlayOrPass]
"""(the mover's plays, the mover's hand, size and strength of the play to beat (size 0 on a
lead), the fewest cards an opponent holds, cards a lead must hold) -> a play, or None for a
pass."""
BREAK_AT = 4
DANGER_AT = 2
_NIBBLE = 15


def greedy_choice(
    mine: HandPlays, hand: CardSet, size: int, strength: int, danger: int, must: CardSet
) -> PlayOrPass:
    """The greedy rule (see the module)."""
    if size == 0:
        for play in mine.leads:
            mask = play[0]
            if mask & hand == mask and mask & must == must:
                return play
        raise AssertionError("a hand always has a lead")
    return next(beating_plays(mine, hand, size, strength), None)


def _keeps_groups(mask: CardSet, hand: CardSet) -> bool:
    """Whether every rank ``mask`` uses goes out whole from ``hand``."""
    while mask:
        nibble = mask & _NIBBLE
        if nibble and hand & _NIBBLE != nibble:
            return False
        mask >>= 4
        hand >>= 4
    return True


def shed_choice(
    mine: HandPlays, hand: CardSet, size: int, strength: int, danger: int, must: CardSet
) -> PlayOrPass:
    """The playout policy (see the module)."""
    if size == 0:
        if hand in mine.kinds and hand & must == must:
            return next(play for play in mine.leads if play[0] == hand)
        leads = [
            play for play in mine.leads if play[0] & hand == play[0] and play[0] & must == must
        ]
        if danger == 1:
            return leads[0] if leads[0][1] > 1 else leads[-1]
        for play in leads:
            if _keeps_groups(play[0], hand) and not (play[1] == 1 and play[2] >= DEUCE_KEY):
                return play
        return leads[0]
    beating = list(beating_plays(mine, hand, size, strength))
    if not beating:
        return None
    for play in beating:
        if play[0] == hand:
            return play
    if danger == 1 and size == 1:
        singles = [play for play in beating if play[1] == 1]
        return singles[-1] if singles else beating[0]
    short = hand.bit_count() <= BREAK_AT or danger <= DANGER_AT
    for play in beating:
        if play[1] == 5 or _keeps_groups(play[0], hand):
            if play[1] <= 2 and play[2] >= DEUCE_KEY and not short:
                return None
            return play
    return beating[0] if short else None


def play_out(
    plays: Sequence[HandPlays], state: DealState, rules: Rules, policies: Sequence[Policy]
) -> int:
    """The seat that goes out first when each seat plays its policy of ``policies`` from
    ``state``; ``plays[seat]`` lists that seat's plays (of its hand now, or of any hand holding
    it)."""
    winner = play_until(plays, state, rules, policies, -1)
    assert isinstance(winner, int)
    return winner


def play_until(
    plays: Sequence[HandPlays],
    state: DealState,
    rules: Rules,
    policies: Sequence[Policy],
    until: int,
) -> Outcome:
    """As :func:`play_out`, but stopping when seat ``until`` is to move: the state then, or
    the seat that went out first before that."""
    # Cards in each hand, kept as the hands change: the fewest an opponent holds is asked
    # every turn.
    hands, mover, size, strength, _, _ = state
    counts = [hand.bit_count() for hand in hands]
    step = DealState.after
    while mover != until:
        policy = policies[mover]
        danger = 0
        if policy is not greedy_choice:  # the one policy blind to the others' counts
            own = counts[mover]
            counts[mover] = 64  # more than any hand holds
            danger = min(counts)
            counts[mover] = own
        move = policy(plays[mover], hands[mover], size, strength, danger, 0)
        outcome = step(state, move, rules)
        if isinstance(outcome, int):
            return outcome
        if move is not None:
            counts[mover] -= move[1]
        state = outcome
        hands, mover, size, strength, _, _ = state
    return state
