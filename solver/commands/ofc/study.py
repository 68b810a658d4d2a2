"""``handsolver ofc study``: the value of fantasyland as a fixed point, over random hands."""

from __future__ import annotations

import math
from typing import Annotated, Any

import typer

from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.ofc.options import (
    PLAYED_BY,
    FantasyOption,
    JokersOption,
    OpponentPlayOption,
    RoyaltiesOption,
    StayRuleOption,
    VariantOption,
    check_opponent_play,
    ofc_rules,
    with_jokers,
)
from handsolver.solver.commands.options import (
    CheckpointOption,
    JsonOption,
    PlotOption,
    ResumeOption,
    SchedulerOption,
    SeedOption,
    WorkersOption,
)
from handsolver.solver.commands.output import print_json
from handsolver.solver.commands.progress import progress
from handsolver.solver.commands.table import Column, print_table


def _error(value: float, digits: int = 3, percent: bool = False) -> str:
    """A standard error as the tables print it: ``n/a`` where one hand leaves none."""
    if not math.isfinite(value):
        return "n/a"
    return f"{value:.{digits}%}" if percent else f"{value:.{digits}f}"


def study(
    hands: Annotated[
        int,
        typer.Option(
            "--hands",
            min=2,
            max=1_000_000,
            help="Random fantasyland hands a size (2 to 1,000,000).",
        ),
    ] = 1000,
    size_hands: Annotated[
        int | None,
        typer.Option(
            "--size-hands",
            min=0,
            max=1_000_000,
            help="Random hands of 15, 16 and 17 cards each (default: --hands; 0: none); "
            "Pineapple only.",
            show_default=False,
        ),
    ] = None,
    normal_hands: Annotated[
        int,
        typer.Option(
            "--normal-hands",
            min=0,
            max=1_000_000,
            help="Normal hands played by the --opponent-play player (0 to 1,000,000).",
        ),
    ] = 0,
    opponents: Annotated[
        int,
        typer.Option(
            "--opponents",
            metavar="K",
            min=0,
            max=1000,
            help="Value each fantasyland hand by its royalties and mean score against K opponent "
            "boards (heads-up, dealt from the other cards and played by --opponent-play); "
            "0: royalties alone.",
        ),
    ] = 0,
    opponent_play: OpponentPlayOption = "rollout",
    seed: SeedOption = 0,
    royalties: RoyaltiesOption = None,
    stay_rule: StayRuleOption = "standard",
    fantasy: FantasyOption = "progressive",
    variant: VariantOption = "pineapple",
    jokers: JokersOption = False,
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
    checkpoint: CheckpointOption = None,
    resume: ResumeOption = False,
    json_output: JsonOption = False,
    plot: PlotOption = None,
) -> None:
    """The value of being in fantasyland with 14 to 17 cards (classic: 13), as a fixed point: the
    mean royalties of the best settings plus the share that stays times the value of staying
    (14 cards; classic 13), each hand set knowing that value; with --opponents K, royalties
    and the mean score against K sampled opponent boards.  With --normal-hands, normal hands
    played out: fouls, royalties and the fantasyland they earn.  The opponent boards and the
    normal hands are played by --opponent-play: the rollout player, or the weaker policy.
    Minutes of work for many hands: a progress bar, checkpoints (--resume continues), --workers
    or --scheduler.

    Example: handsolver ofc study --hands 2000 --normal-hands 1000 --workers 2
    """
    from handsolver.solver.commands.checkpoints import checkpointed_run
    from handsolver.solver.ofc.study_run import run_study, study_checkpoint, study_key

    others = hands if size_hands is None else size_hands
    with user_errors():
        rules = with_jokers(ofc_rules(royalties, stay_rule, fantasy, variant), jokers)
        check_opponent_play(opponent_play)
        key = study_key(seed, rules, hands, others, normal_hands, opponents, opponent_play)
        path = checkpoint if checkpoint is not None else study_checkpoint(key)
        with checkpointed_run(path, named=checkpoint is not None, resume=resume, what="study"):
            result = run_study(
                hands,
                seed,
                rules,
                size_hands=others,
                normal_hands=normal_hands,
                opponents=opponents,
                opponent_play=opponent_play,
                workers=workers,
                scheduler=scheduler,
                checkpoint=path,
                resume=resume,
                checkpoint_required=checkpoint is not None,
                progress=lambda items, total, done, what: progress(
                    items, total, f"ofc study: {what}", done=done
                ),
            )
    # With opponents a hand earns royalties and a score: "points" names both.
    points = "points" if opponents else "royalties"
    if plot is not None:
        from handsolver.solver.commands.ofc.plots import fantasy_figure
        from handsolver.solver.commands.plots.figures import save

        title = (
            f"Fantasyland: {hands:,} random hands of {rules.refantasy_cards} cards, stay rule "
            f"{stay_rule}, seed {seed}; "
            f"value of staying {float(result.value):.2f} points"
        )
        values = {item.size: (item.value, item.value_stderr) for item in result.sizes}
        with user_errors():
            save(fantasy_figure(result.royalties, values, title, points), plot)
    normal = result.normal
    payload: dict[str, Any] = {
        "hands": hands,
        "size_hands": others,
        "opponents": opponents,
        "opponent_play": opponent_play,
        "seed": seed,
        "rules": {
            "stay": stay_rule,
            "fantasy": fantasy,
            "variant": variant,
            "royalties": str(royalties or "common"),
            "jokers": rules.jokers,
        },
        "stay_value": str(result.value),
        "stay_value_rounds": [float(value) for value in result.rounds],
        "sizes": [
            {
                "cards": item.size,
                f"mean_{points}": round(item.royalties, 6),
                f"{points}_stderr": round(item.royalties_stderr, 6),
                "share_staying": round(item.share_staying, 6),
                "share_stderr": round(item.share_stderr, 6),
                "value": round(item.value, 6),
                "value_stderr": round(item.value_stderr, 6),
            }
            for item in result.sizes
        ],
    }
    if normal is not None:
        payload["normal"] = {
            "hands": normal.hands,
            "mean_royalties": round(normal.royalties, 6),
            "royalties_stderr": round(normal.royalties_stderr, 6),
            "share_fouled": round(normal.share_fouled, 6),
            "share_fantasy": {str(k): round(v, 6) for k, v in normal.share_fantasy.items()},
            "share_fantasy_earned": round(sum(normal.share_fantasy.values()), 6),
            "fantasy_value": round(normal.fantasy_value, 6),
            "fantasy_value_stderr": round(normal.fantasy_value_stderr, 6),
        }
    if json_output:
        print_json(payload)
        return
    rounds = ", ".join(f"{float(value):.2f}" for value in result.rounds)
    classic = rules.streets.fantasy_cards is not None  # one size: 13 cards
    others_text = "" if classic else f", {others:,} of 15, 16 and 17"
    typer.echo(
        f"{hands:,} random fantasyland hands of {rules.refantasy_cards} cards{others_text} (seed "
        f"{seed}), stay rule {stay_rule}{', classic' if variant == 'classic' else ''}; "
        + (
            f"royalties and mean score against {opponents:,} opponent boards a hand played by the "
            f"{PLAYED_BY[opponent_play]}; "
            if opponents
            else ""
        )
        + f"value of staying by round: {rounds} (a sample: ± 1 standard error)"
    )
    print_table(
        None,
        [
            Column("cards"),
            Column(points, keep=True),
            Column("stays", keep=True),
            Column("value of fantasyland", "value", keep=True),
        ],
        (
            [
                item.size,
                f"{item.royalties:.2f} ± {_error(item.royalties_stderr, 2)}",
                f"{item.share_staying:.1%} ± {_error(item.share_stderr, 1, percent=True)}",
                f"{item.value:.2f} ± {_error(item.value_stderr, 2)}",
            ]
            for item in result.sizes
        ),
    )
    if normal is not None:
        shares = ", ".join(
            f"{size}: {share:.1%}" for size, share in normal.share_fantasy.items() if share
        )
        earned = sum(normal.share_fantasy.values())
        typer.echo(
            f"normal hands played by the {PLAYED_BY[opponent_play]} ({normal.hands:,}): royalties "
            f"{normal.royalties:.2f} ± {_error(normal.royalties_stderr, 2)}, fouled "
            f"{normal.share_fouled:.1%}, fantasyland earned "
            f"{f'{earned:.1%} ({shares})' if shares else 'never'}; its value "
            f"{normal.fantasy_value:.2f} ± {_error(normal.fantasy_value_stderr, 2)} a hand"
        )
