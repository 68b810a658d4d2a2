"""Whether one seat can go out first when every other seat plays a known policy.

With the other seats' policies fixed (in the advisor, the ``greedy`` program's), their moves
follow from the position, and the game is a puzzle for one seat alone: a search of that seat's
own moves, each followed by the others' replies played out to its next turn
(:func:`~.playout.play_until`).  It is far smaller than the game against every reply
(:mod:`handsolver.solver.big2.game.search`), and it answers a different question: whether
some line of the seat's own wins against these opponents, where a playout tries one line
only.

The seat's moves are tried in turn: those its ``first`` policies would choose, then every other
legal move (plays that beat, lowest first, the pass last; on a lead, the plays of the most cards
first).  Positions proven lost are kept in ``refuted``, which callers may share between searches
of the same hands (the advisor does, across the moves of one deal).

>>> from handsolver.models.big2 import SEED_RULES
>>> from handsolver.models.cards import mask_of, parse_cards
>>> from handsolver.solver.big2.game.state import DealState
>>> from handsolver.solver.big2.table.playout import greedy_choice, hand_plays, play_out
>>> hands = tuple(mask_of(parse_cards(text)) for text in ("3c 9h Qc", "3d 7h Ah"))
>>> plays = [hand_plays(hand, SEED_RULES) for hand in hands]
>>> policies = [greedy_choice, greedy_choice]
>>> state = DealState(hands, 0, 0, 0, -1, 0)
>>> play_out(plays, state, SEED_RULES, policies)  # 3c, 7h, 9h, Ah, pass, 3d: seat 1 is out
1
>>> winning_line(plays, state, 0, SEED_RULES, policies, (greedy_choice,), 100, set())
True

(the queen led first draws the ace: seat 1 leads 3d, 9h holds the trick over 7h, and 3c goes
out).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from handsolver.models.big2_rules import Rules
from handsolver.solver.big2.game.plays import HandPlays
from handsolver.solver.big2.game.state import DealState, Outcome, PlayOrPass
from handsolver.solver.big2.table.playout import Policy, play_out, play_until

__all__ = ["DealPlays", "deal_won", "winning_line"]


class _OutOfNodes(Exception):
    """The node budget ran out."""


def winning_line(
    plays: Sequence[HandPlays],
    state: DealState,
    seat: int,
    rules: Rules,
    policies: Sequence[Policy],
    first: Sequence[Policy],
    max_nodes: int,
    refuted: set[DealState],
) -> bool | None:
    """Whether ``seat`` can go out first from ``state`` when every other seat plays its policy
    of ``policies``: True or False, or None when ``max_nodes`` of the seat's turns were searched
    without an answer.  ``first``: the policies whose moves the seat tries before the others;
    ``refuted``: positions known lost, added to as the search proves more (see the module)."""
    nodes = 0

    def wins(outcome: Outcome) -> bool:
        nonlocal nodes
        if isinstance(outcome, int):
            return outcome == seat
        if outcome in refuted:
            return False
        nodes += 1
        if nodes > max_nodes:
            raise _OutOfNodes
        for move in _moves(plays[seat], outcome, seat, first):
            child = outcome.after(move, rules)
            if not isinstance(child, int):
                child = play_until(plays, child, rules, policies, seat)
            if wins(child):
                return True
        refuted.add(outcome)
        return False

    start = play_until(plays, state, rules, policies, seat)
    try:
        return wins(start)
    except _OutOfNodes:
        return None


def deal_won(
    plays: Sequence[HandPlays],
    state: DealState,
    seat: int,
    rules: Rules,
    policies: list[Policy],
    first: Sequence[Policy],
    line_nodes: int,
    refuted: set[DealState],
) -> bool:
    """Whether ``seat`` goes out first from ``state``, every other seat playing its policy of
    ``policies``: played out by each of the ``first`` policies in turn (a win in either
    counts), else, with ``line_nodes`` set, by a line :func:`winning_line` finds within that
    budget.  ``policies[seat]`` is set for the playouts and put back after them."""
    own = policies[seat]
    try:
        for policy in first:
            policies[seat] = policy
            if play_out(plays, state, rules, policies) == seat:
                return True
    finally:
        policies[seat] = own
    if not line_nodes:
        return False
    return bool(winning_line(plays, state, seat, rules, policies, first, line_nodes, refuted))


def _moves(
    mine: HandPlays, state: DealState, seat: int, first: Sequence[Policy]
) -> Iterator[PlayOrPass]:
    """The seat's legal moves, those of the ``first`` policies first (see the module)."""
    hands, _, size, strength, _, _ = state
    hand = hands[seat]
    danger = min(count.bit_count() for other, count in enumerate(hands) if other != seat)
    tried: list[PlayOrPass] = []
    for policy in first:
        move = policy(mine, hand, size, strength, danger, 0)
        if move not in tried:
            tried.append(move)
            yield move
    rest = state.legal_moves(mine)
    yield from (move for move in rest if move not in tried)


class DealPlays:
    """A deal's plays (:class:`~handsolver.solver.big2.game.plays.HandPlays` a seat) and
    rules, and a deal scored on them: the Python path, which
    :class:`~.playout_compiled.CompiledDeal` repeats compiled."""

    def __init__(self, plays: Sequence[HandPlays], rules: Rules) -> None:
        self.plays, self.rules = plays, rules

    def deal_won(
        self,
        state: DealState,
        seat: int,
        policies: list[Policy],
        first: Sequence[Policy],
        line_nodes: int,
        refuted: set[DealState],
    ) -> bool:
        """:func:`deal_won` from ``state``."""
        return deal_won(self.plays, state, seat, self.rules, policies, first, line_nodes, refuted)
