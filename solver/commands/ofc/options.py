"""What the ``ofc`` commands share: the rules' options, points as typed, boards as JSON."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from handsolver.models.cards import Notation
    from handsolver.models.ofc import OfcRules

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
