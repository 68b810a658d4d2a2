"""``handsolver chinese``: every setting ranked (:mod:`.settings`), the best-response study
(:mod:`.study`) and their pictures (:mod:`.plots`)."""

from __future__ import annotations

import typer

from handsolver.solver.commands.groups import command_group


def register(app: typer.Typer) -> None:
    """Add the ``chinese`` group to ``app``."""
    commands = {"settings": "chinese.settings:settings", "study": "chinese.study:study"}
    help = "Chinese poker (13 cards set 3/5/5): best settings and the best-response study."
    app.add_typer(command_group("chinese", commands, help=help, no_args_is_help=True))
