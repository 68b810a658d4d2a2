"""``handsolver paigow game``: the whole game exactly, every player hand against every dealer
hand, rendered as tables or JSON (the engine: :mod:`handsolver.solver.paigow.game`)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer

from handsolver.models.cards import InputError
from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.options import (
    CheckpointOption,
    JsonOption,
    OutOption,
    PlotOption,
    ResumeOption,
    SchedulerOption,
    WorkersOption,
)
from handsolver.solver.commands.paigow.settings import (
    CommissionOption,
    FiveAces,
    FiveAcesOption,
    WayOption,
    Wheel,
    WheelOption,
    rules_from,
    way_from,
)
from handsolver.solver.commands.progress import progress


def _deck(text: str | None) -> Any:
    """The ranks ``--deck`` names, read as cards' ranks are: any case, ``T``, ``10`` or ``0``
    for the ten; a rank given twice or a symbol that is none is named as typed."""
    from handsolver.models.cards import RANKS
    from handsolver.solver.paigow.hand_types import FULL_DECK, Deck

    if text is None:
        return FULL_DECK
    ranks: list[int] = []
    for symbol in text.replace("10", "T"):
        if symbol.isspace():
            continue
        rank = RANKS.find("T" if symbol == "0" else symbol.upper()) if symbol.isascii() else -1
        if rank < 0:
            raise InputError(f"--deck: unknown rank {symbol!r} (ranks are 2-9, T, J, Q, K, A)")
        if rank in ranks:
            raise InputError(f"--deck {text!r}: rank {symbol!r} is given twice")
        ranks.append(rank)
    if 4 * len(ranks) + 1 < 14:
        raise InputError(f"--deck {text!r}: needs at least 4 ranks (14 cards for two hands)")
    return Deck(tuple(sorted(ranks)))


def _ratio(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _outcome_json(outcome: Any, total: int) -> dict[str, Any]:
    return {
        "win": outcome.win,
        "push": outcome.push,
        "loss": outcome.loss,
        "ev": _ratio(outcome.ev),
        "ev_float": round(float(outcome.ev), 9),
        "house_edge": _ratio(-outcome.ev),
    }


def _game_json(result: Any) -> dict[str, Any]:
    from handsolver.models.cards import RANKS
    from handsolver.solver.paigow.game import outcome
    from handsolver.solver.paigow.hand_types import hand_type_category

    rules = result.rules
    per_hand = result.deck.dealer_hands
    types = []
    for name, row in result.rows.items():
        if row[0] == 0:
            continue
        house = outcome(row[1], row[2], row[3], rules.commission)
        best = outcome(row[4], row[5], row[6], rules.commission)
        types.append(
            {
                "type": name,
                "category": hand_type_category(name),
                "hands": row[0],
                "house_way": _outcome_json(house, row[0] * per_hand),
                "best": _outcome_json(best, row[0] * per_hand),
                "gain": _ratio(best.ev - house.ev),
            }
        )
    return {
        "way": result.way,
        "rules": {
            "wheel": "second" if rules.wheel_second else "low",
            "five_aces": "top" if rules.five_aces_top else "below",
            "commission": _ratio(rules.commission),
            "copies": "dealer",
        },
        "deck": "".join(RANKS[r] for r in result.deck.ranks) + "+JK",
        "pairs": result.pairs,
        "dealer_hands_per_hand": per_hand,
        "house_way": _outcome_json(result.house_way, result.pairs),
        "best": _outcome_json(result.best, result.pairs),
        "gain": _ratio(result.best.ev - result.house_way.ev),
        "frequencies": result.frequencies,
        "hand_types": types,
    }


def _game_text(result: Any) -> str:
    from handsolver.solver.commands.table import render_table
    from handsolver.solver.paigow.game import outcome

    data = _game_json(result)
    rules = data["rules"]
    parts = [
        f"Pai Gow, whole game: house way {result.way}; wheel {rules['wheel']}, five aces"
        f" {rules['five_aces']}, commission {rules['commission']}, copies to the dealer\n"
        f"deck {data['deck']}: {result.pairs:,} player/dealer pairs\n"
    ]
    overall = [
        (
            label,
            f"{item.win:,}",
            f"{item.push:,}",
            f"{item.loss:,}",
            f"{float(item.ev) * 100:+.6f}",
            f"{float(-item.ev) * 100:.6f}",
        )
        for label, item in (("house way", result.house_way), ("best EV", result.best))
    ]
    columns = ["player sets by", "wins", "pushes", "losses", "EV %", "house edge %"]
    parts.append(render_table(None, columns, overall))
    gain = result.best.ev - result.house_way.ev
    parts.append(f"best play gains {float(gain) * 100:.6f}% of the bet ({_ratio(gain)})\n")
    per_hand = result.deck.dealer_hands
    rows = []
    for name, row in result.rows.items():
        if row[0] == 0:
            continue
        house = outcome(row[1], row[2], row[3], result.rules.commission)
        best = outcome(row[4], row[5], row[6], result.rules.commission)
        pairs = row[0] * per_hand
        rows.append(
            (
                name,
                f"{row[0]:,}",
                f"{float(house.ev) * 100:+.4f}",
                f"{float(best.ev) * 100:+.4f}",
                f"{float(best.ev - house.ev) * 100:.4f}",
                "/".join(f"{100 * v / pairs:.2f}" for v in row[1:4]),
                "/".join(f"{100 * v / pairs:.2f}" for v in row[4:7]),
            )
        )
    columns = ["player's hand", "hands", "house way EV %", "best EV %", "gain %"]
    columns += ["house way win/push/loss %", "best win/push/loss %"]
    parts.append(render_table("\nby the player's hand (the best five of seven)", columns, rows))
    total = sum(data["frequencies"].values())
    frequencies = [
        (name, f"{count:,}", f"{100 * count / total:.5f}")
        for name, count in data["frequencies"].items()
    ]
    parts.append(render_table("\n7-card frequencies", ["category", "hands", "%"], frequencies))
    return "".join(part if part.endswith("\n") else part + "\n" for part in parts)


def game_command(
    way: WayOption = "trump-plaza",
    wheel: WheelOption = Wheel.second,
    five_aces: FiveAcesOption = FiveAces.top,
    commission: CommissionOption = "0.05",
    deck: Annotated[
        str | None,
        typer.Option(
            "--deck",
            metavar="RANKS",
            help="Play with these ranks only (and the joker), e.g. TJQKA: a small game.",
        ),
    ] = None,
    json_output: JsonOption = False,
    out: OutOption = None,
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
    checkpoint: CheckpointOption = None,
    resume: ResumeOption = False,
    plot: PlotOption = None,
) -> None:
    """The whole game exactly: every player hand against every dealer hand.

    Counts wins, pushes and losses over all C(53,7) x C(46,7) = 8,250,459,031,214,400 pairs, for
    the player setting by the house way and for the player setting every hand to its best EV,
    both against a dealer who sets by the house way; by the player's hand type too.  Minutes
    of work: a progress bar, checkpoints (--resume continues), --workers or --scheduler.

    Example: handsolver paigow game --way foxwoods --workers 2
    """
    from handsolver.solver.commands.checkpoints import checkpointed_run
    from handsolver.solver.paigow.game_run import game_checkpoint, run_game

    with user_errors():
        house = way_from(way)
        rules = rules_from(wheel, five_aces, commission)
        game_deck = _deck(deck)
        path = checkpoint if checkpoint is not None else game_checkpoint(house, rules, game_deck)
        with checkpointed_run(path, named=checkpoint is not None, resume=resume, what="game"):
            result = run_game(
                house,
                rules,
                game_deck,
                workers=workers,
                scheduler=scheduler,
                checkpoint=path,
                resume=resume,
                checkpoint_required=checkpoint is not None,
                progress=lambda items, total, done: progress(
                    items, total, "counting the whole game", done=done
                ),
            )
    if json_output:
        import json

        text = json.dumps(_game_json(result), indent=2) + "\n"
    else:
        text = _game_text(result)
    if out is not None:
        from handsolver.solver.commands.output import write_atomic

        with user_errors():
            write_atomic(out, text)
    else:
        typer.echo(text, nl=False)
    if plot is not None:
        _draw_gains(plot, result)


def _draw_gains(path: Path, result: Any) -> None:
    """``--plot``: the exact gain of best play over the house way by the player's hand type."""
    from handsolver.models.cards import RANKS
    from handsolver.solver.commands.paigow.plots import exact_gain_figure
    from handsolver.solver.commands.plots.figures import save
    from handsolver.solver.paigow.game import outcome

    types = []
    for name, row in result.rows.items():
        if row[0]:
            house = outcome(row[1], row[2], row[3], result.rules.commission)
            best = outcome(row[4], row[5], row[6], result.rules.commission)
            types.append((name, float(best.ev - house.ev), row[0]))
    deck = "".join(RANKS[r] for r in result.deck.ranks) + "+JK"
    title = f"Best play against the {result.way} house way, deck {deck}"
    with user_errors():
        save(exact_gain_figure(types, title), path)
