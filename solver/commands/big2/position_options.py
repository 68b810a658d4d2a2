"""The options that state a Big 2 trick, shared by the commands that take a position
(``big2 game`` and ``big2 advise``)."""

from __future__ import annotations

from typing import Annotated

import typer

from handsolver.models.cards import Card, InputError, notation_of, parse_cards
from handsolver.solver.commands.errors import quoted
from handsolver.solver.commands.options import whole_number

__all__ = [
    "POSITION_OPTIONS",
    "BeatOption",
    "ByOption",
    "PassedOption",
    "StartOption",
    "distinct_cards",
    "opponents_text",
    "player_numbers",
]

POSITION_OPTIONS = {
    "to_move": "--to-move",
    "by": "--by",
    "passed": "--passed",
    "start": "--start",
    "counts": "--counts",
    "played": "--played",
}
"""The option for each part of a position the library's errors speak of (``InputError.about``;
see :func:`~handsolver.solver.commands.errors.option_named`)."""

BeatOption = Annotated[
    str | None,
    typer.Option(
        "--beat", metavar="CARDS", help="The play to beat, with --by (none: a free lead)."
    ),
]
ByOption = Annotated[
    int | None,
    typer.Option("--by", metavar="N", min=1, max=4, help="The player who made it (1 to 4)."),
]
PassedOption = Annotated[
    str | None,
    typer.Option(
        "--passed",
        metavar="N,N",
        help="Players who passed in this trick (where passes are final: --pass-final).",
    ),
]
StartOption = Annotated[
    bool,
    typer.Option(
        "--start",
        help="The start of a deal: the holder of the lowest card leads and must play it.",
    ),
]


def distinct_cards(text: str, what: str) -> tuple[Card, ...]:
    """The cards of ``text`` (a play, the cards played), each once.

    >>> distinct_cards("9h 9h", "--beat")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: --beat '9h 9h': card '9h' is given twice

    :raises InputError: a bad token, or a card given twice, naming ``what``.
    """
    cards = parse_cards(text)
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            token = notation_of(text).format(card)
            raise InputError(f"{what} {quoted(text)}: card {token!r} is given twice")
        seen.add(card)
    return cards


def player_numbers(value: object, what: str, players: int) -> list[int]:
    """Player numbers from 1 (``--passed 2,3``, or a JSON list), each one of ``players``.

    :raises InputError: not ASCII digits, or no such player, naming ``what``.
    """
    if value is None or value == "":
        return []
    if isinstance(value, str):
        items: list[object] = [item for item in value.replace(" ", ",").split(",") if item]
    elif isinstance(value, list):
        items = value
    else:
        raise InputError(f"{what} {value!r} is not a list of players")
    return [player_number(item, what, players) for item in items]


def player_number(value: object, what: str, players: int) -> int:
    """A player number from 1 to ``players``.

    >>> player_number(3, "--to-move", 2)
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: --to-move '3' is not a player: players are 1 to 2
    """
    number = whole_number(value, what)
    if not 1 <= number <= players:
        raise InputError(f"{what} {str(number)!r} is not a player: players are 1 to {players}")
    return number


def opponents_text(players: int) -> str:
    """Who the opponents of player 1 are, in words.

    >>> [opponents_text(n) for n in (2, 3, 4)]
    ['the opponent is player 2', 'the opponents are players 2 and 3', \
'the opponents are players 2 to 4']
    """
    if players == 2:
        return "the opponent is player 2"
    if players == 3:
        return "the opponents are players 2 and 3"
    return f"the opponents are players 2 to {players}"
