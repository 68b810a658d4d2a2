"""The conventional program ``greedy``'s rule over a turn's legal moves (the ``greedy``
strategy of :mod:`.strategies`, and the advisor's model of a greedy opponent in
:mod:`.opponents`): on a play to beat the lowest play that beats it, else a pass; on a lead
the lowest play of the most cards."""

from __future__ import annotations

from collections.abc import Sequence

from handsolver.models.big2 import Rules
from handsolver.models.big2_order import play_strength
from handsolver.solver.big2.table.views import Move

__all__ = ["greedy_among"]


def greedy_among(
    moves: Sequence[Move], reply: bool, rules: Rules, strengths: Sequence[int] | None = None
) -> Move:
    """The greedy move among a turn's legal ``moves`` (``reply``: on a play to beat): the
    lowest play, on a lead the lowest of the most cards.  ``strengths``: each move's
    :func:`~handsolver.models.big2_order.play_strength` (any number for a pass), where known."""
    if strengths is None:
        strengths = [0 if move is None else play_strength(move, rules) for move in moves]
    ranked = [
        (0 if reply else -move.kind.size, strength, move)
        for move, strength in zip(moves, strengths, strict=True)
        if move is not None
    ]
    return min(ranked, key=lambda item: item[:2])[2] if ranked else None
