"""The fewest Big 2 plays that empty a hand: exact search, CP-SAT, enumeration, answer checking.

Every engine takes the rules (:class:`~handsolver.models.big2.Rules`, the seed's by default).
Once the plays of several ranks (five-card plays, dragons) are chosen, the other cards go out
by rank in singles, pairs, triples (and four of a kind alone where the rules allow it), and a
rank with ``c`` cards left needs ``rules.small_cost[c]`` of them (``ceil(c / 3)`` under the
seed's rules).  So the problem is to choose disjoint plays of several ranks minimising their
number plus that cost summed over the ranks.  Three engines solve it:

* an exact search over sets of five-card plays (fastest for small hands: a 13-card hand takes
  about a tenth of a millisecond);
* a strengthened CP-SAT model that counts interchangeable plays instead of naming them: a
  straight, full house or four of a kind + 1 only needs so many cards of each rank, and any
  five cards of one suit are a flush, so the model has one integer per straight window and
  one Boolean per full-house and four-of-a-kind rank pair, a flush flag per card, and the
  small plays per rank; the count of plays is bounded below by what play sizes 1, 2, 3 and 5
  allow (:func:`~.bounds.count_lower_bound`);
* the plain set-partition model (one Boolean per legal play, every card covered once) kept as
  the reference the strengthened model is measured against.

>>> from handsolver.models.cards import parse_cards
>>> result = fewest_plays(parse_cards("4D 4S 4H 4C 5H 5D 5C 5S 9S 9D 9H 9C AD"))
>>> result.count, result.optimal
(3, True)
>>> [play.kind.label for play in result.plays]
['four of a kind + 1', 'four of a kind + 1', 'triple']

:func:`fewest_plays` and :func:`check_answer` are what the golf verifier calls.

One module an idea: :mod:`.partition` (answer types, preferences, building a partition),
:mod:`.bounds`, :mod:`.search` (the exact search), :mod:`.set_partition` and :mod:`.count_model`
(the two CP-SAT models), :mod:`.solve` (the entry points) and :mod:`.check`.
"""

from __future__ import annotations

from handsolver.solver.big2.fewest.bounds import (
    count_lower_bound,
    plays_lower_bound,
    small_plays_needed,
)
from handsolver.solver.big2.fewest.check import check_answer, check_answer_text
from handsolver.solver.big2.fewest.count_model import build_strong_model, solve_strong_model
from handsolver.solver.big2.fewest.partition import (
    DEFAULT_TIME_LIMIT,
    EXACT_MAX_CARDS,
    Check,
    Enumeration,
    Method,
    Partition,
    Prefer,
    preference_key,
)
from handsolver.solver.big2.fewest.search import exact_search
from handsolver.solver.big2.fewest.set_partition import build_partition_model, solve_partition_model
from handsolver.solver.big2.fewest.solve import all_optimal, fewest_plays

__all__ = [
    "all_optimal",
    "DEFAULT_TIME_LIMIT",
    "build_partition_model",
    "build_strong_model",
    "Check",
    "check_answer",
    "check_answer_text",
    "count_lower_bound",
    "Enumeration",
    "EXACT_MAX_CARDS",
    "exact_search",
    "fewest_plays",
    "Method",
    "Partition",
    "plays_lower_bound",
    "Prefer",
    "preference_key",
    "small_plays_needed",
    "solve_partition_model",
    "solve_strong_model",
]
