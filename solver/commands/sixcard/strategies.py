"""``handsolver sixcard``: best splits, exact strategy scores, the equilibrium, MATLAB export.

Strategies are named ``random`` (the contest's plan for the computer), ``sorted``, ``equilibrium``,
``best-response:X`` or given as a CSV/JSON table file.  Scores are the contest's: the human's
average round result (win 1, draw 1/2), exact fractions in ``--json`` as strings.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from handsolver.solver.commands.errors import fail, user_errors
from handsolver.solver.commands.inputs import STDIN, hand_source, read_text
from handsolver.solver.commands.options import JsonOption, PlotOption, ascii_digits
from handsolver.solver.commands.output import print_json, write_atomic
from handsolver.solver.commands.progress import progress
from handsolver.solver.commands.table import Column, print_table

if TYPE_CHECKING:
    from handsolver.solver.sixcard import SplitScore, Strategy, Tables


MAX_ROUNDS = 10**9
MAX_SEED = 2**32 - 1  # numpy's seed range
StrategyHelp = "random, sorted, equilibrium, best-response:X, or a .csv/.json table file."


class Engine(StrEnum):
    enumerate = "enumerate"
    cp_sat = "cp-sat"


def _pct(value: Fraction) -> float:
    return round(float(value * 100), 6)


def _score_fields(score: Fraction, **shares: Fraction) -> dict[str, Any]:
    fields: dict[str, Any] = {"score": str(score), "percent": _pct(score)}
    for name, value in shares.items():
        fields[name] = str(value)
    return fields


def _write_table(path: Path, strategy: Strategy, t: Tables, extra: dict[str, Any]) -> None:
    from handsolver.solver.sixcard import table_csv, table_json

    if path.suffix.lower() == ".csv":
        write_atomic(path, table_csv(strategy, t))
    else:
        import json

        payload = {"strategy": strategy.name, **extra, "table": table_json(strategy, t)}
        write_atomic(path, json.dumps(payload, indent=2) + "\n")


def _draw_strategy(path: Path, strategy: Strategy, t: Tables, title: str) -> None:
    from handsolver.solver.commands.plots.figures import save
    from handsolver.solver.commands.sixcard.plots import strategy_figure, strategy_rows

    with user_errors():
        save(strategy_figure(strategy_rows(strategy, t), title), path)


def _split_row(item: SplitScore, t: Tables) -> dict[str, Any]:
    from handsolver.models.sixcard import format_split

    return {
        "split": format_split(item.split, t.game),
        **_score_fields(item.score, win=item.win, draw=item.draw),
        "worst": str(item.worst),
    }


def _hand_text(text: str, what: str) -> str:
    """A hand or split as typed, or read from stdin for ``-``; ASCII digits only."""
    return ascii_digits(read_text("-").strip() if hand_source(text) == STDIN else text, what)


def split(
    hand: Annotated[
        str,
        typer.Argument(
            metavar="HAND",
            help="Your six cards, e.g. 112234 or '1 1 2 2 3 4' ('-' for stdin).",
            show_default=False,
        ),
    ],
    vs_split: Annotated[
        str | None,
        typer.Option(
            "--vs-split",
            metavar="SPLIT",
            help="The opponent's split, High|Middle|Low, e.g. 344|33|4.",
        ),
    ] = None,
    vs_hand: Annotated[
        str | None, typer.Option("--vs-hand", metavar="HAND", help="The opponent's six cards.")
    ] = None,
    vs: Annotated[
        str | None,
        typer.Option(
            "--vs",
            metavar="STRATEGY",
            help=f"The opponent's strategy: {StrategyHelp} [default: random]",
        ),
    ] = None,
    engine: Annotated[
        Engine, typer.Option(help="How the best split is found (both are exact).")
    ] = Engine.enumerate,
    json_output: JsonOption = False,
) -> None:
    """Rank the splits of HAND against what you know about the opponent.

    --vs-split S: their split is known.  --vs-hand H --vs X: their hand and strategy are known.
    --vs X: only their strategy is known (their hand is dealt from the rest of the deck).
    --vs-hand H alone ranks by the worst case over all their splits (maximin).

    Example: handsolver sixcard split 112234 --vs-hand 133444 --vs sorted
    """
    from handsolver.models.sixcard import (
        check_compatible,
        format_hand,
        format_split,
        parse_hand,
        parse_split,
    )
    from handsolver.solver.sixcard import (
        build_split_model,
        maximin_splits,
        rank_splits,
        scenarios_vs_hand,
        scenarios_vs_split,
        scenarios_vs_strategy,
        solve_split_model,
        strategy_from_spec,
        tables,
    )

    if vs_split is not None and (vs_hand is not None or vs is not None):
        fail("give --vs-split alone, or --vs-hand and/or --vs")
    with user_errors():
        t = tables()
        mine = parse_hand(_hand_text(hand, "hand"), t.game)
        theirs = None
        if vs_split is not None:
            their_split = parse_split(ascii_digits(vs_split, "split"), t.game)
            check_compatible(mine, tuple(sorted(c for part in their_split for c in part)), t.game)
            scenarios = scenarios_vs_split(t, their_split)
            against = f"split {format_split(their_split, t.game)}"
        elif vs_hand is not None:
            theirs = parse_hand(ascii_digits(vs_hand, "hand"), t.game)
            check_compatible(mine, theirs, t.game)
            opponent = strategy_from_spec(vs, t) if vs else None
            if opponent is None:
                scenarios = ()
                against = f"hand {format_hand(theirs, t.game)}, any split (worst case)"
            else:
                scenarios = scenarios_vs_hand(t, theirs, opponent)
                against = f"hand {format_hand(theirs, t.game)} playing {opponent.name}"
        else:
            opponent = strategy_from_spec(vs or "random", t)
            scenarios = scenarios_vs_strategy(t, mine, opponent)
            against = f"strategy {opponent.name}"
    maximin = maximin_splits(t, mine, theirs) if theirs is not None else None
    ranked = rank_splits(t, mine, scenarios) if scenarios else maximin
    assert ranked is not None
    best = ranked[0]
    engine_note = "enumeration"
    if engine is Engine.cp_sat and scenarios:
        result = solve_split_model(build_split_model(t, mine, scenarios))
        best = next(item for item in ranked if item.split == result.split)
        engine_note = f"CP-SAT {result.status}, {result.wall_time:.3f} s"
    # The opponent's splits that can come up: how many of them beat each of my splits says
    # more than the worst case, which is a loss for almost every split.
    if scenarios:
        columns = [s for s, p in scenarios if p]
    else:
        assert theirs is not None
        columns = list(t.hand_splits[t.hand_index[theirs]])

    def row(item: SplitScore) -> dict[str, Any]:
        results = t.results[t.split_index[item.split], columns]
        return {**_split_row(item, t), "loses_to": int((results == 0).sum()), "of": len(columns)}

    report: dict[str, Any] = {
        "hand": format_hand(mine, t.game),
        "against": against,
        "engine": engine.value,
        "best": row(best),
        "splits": [row(item) for item in ranked],
    }
    if maximin is not None:
        report["maximin"] = row(maximin[0])
    if json_output:
        print_json(report)
        return
    print_table(
        f"Splits of {report['hand']} against {against}",
        [
            Column("split (High|Middle|Low)", short="split", keep=True),
            Column("score", keep=True),
            Column("%", keep=True),
            Column("win", priority=1),
            Column("draw", priority=0),
            Column("loses to", keep=True),
        ],
        (
            [
                item["split"],
                item["score"],
                f"{item['percent']:.3f}",
                item["win"],
                item["draw"],
                f"{item['loses_to']} of {item['of']}",
            ]
            for item in report["splits"]
        ),
        highlight=[report["splits"].index(report["best"])],
    )
    typer.echo(
        f"Best ({engine_note}): {report['best']['split']}  score {report['best']['score']}"
        f" = {report['best']['percent']:.4f}%"
    )
    if maximin is not None:
        safe = report["maximin"]
        typer.echo(
            f"Worst-case safe: {safe['split']}  never below {safe['worst']}; loses to "
            f"{safe['loses_to']} of their {safe['of']} splits"
        )


def score(
    me: Annotated[str, typer.Argument(help=f"The human's strategy: {StrategyHelp}")],
    opp: Annotated[str, typer.Argument(help="The computer's strategy.")],
    json_output: JsonOption = False,
) -> None:
    """The exact contest score of strategy ME against OPP, with win/draw/loss shares.

    Example: handsolver sixcard score best-response:random random
    """
    from handsolver.solver.sixcard import evaluate, strategy_from_spec, tables

    with user_errors():
        t = tables()
        human, computer = strategy_from_spec(me, t), strategy_from_spec(opp, t)
    result = evaluate(human, computer, t)
    report = {
        "me": human.name,
        "opp": computer.name,
        **_score_fields(result.score, win=result.win, draw=result.draw, loss=result.loss),
    }
    if json_output:
        print_json(report)
        return
    print_table(
        f"{human.name} against {computer.name}",
        ["", "exact", "%"],
        (
            [name, str(value), f"{float(value * 100):.4f}"]
            for name, value in [
                ("score", result.score),
                ("win", result.win),
                ("draw", result.draw),
                ("loss", result.loss),
            ]
        ),
    )


def strategy(
    vs: Annotated[
        str,
        typer.Option("--vs", metavar="STRATEGY", help=f"The opponent's strategy: {StrategyHelp}"),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Write the table here (.csv, else JSON); reusable as a strategy.",
        ),
    ] = None,
    json_output: JsonOption = False,
    plot: PlotOption = None,
) -> None:
    """The best-response table against --vs: the best split of every hand, and its score.

    Example: handsolver sixcard strategy --vs random --out beat_random.json
    """
    from handsolver.models.sixcard import format_hand
    from handsolver.solver.sixcard import (
        best_response,
        iter_hands_report,
        strategy_from_spec,
        table_json,
        tables,
    )

    with user_errors():
        t = tables()
        opponent = strategy_from_spec(vs, t)
    response = best_response(t, opponent)
    if out is not None:
        with user_errors():
            _write_table(
                out, response.strategy, t, {"vs": opponent.name, "score": str(response.score)}
            )
    if plot is not None:
        title = f"Best response to {opponent.name}: scores {float(response.score):.4%}"
        _draw_strategy(plot, response.strategy, t, title)
    if json_output:
        print_json(
            {
                "strategy": response.strategy.name,
                "vs": opponent.name,
                **_score_fields(response.score),
                "hand_scores": {
                    format_hand(h, t.game): str(v)
                    for h, v in zip(t.hands, response.hand_scores, strict=True)
                },
                "table": table_json(response.strategy, t),
            }
        )
        return
    print_table(
        f"Best response to {opponent.name}",
        ["hand", "split (High|Middle|Low)", "score given the hand"],
        (
            [hand, play, f"{float(v * 100):.2f}%"]
            for (hand, play), v in zip(
                iter_hands_report(t, response.strategy), response.hand_scores, strict=True
            )
        ),
    )
    typer.echo(
        f"Score against {opponent.name}: {response.score} = {float(response.score * 100):.4f}%"
    )


def equilibrium(
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Write the table here (.csv, else JSON); reusable as a strategy.",
        ),
    ] = None,
    json_output: JsonOption = False,
    plot: PlotOption = None,
) -> None:
    """The game's equilibrium by LP (GLOP), made exact and certified: no strategy beats it.

    Mixed hands are those the strategy mixes; each is also checked to mix in every optimal
    strategy (an exact opponent strategy beats every strategy that plays it purely).

    Example: handsolver sixcard equilibrium --out equilibrium.json
    """
    from handsolver.models.sixcard import format_hand
    from handsolver.solver.sixcard import equilibrium as solve
    from handsolver.solver.sixcard import iter_hands_report, must_mix, table_json, tables

    t = tables()
    result = solve(t)
    mixed = [format_hand(t.hands[h], t.game) for h in result.strategy.mixed_hands()]
    certified = must_mix(t, result.strategy, result.lp)
    proved = [hand for hand, sure in zip(mixed, certified, strict=True) if sure]
    if out is not None:
        with user_errors():
            _write_table(out, result.strategy, t, {"value": str(result.value)})
    if plot is not None:
        title = (
            f"Equilibrium strategy: game value {float(result.value):.4%}, {len(mixed)} hands mix"
        )
        _draw_strategy(plot, result.strategy, t, title)
    if json_output:
        print_json(
            {
                "value": str(result.value),
                "percent": _pct(result.value),
                "exploitability": str(result.exploitability),
                "lp_value": result.lp_value,
                "mixed_hands": mixed,
                "must_mix": proved,
                "table": table_json(result.strategy, t),
            }
        )
        return
    print_table(
        "Equilibrium strategy",
        ["hand", "split (High|Middle|Low) (probability)"],
        iter_hands_report(t, result.strategy),
    )
    typer.echo(
        f"Game value {result.value} (LP {result.lp_value:.12f}); the best response to this "
        f"strategy scores exactly {result.exploitability}."
    )
    typer.echo(f"{len(mixed)} hands mix: {', '.join(mixed)}")
    typer.echo(f"Proved to mix in every optimal strategy: {len(proved)} of them.")


def simulate(
    me: Annotated[str, typer.Argument(help=f"The human's strategy: {StrategyHelp}")],
    opp: Annotated[str, typer.Argument(help="The computer's strategy.")],
    rounds: Annotated[
        int, typer.Option(min=1, max=MAX_ROUNDS, help="Rounds to play (at most 10**9).")
    ] = 100_000,
    seed: Annotated[
        int, typer.Option(min=0, max=MAX_SEED, help="Random seed (numpy, 0 to 2**32-1).")
    ] = 0,
    json_output: JsonOption = False,
    plot: PlotOption = None,
) -> None:
    """Play the contest's harness (main.m) ROUNDS times and compare with the exact score.

    Example: handsolver sixcard simulate equilibrium random --rounds 1000000 --seed 1
    """
    from handsolver.solver.sixcard import evaluate, simulation_chunks, strategy_from_spec, tables
    from handsolver.solver.sixcard import simulate as run

    with user_errors():
        t = tables()
        human, computer = strategy_from_spec(me, t), strategy_from_spec(opp, t)
    exact = evaluate(human, computer, t).score
    chunks = len(simulation_chunks(rounds))
    result = run(
        t, human, computer, rounds, seed, wrap=lambda sizes: progress(sizes, chunks, "simulating")
    )
    z = (result.mean - float(exact)) / result.stderr if result.stderr else 0.0
    if plot is not None:
        from handsolver.solver.commands.plots.figures import save
        from handsolver.solver.commands.sixcard.plots import simulation_figure

        title = f"{human.name} against {computer.name}: {rounds:,} rounds, seed {seed}"
        with user_errors():
            save(simulation_figure(result, float(exact), title), plot)
    report = {
        "me": human.name,
        "opp": computer.name,
        "rounds": rounds,
        "seed": seed,
        "mean": result.mean,
        "percent": result.percent,
        "stderr": result.stderr,
        "exact": str(exact),
        "exact_percent": _pct(exact),
        "z": z,
    }
    if json_output:
        print_json(report)
        return
    typer.echo(f"{human.name} against {computer.name}, {rounds} rounds, seed {seed}:")
    typer.echo(f"  simulated {result.percent:.4f}% +- {100 * result.stderr:.4f}% (1 s.e.)")
    typer.echo(f"  exact     {float(exact * 100):.4f}% = {exact}  ({z:+.2f} s.e.)")


def export_matlab(
    strategy_spec: Annotated[str, typer.Argument(metavar="STRATEGY", help=StrategyHelp)],
    json_output: Annotated[
        bool,
        typer.Option(
            "--json", help='Print {"strategy": NAME, "source": MATLAB code} instead of the code.'
        ),
    ] = False,
) -> None:
    """Print a complete humanHand.m that plays STRATEGY in the contest's harness.

    Example: handsolver sixcard export-matlab equilibrium > humanHand.m
    """
    from handsolver.solver.sixcard import matlab_source, strategy_from_spec, tables

    with user_errors():
        t = tables()
        chosen = strategy_from_spec(strategy_spec, t)
    source = matlab_source(chosen, t)
    if json_output:
        print_json({"strategy": chosen.name, "source": source})
        return
    typer.echo(source, nl=False)
