"""``handsolver ofc``: open-face Chinese poker (Pineapple): the best fantasyland settings
(:mod:`.fantasyland`), a position's actions ranked (:mod:`.play`), the value of fantasyland
(:mod:`.study`) and its picture (:mod:`.plots`); :mod:`.options` holds what they share."""

from __future__ import annotations

import typer

from handsolver.solver.commands.groups import command_group


def register(app: typer.Typer) -> None:
    """Add the ``ofc`` group to ``app``."""
    from handsolver.solver.commands.ofc import fantasyland, match, play, study

    commands = {
        "fantasyland": fantasyland.fantasyland,
        "match": match.match,
        "play": play.play,
        "study": study.study,
    }
    help = "Open-face Chinese poker (Pineapple): fantasyland, positions, the value of fantasyland."
    app.add_typer(command_group("ofc", commands, help=help, no_args_is_help=True))
