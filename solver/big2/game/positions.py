"""Big 2 with every hand face up: can a player force going out first, and with which play?

A :class:`Position` is two to four hands, the player to move, the play to beat and who made it
(or a free lead) and, where passes are final, who has passed in this trick; or the start of a
deal, where the holder of the lowest card leads and must play it.  Players are numbered from 0
here (from 1 in the commands).  Play goes round in the order of the hands; a new trick begins
when every other player has passed since the last play, and the player who made it leads.  The
deal ends when a player empties the hand.

:func:`solve_position` answers, for each player, whether that player can force going out first
against all the others playing together as one side (with two players that is the zero-sum
game itself); the verdict of every legal move of the player to move; and a line to the end in
which the player who can force it goes out as fast as possible while the others hold out as
long as they can.

>>> from handsolver.models.cards import STANDARD, mask_of, parse_cards
>>> hands = tuple(mask_of(parse_cards(text)) for text in ("3d 5c 5h Kd 2s", "4c 9s 9h Ac"))
>>> result = solve_position(Position(hands))
>>> result.forced_win
(True, False)
>>> [(move.play.format(STANDARD), move.forced_win) for move in result.moves if move.play]
[('5c 5h', False), ('3d', True), ('5c', False), ('5h', False), ('Kd', False), ('2s', False)]
>>> [(step.player, step.play and step.play.format(STANDARD)) for step in result.line]
[(0, '3d'), (1, '4c'), (0, 'Kd'), (1, 'Ac'), (0, '2s'), (1, None), (0, '5c 5h')]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from handsolver.models.big2 import SEED_RULES, IllegalPlayError, Play, Rules, play_kind
from handsolver.models.big2_order import lowest_card, may_open, play_strength
from handsolver.models.cards import CardSet, InputError, card_name, cards_of
from handsolver.solver.big2.game.kernel_layout import MOST_CARDS
from handsolver.solver.big2.game.plays import PlayTuple
from handsolver.solver.big2.game.search import DEFAULT_TABLE_SIZE, GameSearch, OutOfBudget, play_of
from handsolver.solver.big2.game.state import DealState, Outcome

__all__ = [
    "DEFAULT_TABLE_SIZE",
    "GameResult",
    "LineStep",
    "MoveVerdict",
    "Kernel",
    "Position",
    "check_position",
    "solve_position",
]

#: Which search :func:`solve_position` runs.
Kernel = Literal["auto", "compiled", "python"]
#: The most cards in all the hands for which ``kernel="auto"`` runs the Python search (where
#: loading numba would take longer than the search; not the compiled search's limit a hand).
AUTO_CARDS = 20


@dataclass(frozen=True)
class Position:
    """Hands as card masks, in turn order; ``beat`` and ``by`` (both or neither) the play to
    beat and the player who made it; ``passed`` the players who passed in this trick (where
    passes are final); ``start`` for the first play of a deal."""

    hands: tuple[CardSet, ...]
    to_move: int = 0
    beat: Play | None = None
    by: int | None = None
    passed: frozenset[int] = field(default_factory=frozenset)
    start: bool = False


@dataclass(frozen=True)
class MoveVerdict:
    """A legal move of the player to move (``play`` None for a pass), and whether that player
    can still force going out first after it (None: unknown within the budget)."""

    play: Play | None
    forced_win: bool | None


@dataclass(frozen=True)
class LineStep:
    """One turn of the line: the player and the play (None for a pass)."""

    player: int
    play: Play | None


@dataclass(frozen=True)
class GameResult:
    """The answer for one position.

    ``forced_win[p]``: whether player ``p`` can force going out first against the others
    together (None: unknown within the budget).  ``line``: the game to its end when a player can
    force it (empty otherwise); ``line_fastest`` says whether it was proven to be the fastest
    win against the longest defence, or only a winning line (the budget ran out first).
    """

    position: Position
    rules: Rules
    forced_win: tuple[bool | None, ...]
    moves: tuple[MoveVerdict, ...]
    line: tuple[LineStep, ...]
    line_fastest: bool
    nodes: int
    seconds: float

    @property
    def winner(self) -> int | None:
        """The player who can force going out first, if one can."""
        return next((p for p, won in enumerate(self.forced_win) if won), None)


def _name(player: int) -> str:
    return f"player {player + 1}"


def check_position(position: Position, rules: Rules = SEED_RULES) -> Position:
    """The position with every player who must have passed marked so (where passes are final,
    everyone whose turn came after the play to beat), after checking it.

    :raises InputError: naming what is wrong: too few or many hands, an empty hand (the deal is
        over), a card twice, a player out of range, a play to beat that is not a play or is
        given without who made it, a pass where passes are not final.
    """
    hands, players = position.hands, len(position.hands)
    if not 2 <= players <= 4:
        raise InputError(f"give 2, 3 or 4 hands, not {players}")
    for player, hand in enumerate(hands):
        if not hand:
            raise InputError(f"{_name(player)} has no cards: the deal is already over")
    seen: dict[int, str] = {}
    owners = [(hand, _name(p)) for p, hand in enumerate(hands)]
    if position.beat is not None:
        owners.append((position.beat.mask, "the play to beat"))
    for mask, owner in owners:
        for card in cards_of(mask):
            if card in seen:
                raise InputError(f"card {card_name(card)} is in {seen[card]} and {owner}")
            seen[card] = owner
    checked: tuple[tuple[str, str, int | None], ...] = (
        ("to move", "to_move", position.to_move),
        ("the maker of the play to beat,", "by", position.by),
    )
    for label, about, number in checked:
        if number is not None and not 0 <= number < players:
            raise InputError(
                f"{label} {number + 1} is not a player: players are 1 to {players}", about=about
            )
    if (position.beat is None) != (position.by is None):
        raise InputError("give the play to beat and the player who made it together")
    if position.beat is not None:
        try:
            kind = play_kind(position.beat.mask, rules)
        except IllegalPlayError as error:
            raise InputError(str(error)) from None
        if kind is not position.beat.kind:
            raise InputError(
                f"the play to beat is a {kind.label}, not a {position.beat.kind.label}"
            )
        if position.by == position.to_move:
            raise InputError(
                f"player {position.to_move + 1} made the play to beat and is to move: a free "
                "lead has no play to beat",
                about="by",
            )
    if position.start:
        if position.beat is not None:
            raise InputError("the start of a deal has no play to beat")
        low = lowest_card(sum(hands), rules)
        holder = next(p for p, hand in enumerate(hands) if hand >> low & 1)
        if holder != position.to_move:
            raise InputError(
                f"{_name(holder)} holds {card_name(low)}, the lowest card, and so leads the deal"
            )
    passed = set(position.passed)
    if passed and not rules.pass_final:
        raise InputError(
            "a player has passed out of the trick, but under these rules a pass is not final "
            "(the pass-final rule)",
            about="passed",
        )
    for player in sorted(passed):
        if not 0 <= player < players:
            raise InputError(
                f"passed: {player + 1} is not a player: players are 1 to {players}",
                about="passed",
            )
        if player in (position.to_move, position.by):
            raise InputError(
                f"{_name(player)} cannot have passed: it is to move or made the play to beat",
                about="passed",
            )
    if position.beat is not None and rules.pass_final:
        assert position.by is not None
        turn = (position.by + 1) % players
        while turn != position.to_move:
            passed.add(turn)
            turn = (turn + 1) % players
    if position.beat is None and passed:
        raise InputError(
            "a player has passed, but there is no play to beat: a new trick starts with no passes",
            about="passed",
        )
    return Position(
        hands, position.to_move, position.beat, position.by, frozenset(passed), position.start
    )


def root_state(position: Position, rules: Rules) -> DealState:
    """The search's state for a checked position."""
    passed = sum(1 << player for player in position.passed)
    if position.beat is None:
        return DealState(position.hands, position.to_move, 0, 0, -1, 0)
    assert position.by is not None
    beat = position.beat
    return DealState(
        position.hands,
        position.to_move,
        beat.kind.size,
        play_strength(beat, rules),
        position.by,
        passed,
    )


