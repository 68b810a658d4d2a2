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
from handsolver.models.cards import InputError, Notation, parse_cards, parse_deal
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
)
from handsolver.solver.commands.big2.rules import takes_rules
from handsolver.solver.commands.deal_batch import run_deal_batch
from handsolver.solver.commands.errors import Interrupted, option_named, user_errors
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
        "Stop each search after this long (0 to 86,400 s); what is not proven by then is unknown."
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


def _player(value: object, players: int, label: str) -> int:
    """A player number from 1 as an index from 0."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise InputError(f"{label} {value!r} is not a player number")
    text = str(value).strip()
    if not text.isdigit() or not 1 <= int(text) <= players:
        raise InputError(f"{label} {text!r} is not a player: players are 1 to {players}")
    return int(text) - 1


def parse_position(
    hands: list[str] | str,
    rules: Rules,
    *,
    to_move: object = None,
    beat: str | None = None,
    by: object = None,
    passed: object = None,
    start: bool = False,
) -> tuple[Position, Notation]:
    """The position the command line (or a batch line) describes, checked, and the notation
    its cards were written in.

    :raises InputError: naming the bad token.
    """
    deal = parse_deal(hands if isinstance(hands, str) else " | ".join(hands))
    count = len(deal.hands)
    if not 2 <= count <= 4:
        raise InputError(f"give 2, 3 or 4 hands, not {count}")
    masks = tuple(sum(1 << card for card in hand) for hand in deal.hands)
    play = None
    if beat is not None:
        try:
            play = Play.from_cards(parse_cards(beat), rules)
        except IllegalPlayError as error:
            raise InputError(f"--beat {beat!r}: {error}") from None
        if by is None:
            raise InputError("--beat needs --by, the player who made the play")
    elif by is not None:
        raise InputError("--by needs --beat, the play to beat")
    made_by = None if by is None else _player(by, count, "--by")
    if passed is None or passed == "":
        passers: list[object] = []
    elif isinstance(passed, str):
        passers = list(passed.split(","))
    elif isinstance(passed, list):
        passers = passed
    else:
        raise InputError(f"--passed {passed!r} is not a list of players")
    passed_set = frozenset(_player(p, count, "--passed") for p in passers)
    if passed_set and not rules.pass_final:
        raise InputError("--passed needs rules where a pass is final (--pass-final)")
    mover = 0 if to_move is None else _player(to_move, count, "--to-move")
    if start and to_move is None:
        from handsolver.models.big2_order import lowest_card

        low = lowest_card(sum(masks), rules)
        mover = next(p for p, hand in enumerate(masks) if hand >> low & 1)
    position = Position(masks, mover, play, made_by, passed_set, start)
    with option_named(POSITION_OPTIONS):
        check_position(position, rules)
    return position, deal.notation


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


@takes_rules()
def game(
    hands: Annotated[
        list[str],
        typer.Argument(
            metavar="HAND HAND [HAND HAND]",
            help="Two to four hands, one an argument, e.g. '3d 4c 2s' '5h 5s 9c'.",
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
) -> None:
    """Whether each player can force going out first, every move's verdict and a winning line.

    With three or four players each player is asked against all the others playing together.

    Example: handsolver big2 game '3d 3c 2s' '4d 5d 6d'
    """
    with user_errors():
        position, notation = parse_position(
            hands, rules, to_move=to_move, beat=beat, by=by, passed=passed, start=start
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
    """Solve, with a counter of positions on a terminal's stderr; Ctrl-C stops cleanly."""
    from handsolver.solver.commands.progress import counter

    try:
        with counter("searching", "positions") as tick:
            return solve_position(
                position,
                rules,
                max_nodes=max_nodes,
                time_limit=time_limit,
                table_size=table_size,
                progress=tick,
            )
    except KeyboardInterrupt:
        raise Interrupted("interrupted: no answer") from None


def _game_line(
    job: tuple[int, str, tuple[Position, Notation]],
    *,
    rules: Rules,
    time_limit: float,
    max_nodes: int | None,
    table_size: int,
) -> str:
    """One batch line's answer as JSON (top level, so that workers can run it)."""
    number, _, (position, notation) = job
    result = solve_position(
        position, rules, max_nodes=max_nodes, time_limit=time_limit, table_size=table_size
    )
    # "line" is the winning line here, so the input line is "input_line".
    return json.dumps({"input_line": number, **result_json(result, notation)})


def _batch_position(text: str, rules: Rules) -> tuple[Position, Notation]:
    """A batch line: hands alone, or a JSON object like ``--json``'s ``position``."""
    if not text.startswith("{"):
        return parse_position(text, rules)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"not a JSON object: {error.msg} at column {error.colno}") from None
    if not isinstance(data, dict):
        raise InputError("not a JSON object")
    unknown = sorted(set(data) - {"hands", "to_move", "beat", "by", "passed", "start"})
    if unknown:
        raise InputError(f"unknown key {unknown[0]!r}")
    hands = data.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, str | list) for h in hands):
        raise InputError("'hands' must be a list of hands")
    texts = [h if isinstance(h, str) else " ".join(map(str, h)) for h in hands]
    beat = data.get("beat")
    if isinstance(beat, list):
        beat = " ".join(map(str, beat)) or None
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
    )


@takes_rules()
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
) -> None:
    """Solve many positions: one JSON object a line, in input order.

    Example: handsolver big2 game-batch positions.txt --workers 2
    """
    judge = partial(
        _game_line,
        rules=rules,
        time_limit=time_limit,
        max_nodes=max_nodes,
        table_size=table_size,
    )
    run_deal_batch(
        file,
        partial(_batch_position, rules=rules),
        judge,
        workers=workers,
        scheduler=scheduler,
        unit="positions",
    )
