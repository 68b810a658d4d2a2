"""``handsolver badugi draw``: win, tie and loss after the draws, and the best discard.

``badugi draw HAND HAND... --draws N`` answers one spot; ``badugi draw-batch FILE`` one spot a
line (the same words as on the command line), as JSON lines.  Parse, call
:mod:`handsolver.solver.badugi.equity`, render.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any

import typer

from handsolver.solver.commands.deal_batch import run_deal_batch
from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.inputs import card_texts
from handsolver.solver.commands.options import (
    BatchJsonOption,
    JsonOption,
    SchedulerOption,
    SeedOption,
    WorkersOption,
)
from handsolver.solver.commands.output import print_json
from handsolver.solver.commands.table import Column, print_table

if TYPE_CHECKING:
    from handsolver.models.badugi_draw import Situation
    from handsolver.solver.badugi.equity import Answer, Discard

MAX_SAMPLES = 100_000_000
DEFAULT_SAMPLES = 200_000  # equal to equity.DEFAULT_SAMPLES, without importing numpy here
DEFAULT_SEED = 1

DrawsOption = Annotated[
    int, typer.Option("--draws", min=1, max=3, help="Draws left before the showdown (1 to 3).")
]
DeadOption = Annotated[
    str,
    typer.Option("--dead", metavar="CARDS", help="Cards seen and out of play (discards shown)."),
]
RuleOption = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        metavar="SPEC",
        help="A player's draw rule, repeated in seat order (missing: best): best, pat, "
        "keep:CARDS, break:LIMIT, pat:LIMIT (e.g. break:8-5 breaks a badugi worse than 8-5).",
        show_default=False,
    ),
]
KeepOption = Annotated[
    str | None,
    typer.Option(
        "--keep",
        metavar="CARDS",
        help="The cards the first player keeps on this draw (short for a first --rule keep:CARDS).",
        show_default=False,
    ),
]
BestDiscardOption = Annotated[
    bool,
    typer.Option(
        "--best-discard",
        help="Also rank all 16 keep/throw choices of the first player on this draw.",
    ),
]
SamplesOption = Annotated[
    int,
    typer.Option(
        "--samples",
        min=1,
        max=MAX_SAMPLES,
        help="Shuffles played where the answer is estimated (1 to 100,000,000).",
    ),
]
EstimateOption = Annotated[
    bool,
    typer.Option("--estimate", help="Sample even where the exact answer can be counted."),
]


def fraction_text(value: Fraction) -> str:
    """An exact share as ``"p/q"`` (always with the slash, so scripts read one form)."""
    return f"{value.numerator}/{value.denominator}"


def _number(value: Any) -> Any:
    return fraction_text(value) if isinstance(value, Fraction) else round(value, 6)


def answer_json(
    spot: Situation, answer: Answer, discards: list[Discard] | None = None
) -> dict[str, Any]:
    """The JSON answer: how it was found, each player's shares, the discard table if asked."""
    from handsolver.models.badugi_draw import kept_cards

    fmt = spot.notation
    players = []
    for player, share in enumerate(answer.players):
        hand = spot.hands[player]
        entry: dict[str, Any] = {
            "hand": None if hand is None else fmt.card_strings(hand),
            "rule": spot.rules[player].spec,
        }
        if hand is not None:
            entry["keep"] = fmt.card_strings(kept_cards(spot.rules[player], hand, 0))
        entry |= {
            "win": _number(share.win),
            "tie": _number(share.tie),
            "loss": _number(share.loss),
            "equity": _number(share.equity),
        }
        if share.stderr is not None:
            entry["stderr"] = {name: _rounded(value) for name, value in share.stderr.items()}
        players.append(entry)
    out: dict[str, Any] = {
        "draws": answer.draws,
        "exact": answer.exact,
        "dead": fmt.card_strings(spot.dead),
        "players": players,
    }
    if answer.exact:
        out["sequences"] = answer.sequences
    else:
        out |= {"samples": answer.samples, "seed": answer.seed}
    if discards is not None:
        out["discards"] = [discard_json(spot, row) for row in discards]
    return out


