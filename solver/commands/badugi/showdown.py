"""``handsolver badugi``: who wins a Badugi showdown, and how strong each hand is.

``badugi HAND...`` judges one deal (the ``showdown`` command); ``badugi batch FILE`` judges one
deal a line and prints JSON lines; ``badugi draw`` and ``badugi draw-batch`` (in
:mod:`.badugi_draw`) answer the draws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from handsolver.solver.commands.deal_batch import run_deal_batch
from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.inputs import card_texts
from handsolver.solver.commands.options import (
    BatchJsonOption,
    JsonOption,
    SchedulerOption,
    WorkersOption,
)
from handsolver.solver.commands.output import print_json, strength_json
from handsolver.solver.commands.table import Column, print_table

if TYPE_CHECKING:
    from handsolver.models.cards import Deal


HandsArgument = Annotated[
    list[str],
    typer.Argument(
        metavar="HAND...",
        help="Two or more 4-card hands, one per argument or in one string split by '-' or '|'; "
        "'-' reads them from standard input, one hand a line.",
        show_default=False,
    ),
]


def parse_badugi_deal(texts: str | list[str]) -> Deal:
    """Two or more distinct 4-card hands."""
    from handsolver.models.badugi import HAND_SIZE
    from handsolver.models.cards import parse_deal

    return parse_deal(texts, hand_size=HAND_SIZE, min_hands=2)


def deal_json(deal: Deal) -> dict[str, Any]:
    """The JSON answer for one deal: winners, and each hand's played cards, value, strength."""
    from handsolver.models.badugi import badugi_key, describe_key, played_cards, strength, winners

    fmt = deal.notation
    won = winners(deal.hands)
    hands = []
    for index, hand in enumerate(deal.hands):
        plays = fmt.card_strings(played_cards(hand))
        hands.append(
            {
                "cards": fmt.card_strings(hand),
                "played": plays,
                "size": len(plays),
                "value": describe_key(badugi_key(hand)),
                **strength_json(strength(hand)),
                "winner": index in won,
            }
        )
    return {"winners": list(won), "draw": len(won) > 1, "hands": hands}


def showdown(hands: HandsArgument, json_output: JsonOption = False) -> None:
    """Judge one Badugi deal: each hand's played cards, value and strength, and the winner(s).

    Example: handsolver badugi "3c 2s 4d Ah" "As 3h 2d 4h"
    """
    with user_errors():
        deal = parse_badugi_deal(card_texts(hands))
    out = deal_json(deal)
    if json_output:
        print_json(out)
        return
    fmt = deal.notation
    print_table(
        None,
        [
            Column("#", keep=True),
            Column("hand", keep=True),
            Column("plays", keep=True),
            Column("value", priority=1),
            Column("class of 1,092", short="class", priority=0),
            Column("beats", keep=True),
            Column("ties", priority=2),
            Column("", keep=True),
        ],
        (
            [
                index + 1,
                fmt.format_cards(hand),
                fmt.sep.join(row["played"]),
                row["value"],
                row["class"],
                f"{row['beats'] / row['total']:.2%}",
                f"{row['ties'] / row['total']:.3%}",
                "wins" if row["winner"] else "",
            ]
            for index, (hand, row) in enumerate(zip(deal.hands, out["hands"], strict=True))
        ),
        highlight=out["winners"],
    )
    won = out["winners"]
    if len(won) > 1:
        typer.echo("Draw: hands " + ", ".join(str(i + 1) for i in won) + " split the pot.")
    else:
        typer.echo(f"Hand {won[0] + 1} wins: {fmt.format_cards(deal.hands[won[0]])}")


def _judge_line(job: tuple[int, str, Deal]) -> str:
    """One JSON line for one deal (top level, so worker processes can run it)."""
    import json

    number, text, deal = job
    return json.dumps({"line": number, "deal": text, **deal_json(deal)})


def batch(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="One deal a line (hands split by '|' or '-'), '-' for stdin; '#' comments.",
            show_default=False,
        ),
    ],
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
    json_output: BatchJsonOption = True,
) -> None:
    """Judge many Badugi deals: one JSON object a line, in input order.

    Example: handsolver badugi batch deals.txt --workers 2
    """
    run_deal_batch(file, parse_badugi_deal, _judge_line, workers=workers, scheduler=scheduler)
