"""``handsolver chinese``: rank the 72,072 settings of a hand, and the best-response study.

Opponents are known settings (``--vs-setting``), known hands set by a strategy (``--vs-hand``
with ``--vs``), or unknown hands dealt from the cards left (``--vs`` with ``--samples``).
Exact points are integers or fractions in strings; sampled points are sample means with
standard errors.
"""

from __future__ import annotations

import math
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.inputs import card_texts
from handsolver.solver.commands.options import (
    JsonOption,
    PlotOption,
    SandboxName,
    SandboxOption,
    SeedOption,
)
from handsolver.solver.commands.output import print_json
from handsolver.solver.commands.progress import progress
from handsolver.solver.commands.table import Column, print_table

if TYPE_CHECKING:
    from handsolver.models.cards import Notation
    from handsolver.models.chinese import Royalties
    from handsolver.models.split import Setting
    from handsolver.solver.chinese import RankedSetting, Ranking, Scenarios
    from handsolver.solver.chinese.scoring import ScenarioSource


# Sampled deals when the opponents are known only by their strategy (--vs without --samples).
DEFAULT_SAMPLES = 1000
StrategyHelp = "greedy, best-response:X, or program:COMMAND (one hand per line in, one setting out)"
ScoringOption = Annotated[
    str,
    typer.Option(
        "--scoring", metavar="1-6|2-4", help="Scoring rule: 1-6 (scoop 6) or 2-4 (scoop 4)."
    ),
]
RoyaltiesOption = Annotated[
    Path | None,
    typer.Option("--royalties", metavar="FILE", help="Royalty table (JSON); off by default."),
]
OpponentsOption = Annotated[
    int,
    typer.Option(
        "--opponents", min=1, max=3, help="Unknown opponents, 1 to 3 (with --samples or a study)."
    ),
]
BrSamplesOption = Annotated[
    int,
    typer.Option(
        "--br-samples",
        min=1,
        max=1_000_000,
        help="Deals a best-response:X strategy samples to choose each setting (1 to 1,000,000).",
    ),
]
TimeoutOption = Annotated[
    float,
    typer.Option(
        "--timeout", min=0.1, max=3600.0, help="Seconds a strategy program may run (at most 3600)."
    ),
]


# CP-SAT's model has six Booleans an opponent hand; beyond this it would not fit in memory.
MAX_CP_SAT_SCENARIOS = 10_000


class Engine(StrEnum):
    enumerate = "enumerate"
    cp_sat = "cp-sat"


def royalties_table(path: Path | None) -> Royalties | None:
    """The royalty table of ``--royalties`` (read bounded, named on error), or none."""
    from handsolver.models.chinese import parse_royalties
    from handsolver.solver.commands.inputs import read_small_file, source_name

    if path is None:
        return None
    return parse_royalties(read_small_file(str(path)), source=source_name(str(path)))


def setting_json(setting: Setting, notation: Notation) -> dict[str, list[str]]:
    """A setting as JSON: its rows' cards in the user's notation."""
    back, middle, front = setting
    return {
        "front": notation.card_strings(front),
        "middle": notation.card_strings(middle),
        "back": notation.card_strings(back),
    }


def _entry_json(entry: RankedSetting, notation: Notation) -> dict[str, Any]:
    fields: dict[str, Any] = {**setting_json(entry.setting, notation)}
    fields["points"] = str(entry.points)
    if entry.stderr is not None:
        fields["mean"] = round(float(entry.points), 6)
        fields["stderr"] = round(entry.stderr, 6)
    return fields


def _points_text(entry: RankedSetting) -> str:
    if entry.stderr is None:
        return str(entry.points)
    return f"{float(entry.points):+.4f} ± {stderr_text(entry.stderr)}"


def stderr_text(stderr: float, digits: int = 4) -> str:
    """A standard error for a table; ``n/a`` when one sample cannot estimate it (JSON: null)."""
    return f"{stderr:.{digits}f}" if math.isfinite(stderr) else "n/a"


def vs_strategy(spec: str, br_samples: int, timeout: float, sandbox: str) -> Any:
    """The strategy ``--vs`` names; its errors name ``--vs``."""
    from handsolver.models.cards import InputError
    from handsolver.solver.chinese.strategies import strategy_from_spec

    try:
        return strategy_from_spec(spec, br_samples, timeout, sandbox)
    except InputError as error:
        raise InputError(f"--vs: {error}") from None


