"""``handsolver chinese study``: the mean gain of the best response over a strategy, over
random hands, each scored on fresh sampled deals.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from handsolver.solver.commands.chinese.settings import (
    BrSamplesOption,
    OpponentsOption,
    RoyaltiesOption,
    ScoringOption,
    StrategyHelp,
    TimeoutOption,
    royalties_table,
    setting_json,
    stderr_text,
    vs_strategy,
)
from handsolver.solver.commands.errors import fail, user_errors
from handsolver.solver.commands.options import (
    JsonOption,
    PlotOption,
    SandboxName,
    SandboxOption,
    SchedulerOption,
    SeedOption,
    WorkersOption,
)
from handsolver.solver.commands.output import print_json
from handsolver.solver.commands.progress import progress
from handsolver.solver.commands.table import Column, print_table


def study(
    hands: Annotated[
        int,
        typer.Option("--hands", min=1, max=1_000_000, help="Random hands (1 to 1,000,000)."),
    ] = 200,
    vs: Annotated[
        str,
        typer.Option(
            "--vs", metavar="STRATEGY", help=f"The strategy to improve on: {StrategyHelp}."
        ),
    ] = "greedy",
    opponents: OpponentsOption = 1,
    samples: Annotated[
        int,
        typer.Option(
            "--samples",
            min=2,
            max=1_000_000,
            help="Deals per hand, to choose and again to judge (2 to 1,000,000).",
        ),
    ] = 1000,
    seed: SeedOption = 0,
    scoring: ScoringOption = "1-6",
    royalties: RoyaltiesOption = None,
    br_samples: BrSamplesOption = 200,
    timeout: TimeoutOption = 60.0,
    sandbox: SandboxOption = SandboxName.auto,
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
    json_output: JsonOption = False,
    plot: PlotOption = None,
) -> None:
    """Mean gain of the best response over a strategy, over random hands (sampled deals).

    Example: handsolver chinese study --hands 200 --vs greedy --samples 1000 --workers 2
    """
    from handsolver.models.cards import STANDARD
    from handsolver.models.chinese import check_scoring, format_setting
    from handsolver.solver.batch import run_batch
    from handsolver.solver.chinese.indexing import setting_cards
    from handsolver.solver.chinese.studies import study_hand, study_jobs, summarize

    with user_errors():
        check_scoring(scoring)
        table = royalties_table(royalties)
        vs_strategy(vs, br_samples, timeout, sandbox.value)  # a bad --vs named before any work
        jobs = study_jobs(
            hands,
            vs,
            opponents=opponents,
            samples=samples,
            seed=seed,
            scoring=scoring,
            royalties=table,
            br_samples=br_samples,
            timeout=timeout,
            sandbox=sandbox.value,
        )
        results = list(
            progress(
                run_batch(study_hand, jobs, workers=workers, scheduler=scheduler),
                len(jobs),
                "chinese study",
            )
        )
    if not results:
        fail("no hands")
    result = summarize(results, samples)
    if plot is not None:
        from handsolver.solver.commands.chinese.plots import gain_figure
        from handsolver.solver.commands.plots.figures import save

        title = (
            f"Best response over {vs}: {result.hands:,} hands, {opponents} opponent(s), seed {seed}"
        )
        gains = [item.gain for item in results]
        with user_errors():
            save(gain_figure(gains, result.mean_gain, result.gain_stderr, title), plot)

    def hand_json(item: Any) -> dict[str, Any]:
        return {
            "hand": STANDARD.card_strings(item.hand),
            "strategy": setting_json(setting_cards(item.hand, item.strategy_setting), STANDARD),
            "best": setting_json(setting_cards(item.hand, item.best_setting), STANDARD),
            "gain": round(item.gain, 6),
            "stderr": round(item.gain_stderr, 6),
        }

    payload = {
        "hands": result.hands,
        "strategy": vs,
        "opponents": opponents,
        "samples": samples,
        "scoring": scoring,
        "seed": seed,
        "mean_gain": round(result.mean_gain, 6),
        "stderr": round(result.gain_stderr, 6),
        "strategy_points": round(result.strategy_points, 6),
        "best_points": round(result.best_points, 6),
        "share_already_best": round(result.share_same, 6),
        "biggest_gains": [hand_json(item) for item in result.biggest],
    }
    if json_output:
        print_json(payload)
        return
    typer.echo(
        f"{result.hands} random hands vs {opponents} opponent(s) playing {vs}, scoring {scoring}; "
        f"{samples} sampled deals per hand to choose the best response and {samples} fresh ones "
        "to judge it (a sample)"
    )
    typer.echo(
        f"mean gain of the best response: {result.mean_gain:+.4f} ± "
        f"{stderr_text(result.gain_stderr)} "
        f"points per deal ({result.strategy_points:+.4f} -> {result.best_points:+.4f}); "
        f"{vs} already best on {result.share_same:.1%} of hands"
    )
    print_table(
        "biggest gains",
        [
            Column("hand", keep=True),
            Column("strategy setting"),
            Column("best response", keep=True),
            Column("gain", keep=True),
        ],
        (
            [
                STANDARD.format_cards(item.hand),
                format_setting(setting_cards(item.hand, item.strategy_setting), STANDARD),
                format_setting(setting_cards(item.hand, item.best_setting), STANDARD),
                f"{item.gain:+.3f} ± {stderr_text(item.gain_stderr, 3)}",
            ]
            for item in result.biggest
        ),
    )
