"""``handsolver ofc fantasyland``: the best settings of a fantasyland hand, proven best (or,
where ``--max-nodes`` stops the search first, the best it found, said to be unproven).

Objectives are exact: integers or fractions in strings in JSON, decimals in the table (cut to
four places, with an ellipsis, where the fraction does not end there).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.inputs import card_texts
from handsolver.solver.commands.ofc.options import (
    MAX_STAY_VALUE,
    PLAYED_BY,
    JokersOption,
    OpponentPlayOption,
    RoyaltiesOption,
    StayRuleOption,
    VariantOption,
    check_jokers,
    check_opponent_play,
    ofc_rules,
    points_text,
    points_value,
    rows_json,
    with_jokers,
)
from handsolver.solver.commands.options import JsonOption, SeedOption
from handsolver.solver.commands.output import print_json
from handsolver.solver.commands.table import Column, print_table

if TYPE_CHECKING:
    from handsolver.models.cards import Notation
    from handsolver.solver.ofc import FantasySetting


def _setting_json(entry: FantasySetting, notation: Notation) -> dict[str, Any]:
    return {
        **rows_json(entry.setting, notation),
        "discards": notation.card_strings(entry.discards),
        "royalties": entry.royalties._asdict(),
        "stays": entry.stays,
        "objective": str(entry.objective),
    }


def fantasyland(
    hand_texts: Annotated[
        list[str],
        typer.Argument(
            metavar="HAND...",
            help="The 13 to 17 cards dealt in fantasyland, in one argument or several; '-' "
            "reads them from stdin.",
            show_default=False,
        ),
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
    sample_opponents: Annotated[
        int | None,
        typer.Option(
            "--sample-opponents",
            metavar="N",
            min=1,
            max=10_000,
            help="Deal N opponent boards from the cards not in HAND (by --seed), each played by "
            "--opponent-play: the objective adds the mean score against them.",
            show_default=False,
        ),
    ] = None,
    opponent_play: OpponentPlayOption = "rollout",
    seed: SeedOption = 0,
    top: Annotated[
        int, typer.Option("--top", min=1, max=1000, help="Settings listed, 1 to 1,000.")
    ] = 5,
    royalties: RoyaltiesOption = None,
    stay_rule: StayRuleOption = "standard",
    variant: VariantOption = "pineapple",
    jokers: JokersOption = False,
    max_nodes: Annotated[
        int | None,
        typer.Option(
            "--max-nodes",
            metavar="N",
            min=1,
            max=10**12,
            help="Evaluate at most N complete settings: where the search needs more it stops, "
            "lists the best found so far and says they are not proven best.",
            show_default=False,
        ),
    ] = None,
    json_output: JsonOption = False,
) -> None:
    """The best ways to set a fantasyland hand: 13 of HAND set top 3, middle 5, bottom 5, the
    rest discarded (classic, --variant classic: 13 cards, none discarded), ranked by royalties
    plus --stay-value when the setting stays in fantasyland (plus the points against --vs
    boards, or the mean against sampled boards), proven best.

    \b
    Examples:
      handsolver ofc fantasyland "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c"
      handsolver ofc fantasyland "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c" --stay-value 12.5
      handsolver ofc fantasyland "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c" \\
          --sample-opponents 200 --seed 1
      handsolver ofc fantasyland --jokers "Ac Ad X1 Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c"
    """
    from handsolver.models.cards import InputError, parse_deal
    from handsolver.models.ofc import board_of_text
    from handsolver.solver.ofc import Objective, check_fantasy_hand, solve_fantasyland

    with user_errors():
        # One hand, however many arguments it is typed in.
        deal = parse_deal(card_texts([" ".join(hand_texts)]), hand_size=(13, 17), jokers=True)
        if len(deal.hands) != 1:
            raise InputError(f"one fantasyland hand, please: got {len(deal.hands)}")
        hand, notation = deal.hands[0], deal.notation
        rules = with_jokers(ofc_rules(royalties, stay_rule, variant=variant), jokers)
        check_fantasy_hand(hand, rules)
        value = points_value(stay_value, "--stay-value")
        check_opponent_play(opponent_play)
        boards = tuple(board_of_text(board, jokers=True) for board in vs or [])
        check_jokers([*hand, *(card for board in boards for row in board for card in row)], rules)
        if sample_opponents is not None:
            from handsolver.solver.commands.progress import progress
            from handsolver.solver.ofc.opponents import sampled_boards

            if boards:
                raise InputError("--vs and --sample-opponents: give one or the other")
            sampled = sampled_boards(
                hand,
                sample_opponents,
                seed,
                rules,
                value,
                watch=lambda numbers, count: progress(numbers, count, "opponent boards"),
                player=opponent_play,
            )
            objective = Objective(value, sampled, mean=True)
        else:
            objective = Objective(value, boards)
        answer = solve_fantasyland(hand, rules, objective, top=top, node_budget=max_nodes)
    payload: dict[str, Any] = {
        "cards": notation.card_strings(hand),
        "rules": {
            "royalties": "common" if royalties is None else str(royalties),
            "stay": stay_rule,
            "variant": variant,
            "jokers": rules.jokers,
            "stay_value": str(value),
            "against": [rows_json(board, notation) for board in boards],
            "sampled_opponents": None
            if sample_opponents is None
            else {"boards": sample_opponents, "seed": seed, "played_by": opponent_play},
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
    if sample_opponents is not None:
        against = (
            f"\nagainst: {sample_opponents:,} opponent boards dealt from the other cards (seed "
            f"{seed}) and played by the {PLAYED_BY[opponent_play]}; the objective adds the mean "
            "score against them"
        )
    typer.echo(
        f"cards: {notation.format_cards(hand)} ({len(hand)})   stay value: {points_text(value)}   "
        f"stay rule: {stay_rule}{'   variant: classic' if variant == 'classic' else ''}{against}"
    )
    if answer.proven:
        typer.echo("proven best: every other setting scores at most the last one listed")
    else:
        typer.echo(
            f"not proven: --max-nodes stopped the search after {answer.leaves:,} settings; "
            "these are the best it found"
        )
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
                points_text(entry.objective),
            ]
        )
    print_table(None, columns, rows, highlight=[0])
