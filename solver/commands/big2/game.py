"""``handsolver big2 game`` and ``big2 game-batch``: with every hand face up, can a player force
going out first, and with which play?

Players are numbered from 1 in the order the hands are given.  A ``game-batch`` line is either
hands alone (``3d 4c | 5s 6s``: player 1 to move with a free lead) or a JSON object with the
keys of ``--json``'s ``position`` (``hands``, and optionally ``to_move``, ``beat``, ``by``,
``passed``, ``start``).
"""

from __future__ import annotations

import json
from functools import partial
from typing import Annotated, Any

import typer

from handsolver.models.big2 import SEED_RULES, IllegalPlayError, Play, Rules
from handsolver.models.cards import InputError, Notation, parse_deal
from handsolver.solver.big2.game.positions import (
    DEFAULT_TABLE_SIZE,
    GameResult,
    Position,
    check_position,
    solve_position,
)
from handsolver.solver.commands.big2.position_options import (
    POSITION_OPTIONS,
    BeatOption,
    ByOption,
    PassedOption,
    StartOption,
    distinct_cards,
    player_number,
    player_numbers,
)
from handsolver.solver.commands.big2.rules import table_rules, takes_rules
from handsolver.solver.commands.deal_batch import run_deal_batch
from handsolver.solver.commands.errors import Interrupted, option_named, user_errors
from handsolver.solver.commands.inputs import card_texts, json_object
from handsolver.solver.commands.options import (
    BatchJsonOption,
    JsonOption,
    SchedulerOption,
    WorkersOption,
    time_limit_option,
)
from handsolver.solver.commands.output import print_json
from handsolver.solver.commands.table import print_table

DEFAULT_TIME_LIMIT = 60.0
MAX_NODES = 10**12
MAX_TABLE_SIZE = 100_000_000

TimeLimitOption = Annotated[
    float,
    time_limit_option(
        "Stop after this long in all, compiling the search on a first run included (0 to "
        "86,400 s; a batch: each position); what is not proven by then is unknown."
    ),
]
MaxNodesOption = Annotated[
    int | None,
    typer.Option(
        "--max-nodes",
        min=1,
        max=MAX_NODES,
        metavar="N",
        help="Stop each search after N positions (1 to 10**12); what is not proven by then is "
        "unknown.",
    ),
]
TableSizeOption = Annotated[
    int,
    typer.Option(
        "--table-size",
        min=1000,
        max=MAX_TABLE_SIZE,
        metavar="ENTRIES",
        help="Positions each transposition table keeps (1,000 to 100,000,000; 20 bytes each; a "
        "few hundred for a small deal, which is searched in Python).",
    ),
]


def parse_position(
    hands: list[str] | str,
    rules: Rules,
    *,
    to_move: object = None,
    beat: str | None = None,
    by: object = None,
    passed: object = None,
    start: bool = False,
    players: int | None = None,
    names: tuple[str, str, str, str] = ("--to-move", "--beat", "--by", "--passed"),
) -> tuple[Position, Notation, Rules]:
    """The position the command line (or a batch line) describes, checked, the notation its
    cards were written in, and ``rules`` seated for as many players as there are hands
    (``players``, ``--players``, must agree where given).  ``names`` are what messages call
    the fields (``to_move``, ``beat``, ``by`` and ``passed`` in a batch line).

    :raises InputError: naming the bad token.
    """
    deal = parse_deal(hands if isinstance(hands, str) else " | ".join(hands))
    count = len(deal.hands)
    if not 2 <= count <= 4:
        raise InputError(f"give 2, 3 or 4 hands, not {count}")
    rules = table_rules(rules, players, count, f"the {count} hands given")
    masks = tuple(sum(1 << card for card in hand) for hand in deal.hands)
    to_move_name, beat_name, by_name, passed_name = names
    play = None
    if beat is not None:
        try:
            play = Play.from_cards(distinct_cards(beat, beat_name), rules)
        except IllegalPlayError as error:
            raise InputError(f"{beat_name} {beat!r}: {error}") from None
        if by is None:
            raise InputError(f"{beat_name} needs {by_name}, the player who made the play")
    elif by is not None:
        raise InputError(f"{by_name} needs {beat_name}, the play to beat")
    made_by = None if by is None else player_number(by, by_name, count) - 1
    passed_set = frozenset(p - 1 for p in player_numbers(passed, passed_name, count))
    mover = 0 if to_move is None else player_number(to_move, to_move_name, count) - 1
    if passed_set and not rules.pass_final:
        raise InputError(f"{passed_name} needs rules where a pass is final (--pass-final)")
    if start and to_move is None:
        from handsolver.models.big2_order import lowest_card

        low = lowest_card(sum(masks), rules)
        mover = next(p for p, hand in enumerate(masks) if hand >> low & 1)
    position = Position(masks, mover, play, made_by, passed_set, start)
    # The library's errors speak of the game; name the field as this input spells it.
    fields = {**POSITION_OPTIONS, "to_move": to_move_name, "by": by_name, "passed": passed_name}
    with option_named(fields):
        check_position(position, rules)
    return position, deal.notation, rules


