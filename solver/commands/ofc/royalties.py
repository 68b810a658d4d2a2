"""``handsolver ofc royalties``: the rules in use shown, the royalty table first.

The table is written back as a royalty file writes it
(:func:`handsolver.models.royalty_tables.royalty_entries`): ``--json``'s ``"table"`` is a file
``--royalties`` takes, giving the same table.
"""

from __future__ import annotations

import textwrap
from typing import Any

import typer

from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.ofc.options import (
    CLASSIC_FANTASY_WORDS,
    FANTASY_WORDS,
    JOKER_WORDS,
    STAY_RULE_WORDS,
    VARIANT_WORDS,
    FantasyOption,
    JokersOption,
    RoyaltiesOption,
    StayRuleOption,
    VariantOption,
    ofc_rules,
)
from handsolver.solver.commands.options import JsonOption
from handsolver.solver.commands.output import print_json
from handsolver.solver.commands.table import Column, print_table

SHOWN_ROWS = ("top", "middle", "bottom")  # as players write a board
LINE_WIDTH = 80


def royalties(
    royalties: RoyaltiesOption = None,
    stay_rule: StayRuleOption = "standard",
    fantasy: FantasyOption = "progressive",
    variant: VariantOption = "pineapple",
    jokers: JokersOption = False,
    json_output: JsonOption = False,
) -> None:
    """The rules the other ofc commands play by with the same switches: the royalty table (every
    hand that earns points, by row), the most a board can earn, what earns fantasyland and what
    keeps it there.

    \b
    Examples:
      handsolver ofc royalties
      handsolver ofc royalties --royalties examples/ofc_royalties.json --json
    """
    from handsolver.models.ofc import ROW_NAMES
    from handsolver.models.royalty_tables import royalty_entries

    with user_errors():
        rules = ofc_rules(royalties, stay_rule, fantasy, variant)
    table = royalty_entries(rules.royalties, ROW_NAMES)
    tables = dict(
        zip(
            ROW_NAMES,
            (rules.royalties.back, rules.royalties.middle, rules.royalties.front),
            strict=True,
        )
    )
    most = {row: max(0, max(tables[row])) for row in SHOWN_ROWS}
    source = "common" if royalties is None else str(royalties)
    payload: dict[str, Any] = {
        "royalties": source,
        "table": {row: table[row] for row in SHOWN_ROWS},
        "most": {**most, "board": sum(most.values())},
        "fantasy": fantasy,
        "stay": stay_rule,
        "variant": variant,
        "jokers": 2 if jokers else 0,
    }
    if json_output:
        print_json(payload)
        return
    named = "the common table" if royalties is None else f"from {source}"
    typer.echo(f"royalties: {named}; a fouled board earns none")
    rows = [
        [row if first else "", hand, points]
        for row in SHOWN_ROWS
        for first, (hand, points) in _marked(table[row].items())
    ]
    if not rows:
        rows = [["any", "no hand earns royalties", 0]]
    print_table(None, [Column("row", keep=True), Column("hand", keep=True), Column("points")], rows)
    parts = ", ".join(f"{most[row]} {row}" for row in SHOWN_ROWS)
    for line in (
        f"no board earns more than {sum(most.values())} (the most of each row: {parts})",
        f"streets ({variant}): {VARIANT_WORDS[variant]}",
        f"fantasyland ({fantasy}): {FANTASY_WORDS[fantasy]}"
        if rules.streets.fantasy_cards is None
        else f"fantasyland ({variant}): {CLASSIC_FANTASY_WORDS}",
        f"staying ({stay_rule}): {STAY_RULE_WORDS[stay_rule]}",
        *([f"deck: {JOKER_WORDS}"] if jokers else []),
    ):
        typer.echo(textwrap.fill(line, LINE_WIDTH, subsequent_indent="  "))


def _marked(items: Any) -> list[tuple[bool, tuple[str, int]]]:
    """Each entry with whether it is its row's first (the row is named once)."""
    return [(index == 0, item) for index, item in enumerate(items)]
