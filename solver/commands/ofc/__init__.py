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
        "Open-face Chinese poker (Pineapple or classic): fantasyland, positions, the value of "
        "fantasyland, matches, the rules in use; --variant classic for classic open-face."
    )
    app.add_typer(command_group("ofc", commands, help=help, no_args_is_help=True))
