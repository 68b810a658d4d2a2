"""``handsolver ofc``: open-face Chinese poker (Pineapple or classic): the best fantasyland settings
(:mod:`.fantasyland`), a position's actions ranked (:mod:`.play`), the value of fantasyland
(:mod:`.study`) and its picture (:mod:`.plots`), the rules in use (:mod:`.royalties`);
:mod:`.options` holds what they share."""

from __future__ import annotations

import typer

from handsolver.solver.commands.groups import command_group


def register(app: typer.Typer) -> None:
    """Add the ``ofc`` group to ``app``."""
    commands = {
        "fantasyland": "ofc.fantasyland:fantasyland",
        "match": "ofc.match:match",
        "play": "ofc.play:play",
        "study": "ofc.study:study",
        "royalties": "ofc.royalties:royalties",
    }
    help = (
        "Open-face Chinese poker (Pineapple, or classic with --variant classic): fantasyland, "
        "positions, matches, the value of fantasyland, the rules in use."
    )
    app.add_typer(command_group("ofc", commands, help=help, no_args_is_help=True))