def _search_class(hands: tuple[CardSet, ...], kernel: Kernel) -> type[GameSearch]:
    """The search the ``kernel`` argument of :func:`solve_position` asks for."""
    if kernel not in ("auto", "compiled", "python"):
        raise ValueError(f"kernel must be auto, compiled or python, not {kernel!r}")
    # Loading numba takes about a second, more than the Python search needs for small deals.
    if kernel == "python" or kernel == "auto" and sum(map(int.bit_count, hands)) <= AUTO_CARDS:
        return GameSearch
    try:
        # numba loads only here, so that no other command waits for it.
        from handsolver.solver.big2.game.compiled import CompiledSearch, fits
    except ImportError:
        if kernel == "compiled":
            raise
        return GameSearch
    if fits(hands):
        return CompiledSearch
    if kernel == "compiled":
        raise InputError(f"the compiled search takes hands of at most {MOST_CARDS} cards")
    return GameSearch


def _any(values: list[bool | None]) -> bool | None:
    if True in values:
        return True
    return None if None in values else False


def _not(value: bool | None) -> bool | None:
    return None if value is None else not value


def solve_position(
    position: Position,
    rules: Rules = SEED_RULES,
    *,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    table_size: int = DEFAULT_TABLE_SIZE,
    progress: Callable[[int], None] | None = None,
    kernel: Kernel = "auto",
) -> GameResult:
    """Every player's forced win, every move's verdict and a winning line (see the module).

    ``time_limit`` bounds the whole call; ``max_nodes`` the verdicts, and again the line; what is
    not proven within them is None.  ``table_size`` caps each transposition table's entries
    (a few hundred bytes each in Python, 20 compiled).  ``progress`` is called with the nodes
    searched so far, now and then.  ``kernel`` chooses the search: ``"compiled"`` (numba),
    ``"python"``, or ``"auto"``: compiled where numba loads, the hands hold more than
    :data:`AUTO_CARDS` cards in all and none more than :data:`~.kernel_layout.MOST_CARDS`
    (20).  Both search the same positions in the same order and give the same answers; the
    compiled one is many times faster once numba has loaded.

    :raises InputError: for a position :func:`check_position` rejects.
    """
    began = time.perf_counter()
    position = check_position(position, rules)
    deadline = None if time_limit is None else began + time_limit
    search = _search_class(position.hands, kernel)(
        position.hands,
        rules,
        max_nodes=max_nodes,
        deadline=deadline,
        table_size=table_size,
        progress=progress,
    )
    root = root_state(position, rules)
    mover, players = position.to_move, len(position.hands)
    must_hold = 1 << lowest_card(sum(position.hands), rules) if position.start else 0
    moves = [move for move in search.moves(root) if may_open(move[0], must_hold, rules)]
    # Listed for the reader, not in search order: larger plays first, the lowest of each size
    # first, a pass last.
    moves.sort(key=lambda move: (not move[0], -move[1], move[2]))
    children = [search.after(root, move) for move in moves]

    def value(child: Outcome, target: int) -> bool | None:
        if isinstance(child, int):
            return child == target
        try:
            return search.wins(child, target)
        except OutOfBudget:
            return None

    verdicts = [value(child, mover) for child in children]

    def after_every_move(target: int) -> bool | None:
        # The first move after which the target cannot force it settles the answer.
        found: bool | None = True
        for child in children:
            won = value(child, target)
            if won is False:
                return False
            if won is None:
                found = None
        return found

    forced: list[bool | None] = []
    for target in range(players):
        if target == mover:
            forced.append(_any(verdicts))
        elif players == 2:
            forced.append(_not(_any(verdicts)))
        elif _any(verdicts) is True or True in forced:
            # Two players cannot both force going out first.
            forced.append(False)
        else:
            forced.append(after_every_move(target))
    move_results = tuple(
        MoveVerdict(play_of(search, mover, move[0]) if move[0] else None, verdict)
        for move, verdict in zip(moves, verdicts, strict=True)
    )
    winner = next((p for p, won in enumerate(forced) if won), None)
    line: tuple[LineStep, ...] = ()
    fastest = False
    if winner is not None:
        line, fastest = _line(search, moves, children, mover, winner, max_nodes, deadline)
    return GameResult(
        position,
        rules,
        tuple(forced),
        move_results,
        line,
        fastest,
        search.nodes,
        time.perf_counter() - began,
    )