def discard_json(spot: Situation, row: Discard) -> dict[str, Any]:
    fmt = spot.notation
    hand = spot.hands[0] or ()
    out: dict[str, Any] = {
        "keep": fmt.card_strings(row.keep),
        "throw": fmt.card_strings(card for card in hand if card not in row.keep),
        "equity": _number(row.equity),
        "cost": _number(row.cost),
        "default": row.default,
    }
    if row.stderr is not None:
        out["stderr"] = _rounded(row.stderr)
        out["cost_stderr"] = _rounded(row.cost_stderr or 0.0)
    return out


def _rounded(stderr: float) -> float | None:
    """A standard error for JSON: None (null) where one sample cannot estimate it."""
    return round(stderr, 6) if math.isfinite(stderr) else None


def _percent(value: Any, stderr: float | None = None) -> str:
    """A share, with its standard error when estimated (``n/a`` from one sample)."""
    text = f"{float(value):.2%}"
    if stderr is None:
        return text
    return f"{text} ±{stderr:.2%}" if math.isfinite(stderr) else f"{text} ±n/a"


def _heading(spot: Situation, answer: Answer) -> str:
    left = f"{answer.draws} draw{'s' if answer.draws > 1 else ''} left"
    if answer.exact:
        return f"Badugi, {left}: exact, {answer.sequences:,} card sequences counted"
    return (
        f"Badugi, {left}: estimate from {answer.samples:,} shuffles (seed {answer.seed}), "
        "± one standard error"
    )


def print_answer(spot: Situation, answer: Answer, discards: list[Discard] | None) -> None:
    from handsolver.models.badugi_draw import kept_cards

    fmt = spot.notation
    typer.echo(_heading(spot, answer))
    rows = []
    for player, share in enumerate(answer.players):
        hand = spot.hands[player]
        errors = share.stderr or {}
        rows.append(
            [
                player + 1,
                spot.hand_text(player),
                spot.rules[player].spec,
                "?" if hand is None else fmt.format_cards(kept_cards(spot.rules[player], hand, 0)),
                _percent(share.win, errors.get("win")),
                _percent(share.tie, errors.get("tie")),
                _percent(share.loss, errors.get("loss")),
                _percent(share.equity, errors.get("equity")),
            ]
        )
    print_table(
        None,
        [
            Column("#", keep=True),
            Column("hand", keep=True),
            Column("rule", priority=1),
            Column("keeps", priority=2),
            Column("win", keep=True),
            Column("tie", priority=0),
            Column("loss", priority=3),
            Column("equity", keep=True),
        ],
        rows,
    )
    if answer.exact:
        shares = ", ".join(
            f"{player + 1}: {fraction_text(share.equity)}"  # type: ignore[arg-type]
            for player, share in enumerate(answer.players)
        )
        typer.echo(f"Exact equities (ties split): {shares}")
    if spot.dead:
        typer.echo(f"Dead cards: {fmt.format_cards(spot.dead)}")
    if discards is not None:
        print_discards(spot, answer, discards)


def print_discards(spot: Situation, answer: Answer, discards: list[Discard]) -> None:
    fmt = spot.notation
    hand = spot.hands[0] or ()
    typer.echo("")
    typer.echo(f"Best discard for hand 1 ({fmt.format_cards(hand)}) on this draw:")
    print_table(
        None,
        [
            Column("#", keep=True),
            Column("keep", keep=True),
            Column("throw", keep=True),
            Column("equity", keep=True),
            Column("cost", keep=True),
            Column("", keep=True),
        ],
        (
            [
                rank + 1,
                fmt.format_cards(row.keep) or "-",
                fmt.format_cards(card for card in hand if card not in row.keep) or "-",
                _percent(row.equity, row.stderr),
                _percent(row.cost, row.cost_stderr if row.cost else None),
                "default rule" if row.default else "",
            ]
            for rank, row in enumerate(discards)
        ),
    )
    default = next(row for row in discards if row.default)
    if answer.exact and default.cost:
        typer.echo(
            f"The default rule (keep {fmt.format_cards(default.keep) or 'nothing'}) gives up "
            f"{fraction_text(default.cost)} of the pot"  # type: ignore[arg-type]
            f" = {float(default.cost):.4%}."
        )


