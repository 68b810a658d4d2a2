"""``handsolver big2 advise``: every legal move of a hand at the table, ranked by the share of
sampled deals of the unseen cards it wins; and the advisor's options, which ``big2 tournament``
takes too."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from handsolver.models.big2 import SEED_RULES, IllegalPlayError, Play, Rules, play_kind
from handsolver.models.big2_order import lowest_card
from handsolver.models.cards import CardSet, InputError, Notation, card_name, mask_of, notation_of
from handsolver.solver.big2.table.advise import (
    DEFAULT_LINE_NODES,
    DEFAULT_NODES,
    DEFAULT_OPPONENTS,
    DEFAULT_SAMPLES,
    DEFAULT_SOLVE_CARDS,
    Advice,
    AdviceSettings,
)
from handsolver.solver.commands.big2.position_options import (
    POSITION_OPTIONS,
    BeatOption,
    ByOption,
    PassedOption,
    StartOption,
    distinct_cards,
    opponents_text,
    player_numbers,
)
from handsolver.solver.commands.big2.rules import seat_cards, table_rules, takes_rules
from handsolver.solver.commands.big2.turns import HistoryFileOption, HistoryOption, history_turns
from handsolver.solver.commands.errors import option_named, user_errors
from handsolver.solver.commands.inputs import card_texts
from handsolver.solver.commands.options import (
    JsonOption,
    SchedulerOption,
    SeedOption,
    WorkersOption,
    whole_number,
)
from handsolver.solver.commands.output import print_json
from handsolver.solver.commands.table import print_table

_PANEL = "Advisor"
SamplesOption = Annotated[
    int,
    typer.Option(
        "--samples",
        min=1,
        max=100_000,
        help="Deals of the unseen cards to solve (1 to 100,000).",
        rich_help_panel=_PANEL,
    ),
]
NodesOption = Annotated[
    int,
    typer.Option(
        "--max-nodes",
        min=0,
        max=10**9,
        help="Search nodes per move and deal (0: no limit; up to 10**9); past them a playout "
        "decides.",
        rich_help_panel=_PANEL,
    ),
]
TimeOption = Annotated[
    float | None,
    typer.Option(
        "--time",
        min=0.001,
        max=86_400,
        metavar="SECONDS",
        help="Also a time limit per move and deal (the answer then depends on the machine's "
        "speed).",
        rich_help_panel=_PANEL,
        show_default=False,
    ),
]
SolveCardsOption = Annotated[
    int,
    typer.Option(
        "--solve-cards",
        min=0,
        max=52,
        help="Solve a deal only when the hands hold at most this many cards in all; larger "
        "deals are played out (0 to 52).",
        rich_help_panel=_PANEL,
    ),
]


LineNodesOption = Annotated[
    int,
    typer.Option(
        "--line-nodes",
        min=0,
        max=10**6,
        help="Where both playouts of a move lose, search the player's own lines against "
        "greedy replies for up to this many of its turns (0: no search).",
        rich_help_panel=_PANEL,
    ),
]
ReadingOption = Annotated[
    bool,
    typer.Option(
        "--reading/--no-reading",
        help="Read the opponents' turns as the conventional program's (a pass on a single: "
        "no higher single) when dealing the unseen cards, for each opponent whose turns agree "
        "with it (the advise strategy).",
        rich_help_panel=_PANEL,
    ),
]


OpponentsOption = Annotated[
    str,
    typer.Option(
        "--opponents",
        metavar="MODEL",
        help="How the opponents are modelled: greedy (the conventional program), adaptive "
        "(the conventional program while an opponent's turns are its, else the learned "
        "player), mix (each may be the learned player, the conventional program or random, as "
        "its turns so far say), or learned (the learned player).",
        rich_help_panel=_PANEL,
    ),
]


PassesOption = Annotated[
    int,
    typer.Option(
        "--passes",
        min=0,
        max=10**7,
        help="Choose by a tree of the player's own turns, this many passes down it over the "
        "sampled deals, playouts and the line search at its leaves, in place of solving each "
        "deal (0: no tree; the solver's budgets are then unused).",
        rich_help_panel=_PANEL,
    ),
]


def advice_settings(
    samples: int,
    nodes: int,
    time_limit: float | None,
    solve_cards: int,
    seed: int,
    line_nodes: int = DEFAULT_LINE_NODES,
    reading: bool = True,
    passes: int = 0,
    opponents: str = DEFAULT_OPPONENTS,
) -> AdviceSettings:
    """The advisor's settings from its options (``--max-nodes 0`` is no limit).

    :raises InputError: an unknown model of the opponents.
    """
    from handsolver.solver.big2.table.opponents import OPPONENT_MODELS

    if opponents not in OPPONENT_MODELS:
        raise InputError(
            f"--opponents {opponents!r}: use {', '.join(OPPONENT_MODELS)}", about="opponents"
        )
    return AdviceSettings(
        samples,
        nodes or None,
        time_limit,
        seed,
        solve_cards,
        line_nodes,
        reading,
        passes,
        opponents=opponents,
    )


def _cards(text: str | None, what: str) -> CardSet:
    if text is None or not text.strip():
        return 0
    return mask_of(distinct_cards(text, what))


def _counts(text: str) -> list[int]:
    tokens = [token for token in text.replace(" ", ",").split(",") if token]
    return [whole_number(token, "--counts") for token in tokens]


_WORDS = {2: "two", 3: "three", 4: "four"}


def table_view(
    hand_text: str,
    played: str | None,
    counts: str,
    beat: str | None,
    by: int | None,
    passed: str | None,
    start: bool,
    rules: Rules,
    players: int | None = None,
) -> Any:
    """The view of player 1 from the options (players numbered from 1, the player first, the
    opponents in seat order after), under ``rules`` seated for as many players as ``counts``
    gives (``players``, ``--players``, must agree where given).

    :raises InputError: naming the bad token.
    """
    from handsolver.solver.big2.table.advise import known_undealt
    from handsolver.solver.big2.table.views import TableView

    hand = _cards(hand_text, "the hand")
    if not hand:
        raise InputError("no cards in the hand")
    played_mask = _cards(played, "--played")
    beat_mask = _cards(beat, "--beat")
    opponents = _counts(counts)
    if not 1 <= len(opponents) <= 3:
        raise InputError(f"--counts {counts!r}: give 1, 2 or 3 opponents' card counts")
    seats = 1 + len(opponents)
    given = f"--counts {counts}, which counts {len(opponents)} opponents ({seats} players)"
    rules = table_rules(rules, players, seats, given)
    most = seat_cards(rules, seats)
    table = f"with {_WORDS[seats]} players a hand holds at most {most}"
    if hand.bit_count() > most:
        raise InputError(f"the hand holds {hand.bit_count()} cards, but {table}")
    for seat, count in enumerate(opponents, start=2):
        if count > most:
            raise InputError(f"--counts {counts}: player {seat} holds {count} cards, but {table}")
    beat_play: Play | None = None
    if beat_mask:
        if beat_mask & hand:
            raise InputError(f"--beat {beat!r}: a card of it is in the hand")
        try:
            beat_play = Play(beat_mask, play_kind(beat_mask, rules))
        except IllegalPlayError as error:
            raise InputError(f"--beat {beat!r}: {error}") from None
        if by is None:
            raise InputError("--beat needs --by, the player who made it")
    if by is not None:
        if beat_play is None:
            raise InputError("--by needs --beat, the play it made")
        if not 2 <= by <= seats:
            raise InputError(f"--by {by}: {opponents_text(seats)}")
    passed_seats = player_numbers(passed, "--passed", 4)
    if passed_seats and not rules.pass_final:
        raise InputError("--passed needs rules where a pass is final (--pass-final)")
    for seat in passed_seats:
        if not 2 <= seat <= seats:
            raise InputError(f"--passed {seat}: {opponents_text(seats)}")
    view = TableView(
        0,
        hand,
        (hand.bit_count(), *opponents),
        played_mask | beat_mask,
        (),
        beat_play,
        None if by is None else by - 1,
        frozenset(seat - 1 for seat in passed_seats),
        start,
        rules,
    )
    if start and seats < 4 and not played_mask:
        unseen = (FULL_DECK & ~hand & ~view.played).bit_count()
        above = (FULL_DECK & ~hand & ~view.played & ~known_undealt(view)).bit_count()
        if sum(opponents) > above:
            low = card_name(lowest_card(hand, rules))
            raise InputError(
                f"--counts {counts} adds up to {sum(opponents)} cards, but at the start of a "
                f"deal no opponent holds a card below {low}, the player's lowest, which leaves "
                f"{above} of the {unseen} unseen cards"
            )
    return view


def history_view(hand_text: str, turns: list[Any], rules: Rules, players: int | None) -> Any:
    """The view of player 1 after ``turns`` (every turn of the deal), at a table of
    ``players`` (``--players``; default four) under ``rules`` seated for them."""
    from handsolver.solver.big2.table.history import replayed_view

    seats = players or 4
    rules = table_rules(rules, players, seats, "")
    hand = _cards(hand_text, "the hand")
    if not hand:
        raise InputError("no cards in the hand")
    return replayed_view(hand, turns, seats, rules)


def move_cards(move: Play | None, notation: Notation, rules: Rules) -> list[str]:
    """A move's cards as the user writes them (none for a pass)."""
    return [] if move is None else notation.card_strings(move.cards_in(rules))


