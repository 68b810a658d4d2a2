"""Big 2, in three subpackages by idea, each using only those before it:

* :mod:`.fewest`: the fewest plays that empty one hand (exact search, bounds, two CP-SAT
  models, answer checking);
* :mod:`.game`: a deal with every hand face up (the state of a deal in play, positions, the
  AND-OR search of who can force going out first, and its compiled kernel); it uses
  :mod:`.fewest` for its bounds;
* :mod:`.table`: play at a real table, where the other hands are hidden (what a seat sees,
  strategies, sampled deals, reading the turns, playouts, the line search, the tree of a
  seat's own turns, tournaments); it uses both.

The fewest plays are the front door (what the golf verifier calls):

>>> from handsolver.models.cards import parse_cards
>>> fewest_plays(parse_cards("3d 3c 4d")).count
2
"""

from __future__ import annotations

# The front door is the fewest plays' names, listed once in that package.
from handsolver.solver.big2 import fewest
from handsolver.solver.big2.fewest import *  # noqa: F403

__all__ = fewest.__all__
