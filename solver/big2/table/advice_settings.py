"""How hard the Big 2 advisor (:func:`~.advise.advise`) works, and how it models the table:
its settings and their defaults, for the command and for a tournament seat."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "DEFAULT_ADVICE",
    "DEFAULT_LEAF",
    "DEFAULT_LINE_NODES",
    "DEFAULT_NODES",
    "DEFAULT_OPPONENTS",
    "DEFAULT_REPLY_ROUNDS",
    "DEFAULT_SAMPLES",
    "DEFAULT_SOLVE_CARDS",
    "LEAVES",
    "TABLE_ADVICE",
    "TABLE_NODES",
    "TABLE_SAMPLES",
    "TABLE_SOLVE_CARDS",
    "AdviceSettings",
]

DEFAULT_SAMPLES = 12
DEFAULT_NODES = 2_000
DEFAULT_SOLVE_CARDS = 52
DEFAULT_LINE_NODES = 30
# A seat in a tournament decides a dozen times a deal, thousands of deals: only deals of at most
# TABLE_SOLVE_CARDS cards in hand are searched, with fewer nodes.  The playouts are cheap, so
# the seat samples more deals than the command (against three greedy seats, 32 samples won
# 60.1% of 400 deals where 12 won 55.9%).
TABLE_SAMPLES = 32
TABLE_NODES = 1_000
TABLE_SOLVE_CARDS = 12
DEFAULT_OPPONENTS = "greedy"
LEAVES = ("playout", "network")
"""How a deal is scored past the opponents' replies (see :mod:`.deal_scores`)."""
DEFAULT_LEAF = "network"
DEFAULT_REPLY_ROUNDS = 3


@dataclass(frozen=True)
class AdviceSettings:
    """How hard :func:`~.advise.advise` works: deals sampled, the node budget of each deal's solve
    (None: unbounded), an optional time limit per deal's solve in seconds (which makes the
    answer depend on the machine's speed), the seed of the sampling, the most cards in hand of
    a deal that is solved, the player's turns searched per move for a line of its own (0: no
    such search), whether the opponents' turns are read as greedy's, and the passes of a tree
    of the player's own turns over the deals, which then chooses in place of scoring each deal
    (0: no tree; the solver's budgets are then unused, the line search's scores the tree's
    leaves; see :mod:`.advise`), whether the tree's leaves are scored by the compiled
    playouts and line search (the same answers as in Python, faster), the model of the
    opponents, the rounds of the replies of those it takes for the learned player, and how a
    deal with such an opponent is scored where the replies stop (``leaf``; a tree plays its
    deals out whatever it says)."""

    samples: int = DEFAULT_SAMPLES
    max_nodes: int | None = DEFAULT_NODES
    time_limit: float | None = None
    seed: int = 0
    solve_cards: int = DEFAULT_SOLVE_CARDS
    line_nodes: int = DEFAULT_LINE_NODES
    reading: bool = True
    passes: int = 0
    compiled: bool = True
    opponents: str = DEFAULT_OPPONENTS
    reply_rounds: int = DEFAULT_REPLY_ROUNDS
    leaf: str = DEFAULT_LEAF


DEFAULT_ADVICE = AdviceSettings()
TABLE_ADVICE = AdviceSettings(TABLE_SAMPLES, TABLE_NODES, None, 0, TABLE_SOLVE_CARDS)
