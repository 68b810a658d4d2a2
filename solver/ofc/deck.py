"""What an open-face position still needs from the deck: the cards of every street to come.

After this street I am dealt the variant's later streets until my board holds 13 (Pineapple 3
cards a street, 2 placed and 1 discarded; classic 1 card, placed), and so is each opponent, who
is first dealt 5 when their board is empty.  Every one of
those cards comes from the cards nobody has seen, so a position whose dead cards leave fewer
unseen cards than that cannot be played out.
"""

from __future__ import annotations

from collections.abc import Sequence

from handsolver.models.cards import Card, InputError
from handsolver.models.ofc import PINEAPPLE, Streets
from handsolver.solver.ofc.play import Board, Position


def cards_to_deal(board: Board, streets: Streets = PINEAPPLE) -> int:
    """The cards a board is still dealt before it holds 13, from the street it stands before.

    >>> from handsolver.models.ofc import CLASSIC
    >>> cards_to_deal(((), (), ())), cards_to_deal(((1, 2, 3, 4, 5), (6, 7), (8, 9, 10, 11)))
    (17, 3)
    >>> cards_to_deal(((), (), ()), CLASSIC), cards_to_deal(((1, 2, 3, 4, 5), (6,), ()), CLASSIC)
    (13, 7)
    """
    return streets.to_deal(sum(len(row) for row in board))


def cards_to_come(position: Position) -> int:
    """The cards every street after this one deals: mine after this street's are placed, and the
    opponents' still to come."""
    streets = position.streets
    mine = cards_to_deal(position.board, streets) - len(position.dealt)
    return mine + sum(cards_to_deal(board, streets) for board in position.opponents)


def check_enough_unseen(position: Position, deck: Sequence[Card]) -> None:
    """Refuse a position whose unseen cards of ``deck`` cannot deal the streets to come.

    :raises InputError: saying how many cards are unseen and how many are to come.
    """
    unseen, wanted = len(position.unseen(deck)), cards_to_come(position)
    if unseen < wanted:
        raise InputError(
            f"only {unseen} cards are unseen ({len(deck)} less the boards, the hand and the dead "
            "cards) "
            f"and the streets to come deal {wanted}: too many dead cards"
        )
