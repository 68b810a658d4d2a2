"""Open-face Chinese poker (Pineapple and classic): fantasyland set exactly.

:mod:`.fantasyland` holds the branch-and-bound search for the best settings of a fantasyland
hand by an objective (royalties, the value of staying, points against known or sampled
boards); :mod:`.opponents` samples boards, :mod:`.studies` and :mod:`.study_run` value
fantasyland over random hands.
"""

from __future__ import annotations

from handsolver.solver.ofc.fantasyland import (
    FantasySetting,
    FantasySolution,
    Objective,
    check_fantasy_hand,
    check_opponents,
    setting_objective,
    solve_fantasyland,
)

__all__ = [
    "check_fantasy_hand",
    "check_opponents",
    "FantasySetting",
    "FantasySolution",
    "Objective",
    "setting_objective",
    "solve_fantasyland",
]