def result_json(result: GameResult, notation: Notation) -> dict[str, Any]:
    """The answer as ``--json`` prints it (players numbered from 1)."""
    rules = result.rules
    position = result.position

    def cards(play: Play | None) -> list[str]:
        return [] if play is None else notation.card_strings(play.cards_in(rules))

    return {
        "rules": rules.to_json(notation),
        "position": {
            "hands": [
                notation.card_strings(sorted(_cards(hand), key=rules.card_key))
                for hand in position.hands
            ],
            "to_move": position.to_move + 1,
            "beat": None if position.beat is None else cards(position.beat),
            "by": None if position.by is None else position.by + 1,
            "passed": sorted(p + 1 for p in position.passed),
            "start": position.start,
        },
        "players": [
            {"player": p + 1, "forced_win": won} for p, won in enumerate(result.forced_win)
        ],
        "moves": [{"play": cards(m.play), "forced_win": m.forced_win} for m in result.moves],
        "line": [{"player": step.player + 1, "play": cards(step.play)} for step in result.line],
        "line_fastest": result.line_fastest,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 3),
    }


def _cards(mask: int) -> list[int]:
    return [card for card in range(52) if mask >> card & 1]


def _verdict(value: bool | None) -> str:
    return "unknown" if value is None else "yes" if value else "no"


def _print_result(result: GameResult, notation: Notation) -> None:
    rules = result.rules
    position = result.position

    def text(play: Play | None) -> str:
        return "pass" if play is None else notation.format_cards(play.cards_in(rules))

    if position.start:
        situation = "start of the deal"
    elif position.beat is None:
        situation = "free lead"
    else:
        assert position.by is not None
        situation = f"to beat {text(position.beat)} by player {position.by + 1}"
        if position.passed:
            situation += ", passed " + ",".join(str(p + 1) for p in sorted(position.passed))
    typer.echo(f"player {position.to_move + 1} to move, {situation} ({rules.name} rules)")
    print_table(
        None,
        ["player", "hand", "forces going out first"],
        [
            [
                p + 1,
                notation.format_cards(sorted(_cards(hand), key=rules.card_key)),
                _verdict(result.forced_win[p]),
            ]
            for p, hand in enumerate(position.hands)
        ],
    )
    print_table(
        None,
        [f"player {position.to_move + 1}'s move", "still forces it"],
        [[text(move.play), _verdict(move.forced_win)] for move in result.moves],
    )
    if result.line:
        how = "fastest win, longest defence" if result.line_fastest else "a winning line"
        steps = ", ".join(f"{step.player + 1}: {text(step.play)}" for step in result.line)
        typer.echo(f"line ({how}): {steps}")
    elif result.winner is None and None not in result.forced_win:
        typer.echo("nobody can force going out first against the others together")
    typer.echo(f"{result.nodes:,} positions searched in {result.seconds:.2f} s")


@takes_rules(seats=True)
def game(
    hands: Annotated[
        list[str],
        typer.Argument(
            metavar="HAND HAND [HAND HAND]",
            help="Two to four hands, one an argument, e.g. '3d 4c 2s' '5h 5s 9c' ('-': one "
            "hand a line of standard input).",
            show_default=False,
        ),
    ],
    to_move: Annotated[
        int | None,
        typer.Option(
            "--to-move", metavar="N", min=1, max=4, help="The player to move (1 to 4; default 1)."
        ),
    ] = None,
    beat: BeatOption = None,
    by: ByOption = None,
    passed: PassedOption = None,
    start: StartOption = False,
    as_json: JsonOption = False,
    time_limit: TimeLimitOption = DEFAULT_TIME_LIMIT,
    max_nodes: MaxNodesOption = None,
    table_size: TableSizeOption = DEFAULT_TABLE_SIZE,
    rules: Rules = SEED_RULES,
    players: int | None = None,
) -> None:
    """Whether each player can force going out first, every move's verdict and a winning line.

    With three or four players each player is asked against all the others playing together.

    Example: handsolver big2 game '3d 3c 2s' '4d 5d 6d'
    """
    with user_errors():
        position, notation, rules = parse_position(
            card_texts(hands),
            rules,
            to_move=to_move,
            beat=beat,
            by=by,
            passed=passed,
            start=start,
            players=players,
        )
    result = _solve_showing_progress(position, rules, time_limit, max_nodes, table_size)
    if as_json:
        print_json(result_json(result, notation))
    else:
        _print_result(result, notation)


