"""The order that breaks ties between moves of equal share at a Big 2 table: fewer plays left in
the hand after the move, then a play before a pass, more cards before fewer, and the lower play
before the higher (the high cards kept), then as
:meth:`~handsolver.solver.big2.table.views.TableView.legal_moves` lists them.
"""

from __future__ import annotations

from functools import lru_cache

from handsolver.models.big2 import Rules
from handsolver.models.big2_order import play_strength
from handsolver.models.cards import CardSet
from handsolver.solver.big2.table.views import Move, TableView

__all__ = ["fewest_count", "first_moves", "plays_left", "tie_key", "tie_order"]


def first_moves(view: TableView, moves: list[Move], count: int) -> set[int]:
    """The indices of the first ``count`` moves in the order that breaks ties of share."""
    return set(tie_order(moves, plays_left(view, moves), view.rules)[:count])


def plays_left(view: TableView, moves: list[Move]) -> list[int]:
    """The fewest plays left in the hand after each move."""
    hand, rules = view.hand, view.rules
    return [fewest_count(hand ^ (0 if move is None else move.mask), rules) for move in moves]


def tie_order(moves: list[Move], left: list[int], rules: Rules) -> list[int]:
    """The indices of the moves in the order that breaks ties of share (then as listed), given
    the fewest plays ``left`` after each."""
    return sorted(range(len(moves)), key=lambda i: (*tie_key(moves[i], left[i], rules), i))


def tie_key(move: Move, plays_left: int, rules: Rules) -> tuple[int, int, int]:
    """Among equal shares: fewer plays left, then a play before a pass, more cards, and the
    lower play (the high cards kept)."""
    if move is None:
        return plays_left, 1, 0
    return plays_left, -move.kind.size, play_strength(move, rules)


@lru_cache(maxsize=1 << 16)
def fewest_count(hand: CardSet, rules: Rules) -> int:
    """The fewest plays that empty ``hand`` (cached: hands recur from move to move and deal to
    deal)."""
    from handsolver.solver.big2.fewest import fewest_plays

    return fewest_plays(hand, rules=rules).count
