"""``handsolver paigow``: the house way, the exact value of every setting, studies of the house way.

Cards as everywhere else, plus the joker written ``JK`` or ``*``.  Exact fractions are strings
in ``--json``; the expected value ``ev`` has the commission taken off wins.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from handsolver.models.cards import InputError
from handsolver.solver.commands.errors import Interrupted, fail, user_errors
from handsolver.solver.commands.inputs import CARDS, card_texts, hand_source, source_name
from handsolver.solver.commands.options import (
    JsonOption,
    PlotOption,
    SchedulerOption,
    SeedOption,
    WorkersOption,
)
from handsolver.solver.commands.output import print_json
from handsolver.solver.commands.paigow.lines import (
    json_lines,
    parse_lines,
    read_batch,
    read_lines,
)
from handsolver.solver.commands.progress import progress
from handsolver.solver.commands.table import print_table, terminal_width

if TYPE_CHECKING:
    from handsolver.models.paigow import PaiGowHand, Rules
    from handsolver.models.paigow_houseway import HouseWay
    from handsolver.solver.paigow import HandValues, SettingValue, StudyRow


class Wheel(StrEnum):
    second = "second"
    low = "low"


class FiveAces(StrEnum):
    top = "top"
    below = "below"


WayOption = Annotated[
    str,
    typer.Option("--way", metavar="NAME", help="House way: trump-plaza, dealer-guide or foxwoods."),
]
WheelOption = Annotated[
    Wheel,
    typer.Option("--wheel", help="A-2-3-4-5: the second-highest straight, or the lowest."),
]
FiveAcesOption = Annotated[
    FiveAces,
    typer.Option("--five-aces", help="Five aces above the royal flush (top) or just below it."),
]
CommissionOption = Annotated[
    str,
    typer.Option("--commission", metavar="RATE", help="Commission on a win, e.g. 0.05 or 1/20."),
]


def rules_from(wheel: Wheel, five_aces: FiveAces, commission: str) -> Rules:
    from handsolver.models.numbers import parse_fraction
    from handsolver.models.paigow import Rules

    rate = parse_fraction(commission, "commission")
    return Rules(wheel is Wheel.second, five_aces is FiveAces.top, rate)


def way_from(name: str) -> HouseWay:
    from handsolver.models.paigow_houseway import house_way_named

    return house_way_named(name)


def _pct(value: Fraction) -> str:
    return f"{float(value) * 100:.3f}"


# --- house-way --------------------------------------------------------------------------------


def house_way_chunk(job: tuple[Any, HouseWay, Rules]) -> Any:
    """One batch chunk's house way: which positions go low (module level, so worker processes
    can run it)."""
    from handsolver.solver.paigow import house_way_mask

    hands, way, rules = job
    return house_way_mask(hands, way, rules)[0]


def house_way_command(
    hand: Annotated[
        str,
        typer.Argument(
            metavar="HAND",
            help="Seven cards, or a file with one hand per line, or - (stdin).",
            show_default=False,
        ),
    ],
    way: WayOption = "trump-plaza",
    wheel: WheelOption = Wheel.second,
    five_aces: FiveAcesOption = FiveAces.top,
    workers: WorkersOption = 1,
    json_output: JsonOption = False,
) -> None:
    """The dealer's setting of HAND by the house way.

    With a file or '-', one JSON object per line, in input order, cards as typed.

    Example: handsolver paigow house-way 'Kh Kd 7c 7s Ah 4d 3c'
    """
    from handsolver.models.paigow import category_name, house_way, parse_hand

    with user_errors():
        house = way_from(way)
        rules = rules_from(wheel, five_aces, "0.05")
        if hand_source(hand, files=True) != CARDS:
            _house_way_batch(hand, house, rules, workers)
            return
        parsed = parse_hand(hand)
    # One hand is set by the rules directly (models.paigow.house_way, the reference the batch
    # engine is tested against): no tables, no numpy, so it answers at start-up speed.
    setting = house_way(parsed.cards, house, rules)
    if json_output:
        # Indented like every other single answer; a file of hands gives one line a hand.
        words = parsed.card_strings(parsed.cards)
        high = [w for w, card in zip(words, parsed.cards, strict=True) if card in setting.high]
        low = [w for w, card in zip(words, parsed.cards, strict=True) if card in setting.low]
        print_json({"hand": words, "high": high, "low": low})
        return
    rule = setting.pattern
    if setting.straight_flush:
        rule += ", played as a straight or flush"
    print_table(
        f"{house.name}: {rule}",
        ["hand", "cards", "plays"],
        [
            ("high", parsed.format(setting.high), category_name(setting.high_key, rules)),
            ("low", parsed.format(setting.low), _low_name(setting.low_key)),
        ],
    )


def _house_way_batch(source: str, house: HouseWay, rules: Rules, workers: int) -> None:
    """Many hands at once, in numpy: one JSON line each, in input order, cards as typed."""
    import numpy as np

    from handsolver.solver.batch import run_batch

    with user_errors():
        hands = read_batch(source)
    if not len(hands.cards):
        return
    size = -(-len(hands.cards) // workers)
    jobs = [(hands.cards[i : i + size], house, rules) for i in range(0, len(hands.cards), size)]
    low_masks = np.concatenate(list(run_batch(house_way_chunk, jobs, workers=workers)))
    typer.echo(json_lines(hands, low_masks), nl=False)


def _low_name(key: int) -> str:
    from handsolver.models.cards import RANKS

    if key >= 169:
        return f"pair of {RANKS[key - 169]}s"
    return f"{RANKS[key // 13]}-{RANKS[key % 13]} high"


# --- settings ---------------------------------------------------------------------------------


def _setting_json(item: SettingValue, hand: PaiGowHand, rules: Rules) -> dict[str, Any]:
    from handsolver.models.paigow import category_name

    total = item.total
    return {
        "high": hand.card_strings(item.high),
        "low": hand.card_strings(item.low),
        "win": str(Fraction(item.win, total)),
        "push": str(Fraction(item.push, total)),
        "loss": str(Fraction(item.loss, total)),
        "ev": str(item.ev),
        "house_way": item.house_way,
        "win_count": item.win,
        "push_count": item.push,
        "loss_count": item.loss,
        "ev_percent": round(float(item.ev) * 100, 6),
        "high_hand": category_name(item.high_key, rules),
        "low_hand": _low_name(item.low_key),
    }


def _values_json(
    values: HandValues, hand: PaiGowHand, house: HouseWay, rules: Rules, against: str
) -> dict[str, Any]:
    best, way_setting = values.best, values.house
    return {
        "hand": hand.card_strings(hand.cards),
        "dealer_hands": values.dealer_hands,
        "against": against,
        "way": house.name,
        "rules": {
            "wheel": "second" if rules.wheel_second else "low",
            "five_aces": "top" if rules.five_aces_top else "below",
            "commission": str(rules.commission),
        },
        "settings": [_setting_json(item, hand, rules) for item in values.settings],
        "best_ev": str(best.ev),
        "house_way_ev": str(way_setting.ev),
        "house_way_cost": str(best.ev - way_setting.ev),
    }


def settings_command(
    hand: Annotated[
        str, typer.Argument(metavar="HAND", help="Your seven cards (the joker as JK or *).")
    ],
    vs_dealer: Annotated[
        str | None,
        typer.Option("--vs-dealer", metavar="HAND", help="A known dealer hand (set by house way)."),
    ] = None,
    vs_setting: Annotated[
        str | None,
        typer.Option("--vs-setting", metavar="HIGH|LOW", help="A known dealer setting."),
    ] = None,
    way: WayOption = "trump-plaza",
    wheel: WheelOption = Wheel.second,
    five_aces: FiveAcesOption = FiveAces.top,
    commission: CommissionOption = "0.05",
    json_output: JsonOption = False,
    plot: PlotOption = None,
) -> None:
    """Every legal setting of HAND with its exact win, push and loss chances and its EV.

    Against a dealer who sets by the house way: all C(46,7) = 53,524,680 dealer hands from the
    cards left, or a known dealer hand or setting.

    Example: handsolver paigow settings 'As Ah Kd Qc 9s 5h 2d'
    """
    from handsolver.models.paigow import parse_hand, parse_setting
    from handsolver.solver.paigow import (
        dealer_histogram,
        tables,
        values_against,
        values_vs_dealer,
        values_vs_setting,
    )

    if vs_dealer is not None and vs_setting is not None:
        fail("give --vs-dealer or --vs-setting, not both")
    with user_errors():
        house = way_from(way)
        rules = rules_from(wheel, five_aces, commission)
        parsed = parse_hand(" ".join(card_texts([hand])))
        if vs_dealer is not None:
            dealer = parse_hand(vs_dealer, what="dealer hand")
            shared = set(dealer.cards) & set(parsed.cards)
            if shared:
                card = dealer.format([min(shared)])
                raise InputError(f"card {card!r} is in both hands")
            values = values_vs_dealer(parsed.cards, dealer.cards, house, rules)
            against = f"dealer hand {dealer.format(dealer.cards)}"
        elif vs_setting is not None:
            setting, written = parse_setting(vs_setting, parsed.cards)
            values = values_vs_setting(parsed.cards, setting, house, rules)
            against = f"dealer setting {written.format(setting[0])} | {written.format(setting[1])}"
        else:
            steps = iter(progress(range(2), 2, "counting dealer hands"))
            next(steps)
            t = tables(house, rules)
            next(steps)
            left = [card for card in range(53) if card not in parsed.cards]
            values = values_against(parsed.cards, dealer_histogram(t, left), house, rules)
            against = f"all {values.dealer_hands:,} dealer hands, house way {house.name}"
            for _ in steps:
                pass
    if plot is not None:
        from handsolver.solver.commands.paigow.plots import setting_bars, settings_figure
        from handsolver.solver.commands.plots.figures import save

        title = f"{parsed.format(parsed.cards)} against {against}"
        with user_errors():
            save(settings_figure(setting_bars(values, parsed), title), plot)
    if json_output:
        print_json(_values_json(values, parsed, house, rules, against))
        return
    rows = [
        (
            rank,
            parsed.format(item.high),
            parsed.format(item.low),
            _pct(Fraction(item.win, item.total)),
            _pct(Fraction(item.push, item.total)),
            _pct(Fraction(item.loss, item.total)),
            f"{float(item.ev) * 100:+.3f}" + (" *" if item.house_way else ""),
        )
        for rank, item in enumerate(values.settings, 1)
    ]
    print_table(
        f"{parsed.format(parsed.cards)} against {against} (in %, * house way)",
        ["#", "high", "low", "win", "push", "loss", "EV"],
        rows,
        highlight=[0],  # the best setting
    )
    cost = values.best.ev - values.house.ev
    typer.echo(
        f"best: {parsed.format(values.best.high)} | {parsed.format(values.best.low)}"
        f"  EV {float(values.best.ev) * 100:+.4f}%\n"
        f"house way: {parsed.format(values.house.high)} | {parsed.format(values.house.low)}"
        f"  EV {float(values.house.ev) * 100:+.4f}%, costs {float(cost) * 100:.4f}% of the bet"
    )


# --- study ------------------------------------------------------------------------------------


def _row_json(row: StudyRow, rules: Rules) -> dict[str, Any]:
    from handsolver.models.cards import Notation
    from handsolver.models.paigow import PaiGowHand

    hand = PaiGowHand(row.hand, Notation())
    return {
        "hand": hand.card_strings(row.hand),
        "gain": str(row.gain),
        "house_ev": str(row.house_ev),
        "best_ev": str(row.best_ev),
        "best": {"high": hand.card_strings(row.best_high), "low": hand.card_strings(row.best_low)},
        "house_way": {
            "high": hand.card_strings(row.house_high),
            "low": hand.card_strings(row.house_low),
        },
    }


def study_command(
    hands: Annotated[
        int,
        typer.Option(
            "--hands", min=1, max=1_000_000, help="Random player hands (at most 1,000,000)."
        ),
    ] = 100,
    seed: SeedOption = 0,
    hand_file: Annotated[
        Path | None,
        typer.Option("--file", metavar="FILE", help="Study these hands (one per line) instead."),
    ] = None,
    top: Annotated[
        int, typer.Option("--top", min=0, max=10_000, help="Hands to list (at most 10,000).")
    ] = 10,
    way: WayOption = "trump-plaza",
    wheel: WheelOption = Wheel.second,
    five_aces: FiveAcesOption = FiveAces.top,
    commission: CommissionOption = "0.05",
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
    json_output: JsonOption = False,
    plot: PlotOption = None,
) -> None:
    """How much the best setting gains over the house way, over many player hands.

    Each hand is valued exactly against all dealer hands (about 0.1 s a hand after a 2 s
    start per worker).

    Example: handsolver paigow study --hands 1000 --seed 1 --workers 2
    """
    from handsolver.models.cards import Notation
    from handsolver.models.paigow import PaiGowHand
    from handsolver.solver.paigow import random_hands, study

    rows: list[StudyRow] = []  # every hand's row, for --plot

    def kept(done: Iterator[StudyRow], total: int) -> Iterator[StudyRow]:
        try:
            for row in progress(done, total, "valuing hands"):
                rows.append(row)
                yield row
        except KeyboardInterrupt:  # Ctrl-C, or SIGTERM through the command line's handler
            raise Interrupted(f"interrupted after {len(rows)} of {total} hands") from None

    with user_errors():
        house = way_from(way)
        rules = rules_from(wheel, five_aces, commission)
        if hand_file is not None:
            cards = [h.cards for h in parse_lines(read_lines(str(hand_file)))]
            if not cards:
                raise InputError(f"{source_name(str(hand_file))} holds no hands")
        else:
            cards = random_hands(hands, seed)
        summary = study(
            cards,
            house,
            rules,
            workers=workers,
            scheduler=scheduler,
            top=top,
            progress=kept,
        )
    if plot is not None:
        from handsolver.solver.commands.paigow.plots import gain_by_type_figure, type_gains
        from handsolver.solver.commands.plots.figures import save

        source = f"{hand_file.name}" if hand_file is not None else f"seed {seed}"
        title = f"Best play over the house way {house.name}: {summary.hands:,} hands ({source})"
        with user_errors():
            save(gain_by_type_figure(type_gains(rows, house), title), plot)
    if json_output:
        print_json(
            {
                "hands": summary.hands,
                "way": house.name,
                "seed": None if hand_file is not None else seed,
                "house_way_optimal": summary.house_optimal,
                "house_way_optimal_share": round(summary.house_optimal / summary.hands, 6),
                "mean_gain": summary.mean_gain,
                "standard_error": summary.standard_error,
                "worst": [_row_json(row, rules) for row in summary.worst],
            }
        )
        return
    line = (
        f"{summary.hands} hands, house way {house.name}: optimal in {summary.house_optimal}"
        f" ({summary.house_optimal / summary.hands:.1%}); best setting gains"
        f" {summary.mean_gain * 100:.4f}% +- {summary.standard_error * 100:.4f}% of the bet"
    )
    width = terminal_width()
    if width is not None:  # a terminal: broken between words, not by the terminal mid-word
        line = "\n".join(textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False))
    typer.echo(line)
    if summary.worst:
        print_table(
            "where the house way loses most",
            ["hand", "house way", "best", "gain"],
            [
                (
                    (h := PaiGowHand(row.hand, Notation())).format(row.hand),
                    f"{h.format(row.house_high)} | {h.format(row.house_low)}",
                    f"{h.format(row.best_high)} | {h.format(row.best_low)}",
                    f"{float(row.gain) * 100:.4f}%",
                )
                for row in summary.worst
            ],
        )
