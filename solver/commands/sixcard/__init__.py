"""``handsolver sixcard``: best splits, strategies, the equilibrium, the contest's harness
(:mod:`.strategies`), and their pictures (:mod:`.plots`)."""

from __future__ import annotations

import typer

from handsolver.solver.commands.groups import command_group


def register(app: typer.Typer) -> None:
    """Add the ``sixcard`` group to ``app``."""
    where = "sixcard.strategies"
    names = {"split": "split", "score": "score", "strategy": "strategy"}
    names |= {"equilibrium": "equilibrium", "simulate": "simulate"}
    names |= {"export-matlab": "export_matlab"}
    commands = {name: f"{where}:{function}" for name, function in names.items()}
    help = "The six-card game (16 cards, values 1-4): best splits, strategies, the equilibrium."
    app.add_typer(command_group("sixcard", commands, help=help, rich_markup_mode=None))
