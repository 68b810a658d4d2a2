"""``handsolver paigow``: the house way, the exact value of every setting, studies of the house way.

Cards as everywhere else, plus the joker written ``JK`` or ``*``.  Exact fractions are strings
in ``--json``; the expected value ``ev`` has the commission taken off wins.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from handsolver.models.cards import InputError
from handsolver.solver.commands.errors import fail, user_errors
from handsolver.solver.commands.inputs import CARDS, card_texts, hand_source, source_name
from handsolver.solver.commands.options import (
    JsonOption,
    PlotOption,
    SchedulerOption,
    SeedOption,
    WorkersOption,
)
from handsolver.solver.commands.output import print_json
from handsolver.solver.commands.progress import progress
from handsolver.solver.commands.table import print_table

if TYPE_CHECKING:
    from handsolver.models.paigow import PaiGowHand, Rules
    from handsolver.models.paigow_houseway import HouseWay
    from handsolver.solver.paigow import HandValues, SettingValue, StudyRow

paigow_app = typer.Typer(
    help="Pai Gow poker: the house way, exact values of every setting, house-way studies.",
    no_args_is_help=True,
)


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


def _read_lines(source: str) -> list[tuple[int, str]]:
    """The hand lines of ``source`` by the shared reading rules; blank lines and ``#`` comments
    are skipped."""
    from handsolver.solver.commands.inputs import numbered_lines

    return _hand_lines(numbered_lines(source))


def _hand_lines(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """``lines`` without the blank lines and ``#`` comments."""
    return [(n, line) for n, line in lines if line.strip() and not line.lstrip().startswith("#")]


def _parse_lines(lines: list[tuple[int, str]]) -> list[PaiGowHand]:
    from handsolver.models.paigow import parse_hand

    hands = []
    for number, line in lines:
        try:
            hands.append(parse_hand(line))
        except InputError as error:
            raise InputError(f"line {number}: {error}") from None
    return hands


@cache
def _token_cards() -> dict[str, int]:
    """Every plain spelling of a card (``Ah``, ``aH``, ``10d``, ``JK``, ...) -> the card."""
    from handsolver.models.cards import RANKS, SUITS
    from handsolver.models.paigow import JOKER

    table = dict.fromkeys(("JK", "Jk", "jK", "jk", "*"), JOKER)
    for rank_index, rank in enumerate(RANKS):
        spellings = {rank, rank.lower()} | ({"t", "0", "10"} if rank == "T" else set())
        for suit_index, suit in enumerate(SUITS):
            for spelling in spellings:
                for letter in (suit, suit.upper()):
                    table[spelling + letter] = rank_index * 4 + suit_index
    return table


def _parse_batch(lines: list[tuple[int, str]]) -> tuple[Any, list[list[str]]]:
    """Cards (an N x 7 array) and the tokens they were typed as, line by line.  Lines of seven
    plain tokens are read through one dictionary; any other line goes through the full parser,
    which names the line and token of an error."""
    import numpy as np

    from handsolver.models.paigow import HAND_SIZE, JOKER, parse_cards_with_joker, parse_hand

    cards_of = _token_cards()
    words = [line.split() for _, line in lines]
    flat = [cards_of.get(w, -1) for row in words for w in row]
    if len(flat) == HAND_SIZE * len(words) and all(len(row) == HAND_SIZE for row in words):
        cards = np.array(flat, dtype=np.int64).reshape(-1, HAND_SIZE)
        odd = _odd_rows(cards).tolist()
    else:
        cards = np.full((len(words), HAND_SIZE), -1, dtype=np.int64)
        odd = [True] * len(words)
    for index in np.flatnonzero(odd).tolist():
        number, line = lines[index]
        try:
            parse_hand(line)
        except InputError as error:
            raise InputError(f"line {number}: {error}") from None
        parsed, written = parse_cards_with_joker(line)
        cards[index], words[index] = parsed, list(written)
    for index in np.flatnonzero((cards == JOKER).any(axis=1)).tolist():
        words[index] = ["JK" if w.upper() == "JK" else w for w in words[index]]
    return cards, words


def _odd_rows(cards: Any) -> Any:
    """Rows of cards with an unknown token (-1) or a card twice: for the full parser."""
    import numpy as np

    ordered = np.sort(cards, axis=1)
    return (ordered[:, 0] < 0) | (np.diff(ordered, axis=1) == 0).any(axis=1)


_LINE_WIDTH = 20  # seven two-character tokens, one space apart
_TOKEN_STARTS = list(range(0, _LINE_WIDTH, 3))


@cache
def _pair_cards() -> Any:
    """Every two-character spelling of a card as a big-endian 16-bit number -> the card, -1
    for any other pair of bytes."""
    import numpy as np

    table = np.full(1 << 16, -1, dtype=np.int64)
    for token, card in _token_cards().items():
        if len(token) == 2:
            table[int.from_bytes(token.encode(), "big")] = card
    return table


def _fixed_width_batch(lines: list[tuple[int, str]]) -> tuple[Any, Any] | None:
    """Cards (an N x 7 array) and their tokens' bytes (N x 7 x 2) when every line is seven
    two-character cards one space apart (``Ah Kd 7c 7s JK 4d 3c``, the common shape, read in
    numpy at once), else None: then the lines go through :func:`_parse_batch`, which also
    names the line of any error."""
    import numpy as np

    from handsolver.models.paigow import JOKER

    text = "\n".join(line for _, line in lines) + "\n"
    if not lines or len(text) != len(lines) * (_LINE_WIDTH + 1) or not text.isascii():
        return None
    rows = np.frombuffer(text.encode("ascii"), dtype=np.uint8).reshape(len(lines), -1)
    separators = rows[:, [*(start - 1 for start in _TOKEN_STARTS[1:]), _LINE_WIDTH]]
    if (separators != np.array([*b" " * 6, *b"\n"], dtype=np.uint8)).any():
        return None
    tokens = rows[:, [[start, start + 1] for start in _TOKEN_STARTS]]  # N x 7 x 2
    cards = _pair_cards()[tokens[:, :, 0].astype(np.intp) << 8 | tokens[:, :, 1]]
    if _odd_rows(cards).any():
        return None
    tokens[cards == JOKER] = np.frombuffer(b"JK", dtype=np.uint8)  # jk, Jk, jK as JK
    return cards, tokens


