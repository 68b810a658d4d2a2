"""``handsolver big2``: the fewest plays that empty a hand (:mod:`.fewest`: solve, check, batch,
stats), positions played against the others (:mod:`.game`: game, game-batch), advice at the
table (:mod:`.advise`) and tournaments between strategies (:mod:`.tournament`), with the rule
switches every ``big2`` command takes (:mod:`.rules`) and its pictures (:mod:`.plots`)."""

from __future__ import annotations

import typer

from handsolver.solver.commands.groups import command_group


def group() -> typer.Typer:
    """The ``big2`` group; ``big2 HAND...`` runs ``solve``."""
    return command_group(
        "big2",
        {
            "solve": "big2.fewest:solve",
            "check": "big2.fewest:check",
            "batch": "big2.fewest:batch",
            "stats": "big2.fewest:stats",
            "game": "big2.game:game",
            "game-batch": "big2.game:game_batch",
            "advise": "big2.advise:advise",
            "tournament": "big2.tournament:tournament",
        },
        default="solve",
        subcommand_metavar="HAND... | COMMAND [ARGS]...",
        help="Big 2: partition a hand into the fewest legal plays, or solve a game position.\n\n"
        "'big2 HAND...' solves (the 'solve' command); see also check, batch, stats, game, "
        "game-batch, advise, tournament.",
    )


def register(app: typer.Typer) -> None:
    """Add the ``big2`` group to ``app``."""
    app.add_typer(group(), name="big2")