def _opponents(
    hand: tuple[int, ...],
    vs_setting: list[str],
    vs_hand: list[str],
    vs: str | None,
    samples: int | None,
    context: Any,
    br_samples: int,
    timeout: float,
    sandbox: str,
) -> tuple[ScenarioSource, list[str]]:
    """The scenarios to score against and a line describing each opponent."""
    import numpy as np

    from handsolver.models.cards import InputError, parse_deal
    from handsolver.models.chinese import format_setting
    from handsolver.solver.chinese import known_scenarios
    from handsolver.solver.chinese.indexing import setting_cards, setting_of_text
    from handsolver.solver.chinese.strategies import SampledScenarios, strategy_from_spec

    notation = context.notation
    known = len(vs_setting) + len(vs_hand)
    strategy = None
    if vs is not None:  # first, so that a misspelt strategy is named before anything else
        strategy = vs_strategy(vs, br_samples, timeout, sandbox)
    if known and samples is not None:
        raise InputError("give known opponents (--vs-setting, --vs-hand) or --samples, not both")
    if vs_hand and vs is None:
        raise InputError("--vs-hand needs --vs STRATEGY: how that opponent sets the hand")
    if known > 3:
        raise InputError(f"{known} opponents given; a table has at most 4 players")
    if not known and samples is None:
        raise InputError(
            "say what the opponents play: --vs-setting FRONT|MIDDLE|BACK, --vs-hand HAND with "
            f"--vs STRATEGY, or --vs STRATEGY alone (sampled deals, {DEFAULT_SAMPLES} by default)"
        )
    seen = dict.fromkeys(hand, "your hand")
    settings: list[Setting] = []
    lines: list[str] = []
    for text in vs_setting:
        try:
            setting = setting_of_text(text)
        except InputError as error:
            raise InputError(f"--vs-setting: {error}") from None
        where = f"setting {text.strip()!r}"
        _check_disjoint(seen, [c for part in setting for c in part], where, notation)
        settings.append(setting)
        lines.append(f"setting {format_setting(setting, notation)}")
    if vs_hand:
        assert strategy is not None
        hands = []
        for text in vs_hand:
            try:
                their = parse_deal(text, hand_size=13).hands[0]
            except InputError as error:
                raise InputError(f"--vs-hand: {error}") from None
            _check_disjoint(seen, their, f"hand {text.strip()!r}", notation)
            hands.append(tuple(sorted(their)))
        chosen = strategy.choose(np.array(hands), context)
        for their, index in zip(hands, chosen.tolist(), strict=True):
            setting = setting_cards(their, index)
            settings.append(setting)
            lines.append(f"hand set by {strategy.name}: {format_setting(setting, notation)}")
    if settings:
        return known_scenarios(settings, context.royalties), lines
    assert samples is not None
    player = strategy or strategy_from_spec("greedy", br_samples, timeout, sandbox)
    scenarios = SampledScenarios(hand, player, samples, context, progress)
    plural = "s" if context.opponents > 1 else ""
    lines.append(
        f"{samples} sampled deals of {context.opponents} opponent{plural} playing {player.name} "
        "(a sample: points are sample means ± standard error)"
    )
    return scenarios, lines


def _check_disjoint(seen: dict[int, str], cards: Any, where: str, notation: Notation) -> None:
    from handsolver.models.cards import InputError

    for card in cards:
        if card in seen:
            raise InputError(f"card {notation.format(card)!r} of {where} is also in {seen[card]}")
    for card in cards:
        seen[card] = where