def advice_json(advice: Advice, notation: Notation) -> dict[str, Any]:
    rules = advice.view.rules
    out: dict[str, Any] = {
        "rules": rules.to_json(notation),
        "samples": advice.samples,
        "consistent_deals": advice.consistent,
    }
    if advice.passes:
        out["passes"] = advice.passes
    out["moves"] = [
        {
            "play": move_cards(move.play, notation, rules),
            "share": round(float(move.share), 6),
            "stderr": round(move.stderr, 6),
            "exact": move.exact,
            "plays_left": move.plays_left,
            **({"passes": move.passes} if advice.passes else {}),
        }
        for move in advice.moves
    ]
    return out


FULL_DECK: CardSet = (1 << 52) - 1


@takes_rules(seats=True)
def advise(
    hand: Annotated[
        list[str],
        typer.Argument(
            metavar="HAND...",
            help="The player's hand, e.g. '3d 5h 5s Kc 2s' (several arguments are joined).",
            show_default=False,
        ),
    ],
    counts: Annotated[
        str | None,
        typer.Option(
            "--counts",
            metavar="N,N,N",
            help="The opponents' card counts, in seat order after the player (players 2, 3, 4): "
            "one count a seat, so as many players as counts and one (--players, if given, "
            "agrees). Needed unless --history gives the turns.",
            show_default=False,
        ),
    ] = None,
    played: Annotated[
        str | None,
        typer.Option("--played", metavar="CARDS", help="Every card played so far."),
    ] = None,
    beat: BeatOption = None,
    by: ByOption = None,
    passed: PassedOption = None,
    start: StartOption = False,
    history: HistoryOption = None,
    history_file: HistoryFileOption = None,
    samples: SamplesOption = DEFAULT_SAMPLES,
    nodes: NodesOption = DEFAULT_NODES,
    time_limit: TimeOption = None,
    solve_cards: SolveCardsOption = DEFAULT_SOLVE_CARDS,
    line_nodes: LineNodesOption = DEFAULT_LINE_NODES,
    passes: PassesOption = 0,
    opponents: OpponentsOption = DEFAULT_OPPONENTS,
    seed: SeedOption = 0,
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
    as_json: JsonOption = False,
    rules: Rules = SEED_RULES,
    players: int | None = None,
) -> None:
    """Every legal move of HAND (each pass included), ranked by the share of sampled deals of
    the unseen cards it wins: by a forced win where the search proves one, else by playing the
    deal out (see 'Big 2 at the table' in the manual).

    Example: handsolver big2 advise 5h 5s 9c Jd Ad 2s --counts 5 --played "3d 3c 4h 6s 7s 8c"
    --beat "8c" --by 2
    """
    from functools import partial

    from handsolver.solver.big2.table.advise import advise as advise_view
    from handsolver.solver.commands.errors import Interrupted
    from handsolver.solver.commands.progress import progress

    text = " ".join(card_texts(hand))
    with user_errors():
        settings = advice_settings(
            samples, nodes, time_limit, solve_cards, seed, line_nodes, passes=passes,
            opponents=opponents,
        )  # fmt: skip
        notation = notation_of(text)
        given = {"--counts": counts, "--played": played, "--beat": beat, "--by": by}
        turns = history_turns(
            history, history_file, {**given, "--passed": passed, "--start": start}
        )
        if turns is not None:
            view = history_view(text, turns, rules, players)
        elif counts is None:
            raise InputError("give the opponents' card counts (--counts), or the turns (--history)")
        else:
            view = table_view(text, played, counts, beat, by, passed, start, rules, players)
        rules = view.rules
        try:
            if passes:
                _compile_first()
            lowers = "--passes lowers it" if passes else "--samples lowers it"
            shown = partial(progress, lowers=lowers)
            with option_named(POSITION_OPTIONS):
                advice = advise_view(
                    view, settings, workers=workers, scheduler=scheduler, progress=shown
                )
        except KeyboardInterrupt:
            raise Interrupted("interrupted before every deal was solved") from None
    if as_json:
        print_json(advice_json(advice, notation))
        return
    out = advice_json(advice, notation)
    deals = (
        f"{advice.samples} deal{'s' if advice.samples != 1 else ''} of the unseen cards "
        f"({advice.consistent:,} consistent; {rules.name} rules)"
    )
    title = f"a tree of {advice.passes:,} passes over {deals}" if advice.passes else deals
    tally = "passes" if advice.passes else "exact"
    rows = [
        [
            " ".join(move["play"]) or "pass",
            f"{move['share']:.3f}",
            f"{move['stderr']:.3f}",
            f"{move['passes']:,}" if advice.passes else f"{move['exact']}/{advice.samples}",
            move["plays_left"],
        ]
        for move in out["moves"]
    ]
    print_table(title, ["move", "share", "stderr", tally, "plays left"], rows, highlight=[0])


def _compile_first() -> None:
    """Compile the playouts that score the tree's leaves (or load them from numba's cache)
    before the work starts, saying so on a first run."""
    try:
        from handsolver.solver.big2.table import playout_compiled
    except ImportError:  # no numba: the tree is scored in Python
        return
    from handsolver.solver.commands.progress import compile_first, numba_cached

    cached = numba_cached(playout_compiled.kernel.deal_won)
    compile_first(cached, playout_compiled.ensure_compiled, "the playouts")
