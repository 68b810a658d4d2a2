"""``handsolver verify`` and ``handsolver cases``: a challenge's cases, and an answer program
judged on them (:mod:`.verify`)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add ``verify`` and ``cases`` to ``app``."""
    from handsolver.solver.commands.golf import verify

    app.command("verify")(verify.verify_command)
    app.command("cases")(verify.cases_command)