def house_way_chunk(job: tuple[Any, HouseWay, Rules]) -> Any:
    """One batch chunk's house way: which positions go low (module level, so worker processes
    can run it)."""
    from handsolver.solver.paigow import house_way_mask

    hands, way, rules = job
    return house_way_mask(hands, way, rules)[0]


@paigow_app.command("house-way")
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
        words = parsed.card_strings(parsed.cards)
        code = sum(1 << i for i, card in enumerate(parsed.cards) if card in setting.low)
        typer.echo(_house_way_template(code, len(words)).format(*words))
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
    from handsolver.solver.commands.inputs import numbered_lines

    with user_errors():
        lines = numbered_lines(source)
        fixed = _fixed_width_batch(lines)
        if fixed is None:  # blank lines, comments or other spellings: try again without them
            lines = _hand_lines(lines)
            fixed = _fixed_width_batch(lines)
        cards, tokens = fixed if fixed is not None else _parse_batch(lines)
    if not len(cards):
        return
    size = -(-len(cards) // workers)
    jobs = [(cards[i : i + size], house, rules) for i in range(0, len(cards), size)]
    low_masks = np.concatenate(list(run_batch(house_way_chunk, jobs, workers=workers)))
    if fixed is not None:
        typer.echo(_json_lines_fixed(tokens, low_masks), nl=False)
        return
    # Tokens are letters, digits or '*' (the parser accepts nothing else), so they need no JSON
    # escaping: each line is one of 21 templates (the two low positions) filled in.
    codes = (low_masks.astype(np.int64) @ (1 << np.arange(low_masks.shape[1]))).tolist()
    templates: dict[int, str] = {}
    out = []
    for words, code in zip(tokens, codes, strict=True):
        template = templates.get(code)
        if template is None:
            template = templates[code] = _house_way_template(code, len(words))
        out.append(template.format(*words))
    typer.echo("\n".join(out))


def _json_lines_fixed(tokens: Any, low_masks: Any) -> bytes:
    """The JSON lines of :func:`_house_way_template` for hands of two-character tokens (N x 7
    x 2 bytes), all of one width: every line is the same bytes with the tokens put in their
    places, the hand's in order, then the high hand's and the low hand's."""
    import numpy as np

    blank = _house_way_template(0b1100000, 7).format(*["\0\0"] * 7) + "\n"
    line = np.frombuffer(blank.encode("ascii"), dtype=np.uint8)
    places = np.flatnonzero(line == 0)  # 14 tokens of two bytes, in the order they appear
    # Each row's positions: the hand's seven, then the high ones and the low ones, in order.
    high_then_low = np.argsort(low_masks, axis=1, kind="stable")
    order = np.concatenate([np.broadcast_to(np.arange(7), low_masks.shape), high_then_low], 1)
    out = np.tile(line, (len(tokens), 1))
    out[:, places] = np.take_along_axis(tokens, order[:, :, None], axis=1).reshape(len(tokens), -1)
    return out.tobytes()


def _house_way_template(low_code: int, size: int) -> str:
    """The JSON line of a hand whose positions in the bits of ``low_code`` go low, with a
    ``str.format`` field for each token.

    >>> _house_way_template(0b11, 3).format("Ah", "Kd", "2c")
    '{"hand": ["Ah", "Kd", "2c"], "high": ["2c"], "low": ["Ah", "Kd"]}'
    """

    def fields(positions: list[int]) -> str:
        return ", ".join(f'"{{{i}}}"' for i in positions)

    low = [i for i in range(size) if low_code >> i & 1]
    high = [i for i in range(size) if not low_code >> i & 1]
    return (
        f'{{{{"hand": [{fields(list(range(size)))}], "high": [{fields(high)}], '
        f'"low": [{fields(low)}]}}}}'
    )


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


@paigow_app.command("settings")
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
        from handsolver.solver.commands.plots.figures import save
        from handsolver.solver.commands.plots.paigow import setting_bars, settings_figure

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


@paigow_app.command("study")
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
        for row in progress(done, total, "valuing hands"):
            rows.append(row)
            yield row

    with user_errors():
        house = way_from(way)
        rules = rules_from(wheel, five_aces, commission)
        if hand_file is not None:
            cards = [h.cards for h in _parse_lines(_read_lines(str(hand_file)))]
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
        from handsolver.solver.commands.plots.figures import save
        from handsolver.solver.commands.plots.paigow import gain_by_type_figure, type_gains

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
    typer.echo(
        f"{summary.hands} hands, house way {house.name}: optimal in {summary.house_optimal}"
        f" ({summary.house_optimal / summary.hands:.1%}); best setting gains"
        f" {summary.mean_gain * 100:.4f}% +- {summary.standard_error * 100:.4f}% of the bet"
    )
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


def register(app: typer.Typer) -> None:
    """Add ``handsolver paigow ...``."""
    from handsolver.solver.commands import paigow_game  # noqa: F401  (adds ``paigow game``)

    app.add_typer(paigow_app, name="paigow")