def _line(
    search: GameSearch,
    moves: list[PlayTuple],
    children: list[Outcome],
    mover: int,
    winner: int,
    max_nodes: int | None,
    deadline: float | None,
) -> tuple[tuple[LineStep, ...], bool]:
    """The fastest forced win against the longest defence, or, when the budget runs out
    first, a winning line that is not proven the fastest."""
    for line, fastest in ((_fastest_line, True), (_winning_line, False)):
        # Each try has the whole node budget again, and the time left.
        search.max_nodes = None if max_nodes is None else search.nodes + max_nodes
        search.deadline = deadline
        try:
            return line(search, moves, children, mover, winner), fastest
        except OutOfBudget:
            pass
    return (), False


def _steps(
    search: GameSearch,
    moves: list[PlayTuple],
    children: list[Outcome],
    mover: int,
    first: int,
    good: Callable[[int, Outcome, int], bool],
) -> tuple[LineStep, ...]:
    """The line that starts with the root's move ``first`` and then, at each turn, takes the
    mover's first move (in search order) whose result ``good(player, child, turn)`` accepts,
    the turns counted from 1 after the root's."""

    def step(player: int, move: PlayTuple) -> LineStep:
        return LineStep(player, play_of(search, player, move[0]) if move[0] else None)

    steps = [step(mover, moves[first])]
    state, turn = children[first], 1
    while not isinstance(state, int):
        player = state.to_move
        for move in search.moves(state):
            child = search.after(state, move)
            if good(player, child, turn):
                break
        steps.append(step(player, move))
        state, turn = child, turn + 1
    return tuple(steps)


