"""A Big 2 player's view rebuilt from the deal's turns: what the player knows at a real table
when every turn since the deal is known (who played what, who passed).

The turns are replayed from the start of the deal by the rules of play of
:class:`~handsolver.solver.big2.table.views.Table`.  The opponents' cards are unseen, so the
replay deals them a stand-in hand: the cards each played, and the highest unseen cards for the
rest (so that the deal's first play, which holds the lowest card dealt, can open it).  A
stand-in hand plays every turn the real one could have, since a play's legality depends only
on the play and the trick; so the replay checks every turn and gives the view the player has
now, whatever the stand-ins hold.  Each player is dealt what the rules deal a seat (13 cards,
17 with three).

>>> from handsolver.models.big2 import SEED_RULES
>>> from handsolver.models.cards import mask_of, parse_cards
>>> hand = mask_of(parse_cards("4c 5c 6d 9h 9s Jd Qd Kd Ac 2c 2s 6h 7h"))
>>> turns = [Said(2, parse_cards("3d")), Said(3, parse_cards("5d")), Said(4, ())]
>>> view = replayed_view(hand, turns, 4, SEED_RULES)
>>> view.counts, card_name(cards_of(view.beat.mask)[0]), view.by, len(view.history)
((13, 12, 12, 13), '5d', 2, 3)
>>> replayed_view(hand, [*turns, Said(2, ())], 4, SEED_RULES)
Traceback (most recent call last):
...
handsolver.models.cards.InputError: turn 4: player 2 moves, but it is player 1's turn
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from handsolver.models.big2 import IllegalPlayError, Rules, play_kind
from handsolver.models.big2_order import lowest_card
from handsolver.models.cards import Card, CardSet, InputError, card_name, cards_of
from handsolver.solver.big2.table.tournament_games import hand_size
from handsolver.solver.big2.table.views import Table, TableView

__all__ = ["Said", "replayed_view"]

FULL_DECK: CardSet = (1 << 52) - 1


class Said(NamedTuple):
    """One turn as the user gives it: the player (from 1) and the cards played (none: a pass)."""

    player: int
    cards: tuple[Card, ...]


def _names(mask: CardSet) -> str:
    return " ".join(card_name(card) for card in cards_of(mask))


def replayed_view(hand: CardSet, turns: Sequence[Said], seats: int, rules: Rules) -> TableView:
    """Player 1's view after ``turns``, every turn of the deal from its start, at a table of
    ``seats`` players (see the module); player 1 now holds ``hand`` and is to move.

    :raises InputError: naming the turn: a player out of turn, a card played twice or from
        the player's hand, a play that is none or does not beat, a pass on a lead, a player
        with more cards than dealt, a turn after the deal is over; or player 1 not to move.
    """
    dealt = hand_size(seats, rules)
    played = [0] * seats
    for number, turn in enumerate(turns, start=1):
        if not 1 <= turn.player <= seats:
            raise InputError(f"turn {number}: there is no player {turn.player} of {seats}")
        mask = 0
        for card in turn.cards:
            if (mask | hand | sum(played)) >> card & 1:
                where = "in the hand" if hand >> card & 1 else "played before"
                raise InputError(f"turn {number}: card {card_name(card)} is {where}")
            mask |= 1 << card
        played[turn.player - 1] |= mask
    start = [hand | played[0], *played[1:]]
    for seat, cards in enumerate(start):
        if cards.bit_count() > dealt:
            who = "the hand and player 1's plays hold" if seat == 0 else f"player {seat + 1} played"
            raise InputError(f"{who} {cards.bit_count()} cards, but a player is dealt {dealt}")
    if start[0].bit_count() != dealt:
        raise InputError(
            f"the hand and player 1's plays hold {start[0].bit_count()} cards, but a player is "
            f"dealt {dealt}"
        )
    hands = _stand_ins(start, dealt, rules)
    table = Table.deal(hands, rules)
    for number, turn in enumerate(turns, start=1):
        table = _after(table, number, turn, rules)
    if table.to_move != 0:
        raise InputError(
            f"after the last turn it is player {table.to_move + 1}'s turn, not player 1's"
        )
    return table.view()


def _stand_ins(start: list[CardSet], dealt: int, rules: Rules) -> tuple[CardSet, ...]:
    """The hands dealt, the opponents' unplayed cards stood in for by the highest unseen cards:
    where not every card is dealt, those left undealt are then the lowest, so a deal that can
    open with its first play does (a lower card dealt would have had to lead)."""
    keys = rules.card_keys
    free = sorted(cards_of(FULL_DECK & ~sum(start)), key=lambda card: keys[card])
    hands = [start[0]]
    for seat, cards in enumerate(start[1:], start=2):
        need = dealt - cards.bit_count()
        if need > len(free):
            raise InputError(
                f"player {seat} played {cards.bit_count()} cards, and the deal has too few "
                f"cards left for the rest of a {dealt}-card hand"
            )
        hands.append(cards | sum(1 << card for card in free[len(free) - need :]))
        free = free[: len(free) - need]
    return tuple(hands)


def _after(table: Table, number: int, turn: Said, rules: Rules) -> Table:
    """The table after ``turn``, the ``number``-th, checked."""
    who = f"turn {number}: player {turn.player}"
    if table.winner is not None:
        raise InputError(f"turn {number}: player {table.winner + 1} has gone out; the deal is over")
    mask = sum(1 << card for card in turn.cards)
    low = lowest_card(sum(table.hands), rules)
    if not table.history and mask and not mask >> low & 1:
        raise InputError(
            f"{who}: the deal's first play holds {card_name(low)}, the lowest card dealt"
        )
    if not table.history and mask and rules.open_alone and mask != 1 << low:
        raise InputError(f"{who}: the deal's first play is {card_name(low)} alone")
    if turn.player - 1 != table.to_move:
        raise InputError(f"{who} moves, but it is player {table.to_move + 1}'s turn")
    legal = {0 if move is None else move.mask: move for move in table.view().legal_moves()}
    if mask in legal:
        return table.after(legal[mask])
    if not mask:
        raise InputError(f"{who} passes, but the player leads and must play")
    try:
        play_kind(mask, rules)
    except IllegalPlayError as error:
        raise InputError(f"{who}: {_names(mask)} is no play ({error})") from None
    assert table.beat is not None
    raise InputError(f"{who}: {_names(mask)} does not beat {_names(table.beat.mask)}")
