"""``handsolver big2 tournament``: strategies play the same deals with the seats rotated."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from handsolver.models.big2 import SEED_RULES, Rules
from handsolver.models.cards import InputError
from handsolver.solver.big2.table.advise import (
    DEFAULT_LINE_NODES,
    DEFAULT_OPPONENTS,
    TABLE_NODES,
    TABLE_SAMPLES,
    TABLE_SOLVE_CARDS,
)
from handsolver.solver.commands.big2.advise import (
    LineNodesOption,
    NodesOption,
    OpponentsOption,
    PassesOption,
    ReadingOption,
    SamplesOption,
    SolveCardsOption,
    TimeOption,
    advice_settings,
)
from handsolver.solver.commands.big2.rules import table_rules, takes_rules
from handsolver.solver.commands.errors import user_errors
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
from handsolver.solver.commands.table import print_table

MAX_DEALS = 1_000_000
NO_INTERVAL = "n/a (too few games)"


def _strategy_names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if any(not name for name in names):
        raise InputError(f"--strategies {text!r}: a strategy name is empty")
    if not 2 <= len(names) <= 4:
        raise InputError(f"--strategies {text!r}: give 2, 3 or 4 strategies, one a seat")
    return names


def tournament_json(result: Any) -> dict[str, Any]:
    return {
        "rules": result.rules.to_json(),
        "deals": result.deals,
        "seed": result.seed,
        "strategies": [
            {
                "strategy": item.strategy,
                "wins": item.wins,
                "deals": item.games,
                "win_rate": round(float(item.win_rate), 6),
                "interval": None
                if item.interval is None
                else [round(item.interval[0], 6), round(item.interval[1], 6)],
                "mean_cards_left": round(float(item.mean_cards_left), 6),
                "mean_score": round(float(item.mean_score), 6),
            }
            for item in result.strategies
        ],
    }


@takes_rules(seats=True)
def tournament(
    strategies: Annotated[
        str,
        typer.Option(
            "--strategies",
            metavar="A,B[,C,D]",
            help=(
                "One strategy a seat: random, greedy, fewest, shed, advise, learned or "
                "program:COMMAND."
            ),
            show_default=False,
        ),
    ],
    deals: Annotated[
        int,
        typer.Option(
            "--deals",
            min=1,
            max=MAX_DEALS,
            help="Deals, each played once a rotation of the seats (1 to 1,000,000).",
        ),
    ] = 100,
    seed: SeedOption = 0,
    samples: SamplesOption = TABLE_SAMPLES,
    nodes: NodesOption = TABLE_NODES,
    time_limit: TimeOption = None,
    solve_cards: SolveCardsOption = TABLE_SOLVE_CARDS,
    line_nodes: LineNodesOption = DEFAULT_LINE_NODES,
    reading: ReadingOption = True,
    passes: PassesOption = 0,
    opponents: OpponentsOption = DEFAULT_OPPONENTS,
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout",
            min=0.1,
            max=86_400,
            help="Seconds a strategy program may take for one turn of a block of deals.",
        ),
    ] = 60.0,
    sandbox: SandboxOption = SandboxName.auto,
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
    checkpoint: CheckpointOption = None,
    resume: ResumeOption = False,
    as_json: JsonOption = False,
    plot: PlotOption = None,
    rules: Rules = SEED_RULES,
    players: int | None = None,
) -> None:
    """Play full deals between strategies, the same deals once for every rotation of the seats
    (the duplicate format), and report each strategy's share of deals won (out first), with a
    95% interval, its mean cards left and mean score.  Hours of work with advise seats: a
    progress bar, checkpoints (--resume continues), --workers or --scheduler.

    Example: handsolver big2 tournament --strategies greedy,random,random,random --deals 100
    """
    from handsolver.solver.big2.table.strategies import strategy_from_spec
    from handsolver.solver.big2.table.tournament import play_tournament
    from handsolver.solver.big2.table.tournament_saves import tournament_checkpoint, tournament_key
    from handsolver.solver.commands.checkpoints import checkpointed_run
    from handsolver.solver.commands.progress import progress

    with user_errors():
        settings = advice_settings(
            samples, nodes, time_limit, solve_cards, seed, line_nodes, reading, passes, opponents
        )
        names = _strategy_names(strategies)
        rules = table_rules(rules, players, len(names), f"the {len(names)} strategies given")
        seated = [strategy_from_spec(name, settings, timeout, sandbox.value) for name in names]
        path = checkpoint or tournament_checkpoint(tournament_key(seated, deals, seed, rules))
        named = checkpoint is not None
        with checkpointed_run(
            path, named=named, resume=resume, what="tournament", unfinished="every deal was played"
        ):
            result = play_tournament(
                seated,
                deals,
                seed,
                rules,
                workers=workers,
                scheduler=scheduler,
                progress=lambda items, total, done: progress(
                    items, total, "big2 tournament", done=done
                ),
                checkpoint=path,
                resume=resume,
                checkpoint_required=named,
            )
    out = tournament_json(result)
    if plot is not None:
        from handsolver.solver.commands.big2.plots import tournament_figure
        from handsolver.solver.commands.plots.figures import save

        title = (
            f"Big 2 tournament: {deals:,} deals, seats rotated, seed {seed} ({rules.name} rules)"
        )
        with user_errors():
            save(tournament_figure(out["strategies"], len(names), title), plot)
    if as_json:
        print_json(out)
        return
    rows = [
        [
            item["strategy"],
            item["wins"],
            item["deals"],
            f"{item['win_rate']:.1%}",
            NO_INTERVAL
            if item["interval"] is None
            else f"{item['interval'][0]:.1%} to {item['interval'][1]:.1%}",
            f"{item['mean_cards_left']:.2f}",
            f"{item['mean_score']:+.2f}",
        ]
        for item in out["strategies"]
    ]
    games = deals * len(names)
    title = (
        f"{deals:,} deal{'s' if deals != 1 else ''} x {len(names)} seat rotations = {games:,} "
        f"games ({rules.name} rules, seed {seed})"
    )
    columns = ["strategy", "won", "games", "share", "95% interval", "cards left", "score"]
    print_table(title, columns, rows)
