"""``handsolver badugi``: who wins a Badugi showdown, and how strong each hand is."""

from __future__ import annotations

from typing import Annotated

import typer

from handsolver.solver.commands.common import print_json, print_table, strength_json, user_errors


def badugi(
    hands: Annotated[
        list[str],
        typer.Argument(
            metavar="HAND...",
            help="Two or more 4-card hands, one per argument or in one string split by '-' or '|'.",
            show_default=False,
        ),
    ],
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Judge a Badugi showdown (ace low; distinct ranks and suits play; more cards win).

    Example: handsolver badugi "3c 2s 4d Ah" "As 3h 2d 4h"
    """
    from handsolver.models.badugi import (
        HAND_SIZE,
        badugi_key,
        describe_key,
        played_cards,
        strength,
        winners,
    )
    from handsolver.models.cards import parse_deal

    with user_errors():
        deal = parse_deal(hands, hand_size=HAND_SIZE, min_hands=2)
    fmt = deal.notation
    won = winners(deal.hands)
    keys = [badugi_key(hand) for hand in deal.hands]
    played = [fmt.card_strings(played_cards(hand)) for hand in deal.hands]
    places = [strength(hand) for hand in deal.hands]
    rows = list(enumerate(zip(deal.hands, played, keys, places, strict=True)))
    if json_output:
        hands_json = [
            {
                "cards": fmt.card_strings(hand),
                "played": plays,
                "size": len(plays),
                "value": describe_key(key),
                **strength_json(place),
                "winner": index in won,
            }
            for index, (hand, plays, key, place) in rows
        ]
        print_json({"winners": list(won), "draw": len(won) > 1, "hands": hands_json})
        return
    print_table(
        None,
        ["#", "hand", "plays", "value", "class of 1,092", "beats", "ties", ""],
        (
            [
                index + 1,
                fmt.format_cards(hand),
                fmt.sep.join(plays),
                describe_key(key),
                place.hand_class,
                f"{place.share_beaten:.2%}",
                f"{place.share_tied:.3%}",
                "wins" if index in won else "",
            ]
            for index, (hand, plays, key, place) in rows
        ),
    )
    if len(won) > 1:
        typer.echo("Draw: hands " + ", ".join(str(i + 1) for i in won) + " split the pot.")
    else:
        typer.echo(f"Hand {won[0] + 1} wins: {fmt.format_cards(deal.hands[won[0]])}")


def register(app: typer.Typer) -> None:
    """Add the ``badugi`` command to ``app``."""
    app.command(no_args_is_help=True)(badugi)
