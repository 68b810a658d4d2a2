"""Chinese poker: every setting of 13 cards scored exactly against known or sampled opponents.

One module an idea: :mod:`.indexing` (settings as indices into tables every hand shares, and
their keys), :mod:`.scoring` (all 72,072 settings scored at once), :mod:`.strategies` (the
opponents' strategies and sampled deals), :mod:`.cpsat` (the CP-SAT setting model) and
:mod:`.studies` (the best-response study over many hands).
"""

from __future__ import annotations

from handsolver.solver.chinese.cpsat import (
    SettingModel,
    SolvedSetting,
    build_setting_model,
    solve_setting_model,
)
from handsolver.solver.chinese.indexing import (
    MIDDLES_PER_BACK,
    NUM_FIVES,
    Keys,
    Layout,
    check_hand,
    front_keys,
    hand_keys,
    layout,
    legal_mask,
    setting_cards,
    setting_index,
    setting_of_text,
)
from handsolver.solver.chinese.scoring import (
    FOULED,
    RankedSetting,
    Ranking,
    Scenarios,
    Scores,
    chosen_scenarios,
    known_scenarios,
    rank_settings,
    score_settings,
)
from handsolver.solver.chinese.strategies import (
    DEFAULT_BR_SAMPLES,
    MAX_NESTING,
    BestResponse,
    Context,
    Greedy,
    Program,
    SampledScenarios,
    Strategy,
    deal_opponents,
    greedy_choice,
    sampled_scenarios,
    strategy_from_spec,
)
from handsolver.solver.chinese.studies import (
    HandGain,
    StudyJob,
    StudyResult,
    study_hand,
    study_jobs,
    summarize,
)

__all__ = [
    "BestResponse",
    "build_setting_model",
    "check_hand",
    "chosen_scenarios",
    "Context",
    "deal_opponents",
    "DEFAULT_BR_SAMPLES",
    "FOULED",
    "front_keys",
    "Greedy",
    "greedy_choice",
    "hand_keys",
    "HandGain",
    "Keys",
    "known_scenarios",
    "Layout",
    "layout",
    "legal_mask",
    "MAX_NESTING",
    "MIDDLES_PER_BACK",
    "NUM_FIVES",
    "Program",
    "rank_settings",
    "RankedSetting",
    "Ranking",
    "sampled_scenarios",
    "SampledScenarios",
    "Scenarios",
    "score_settings",
    "Scores",
    "setting_cards",
    "setting_index",
    "setting_of_text",
    "SettingModel",
    "solve_setting_model",
    "SolvedSetting",
    "Strategy",
    "strategy_from_spec",
    "study_hand",
    "study_jobs",
    "StudyJob",
    "StudyResult",
    "summarize",
]
