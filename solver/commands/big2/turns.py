"""``big2 advise --history`` and ``--history-file``: the deal's turns in order from its start,
``1: 3d 4d 5d; 2: pass; 3: 6c 6d`` (a file: one turn a line, ``#`` comments), read into
:class:`~handsolver.solver.big2.table.history.Said` turns."""

from __future__ import annotations

import re
from typing import Annotated, Any

import typer

from handsolver.models.cards import InputError
from handsolver.solver.big2.table.history import Said
from handsolver.solver.commands.big2.position_options import distinct_cards
from handsolver.solver.commands.errors import quoted
from handsolver.solver.commands.options import whole_number

_PANEL = "At a real table"
HistoryOption = Annotated[
    str | None,
    typer.Option(
        "--history",
        metavar="TURNS",
        help="Every turn of the deal from its start, e.g. '2: 3d 4d 5d; 3: pass; 4: pass' "
        "(player: cards or pass); the counts, the cards played and the trick follow from it, "
        "in place of --counts, --played, --beat, --by, --passed and --start.",
        rich_help_panel=_PANEL,
        show_default=False,
    ),
]
HistoryFileOption = Annotated[
    str | None,
    typer.Option(
        "--history-file",
        metavar="FILE",
        help="The turns of --history from a file, one turn a line ('-': standard input).",
        rich_help_panel=_PANEL,
        show_default=False,
    ),
]
_TURN = re.compile(r"\s*([^:]*?)\s*:(.*)")


def read_turns(text: str, *, by_line: bool = False) -> list[Said]:
    """The turns ``text`` gives, ``player: cards`` or ``player: pass`` each, separated by
    ``;`` (or one a line, ``by_line``, where ``#`` starts a comment).

    >>> read_turns("1: 3d 4d 5d; 2: pass")
    [Said(player=1, cards=(5, 9, 13)), Said(player=2, cards=())]
    >>> read_turns("1 3d")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: --history turn 1: '1 3d' is not 'player: cards' or \
'player: pass'

    :raises InputError: naming the turn (its line, in a file).
    """
    parts = text.split("\n") if by_line else text.split(";")
    turns = []
    for number, part in enumerate(parts, start=1):
        if by_line:
            part = part.split("#", 1)[0]
        if not part.strip():
            continue
        where = f"--history-file line {number}" if by_line else f"--history turn {len(turns) + 1}"
        turns.append(_turn(part, where))
    return turns


def _turn(part: str, where: str) -> Said:
    match = _TURN.fullmatch(part)
    if match is None:
        shown = quoted(part.strip())
        raise InputError(f"{where}: {shown} is not 'player: cards' or 'player: pass'")
    player = whole_number(match.group(1), f"{where}: the player", 1, 4)
    said = match.group(2).strip()
    if said.lower() == "pass":
        return Said(player, ())
    if not said:
        raise InputError(f"{where}: give the cards player {player} played, or 'pass'")
    return Said(player, distinct_cards(said, f"{where}:"))


def history_turns(history: str | None, history_file: str | None, given: dict[str, Any]) -> Any:
    """The turns of ``--history`` or ``--history-file`` (None when neither is given), refusing
    the options the turns say already (``given``: option name -> value, None or False when
    not given)."""
    if history is None and history_file is None:
        return None
    if history is not None and history_file is not None:
        raise InputError("give --history or --history-file, not both")
    said = next((name for name, value in given.items() if value not in (None, False)), None)
    if said is not None:
        raise InputError(f"{said} follows from the deal's turns; give it or --history, not both")
    if history_file is not None:
        from handsolver.solver.commands.inputs import read_text

        return read_turns(read_text(history_file), by_line=True)
    assert history is not None
    return read_turns(history)
