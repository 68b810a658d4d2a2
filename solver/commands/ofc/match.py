"""``handsolver ofc match``: Pineapple players on the same deals, with the seats rotated."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Annotated, Any

import typer

from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.ofc.options import (
    JokersOption,
    RoyaltiesOption,
    VariantOption,
    ofc_rules,
    points_value,
    with_jokers,
)
from handsolver.solver.commands.options import (
    CheckpointOption,
    JsonOption,
    PlotOption,
    ResumeOption,
    SandboxName,
    SandboxOption,
    SchedulerOption,
    SeedOption,
    WorkersOption,
)
from handsolver.solver.commands.output import print_json
from handsolver.solver.commands.progress import progress
from handsolver.solver.commands.table import Column, print_table

if TYPE_CHECKING:
    from handsolver.solver.ofc.match import PlayerSummary


def _names(text: str) -> list[str]:
    from handsolver.models.cards import InputError

    names = [name.strip() for name in text.split(",")]
    if any(not name for name in names):
        raise InputError(f"--players {text!r}: a player name is empty")
    if not 2 <= len(names) <= 3:
        raise InputError(f"--players {text!r}: give 2 or 3 players, one a seat")
    return names


def _round(value: float) -> float | None:
    return round(value, 6) if math.isfinite(value) else None


def _summary_json(row: PlayerSummary) -> dict[str, Any]:
    return {
        "player": row.name,
        "hands": row.hands,
        "points": _round(row.points),
        "interval": [_round(row.interval[0]), _round(row.interval[1])],
        "foul_rate": _round(row.foul_rate),
        "fantasy_rate": _round(row.fantasy_rate),
        "forfeits": row.forfeits,
        "first_forfeit": row.first_forfeit,
        "seconds_median": [_round(s) for s in row.seconds_median],
        "seconds_max": [_round(s) for s in row.seconds_max],
    }


def match(
    players: Annotated[
        str,
        typer.Option(
            "--players",
            metavar="A,B[,C]",
            help="2 or 3 players: player, policy, rollout, random or program:COMMAND.",
        ),
    ] = "player,policy",
    deals: Annotated[
        int,
        typer.Option(
            "--deals",
            min=1,
            max=1_000_000,
            help="Deals, each played in every rotation of the seats (1 to 1,000,000).",
        ),
    ] = 20,  # fmt: skip
    seed: SeedOption = 0,
    fantasy_value: Annotated[
        str,
        typer.Option(
            "--fantasy-value",
            metavar="P",
            help="Points the players count for a board that earns fantasyland (the match "
            "itself counts the hand's points only).",
        ),
    ] = "15",
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            min=2,
            max=1_000_000,
            help="The player's playouts for each kept action (2 to 1,000,000; by default as "
            "ofc play).",
            show_default=False,
        ),
    ] = None,
    kept: Annotated[
        int | None,
        typer.Option(
            "--kept",
            min=1,
            max=1000,
            help="The player's actions kept for playouts (1 to 1,000; by default as ofc play).",
            show_default=False,
        ),
    ] = None,
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout",
            min=0.1,
            max=3600,
            help="Seconds a program may take for one street (0.1 to 3,600).",
        ),
    ] = 60.0,
    sandbox: SandboxOption = SandboxName.auto,
    royalties: RoyaltiesOption = None,
    variant: VariantOption = "pineapple",
    jokers: JokersOption = False,
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
    checkpoint: CheckpointOption = None,
    resume: ResumeOption = False,
    plot: PlotOption = None,
    json_output: JsonOption = False,
) -> None:
    """Duplicate deals between players: each deal is played once for every rotation of the
    players over the seats (twice heads-up), so every player plays every seat's cards.

    Prints each player's points a hand with a 95% interval, how often its boards foul and earn
    fantasyland, and its seconds a decision street by street (median and slowest).  A program
    that answers with an action that is not legal loses that hand (its board counts as
    fouled), and the match says so.  Every finished block of 5 deals is saved to a
    checkpoint (--checkpoint, by default in the user's cache directory); after Ctrl-C,
    --resume plays only the blocks missing.

    \b
    Example:
      handsolver ofc match --players rollout,policy --deals 4 --seed 1
    """
    from handsolver.solver.commands.checkpoints import checkpointed_run
    from handsolver.solver.ofc.match import summary
    from handsolver.solver.ofc.match_players import player_from_spec
    from handsolver.solver.ofc.match_run import match as play_match
    from handsolver.solver.ofc.match_saves import match_checkpoint, match_key

    with user_errors():
        if plot is not None:
            from handsolver.solver.commands.plots import plot_format

            plot_format(plot)  # a bad suffix is refused before any deal is played
        names = _names(players)
        rules = with_jokers(ofc_rules(royalties, "standard", variant=variant), jokers)
        value = points_value(fantasy_value, "--fantasy-value")
        seated = [
            player_from_spec(name, rules, value, samples, kept, timeout, sandbox.value)
            for name in names
        ]
        path = checkpoint or match_checkpoint(match_key(seated, deals, seed, rules))
        named = checkpoint is not None
        with checkpointed_run(
            path, named=named, resume=resume, what="match", unfinished="every deal was played"
        ):
            results = play_match(
                seated,
                rules,
                deals,
                seed=seed,
                workers=workers,
                scheduler=scheduler,
                progress=lambda items, total, done: progress(
                    items, total, "ofc match: blocks of 5 deals", done=done
                ),
                checkpoint=path,
                resume=resume,
                checkpoint_required=named,
            )
    labels = [f"{name} (seat order {i + 1})" if names.count(name) > 1 else name
              for i, name in enumerate(names)]  # fmt: skip
    rows = summary(labels, results)
    if plot is not None:
        from handsolver.solver.commands.ofc.match_plots import match_figure
        from handsolver.solver.commands.plots.figures import save

        title = f"OFC match ({variant}): {deals:,} duplicate deals, seats rotated, seed {seed}"
        with user_errors():
            save(match_figure(rows, title), plot)
    if json_output:
        print_json(
            {"deals": deals, "seed": seed, "variant": variant, "fantasy_value": str(value),
             "jokers": rules.jokers,
             "players": [_summary_json(row) for row in rows]}
        )  # fmt: skip
        return
    games = len(results[0].games) if results else 0
    typer.echo(
        f"{deals:,} deals (seed {seed}{', classic' if variant == 'classic' else ''}), each played "
        f"{games} times with the seats rotated; points a hand with a 95% interval"
    )

    def seconds(values: tuple[float, ...]) -> str:
        return ", ".join(f"{value:.2f} s" if math.isfinite(value) else "-" for value in values)

    print_table(
        None,
        [
            Column("player"),
            Column("hands", keep=True),
            Column("points", keep=True),
            Column("95% interval", keep=True),
            Column("fouled", keep=True),
            Column("fantasyland", keep=True),
        ],
        (
            [
                row.name,
                row.hands,
                f"{row.points:+.2f}",
                f"{row.interval[0]:+.2f} to {row.interval[1]:+.2f}"
                if math.isfinite(row.interval[0])
                else "n/a",
                f"{row.foul_rate:.1%}",
                f"{row.fantasy_rate:.1%}",
            ]
            for row in rows
        ),
    )
    for row in rows:
        typer.echo(
            f"{row.name}: seconds a decision by street, median {seconds(row.seconds_median)}; "
            f"slowest {seconds(row.seconds_max)}"
        )
    for row in rows:
        if row.forfeits:
            typer.echo(
                f"{row.name} lost {row.forfeits} hand(s) to replies that were not legal; the "
                f"first: {row.first_forfeit}"
            )