def settings(
    hand: Annotated[
        str, typer.Argument(metavar="HAND", help="Your 13 cards, e.g. 'As Ks Qs ... 7d'.")
    ],
    vs_setting: Annotated[
        list[str] | None,
        typer.Option(
            "--vs-setting",
            metavar="FRONT|MIDDLE|BACK",
            help="A known opponent setting (repeat for more opponents).",
        ),
    ] = None,
    vs_hand: Annotated[
        list[str] | None,
        typer.Option(
            "--vs-hand",
            metavar="HAND",
            help="A known opponent hand of 13 cards, set by --vs (repeat for more opponents).",
        ),
    ] = None,
    vs: Annotated[
        str | None,
        typer.Option("--vs", metavar="STRATEGY", help=f"The opponents' strategy: {StrategyHelp}."),
    ] = None,
    opponents: OpponentsOption = 1,
    samples: Annotated[
        int | None,
        typer.Option(
            "--samples",
            min=1,
            max=10_000_000,
            help=f"Sampled deals of unknown hands, 1 to 10,000,000 (with --vs alone: "
            f"{DEFAULT_SAMPLES}).",
            show_default=False,
        ),
    ] = None,
    seed: SeedOption = 0,
    scoring: ScoringOption = "1-6",
    royalties: RoyaltiesOption = None,
    engine: Annotated[
        Engine, typer.Option(help="enumerate all settings, or a CP-SAT model (best only).")
    ] = Engine.enumerate,
    top: Annotated[
        int,
        typer.Option(
            "--top", min=1, max=72_072, help="Settings listed, 1 to 72,072 (in JSON too)."
        ),
    ] = 10,
    every: Annotated[
        bool, typer.Option("--all", help="List every legal setting (up to 72,072), not --top.")
    ] = False,
    br_samples: BrSamplesOption = 200,
    timeout: TimeoutOption = 60.0,
    sandbox: SandboxOption = SandboxName.auto,
    json_output: JsonOption = False,
    plot: PlotOption = None,
) -> None:
    """Rank every legal setting of HAND by its points against the opponents.

    The opponents are known settings (--vs-setting), known hands set by a strategy (--vs-hand
    with --vs), or unknown hands dealt from the cards left and set by a strategy (--vs alone;
    a sample of --samples deals).

    \b
    Examples, with H = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d":
      handsolver chinese settings "$H" --vs-setting "Ah Ad 3c|Kh Kd 4c 4d 8s|8c 8d 8h Jc Jd"
      handsolver chinese settings "$H" --vs greedy \\
          --vs-hand "2c 3c 4c 5d 6d 7h 8h 9s Td Jh Qc Kc Ac"
      handsolver chinese settings "$H" --vs greedy --samples 10000 --seed 1
    """
    from handsolver.models.cards import parse_deal
    from handsolver.models.chinese import HAND_SIZE, NUM_SETTINGS, check_scoring
    from handsolver.solver.chinese import rank_settings
    from handsolver.solver.chinese.strategies import Context

    with user_errors():
        check_scoring(scoring)
        deal = parse_deal(" ".join(card_texts([hand])), hand_size=HAND_SIZE)
        cards = tuple(sorted(deal.hands[0]))
        table = royalties_table(royalties)
        known = len(vs_setting or []) + len(vs_hand or [])
        if vs is not None and not known and samples is None:
            samples = DEFAULT_SAMPLES
        # A best-response opponent plays against as many opponents as the table has.
        table_opponents = opponents if samples is not None or not known else known
        context = Context(table_opponents, scoring, table, seed, deal.notation)
        scenarios, against = _opponents(
            cards,
            vs_setting or [],
            vs_hand or [],
            vs,
            samples,
            context,
            br_samples,
            timeout,
            sandbox.value,
        )
        if engine == Engine.cp_sat:  # the model needs every deal at once
            scenarios = _arrays(scenarios)
        ranking = rank_settings(cards, scenarios, scoring, table)
    notation = deal.notation
    payload: dict[str, Any] = {
        "hand": notation.card_strings(deal.hands[0]),
        "scoring": scoring,
        "settings_total": NUM_SETTINGS,
        "legal": ranking.legal,
        "opponents": ranking.opponents,
        "deals": ranking.deals,
        "sampled": ranking.sampled,
        "against": against,
    }
    if plot is not None:
        _draw_settings(plot, ranking.top(top), notation, payload)
    if engine == Engine.cp_sat:
        model_scenarios = _arrays(scenarios)  # the arrays made above: no second deal
        _cp_sat(
            cards, model_scenarios, scoring, table, ranking, seed, notation, payload, json_output
        )
        return
    shown = ranking.top(None if every else top)
    payload["ties_with_best"] = ranking.ties_with_best
    payload["settings"] = [_entry_json(entry, notation) for entry in shown]
    if json_output:
        print_json(payload)
        return
    _print_header(payload, ranking, notation)
    # A setting is never shown in part, and the points rank the rows: only "#" may give way.
    columns = [
        Column("#"),
        Column("front", keep=True),
        Column("middle", keep=True),
        Column("back", keep=True),
        Column("points", keep=True),
    ]
    print_table(
        None,
        columns,
        (
            [
                place + 1,
                notation.format_cards(entry.setting[2]),
                notation.format_cards(entry.setting[1]),
                notation.format_cards(entry.setting[0]),
                _points_text(entry),
            ]
            for place, entry in enumerate(shown)
        ),
        highlight=[0],  # the best setting
    )