def _within(search: GameSearch, child: Outcome, winner: int, plies: int) -> bool:
    if isinstance(child, int):
        return child == winner
    return search.wins_within(child, winner, plies)


def _fastest_line(
    search: GameSearch,
    moves: list[PlayTuple],
    children: list[Outcome],
    mover: int,
    winner: int,
) -> tuple[LineStep, ...]:
    # The fewest turns the winner needs from the root, found by deepening: the root's own
    # moves (the start of a deal restricts them) are the first turn.
    states = [child for child in children if not isinstance(child, int)]
    plies = 1 + min((search.least_plies(child, winner) for child in states), default=0)
    while True:
        fits = [_within(search, child, winner, plies - 1) for child in children]
        if any(fits) if mover == winner else all(fits):
            break
        plies += 1
    if mover == winner:
        first = fits.index(True)
    else:
        first = next(
            i for i, child in enumerate(children) if not _within(search, child, winner, plies - 2)
        )

    def good(player: int, child: Outcome, turn: int) -> bool:
        # The winner keeps to a win in the turns left; the others to a move that delays it.
        left = plies - 1 - turn
        if player == winner:
            return _within(search, child, winner, left)
        return not isinstance(child, int) and not search.wins_within(child, winner, left - 1)

    return _steps(search, moves, children, mover, first, good)


def _winning_line(
    search: GameSearch,
    moves: list[PlayTuple],
    children: list[Outcome],
    mover: int,
    winner: int,
) -> tuple[LineStep, ...]:
    """A line in which the winner keeps to proven winning moves and the others take their
    first legal move."""

    def good(player: int, child: Outcome, turn: int) -> bool:
        if player != winner:
            return True
        return child == winner if isinstance(child, int) else search.wins(child, winner)

    first = next(i for i, child in enumerate(children) if mover != winner or good(mover, child, 0))
    return _steps(search, moves, children, mover, first, good)
