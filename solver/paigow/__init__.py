"""Pai Gow poker, exactly: the house way for many hands at once, and the value of every setting
against the house way over all C(46,7) dealer hands.

One module an idea: :mod:`.keys` (settings keyed and chosen in numpy), :mod:`.rank_tables` (the
tables built once per house way and rules), :mod:`.cache` (those tables on disk),
:mod:`.house_ways` (the house way for many hands), :mod:`.values` (the exact count),
:mod:`.studies` (Monte Carlo and house-way studies), and the whole game: :mod:`.game` (the
algorithm), :mod:`.hand_types` (decks, hand types, 7-card frequencies), :mod:`.game_tables`,
:mod:`.suits`, :mod:`.flush_bins` and :mod:`.game_run` (chunks, workers, checkpoints).

**The house way in numpy.**  A hand's plan (:func:`~handsolver.models.paigow_houseway.plan_of`)
depends only on its rank counts, so it is computed once per rank class: 67,600 classes of seven
cards (49,205 without the joker, 18,395 with it).  The 21 settings of every hand are then keyed
column by column (the project's batch poker keys for the high hand, a table of the 1,820
four-card rank classes for a high hand holding the joker) and the plan picks one: the strongest
high hand with the planned low hand, or the straight/flush with the highest low hand.

**The exact count.**  The dealer's result is a pair of keys (high H, low L).  Their 2-D histogram
over all dealer hands is built by class, never hand by hand:

- a dealer hand that cannot make a flush (no five cards of a suit, or four and the joker) is set
  by its ranks alone, so each rank class contributes ``prod_r C(left_r, count_r)`` hands (times
  the joker if it is left) at the class's (H, L);
- a hand that can make a flush has one flush suit (5 + 5 > 7 cards); it is set by its *flush
  class*: the ranks held in the flush suit, the ranks of the other cards and the joker (224,653
  classes).  For each suit, the hands of a flush class are counted the same way and moved from
  the rank class's cell to the flush class's cell.

A player setting (h, l) then wins against ``#{H < h, L < l}`` dealer hands and loses to
``#{H >= h, L >= l}`` (copies go to the dealer), both read from a 2-D cumulative sum.

>>> from handsolver.models.paigow import parse_hand
>>> values = setting_values(parse_hand("As Ah Kd Qc 9s 5h 2d").cards)
>>> values.dealer_hands, len(values.settings)  # three settings are fouls
(53524680, 18)
>>> all(s.win + s.push + s.loss == 53524680 for s in values.settings)
True
"""

from __future__ import annotations

from handsolver.solver.paigow.house_ways import (
    Dealt,
    house_way_arrays,
    house_way_batch,
    house_way_mask,
)
from handsolver.solver.paigow.keys import (
    HIGH_POSITIONS,
    LOW_POSITIONS,
    Tables,
    choose,
    high_keys,
    low_keys,
    rank_codes,
)
from handsolver.solver.paigow.rank_tables import tables
from handsolver.solver.paigow.studies import (
    Sampled,
    StudyJob,
    StudyRow,
    StudySummary,
    random_hands,
    sampled_value,
    study,
    study_hand,
    summarize,
)
from handsolver.solver.paigow.values import (
    HandValues,
    SettingValue,
    dealer_histogram,
    point_histogram,
    setting_values,
    values_against,
    values_vs_dealer,
    values_vs_setting,
)

__all__ = [
    "choose",
    "dealer_histogram",
    "Dealt",
    "HandValues",
    "high_keys",
    "HIGH_POSITIONS",
    "house_way_arrays",
    "house_way_batch",
    "house_way_mask",
    "low_keys",
    "LOW_POSITIONS",
    "point_histogram",
    "random_hands",
    "rank_codes",
    "Sampled",
    "sampled_value",
    "setting_values",
    "SettingValue",
    "study",
    "study_hand",
    "StudyJob",
    "StudyRow",
    "StudySummary",
    "summarize",
    "Tables",
    "tables",
    "values_against",
    "values_vs_dealer",
    "values_vs_setting",
]
