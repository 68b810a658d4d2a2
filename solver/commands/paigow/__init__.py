"""``handsolver paigow``: the house way, every setting's exact value and the house-way study
(:mod:`.settings`), the whole game (:mod:`.game`), hand files a line each (:mod:`.lines`) and
the pictures (:mod:`.plots`)."""

from __future__ import annotations

import typer

from handsolver.solver.commands.groups import command_group


def register(app: typer.Typer) -> None:
    """Add the ``paigow`` group to ``app``."""
    commands = {"house-way": "paigow.settings:house_way_command"}
    commands |= {"settings": "paigow.settings:settings_command"}
    commands |= {"study": "paigow.settings:study_command", "game": "paigow.game:game_command"}
    help = "Pai Gow poker: the house way, exact values of every setting, house-way studies."
    app.add_typer(command_group("paigow", commands, help=help, no_args_is_help=True))
