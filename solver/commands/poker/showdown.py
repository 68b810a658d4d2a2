"""CLI commands for standard poker: ``poker`` (a showdown) and ``euler54`` (Project Euler 54).

``models.poker`` is imported by the commands, so other commands do not pay for its tables, and
``euler54`` imports nothing heavier than it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import typer

from handsolver.solver.commands.deal_batch import run_deal_batch
from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.inputs import card_texts, numbered_lines
from handsolver.solver.commands.options import (
    BatchJsonOption,
    JsonOption,
    SchedulerOption,
    WorkersOption,
)
from handsolver.solver.commands.output import print_json, strength_json
from handsolver.solver.commands.table import Column, print_table

if TYPE_CHECKING:
    from handsolver.models.cards import Card, Notation
    from handsolver.models.poker import Euler54Deal

    Hand = tuple[Card, ...]


class Showdown(NamedTuple):
    """A parsed deal: every hand with the board added, the board, the notation written in."""

    hands: list[Hand]
    board: Hand
    notation: Notation
    has_board: bool


def parse_showdown(hands: str | list[str], board: str | None = None) -> Showdown:
    """Parse the hands (and the board, shared by all of them), every card distinct.

    Without a board a hand has 5 to 7 cards and plays its best five.
    """
    from handsolver.models.cards import CardParseError, parse_deal

    if board is None:
        deal = parse_deal(hands, hand_size=(5, 7), min_hands=2)
        return Showdown(list(deal.hands), (), deal.notation, False)
    # The board is one hand for parsing, whatever separators it was written with.
    board_text = board.replace("|", " ").replace("-", " ")
    if not board_text.strip():
        raise CardParseError("the board has no cards")
    deal = parse_deal([*(hands if isinstance(hands, list) else [hands]), board_text])
    holes, shared = list(deal.hands[:-1]), deal.hands[-1]
    if len(holes) < 2:
        raise CardParseError(f"need at least 2 hands, got {len(holes)}")
    for hole in holes:
        if not 5 <= len(hole) + len(shared) <= 7:
            raise CardParseError(
                f"hand {deal.notation.format_cards(hole)!r} and the board make "
                f"{len(hole) + len(shared)} cards; a poker hand needs 5 to 7"
            )
    return Showdown([hole + shared for hole in holes], shared, deal.notation, True)


def showdown_json(deal: Showdown) -> dict[str, Any]:
    """The JSON answer for one deal: winners, and each hand's best five and strength."""
    from handsolver.models.poker import best_five, strength, winners

    fmt = deal.notation
    won = winners(deal.hands)
    hands_json = []
    for index, hand in enumerate(deal.hands):
        best = best_five(hand)
        hands_json.append(
            {
                "cards": fmt.card_strings(hand[: len(hand) - len(deal.board)]),
                "played": fmt.card_strings(best.five),
                "category": best.category,
                "key": best.key,
                **strength_json(strength(best.five)),
                "winner": index in won,
            }
        )
    out: dict[str, Any] = {"winners": won, "draw": len(won) > 1, "hands": hands_json}
    if deal.has_board:
        out["board"] = fmt.card_strings(deal.board)
    return out


def showdown(
    hands: Annotated[
        list[str],
        typer.Argument(
            metavar="HAND...",
            help="Two or more hands of 5 to 7 cards (each plays its best five), or hole cards "
            "with --board; one per argument or in one string split by '-' or '|'; '-' reads "
            "them from standard input, one hand a line.",
            show_default=False,
        ),
    ],
    board: Annotated[
        str | None,
        typer.Option(
            metavar="CARDS", help="Community cards added to every hand; each plays its best five."
        ),
    ] = None,
    json_output: JsonOption = False,
) -> None:
    """Judge one poker deal: category, the five cards that play, the winner(s).

    Example: handsolver poker "8C TS KC 9H 4S" "7D 2S 5D 3S AC"
    """
    with user_errors():
        deal = parse_showdown(card_texts(hands), board)
    out = showdown_json(deal)
    if json_output:
        print_json(out)
        return
    fmt = deal.notation
    if deal.has_board:
        typer.echo(f"Board: {fmt.format_cards(deal.board)}")
    print_table(
        None,
        [
            Column("#", keep=True),
            Column("hand", keep=True),
            Column("plays", keep=True),
            Column("category", keep=True),
            Column("class of 7,462", short="class", priority=0),
            Column("beats", priority=2),
            Column("ties", priority=1),
            Column("", keep=True),
        ],
        (
            [
                index + 1,
                fmt.sep.join(row["cards"]),
                fmt.sep.join(row["played"]),
                row["category"],
                row["class"],
                f"{row['beats'] / row['total']:.2%}",
                f"{row['ties'] / row['total']:.3%}",
                "wins" if row["winner"] else "",
            ]
            for index, row in enumerate(out["hands"])
        ),
        highlight=out["winners"],
    )
    won = out["winners"]
    if len(won) > 1:
        typer.echo("Draw: hands " + ", ".join(str(i + 1) for i in won) + " split the pot.")
    else:
        typer.echo(f"Hand {won[0] + 1} wins: {fmt.sep.join(out['hands'][won[0]]['cards'])}")


def _judge_line(job: tuple[int, str, Showdown]) -> str:
    """One JSON line for one deal (top level, so worker processes can run it)."""
    import json

    number, text, deal = job
    return json.dumps({"line": number, "deal": text, **showdown_json(deal)})


def batch(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="One deal a line (hands of 5 to 7 cards split by '|' or '-'), '-' for stdin; "
            "'#' comments.",
            show_default=False,
        ),
    ],
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
    json_output: BatchJsonOption = True,
) -> None:
    """Judge many poker deals: one JSON object a line, in input order.

    Example: handsolver poker batch deals.txt --workers 2
    """
    run_deal_batch(file, parse_showdown, _judge_line, workers=workers, scheduler=scheduler)


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
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet", "-q", help="Print only Player 1's wins, the bare number Euler asks."
        ),
    ] = False,
    json_output: JsonOption = False,
) -> None:
    """Project Euler 54: count Player 1's wins over lines of ten cards (five each).

    Prints how many deals each player wins; --quiet prints Player 1's wins alone.

    Lines with a bad card, a repeated card or not ten cards are reported on stderr with their
    line number and skipped (with --strict the first one is an error); blank lines are ignored.

    Example: handsolver euler54 p054_poker.txt
    """
    from handsolver.models.cards import STANDARD, notation_of
    from handsolver.models.poker import euler54 as play

    with user_errors():
        lines = [line for _, line in numbered_lines(source)]
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
    if quiet:
        typer.echo(str(result.player1_wins))
        return
    draws = f"{result.draws} draw{'' if result.draws == 1 else 's'}"
    typer.echo(
        f"Player 1 wins {result.player1_wins} of {len(result.deals)} deals "
        f"(Player 2 wins {result.player2_wins}, {draws})"
    )
