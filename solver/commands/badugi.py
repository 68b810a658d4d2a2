"""``handsolver badugi``: who wins a Badugi showdown, and how strong each hand is."""

from __future__ import annotations

from typing import Annotated

import typer

from solver.commands.common import print_json, print_table, user_errors


def badugi(
    hands: Annotated[
        list[str],
        typer.Argument(
            help="Two or more 4-card hands, one per argument or in one string split by '-' or '|'.",
            show_default=False,
        ),
    ],
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Judge a Badugi showdown (ace low; distinct ranks and suits play; more cards win).

    Example: handsolver badugi "3c 2s 4d Ah" "As 3h 2d 4h"
    """
    from models.badugi import HAND_SIZE, badugi_key, describe_key, played_cards, strength, winners
    from models.cards import parse_deal

    with user_errors():
        deal = parse_deal(hands, hand_size=HAND_SIZE, min_hands=2)
    fmt = deal.notation
    won = winners(deal.hands)
    rows = []
    for index, hand in enumerate(deal.hands):
        key = badugi_key(hand)
        place = strength(hand)
        rows.append(
            {
                "cards": fmt.card_strings(hand),
                "played": fmt.card_strings(played_cards(hand)),
                "size": key >> 16,
                "value": describe_key(key),
                "class": place.rank,
                "beats": place.beats,
                "ties": place.ties,
                "beats_share": round(place.beats_share, 6),
                "ties_share": round(place.ties_share, 6),
                "winner": index in won,
            }
        )
    if json_output:
        print_json({"winners": list(won), "draw": len(won) > 1, "hands": rows})
        return
    print_table(
        None,
        ["#", "hand", "plays", "value", "class of 1,092", "beats", "ties", ""],
        (
            [
                str(index + 1),
                fmt.sep.join(row["cards"]),
                fmt.sep.join(row["played"]),
                row["value"],
                row["class"],
                f"{row['beats_share']:.2%}",
                f"{row['ties_share']:.3%}",
                "wins" if row["winner"] else "",
            ]
            for index, row in enumerate(rows)
        ),
    )
    if len(won) > 1:
        typer.echo("Draw: hands " + ", ".join(str(i + 1) for i in won) + " split the pot.")
    else:
        typer.echo(f"Hand {won[0] + 1} wins: {fmt.format_cards(deal.hands[won[0]])}")


def register(app: typer.Typer) -> None:
    """Add the ``badugi`` command to ``app``."""
    app.command(no_args_is_help=True)(badugi)
