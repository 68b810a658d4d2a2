"""``handsolver ofc play``: every action of an open-face position ranked by expected points."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Annotated, Any

import typer

from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.inputs import card_texts
from handsolver.solver.commands.ofc.options import (
    JokersOption,
    RoyaltiesOption,
    VariantOption,
    check_jokers,
    ofc_rules,
    points_value,
    rows_json,
    with_jokers,
)
from handsolver.solver.commands.options import JsonOption, SeedOption
from handsolver.solver.commands.output import print_json
from handsolver.solver.commands.progress import progress
from handsolver.solver.commands.table import Column, print_table

if TYPE_CHECKING:
    from handsolver.models.cards import Notation
    from handsolver.solver.ofc.play import ActionValue

BoardOption = "TOP|MIDDLE|BOTTOM"


def _board(text: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    from handsolver.models.ofc import partial_board_of_text

    top, middle, bottom = partial_board_of_text(text, jokers=True)
    return (bottom, middle, top)


def _value_text(entry: ActionValue) -> str:
    if entry.stderr is None:  # exact: whole points as they are, else to 4 places (JSON: exact)
        value = entry.value
        whole = not isinstance(value, float) and value.denominator == 1
        return f"{int(value):+d}" if whole else f"{float(value):+.4f}"
    error = f"{entry.stderr:.3f}" if math.isfinite(entry.stderr) else "n/a"
    return f"{float(entry.value):+.3f} ± {error}"


def _action_json(entry: ActionValue, notation: Notation) -> dict[str, Any]:
    action = entry.action
    fields: dict[str, Any] = {
        **rows_json(action.rows, notation),
        "discard": None if action.discard is None else notation.format(action.discard),
        "points": str(entry.value) if entry.stderr is None else round(float(entry.value), 6),
    }
    if entry.stderr is not None:
        fields["stderr"] = round(entry.stderr, 6) if math.isfinite(entry.stderr) else None
    return fields


def play(
    dealt: Annotated[
        str,
        typer.Argument(
            metavar="HAND",
            help="My cards this street: 5 on the first, else 3 (2 kept; classic: 1).",
        ),
    ],
    board: Annotated[
        str,
        typer.Option("--board", metavar=BoardOption, help="My board so far (empty rows allowed)."),
    ] = "||",
    vs: Annotated[
        list[str] | None,
        typer.Option(
            "--vs",
            metavar=BoardOption,
            help="An opponent's board, complete or not (one or two opponents).",
            show_default=False,
        ),
    ] = None,
    dead: Annotated[
        str,
        typer.Option("--dead", metavar="CARDS", help="Cards seen out of play (my discards)."),
    ] = "",
    fantasy_value: Annotated[
        str,
        typer.Option(
            "--fantasy-value", metavar="P", help="Points for a final board that earns fantasyland."
        ),
    ] = "0",
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            min=2,
            max=1_000_000,
            help="Deals played out for each kept action when not exact (2 to 1,000,000; by "
            "default 240 on the first street, 200 after).",
            show_default=False,
        ),
    ] = None,
    kept: Annotated[
        int | None,
        typer.Option(
            "--kept",
            min=1,
            max=1000,
            help="Actions kept for playouts after the quick judgement (1 to 1,000; by default "
            "14 on the first street, 12 after).",
            show_default=False,
        ),
    ] = None,
    seed: SeedOption = 0,
    top: Annotated[
        int, typer.Option("--top", min=1, max=1000, help="Actions listed, 1 to 1,000.")
    ] = 10,
    royalties: RoyaltiesOption = None,
    variant: VariantOption = "pineapple",
    jokers: JokersOption = False,
    json_output: JsonOption = False,
) -> None:
    """Every legal action (which cards where, which discarded) ranked by expected points.

    Exact when every opponent's board is complete and few enough deals follow: in Pineapple at
    most one street after this one, in classic (--variant classic) at most three (every deal
    enumerated, each street played by its best action); else the actions a quick judgement of
    the board ranks best (--kept) are each played out over the same --samples deals by a
    player that rarely fouls.

    \b
    Example (the last two streets against a complete board):
      handsolver ofc play "2c 3d 7c" --board "Kc | Jc Jd 7s | Ac Ad Tc Ts 3c" \\
          --vs "Qh Qd 4s | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 4h" --dead "5d 6s"
    """
    from handsolver.models.cards import InputError, notation_of, parse_cards
    from handsolver.solver.ofc.deck import check_enough_unseen
    from handsolver.solver.ofc.play import Position
    from handsolver.solver.ofc.player import advise

    with user_errors():
        text = " ".join(card_texts([dealt]))
        cards = parse_cards(text, jokers=True)
        notation = notation_of(text, jokers=True)
        mine = _board(board)
        if not vs:
            raise InputError("give the opponents' boards with --vs (one or two)")
        opponents = tuple(_board(item) for item in vs)
        dead_cards = parse_cards(dead, jokers=True) if dead.strip() else ()
        rules = with_jokers(ofc_rules(royalties, "standard", variant=variant), jokers)
        value = points_value(fantasy_value, "--fantasy-value")
        position = Position(mine, cards, opponents, dead_cards, rules.streets)
        check_jokers(position.cards(), rules)
        check_enough_unseen(position, rules.deck)
        advice = advise(
            position,
            rules,
            value,
            samples=samples,
            kept=kept,
            seed=seed,
            watch=lambda numbers, count: progress(
                numbers, count, "ofc play: playouts", lowers="--samples lowers it"
            ),
        )
    answer = advice.answer
    shown = answer.actions[:top]
    payload: dict[str, Any] = {
        "board": rows_json(mine, notation),
        "dealt": notation.card_strings(cards),
        "opponents": [rows_json(b, notation) for b in opponents],
        "dead": notation.card_strings(dead_cards),
        "variant": variant,
        "jokers": rules.jokers,
        "fantasy_value": str(value),
        "exact": answer.exact,
        "deals": answer.deals,
        "actions_total": advice.legal,
        "actions_valued": advice.kept,
        "method": advice.method,
        "actions": [_action_json(entry, notation) for entry in shown],
    }
    if json_output:
        print_json(payload)
        return
    typer.echo(advice.method)

    def added(cards: tuple[int, ...]) -> str:
        return "+" + notation.format_cards(cards) if cards else ""

    discards = rules.streets.discards > 0  # classic discards nothing: no such column

    def row(place: int, entry: ActionValue) -> list[Any]:
        action = entry.action
        out = "" if action.discard is None else notation.format(action.discard)
        rows = [added(action.rows[2]), added(action.rows[1]), added(action.rows[0])]
        return [place + 1, *rows, *([out] if discards else []), _value_text(entry)]

    print_table(
        None,
        [
            Column("#"),
            Column("top", keep=True),
            Column("middle", keep=True),
            Column("bottom", keep=True),
            *([Column("discard", "out", keep=True)] if discards else []),
            Column("points", keep=True),
        ],
        (row(place, entry) for place, entry in enumerate(shown)),
        highlight=[0],
    )
