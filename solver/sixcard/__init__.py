"""Exact strategy research for the six-card game: best splits, best responses, the equilibrium.

One module an idea: :mod:`.game_tables` (hands, splits and results as integers), :mod:`.strategies`,
:mod:`.strategy_files` (names, ``best-response:X`` and table files), :mod:`.values` (exact
scores and best responses), :mod:`.scenarios` (single hands), :mod:`.cpsat` (the CP-SAT split
model), :mod:`.equilibrium_lp`, :mod:`.simulation` (the seed's harness) and :mod:`.matlab`.

Everything is exact.  A strategy gives every hand a distribution over its distinct splits; the
contest score of one strategy against another is the expected round result (1 win, 1/2 draw) under
the exact deal law of :mod:`~handsolver.models.sixcard`, as a :class:`~fractions.Fraction`.

The work is done on integers: :class:`Tables` numbers the 68 hands and 760 splits of the game,
holds the 760 x 760 round result (in half points) of every split against every split, and the
number of ways each pair of hands can be dealt together.  A value against a strategy is then an
integer over a common denominator, so best responses compare integers and never round.

>>> t = tables()
>>> evaluate(sorted_strategy(t), random_strategy(t)).score
Fraction(404549, 840840)
>>> evaluate(random_strategy(t), random_strategy(t)).score
Fraction(1, 2)
"""

from __future__ import annotations

from handsolver.solver.sixcard.cpsat import (
    SplitModel,
    SplitModelResult,
    build_split_model,
    solve_split_model,
)
from handsolver.solver.sixcard.equilibrium_lp import (
    Equilibrium,
    EquilibriumLP,
    build_equilibrium_lp,
    equilibrium,
    exact_on_support,
    must_mix,
    solve_equilibrium_lp,
)
from handsolver.solver.sixcard.game_tables import IntArray, Plays, Tables, tables
from handsolver.solver.sixcard.matlab import iter_hands_report, matlab_source
from handsolver.solver.sixcard.scenarios import (
    SplitScore,
    maximin_splits,
    rank_splits,
    scenarios_vs_hand,
    scenarios_vs_split,
    scenarios_vs_strategy,
)
from handsolver.solver.sixcard.simulation import Simulation, simulate, simulation_chunks
from handsolver.solver.sixcard.strategies import (
    Strategy,
    checked_strategy,
    pure_strategy,
    random_strategy,
    sorted_strategy,
)
from handsolver.solver.sixcard.strategy_files import (
    MAX_NESTING,
    MAX_TABLE_BYTES,
    read_table,
    strategy_from_spec,
    table_csv,
    table_json,
)
from handsolver.solver.sixcard.values import (
    BestResponse,
    Evaluation,
    SplitValues,
    best_response,
    evaluate,
    split_values,
)

__all__ = [
    "best_response",
    "BestResponse",
    "build_equilibrium_lp",
    "build_split_model",
    "checked_strategy",
    "Equilibrium",
    "equilibrium",
    "EquilibriumLP",
    "evaluate",
    "Evaluation",
    "exact_on_support",
    "IntArray",
    "iter_hands_report",
    "matlab_source",
    "MAX_NESTING",
    "MAX_TABLE_BYTES",
    "maximin_splits",
    "must_mix",
    "Plays",
    "pure_strategy",
    "random_strategy",
    "rank_splits",
    "read_table",
    "scenarios_vs_hand",
    "scenarios_vs_split",
    "scenarios_vs_strategy",
    "simulate",
    "Simulation",
    "simulation_chunks",
    "solve_equilibrium_lp",
    "solve_split_model",
    "sorted_strategy",
    "split_values",
    "SplitModel",
    "SplitModelResult",
    "SplitScore",
    "SplitValues",
    "Strategy",
    "strategy_from_spec",
    "table_csv",
    "table_json",
    "Tables",
    "tables",
]