def _solve_showing_progress(
    position: Position,
    rules: Rules,
    time_limit: float,
    max_nodes: int | None,
    table_size: int,
) -> GameResult:
    """Solve, with a counter of positions on a terminal's stderr; Ctrl-C stops cleanly.  The
    time limit counts the whole command: compiling the search on a first run too."""
    import time

    from handsolver.solver.commands.progress import counter, long_wait, say

    began = time.perf_counter()
    try:
        compiled = _compile_first(position)
        spent = time.perf_counter() - began
        left = max(0.0, time_limit - spent)
        if compiled and not left:
            say(
                f"the compiled search took {spent:.1f} s to start, all of --time-limit "
                f"{time_limit:g}: nothing was searched (a first run compiles it; the next runs "
                "load it in about a second)"
            )
        with counter("searching", "positions") as tick, long_wait(left, "--time-limit lowers it"):
            return solve_position(
                position,
                rules,
                max_nodes=max_nodes,
                time_limit=left,
                table_size=table_size,
                progress=tick,
            )
    except KeyboardInterrupt:
        raise Interrupted("interrupted: no answer") from None


def _compile_first(position: Position) -> bool:
    """When ``position`` is searched by the compiled search, compile it (or load it from
    numba's cache) now, saying so on a first run; whether it is."""
    from handsolver.solver.big2.game.positions import AUTO_CARDS
    from handsolver.solver.commands.progress import compile_first, numba_cached

    if sum(map(int.bit_count, position.hands)) <= AUTO_CARDS:  # searched in Python
        return False
    try:
        from handsolver.solver.big2.game import compiled
    except ImportError:  # no numba: searched in Python
        return False
    if not compiled.fits(position.hands):
        return False
    if not _READY:  # once a process
        cached = numba_cached(compiled.kernel.search, compiled.kernel.fill_fewest)
        compile_first(cached, compiled.ensure_compiled, "the search")
        _READY.append(True)
    return True


# Whether this process has compiled (or loaded) the compiled search: [] or [True].
_READY: list[bool] = []


def _game_line(
    job: tuple[int, str, tuple[Position, Notation, Rules]],
    *,
    time_limit: float,
    max_nodes: int | None,
    table_size: int,
) -> str:
    """One batch line's answer as JSON (top level, so that workers can run it).  Run here, not
    by a worker, the first position that needs the compiled search compiles it first, saying
    so on a terminal; its time limit counts that too."""
    import multiprocessing
    import time

    number, _, (position, notation, rules) = job
    began = time.perf_counter()
    if multiprocessing.parent_process() is None:
        _compile_first(position)
    left = max(0.0, time_limit - (time.perf_counter() - began))
    result = solve_position(
        position, rules, max_nodes=max_nodes, time_limit=left, table_size=table_size
    )
    # "line" is the winning line here, so the input line is "input_line".
    return json.dumps({"input_line": number, **result_json(result, notation)})


def _batch_position(
    text: str, rules: Rules, players: int | None
) -> tuple[Position, Notation, Rules]:
    """A batch line: hands alone, or a JSON object like ``--json``'s ``position``."""
    if not text.startswith("{"):
        return parse_position(text, rules, players=players)
    data = json_object(text)
    unknown = sorted(set(data) - {"hands", "to_move", "beat", "by", "passed", "start"})
    if unknown:
        raise InputError(f"unknown key {unknown[0]!r}")
    hands = data.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, str | list) for h in hands):
        raise InputError("'hands' must be a list of hands")
    texts = [h if isinstance(h, str) else " ".join(map(str, h)) for h in hands]
    beat = data.get("beat")
    if isinstance(beat, list) and all(isinstance(card, str) for card in beat):
        beat = " ".join(beat) or None
    if beat is not None and not isinstance(beat, str):
        raise InputError("'beat' must be cards")
    start = data.get("start", False)
    if not isinstance(start, bool):
        raise InputError("'start' must be true or false")
    return parse_position(
        texts,
        rules,
        to_move=data.get("to_move"),
        beat=beat,
        by=data.get("by"),
        passed=data.get("passed"),
        start=start,
        players=players,
        names=("to_move", "beat", "by", "passed"),
    )


@takes_rules(seats=True)
def game_batch(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="One position a line ('-' for stdin): hands 'H | H [| H | H]' or a JSON "
            "object; '#' comments.",
            show_default=False,
        ),
    ],
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
    time_limit: TimeLimitOption = DEFAULT_TIME_LIMIT,
    max_nodes: MaxNodesOption = None,
    table_size: TableSizeOption = DEFAULT_TABLE_SIZE,
    as_json: BatchJsonOption = True,
    rules: Rules = SEED_RULES,
    players: int | None = None,
) -> None:
    """Solve many positions: one JSON object a line, in input order.

    Example: handsolver big2 game-batch positions.txt --workers 2
    """
    judge = partial(
        _game_line,
        time_limit=time_limit,
        max_nodes=max_nodes,
        table_size=table_size,
    )
    run_deal_batch(
        file,
        partial(_batch_position, rules=rules, players=players),
        judge,
        workers=workers,
        scheduler=scheduler,
        unit="positions",
    )
