"""A brute force for the tests: whether one seat has a line of its own that goes out first when
every other seat plays ``greedy``, by trying every legal move of the seat at the table
(:class:`~handsolver.solver.big2.table.views.Table`) with no table of positions and no budget."""

from __future__ import annotations

from handsolver.solver.big2.table.strategies import greedy_move
from handsolver.solver.big2.table.views import Table


def greedy_line_wins(table: Table, seat: int) -> bool:
    """Whether ``seat`` goes out first on some line of its own legal moves, every other seat
    playing ``greedy`` at the table."""
    if table.winner is not None:
        return table.winner == seat
    view = table.view()
    if table.to_move != seat:
        return greedy_line_wins(table.after(greedy_move(view)), seat)
    return any(greedy_line_wins(table.after(move), seat) for move in view.legal_moves())
