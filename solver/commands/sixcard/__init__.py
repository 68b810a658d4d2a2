"""``handsolver sixcard``: best splits, strategies, the equilibrium, the contest's harness
(:mod:`.strategies`), and their pictures (:mod:`.plots`)."""

from __future__ import annotations

import typer

from handsolver.solver.commands.groups import command_group


def register(app: typer.Typer) -> None:
    """Add the ``sixcard`` group to ``app``."""
    from handsolver.solver.commands.sixcard import strategies as s

    commands = {"split": s.split, "score": s.score, "strategy": s.strategy}
    commands |= {"equilibrium": s.equilibrium, "simulate": s.simulate}
    commands |= {"export-matlab": s.export_matlab}
    help = "The six-card game (16 cards, values 1-4): best splits, strategies, the equilibrium."
    app.add_typer(command_group("sixcard", commands, help=help, rich_markup_mode=None))
