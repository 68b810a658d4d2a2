"""The best Chinese poker setting as a CP-SAT set-partition model (a cross-check of enumeration).

Variables: one Boolean per candidate back (the hand's 1,287 fives), per candidate middle (the
same fives) and per candidate front (286 threes).  Constraints: exactly one candidate per row,
and each of the 13 cards in exactly one chosen candidate (the set partition); the order rule
on the chosen candidates' keys, back key >= middle key >= front's order key, with each row's key
an integer equal to the sum of key times candidate.  Objective: the total points over the
scenarios (each opponent in each deal).  Row points are linear in the candidates (a candidate's
coefficient is its wins less its losses over the scenarios); the scoop of rule 1-6 needs one
Boolean per scenario for winning every row (allowed only when each row's key beats the
opponent's) and one for being scooped (forced when no row holds its own); rule 2-4's extra
point needs row win / not-lost Booleans per scenario.  Royalties are linear too.

>>> from handsolver.models.cards import parse_cards
>>> from handsolver.solver.chinese.scoring import known_scenarios, rank_settings
>>> from handsolver.solver.chinese.indexing import setting_of_text
>>> hand = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d")
>>> scenarios = known_scenarios([setting_of_text("Ah Ad 3c | Kh Kd 4c 4d 8s | 8c 8d 8h Jc Jd")])
>>> solved = solve_setting_model(hand, scenarios)
>>> solved.status, solved.total == rank_settings(hand, scenarios).best.points
('OPTIMAL', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from handsolver.models.cards import Card
from handsolver.models.chinese import NUM_FRONT_KEYS, Royalties, check_scoring
from handsolver.models.poker import NUM_KEYS
from handsolver.models.split import Setting
from handsolver.solver.chinese.indexing import Keys, check_hand, hand_keys, layout
from handsolver.solver.chinese.scoring import Scenarios

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


@dataclass(frozen=True)
class SettingModel:
    """The model and the variables to read back."""

    model: cp_model.CpModel
    backs: list[cp_model.IntVar]
    middles: list[cp_model.IntVar]
    fronts: list[cp_model.IntVar]


@dataclass(frozen=True)
class SolvedSetting:
    """The model's best setting and its total points over all scenarios."""

    status: str
    setting: Setting
    total: int
    wall_time: float