def _solve(
    spot: Situation,
    *,
    best_discard: bool,
    samples: int,
    seed: int,
    estimate: bool,
    workers: int = 1,
    scheduler: str | None = None,
    show_progress: bool = False,
) -> tuple[Answer, list[Discard] | None]:
    from handsolver.solver.badugi.equity import best_discard as discard_table
    from handsolver.solver.badugi.equity import draw_equity
    from handsolver.solver.commands.progress import progress

    options: dict[str, Any] = {
        "samples": samples,
        "seed": seed,
        "workers": workers,
        "scheduler": scheduler,
        "estimate": estimate,
        "progress": progress if show_progress else None,
    }
    with user_errors():
        # The table first: against an unknown hand it counts the spot's own keep too, and
        # the equity then reuses that count.
        discards = discard_table(spot, **options) if best_discard else None
        answer = draw_equity(spot, **options)
    return answer, discards


def _check_discard(spot: Situation, best_discard: bool) -> None:
    from handsolver.models.cards import InputError

    if best_discard and spot.hands[0] is None:
        raise InputError("--best-discard needs the first player's hand; it is '?'")


def draw(
    hands: Annotated[
        list[str],
        typer.Argument(
            metavar="HAND...",
            help="Two or more 4-card hands, '?' for a hand dealt at random from the unseen "
            "cards; one per argument or split by '-' or '|'; '-' reads them from stdin.",
            show_default=False,
        ),
    ],
    draws: DrawsOption = 1,
    dead: DeadOption = "",
    rule: RuleOption = None,
    keep: KeepOption = None,
    best_discard: BestDiscardOption = False,
    samples: SamplesOption = DEFAULT_SAMPLES,
    seed: SeedOption = DEFAULT_SEED,
    estimate: EstimateOption = False,
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
    json_output: JsonOption = False,
) -> None:
    """Win, tie and loss after the draws, exact heads-up where the cards can be counted: with
    one draw left (a known hand against a known or an unknown one), and with two or three when
    both hands are known and their ways to play out the draws are few enough to list. Anything
    else is a Monte Carlo estimate with standard errors.

    Example: handsolver badugi draw "Ac 2d 3h Kh" "5c 6d 7h 8h" --best-discard
    """
    from handsolver.models.badugi_draw import parse_situation

    with user_errors():
        spot = parse_situation(
            card_texts(hands), draws=draws, dead=dead, rules=rule or [], keep=keep
        )
        _check_discard(spot, best_discard)
    answer, discards = _solve(
        spot,
        best_discard=best_discard,
        samples=samples,
        seed=seed,
        estimate=estimate,
        workers=workers,
        scheduler=scheduler,
        show_progress=True,
    )
    if json_output:
        print_json(answer_json(spot, answer, discards))
    else:
        print_answer(spot, answer, discards)


class _LineJudge:
    """One JSON line for one spot (picklable, so worker processes can run it)."""

    def __init__(self, best_discard: bool, samples: int, seed: int, estimate: bool) -> None:
        self.options = (best_discard, samples, seed, estimate)

    def __call__(self, job: tuple[int, str, Situation]) -> str:
        import json

        number, text, spot = job
        best_discard, samples, seed, estimate = self.options
        answer, discards = _solve(
            spot, best_discard=best_discard, samples=samples, seed=seed, estimate=estimate
        )
        return json.dumps({"line": number, "spot": text, **answer_json(spot, answer, discards)})


def _parse_line(best_discard: bool) -> Any:
    from handsolver.models.badugi_draw import parse_situation_line

    def parse(text: str) -> Situation:
        spot = parse_situation_line(text)
        _check_discard(spot, best_discard)
        return spot

    return parse


def draw_batch(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="One spot a line, written as on the command line (hands, --draws, --dead, "
            "--rule, --keep); '-' for stdin; '#' comments.",
            show_default=False,
        ),
    ],
    best_discard: BestDiscardOption = False,
    samples: SamplesOption = DEFAULT_SAMPLES,
    seed: SeedOption = DEFAULT_SEED,
    estimate: EstimateOption = False,
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
    json_output: BatchJsonOption = True,
) -> None:
    """Many Badugi draw spots: one JSON object a line, in input order.

    Example: handsolver badugi draw-batch spots.txt --workers 2
    """
    run_deal_batch(
        file,
        _parse_line(best_discard),
        _LineJudge(best_discard, samples, seed, estimate),
        workers=workers,
        scheduler=scheduler,
        unit="spots",
    )
