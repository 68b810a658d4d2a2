"""``handsolver poker`` (showdowns, one or a file of them) and ``handsolver euler54``
(:mod:`.showdown`)."""

from __future__ import annotations

import typer

from handsolver.solver.commands.groups import command_group


def register(app: typer.Typer) -> None:
    """Add the ``poker`` group (``poker HAND...`` runs ``showdown``) and ``euler54`` to
    ``app``."""
    from handsolver.solver.commands.poker import showdown

    poker = command_group(
        "poker",
        {"showdown": "poker.showdown:showdown", "batch": "poker.showdown:batch"},
        default="showdown",
        subcommand_metavar="HAND... | batch FILE",
        help="Judge a standard poker showdown: category, the five cards that play, the "
        "winner(s).\n\n'poker HAND...' judges one deal (the 'showdown' command); "
        "'poker batch FILE' one deal a line.\n\n"
        'Example: handsolver poker "8C TS KC 9H 4S" "7D 2S 5D 3S AC"',
    )
    app.add_typer(poker, name="poker")
    app.command("euler54")(showdown.euler54)