def build_setting_model(
    keys: Keys, scenarios: Scenarios, scoring: str = "1-6", royalties: Royalties | None = None
) -> SettingModel:
    """The set-partition model for one hand's keys (see the module docstring)."""
    import numpy as np
    from ortools.sat.python import cp_model

    check_scoring(scoring)
    tables = layout()
    model = cp_model.CpModel()
    five, front = keys.five.tolist(), keys.front.tolist()
    order = keys.front_order.tolist()

    # Variables: candidates per row, and each row's key.
    backs = [model.new_bool_var(f"back {i}") for i in range(len(five))]
    middles = [model.new_bool_var(f"middle {i}") for i in range(len(five))]
    fronts = [model.new_bool_var(f"front {i}") for i in range(len(front))]
    back_key = model.new_int_var(0, NUM_KEYS - 1, "back key")
    middle_key = model.new_int_var(0, NUM_KEYS - 1, "middle key")
    front_key = model.new_int_var(0, NUM_FRONT_KEYS - 1, "front key")
    front_order = model.new_int_var(0, NUM_KEYS, "front order key")

    # Constraints: one candidate per row, each card once, the rows' keys, the order rule.
    for row in (backs, middles, fronts):
        model.add_exactly_one(row)
    holders: list[list[Any]] = [[] for _ in range(13)]
    for subsets, candidates in (
        (tables.fives, backs),
        (tables.fives, middles),
        (tables.threes, fronts),
    ):
        for positions, candidate in zip(subsets.tolist(), candidates, strict=True):
            for position in positions:
                holders[position].append(candidate)
    for holding in holders:
        model.add_exactly_one(holding)
    model.add(back_key == sum(k * b for k, b in zip(five, backs, strict=True)))
    model.add(middle_key == sum(k * m for k, m in zip(five, middles, strict=True)))
    model.add(front_key == sum(k * f for k, f in zip(front, fronts, strict=True)))
    model.add(front_order == sum(k * f for k, f in zip(order, fronts, strict=True)))
    model.add(back_key >= middle_key)
    model.add(middle_key >= front_order)

    # Objective: row points are linear in the candidates ...
    rows = (
        (keys.five, scenarios.back.ravel(), backs, back_key),
        (keys.five, scenarios.middle.ravel(), middles, middle_key),
        (keys.front, scenarios.front.ravel(), fronts, front_key),
    )
    terms: list[Any] = []
    for mine, theirs, candidates, _ in rows:
        signs = np.sign(mine[:, None].astype(np.int64) - theirs[None, :]).sum(axis=1)
        terms += [int(c) * v for c, v in zip(signs.tolist(), candidates, strict=True) if c]
    if royalties is not None:
        count = scenarios.back.size
        for table, candidates, row_keys in (
            (royalties.back, backs, five),
            (royalties.middle, middles, five),
            (royalties.front, fronts, front),
        ):
            terms += [count * table[k] * v for k, v in zip(row_keys, candidates, strict=True)]
    # ... and the bonus needs Booleans per scenario, tied to the rows' keys.
    for s, opponent in enumerate(zip(*(theirs.tolist() for _, theirs, _, _ in rows), strict=True)):
        wins, holds = [], []
        for (_, _, _, key), their_key in zip(rows, opponent, strict=True):
            win = model.new_bool_var(f"row won in scenario {s}")
            model.add(key >= their_key + 1).only_enforce_if(win)
            hold = model.new_bool_var(f"row not lost in scenario {s}")
            model.add(key >= their_key).only_enforce_if(hold)
            wins.append(win)
            holds.append(hold)
        if scoring == "1-6":
            scoop = model.new_bool_var(f"scoop in scenario {s}")
            model.add_implication(scoop, wins[0])
            model.add_implication(scoop, wins[1])
            model.add_implication(scoop, wins[2])
            scooped = model.new_bool_var(f"scooped in scenario {s}")
            model.add_bool_or([scooped, *holds])
            terms += [3 * scoop, -3 * scooped]
        else:
            # wins + holds - 3 is a lower bound of (rows won - rows lost) that is reached.
            more = model.new_bool_var(f"more rows won in scenario {s}")
            model.add(sum(wins) + sum(holds) >= 4).only_enforce_if(more)
            fewer = model.new_bool_var(f"fewer rows won in scenario {s}")
            model.add(sum(wins) + sum(holds) >= 3).only_enforce_if(fewer.Not())
            terms += [more, -fewer]
    constant = -int(scenarios.royalty.sum())
    model.maximize(sum(terms) + constant)
    return SettingModel(model, backs, middles, fronts)


def solve_setting_model(
    hand: Sequence[Card],
    scenarios: Scenarios,
    scoring: str = "1-6",
    royalties: Royalties | None = None,
    *,
    time_limit: float = 600.0,
    workers: int = 1,
    seed: int = 0,
) -> SolvedSetting:
    """The best setting of ``hand`` found by CP-SAT, with its total points over the scenarios.

    :raises RuntimeError: if CP-SAT finds no setting within the time limit.
    """
    import numpy as np
    from ortools.sat.python import cp_model

    cards = check_hand(hand)
    batch = hand_keys(np.array([cards]))
    keys = Keys(batch.five[0], batch.front[0], batch.front_order[0])
    built = build_setting_model(keys, scenarios, scoring, royalties)

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    status = solver.solve(built.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"CP-SAT found no setting: {solver.status_name(status)}")

    tables = layout()

    def chosen(candidates: list[Any], subsets: Any) -> tuple[Card, ...]:
        index = next(i for i, v in enumerate(candidates) if solver.boolean_value(v))
        return tuple(cards[p] for p in reversed(subsets[index].tolist()))  # highest first

    setting = (
        chosen(built.backs, tables.fives),
        chosen(built.middles, tables.fives),
        chosen(built.fronts, tables.threes),
    )
    return SolvedSetting(
        solver.status_name(status), setting, round(solver.objective_value), solver.wall_time
    )