def _draw_settings(path: Path, entries: Any, notation: Notation, payload: dict[str, Any]) -> None:
    from handsolver.solver.commands.chinese.plots import MAX_BARS, settings_figure
    from handsolver.solver.commands.plots.figures import save

    drawn = entries[:MAX_BARS]
    labels = [" | ".join(notation.format_cards(part) for part in e.setting[::-1]) for e in drawn]
    sampled = drawn[0].stderr is not None
    errors = [float(e.stderr) for e in drawn] if sampled else None
    title = (
        f"Top {len(drawn)} of {payload['legal']:,} settings of {' '.join(payload['hand'])}"
        f"\nagainst {'; '.join(line.split(' (')[0] for line in payload['against'])}"
    )
    with user_errors():
        points = [float(e.points) for e in drawn]
        shown = [_points_text(e) for e in drawn]
        save(settings_figure(labels, points, errors, shown, title), path)


def _arrays(scenarios: ScenarioSource) -> Scenarios:
    from handsolver.models.cards import InputError
    from handsolver.solver.chinese.scoring import Scenarios
    from handsolver.solver.chinese.strategies import SampledScenarios

    if isinstance(scenarios, Scenarios):
        return scenarios
    assert isinstance(scenarios, SampledScenarios)
    count = scenarios.deals * scenarios.opponents
    if count > MAX_CP_SAT_SCENARIOS:
        raise InputError(
            f"--engine cp-sat takes at most {MAX_CP_SAT_SCENARIOS:,} opponent hands "
            f"(--samples times --opponents); {count:,} given"
        )
    return scenarios.arrays()


def _print_header(payload: dict[str, Any], ranking: Ranking, notation: Notation) -> None:
    typer.echo(f"hand: {' '.join(payload['hand'])}   scoring: {payload['scoring']}")
    for line in payload["against"]:
        typer.echo(f"against: {line}")
    best = ranking.best
    typer.echo(
        f"legal settings: {ranking.legal:,} of {payload['settings_total']:,}; best: "
        f"{_points_text(best)} points ({_others(ranking.ties_with_best)} the same)"
    )


def _cp_sat(
    cards: tuple[int, ...],
    scenarios: Scenarios,
    scoring: str,
    table: Royalties | None,
    ranking: Ranking,
    seed: int,
    notation: Notation,
    payload: dict[str, Any],
    json_output: bool,
) -> None:
    from fractions import Fraction

    from handsolver.models.chinese import format_setting
    from handsolver.solver.chinese.cpsat import solve_setting_model

    solved = solve_setting_model(cards, scenarios, scoring, table, seed=seed)
    points = Fraction(solved.total, scenarios.deals)
    payload["engine"] = "cp-sat"
    payload["status"] = solved.status
    payload["wall_time"] = round(solved.wall_time, 3)
    payload["same_as_enumeration"] = solved.total == int(ranking.totals[0])
    payload["settings"] = [{**setting_json(solved.setting, notation), "points": str(points)}]
    if json_output:
        print_json(payload)
        return
    _print_header(payload, ranking, notation)
    typer.echo(
        f"cp-sat ({solved.status}, {solved.wall_time:.2f} s): "
        f"{format_setting(solved.setting, notation)}  points {points} "
        f"({'the' if payload['same_as_enumeration'] else 'NOT the'} value enumeration finds)"
    )


def _others(count: int) -> str:
    """``"no other setting scores"``, ``"1 other setting scores"``, ``"9 other settings score"``."""
    if count == 0:
        return "no other setting scores"
    return f"{count:,} other setting{'s' if count > 1 else ''} score{'' if count > 1 else 's'}"
