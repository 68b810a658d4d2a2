"""The options that state a Big 2 trick, shared by the commands that take a position
(``big2 game`` and ``big2 advise``)."""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = ["POSITION_OPTIONS", "BeatOption", "ByOption", "PassedOption", "StartOption"]

POSITION_OPTIONS = {
    "to_move": "--to-move",
    "by": "--by",
    "passed": "--passed",
    "start": "--start",
    "counts": "--counts",
    "played": "--played",
}
"""The option for each part of a position the library's errors speak of (``InputError.about``;
see :func:`~handsolver.solver.commands.errors.option_named`)."""

BeatOption = Annotated[
    str | None,
    typer.Option(
        "--beat", metavar="CARDS", help="The play to beat, with --by (none: a free lead)."
    ),
]
ByOption = Annotated[
    int | None,
    typer.Option("--by", metavar="N", min=1, max=4, help="The player who made it (1 to 4)."),
]
PassedOption = Annotated[
    str | None,
    typer.Option(
        "--passed",
        metavar="N,N",
        help="Players who passed in this trick (where passes are final: --pass-final).",
    ),
]
StartOption = Annotated[
    bool,
    typer.Option(
        "--start",
        help="The start of a deal: the holder of the lowest card leads and must play it.",
    ),
]
