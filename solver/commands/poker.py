"""CLI commands for standard poker: ``poker`` (a showdown) and ``euler54`` (Project Euler 54).

``models.poker`` is imported by the commands, so other commands do not pay for its tables, and
``euler54`` imports nothing heavier than it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from handsolver.solver.commands.common import print_json, print_table, strength_json, user_errors

if TYPE_CHECKING:
    from handsolver.models.cards import Card, Notation
    from handsolver.models.poker import Euler54Deal

    Hand = tuple[Card, ...]


def _showdown(hands: list[str], board: str | None) -> tuple[list[Hand], Hand, Notation]:
    """Parse the hands (and the board, shared by all of them), every card distinct."""
    from handsolver.models.cards import CardParseError, parse_deal

    if board is None:
        deal = parse_deal(hands, hand_size=5, min_hands=2)
        return list(deal.hands), (), deal.notation
    # The board is one hand for parsing, whatever separators it was written with.
    board_text = board.replace("|", " ").replace("-", " ")
    deal = parse_deal([*hands, board_text])
    holes, shared = list(deal.hands[:-1]), deal.hands[-1]
    if len(holes) < 2:
        raise CardParseError(f"need at least 2 hands, got {len(holes)}")
    for hole in holes:
        if not 5 <= len(hole) + len(shared) <= 7:
            raise CardParseError(
                f"hand {deal.notation.format_cards(hole)!r} and the board make "
                f"{len(hole) + len(shared)} cards; a poker hand needs 5 to 7"
            )
    return [hole + shared for hole in holes], shared, deal.notation


def poker(
    hands: Annotated[
        list[str],
        typer.Argument(
            help="Two or more 5-card hands (hole cards with --board), one per argument or in "
            "one string split by '-' or '|'.",
            show_default=False,
        ),
    ],
    board: Annotated[
        str | None,
        typer.Option(help="Community cards added to every hand; each plays its best five."),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Judge a standard poker showdown: category, the five cards that play, the winner(s).

    Example: handsolver poker "8C TS KC 9H 4S" "7D 2S 5D 3S AC"
    """
    from handsolver.models.poker import best_five, strength, winners

    with user_errors():
        full_hands, shared, fmt = _showdown(hands, board)
    won = winners(full_hands)
    holes = [hand[: len(hand) - len(shared)] for hand in full_hands]
    best = [best_five(hand) for hand in full_hands]
    places = [strength(hand.five) for hand in best]
    rows = list(enumerate(zip(holes, best, places, strict=True)))
    if json_output:
        hands_json = [
            {
                "cards": fmt.card_strings(hole),
                "played": fmt.card_strings(hand.five),
                "category": hand.category,
                "key": hand.key,
                **strength_json(place),
                "winner": index in won,
            }
            for index, (hole, hand, place) in rows
        ]
        out: dict[str, Any] = {"winners": won, "draw": len(won) > 1, "hands": hands_json}
        if board is not None:
            out["board"] = fmt.card_strings(shared)
        print_json(out)
        return
    if board is not None:
        typer.echo(f"Board: {fmt.format_cards(shared)}")
    print_table(
        None,
        ["#", "hand", "plays", "category", "class of 7,462", "beats", "ties", ""],
        (
            [
                index + 1,
                fmt.format_cards(hole),
                fmt.format_cards(hand.five),
                hand.category,
                place.hand_class,
                f"{place.share_beaten:.2%}",
                f"{place.share_tied:.3%}",
                "wins" if index in won else "",
            ]
            for index, (hole, hand, place) in rows
        ),
    )
    if len(won) > 1:
        typer.echo("Draw: hands " + ", ".join(str(i + 1) for i in won) + " split the pot.")
    else:
        typer.echo(f"Hand {won[0] + 1} wins: {fmt.format_cards(holes[won[0]])}")


def _read_text(source: str) -> str:
    from handsolver.models.cards import InputError

    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{source!r} is not UTF-8 text: {error.reason}") from None
    # Editors on Windows may start a UTF-8 file with a byte order mark.
    return text.removeprefix("\ufeff")


def _deal_json(deal: Euler54Deal, fmt: Notation) -> dict[str, Any]:
    from handsolver.models.poker import category_of

    return {
        "line": deal.line,
        "player1": {"cards": fmt.card_strings(deal.player1), "category": category_of(deal.key1)},
        "player2": {"cards": fmt.card_strings(deal.player2), "category": category_of(deal.key2)},
        "winner": deal.winner,
    }


def _deal_text(deal: Euler54Deal, fmt: Notation) -> str:
    from handsolver.models.poker import category_of

    outcome = "draw" if deal.winner is None else f"player {deal.winner} wins"
    return (
        f"line {deal.line}: {fmt.format_cards(deal.player1)} ({category_of(deal.key1)})"
        f" vs {fmt.format_cards(deal.player2)} ({category_of(deal.key2)}): {outcome}"
    )


def euler54(
    source: Annotated[
        str, typer.Argument(metavar="FILE", help="Deal file, or - for stdin.", show_default=False)
    ],
    strict: Annotated[
        bool, typer.Option("--strict", help="A bad line is an error (exit 2), not a warning.")
    ] = False,
    details: Annotated[
        bool, typer.Option("--details", help="List every deal's categories and winner.")
    ] = False,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Project Euler 54: count Player 1's wins over lines of ten cards (five each).

    Lines with a bad card, a repeated card or not ten cards are reported on stderr with their
    line number and skipped (with --strict the first one is an error); blank lines are ignored.

    Example: handsolver euler54 p054_poker.txt
    """
    from handsolver.models.cards import STANDARD, notation_of
    from handsolver.models.poker import euler54 as play

    with user_errors():
        lines = _read_text(source).splitlines()
        result = play(lines, strict=strict)
    for bad in result.bad_lines:
        typer.echo(f"warning: line {bad.line}: {bad.error}", err=True)
    fmt = STANDARD
    if details and result.deals:
        fmt = notation_of(lines[result.deals[0].line - 1])
    if json_output:
        out: dict[str, Any] = {
            "player1_wins": result.player1_wins,
            "player2_wins": result.player2_wins,
            "draws": result.draws,
            "deals": len(result.deals),
            "bad_lines": [{"line": bad.line, "error": bad.error} for bad in result.bad_lines],
        }
        if details:
            out["details"] = [_deal_json(deal, fmt) for deal in result.deals]
        print_json(out)
        return
    if details:
        for deal in result.deals:
            typer.echo(_deal_text(deal, fmt))
    typer.echo(str(result.player1_wins))


def register(app: typer.Typer) -> None:
    """Add the ``poker`` and ``euler54`` commands to ``app``."""
    app.command(no_args_is_help=True)(poker)
    app.command(no_args_is_help=True)(euler54)
