"""``handsolver ofc``: open-face Chinese poker (Pineapple), fantasyland set exactly.

Objectives are exact: integers or fractions in strings in JSON.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.inputs import card_texts
from handsolver.solver.commands.options import JsonOption
from handsolver.solver.commands.output import print_json
from handsolver.solver.commands.table import Column, print_table

if TYPE_CHECKING:
    from handsolver.models.cards import Notation
    from handsolver.models.ofc import OfcRules
    from handsolver.solver.ofc import FantasySetting

ofc_app = typer.Typer(
    help="Open-face Chinese poker (Pineapple): fantasyland, positions, the value of fantasyland.",
    no_args_is_help=True,
)

MAX_STAY_VALUE = 10_000
RoyaltiesOption = Annotated[
    Path | None,
    typer.Option(
        "--royalties",
        metavar="FILE",
        help="Royalty table (JSON, rows bottom, middle, top); the common table by default.",
        show_default=False,
    ),
]
StayRuleOption = Annotated[
    str,
    typer.Option(
        "--stay-rule",
        metavar="standard|no-middle",
        help="What keeps fantasyland: standard (trips on top, a full house or better in the "
        "middle, quads or better on the bottom) or no-middle (the same without the middle).",
    ),
]


def ofc_rules(royalties: Path | None, stay_rule: str, fantasy: str = "progressive") -> OfcRules:
    """The rules of the options (the royalty file read bounded, named on error)."""
    from handsolver.models.ofc import OfcRules, default_royalties, parse_ofc_royalties
    from handsolver.solver.commands.inputs import read_small_file, source_name

    table = default_royalties()
    if royalties is not None:
        table = parse_ofc_royalties(
            read_small_file(str(royalties)), source=source_name(str(royalties))
        )
    return OfcRules(royalties=table, fantasy=fantasy, stay=stay_rule)


def points_value(text: str, what: str) -> Fraction:
    """A number of points as typed (``12``, ``12.5``, ``25/2``), exactly, from 0 to the maximum.

    :raises InputError: naming the option and the text.
    """
    from handsolver.models.cards import InputError

    try:
        if len(text) > 40 or not text.isascii():
            raise ValueError
        value = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{what}: {text!r} is not a number of points") from None
    if not 0 <= value <= MAX_STAY_VALUE:
        raise InputError(f"{what} must be 0 to {MAX_STAY_VALUE:,}, got {text}")
    return value


def rows_json(setting: Any, notation: Notation) -> dict[str, list[str]]:
    """A board (bottom, middle, top) as JSON rows, top first, in the user's notation."""
    bottom, middle, top = setting
    return {
        "top": notation.card_strings(top),
        "middle": notation.card_strings(middle),
        "bottom": notation.card_strings(bottom),
    }


def _setting_json(entry: FantasySetting, notation: Notation) -> dict[str, Any]:
    return {
        **rows_json(entry.setting, notation),
        "discards": notation.card_strings(entry.discards),
        "royalties": entry.royalties._asdict(),
        "stays": entry.stays,
        "objective": str(entry.objective),
    }


@ofc_app.command()
def fantasyland(
    hand_text: Annotated[
        str, typer.Argument(metavar="HAND", help="The 13 to 17 cards dealt in fantasyland.")
    ],
    stay_value: Annotated[
        str,
        typer.Option(
            "--stay-value",
            metavar="P",
            help=f"Points for staying in fantasyland, 0 to {MAX_STAY_VALUE:,} (12.5 and 25/2 "
            "are exact).",
        ),
    ] = "0",
    vs: Annotated[
        list[str] | None,
        typer.Option(
            "--vs",
            metavar="TOP|MIDDLE|BOTTOM",
            help="A known opponent board (repeat for a second): the objective adds the points "
            "scored against it.",
            show_default=False,
        ),
    ] = None,
    top: Annotated[
        int, typer.Option("--top", min=1, max=1000, help="Settings listed, 1 to 1,000.")
    ] = 5,
    royalties: RoyaltiesOption = None,
    stay_rule: StayRuleOption = "standard",
    json_output: JsonOption = False,
) -> None:
    """The best ways to set a fantasyland hand: 13 of HAND set top 3, middle 5, bottom 5, the
    rest discarded, ranked by royalties plus --stay-value when the setting stays in
    fantasyland (plus the points against --vs boards), proven best.

    \b
    Examples:
      handsolver ofc fantasyland "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c"
      handsolver ofc fantasyland "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c" --stay-value 12.5
    """
    from handsolver.models.cards import InputError, parse_deal
    from handsolver.models.ofc import board_of_text
    from handsolver.solver.ofc import Objective, check_fantasy_hand, solve_fantasyland

    with user_errors():
        deal = parse_deal(card_texts([hand_text]), hand_size=(13, 17))
        if len(deal.hands) != 1:
            raise InputError(f"one fantasyland hand, please: got {len(deal.hands)}")
        hand, notation = deal.hands[0], deal.notation
        check_fantasy_hand(hand)
        rules = ofc_rules(royalties, stay_rule)
        value = points_value(stay_value, "--stay-value")
        boards = tuple(board_of_text(board) for board in vs or [])
        objective = Objective(value, boards)
        answer = solve_fantasyland(hand, rules, objective, top=top)
    payload: dict[str, Any] = {
        "cards": notation.card_strings(hand),
        "rules": {
            "royalties": "common" if royalties is None else str(royalties),
            "stay": stay_rule,
            "stay_value": str(value),
            "against": [rows_json(board, notation) for board in boards],
        },
        "settings": [_setting_json(entry, notation) for entry in answer.settings],
        "proven": answer.proven,
    }
    if json_output:
        print_json(payload)
        return
    against = "".join(
        f"\nagainst: {notation.format_cards(b[2])} | {notation.format_cards(b[1])} | "
        f"{notation.format_cards(b[0])}"
        for b in boards
    )
    typer.echo(
        f"cards: {notation.format_cards(hand)} ({len(hand)})   stay value: {value}   "
        f"stay rule: {stay_rule}{against}"
    )
    typer.echo("proven best: every other setting scores at most the last one listed")
    columns = [
        Column("#"),
        Column("top", keep=True),
        Column("middle", keep=True),
        Column("bottom", keep=True),
        Column("discards", "out", priority=1),
        Column("royalties", "roy", priority=2),
        Column("stays", priority=3),
        Column("objective", "obj", keep=True),
    ]
    rows = []
    for place, entry in enumerate(answer.settings):
        r = entry.royalties
        rows.append(
            [
                place + 1,
                notation.format_cards(entry.setting[2]),
                notation.format_cards(entry.setting[1]),
                notation.format_cards(entry.setting[0]),
                notation.format_cards(entry.discards) or "-",
                f"{r.total} ({r.top}/{r.middle}/{r.bottom})",
                "yes" if entry.stays else "no",
                str(entry.objective),
            ]
        )
    print_table(None, columns, rows, highlight=[0])


def register(app: typer.Typer) -> None:
    """Add the ``ofc`` sub-app to ``app`` (``play`` and ``study`` live in :mod:`.ofc_play`
    and :mod:`.ofc_study`)."""
    from handsolver.solver.commands import ofc_play, ofc_study  # noqa: F401  (register them)

    app.add_typer(ofc_app, name="ofc")
