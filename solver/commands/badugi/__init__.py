"""``handsolver badugi``: showdowns (:mod:`.showdown`) and draws (:mod:`.draw`)."""

from __future__ import annotations

import typer

from handsolver.solver.commands.groups import command_group


def group() -> typer.Typer:
    """The ``badugi`` group; ``badugi HAND...`` runs ``showdown``."""
    commands = {"showdown": "badugi.showdown:showdown", "batch": "badugi.showdown:batch"}
    commands |= {"draw": "badugi.draw:draw", "draw-batch": "badugi.draw:draw_batch"}
    return command_group(
        "badugi",
        commands,
        default="showdown",
        subcommand_metavar="HAND... | batch FILE | draw HAND... | draw-batch FILE",
        help="Judge a Badugi showdown (ace low; distinct ranks and suits play; more cards win).\n\n"
        "'badugi HAND...' judges one deal (the 'showdown' command); 'badugi batch FILE' one "
        "deal a line; 'badugi draw HAND... --draws N' the win, tie and loss after the draws and "
        "the best discard; 'badugi draw-batch FILE' one such spot a line."
        '\n\nExample: handsolver badugi "3c 2s 4d Ah" "As 3h 2d 4h"',
    )


def register(app: typer.Typer) -> None:
    """Add the ``badugi`` group to ``app``."""
    app.add_typer(group(), name="badugi")
