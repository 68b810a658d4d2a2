"""The readings of the Foxwoods house way measured by ``paigow_reading_delta.py``: what a reading
is, and every one tried, each with the house way it is measured from.

A reading is a house way (a field of :class:`HouseWay` changed), or a house way with a rule on
the plan of a rank class (``plan``), or on the choice among a hand's straights and flushes
(``choice``); the delta script patches such a rule into the tables it builds for that reading
only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from handsolver.models.paigow import JOKER, NUM_HIGH_KEYS, STRAIGHT_CATEGORIES
from handsolver.models.paigow_houseway import (
    ACE,
    FOXWOODS,
    KING,
    HouseWay,
    Plan,
    RankRule,
    rank_index,
)
from handsolver.models.poker import FLUSH, STRAIGHT, STRAIGHT_FLUSH
from handsolver.solver.paigow.keys import LOW_POSITIONS, Tables, class_index

PlanRule = Callable[[Sequence[int], bool, Plan], "Plan | None"]
"""A rank class's counts (the joker counted as an ace), whether it holds the joker, and the
house way's plan -> another plan, or None to keep it."""
ChoiceRule = Callable[["Tables", np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""The tables, hands, the keys of their settings and the house way's choice -> another choice."""


class Reading(NamedTuple):
    name: str
    way: HouseWay
    plan: PlanRule | None = None
    choice: ChoiceRule | None = None


def _groups(counts: Sequence[int]) -> dict[int, list[int]]:
    """Ranks held n times, highest first, for n = 1..5."""
    by: dict[int, list[int]] = {n: [] for n in range(1, 6)}
    for rank in range(12, -1, -1):
        if counts[rank]:
            by[counts[rank]].append(rank)
    return by


def _rule(
    test: Callable[[dict[int, list[int]], Sequence[int], bool, Plan], Plan | None],
) -> PlanRule:
    return lambda counts, joker, plan: test(_groups(counts), counts, joker, plan)


def _split(rank: int, pattern: str = "split") -> Plan:
    return Plan(pattern, (rank, rank), False)


def _quads_rule(way: HouseWay, quad: int) -> RankRule:
    return next(
        rule for rule in way.quads if rank_index(rule.ranks[0]) <= quad <= rank_index(rule.ranks[1])
    )


def _choice_by(
    score: Callable[[Tables, np.ndarray, np.ndarray, np.ndarray], np.ndarray],
) -> ChoiceRule:
    """Among the straights and flushes of a hand whose plan plays one, the setting with the
    greatest ``score`` (the house way's unless-lower test kept)."""

    def rule(
        t: Tables, hands: np.ndarray, high: np.ndarray, low: np.ndarray, choice: np.ndarray
    ) -> np.ndarray:
        index = t.class_of[class_index(hands)]
        straight = np.isin(t.category[high], list(STRAIGHT_CATEGORIES))
        scored = np.where(straight, score(t, hands, high.astype(np.int64), low), -1)
        best = scored.argmax(axis=1)
        rows = np.arange(len(hands))
        play = t.class_straight[index] & straight.any(axis=1)
        play &= ~(t.class_unless[index] & (low[rows, best] < t.class_target[index]))
        return np.where(play, best, choice)

    return rule


def _sf_over(categories: frozenset[int], only_two_pair: bool) -> ChoiceRule:
    """Hands whose plan ignores straights and flushes play one of these categories when they
    can: the highest low hand, then the strongest high hand."""

    def rule(
        t: Tables, hands: np.ndarray, high: np.ndarray, low: np.ndarray, choice: np.ndarray
    ) -> np.ndarray:
        index = t.class_of[class_index(hands)]
        made = np.isin(t.category[high], list(categories))
        play = ~t.class_straight[index] & made.any(axis=1)
        if only_two_pair:
            counts = np.zeros((len(hands), 13), dtype=np.int64)
            ranks = np.minimum(hands >> 2, 12)
            np.add.at(counts, (np.arange(len(hands))[:, None], ranks), 1)
            play &= ((counts == 2).sum(axis=1) == 2) & ((counts >= 3).sum(axis=1) == 0)
        score = np.where(made, low.astype(np.int64) * NUM_HIGH_KEYS + high, -1)
        return np.where(play, score.argmax(axis=1), choice)

    return rule


_JOKER_LOW = np.array([6 in pair for pair in LOW_POSITIONS])  # the joker sorts last


def readings() -> list[tuple[HouseWay, Reading]]:
    """Every reading measured, each with the house way it is measured from."""
    replace = dataclasses.replace
    deuces = replace(FOXWOODS, name="foxwoods+2s", full_house_keep=frozenset({"2"}))
    ace, king = ACE, KING
    straight_first = {STRAIGHT: 2, FLUSH: 1, STRAIGHT_FLUSH: 0}

    def by_category(order: dict[int, int]) -> Callable[..., np.ndarray]:
        ranks = np.zeros(10, dtype=np.int64)
        for category, place in order.items():
            ranks[category] = place
        return lambda t, hands, high, low: (
            ranks[t.category[high]] * (1 << 40) + low * NUM_HIGH_KEYS + high
        )

    def three_aces(g: dict[int, list[int]], second: int) -> Plan:
        return Plan("three aces", (ace, second), False)

    from_foxwoods = [
        Reading("full house: 2s with an ace and a king single together, A-K low", deuces),
        Reading(
            "full house: 2s and 3s with A-K together",
            replace(FOXWOODS, full_house_keep=frozenset({"2", "3"})),
        ),
        Reading(
            "quads 7-T together only with an ace single",
            replace(
                FOXWOODS,
                quads=(
                    RankRule(("2", "6"), "always"),
                    RankRule(("7", "T"), "A"),
                    RankRule(("J", "A"), "never"),
                ),
            ),
        ),
        Reading(
            "quads J-K together with an ace single",
            replace(
                FOXWOODS,
                quads=(
                    RankRule(("2", "6"), "always"),
                    RankRule(("7", "T"), "K"),
                    RankRule(("J", "K"), "A"),
                    RankRule(("A", "A"), "never"),
                ),
            ),
        ),
        Reading(
            "no ace rule for a pair with a straight or flush", replace(FOXWOODS, pair_ace_low=None)
        ),
        Reading(
            "one pair with a straight: the two highest cards low (pair_straight_by_cards)",
            replace(FOXWOODS, pair_straight_by_cards=True),
        ),
        Reading("three aces stay together (trips rule)", replace(FOXWOODS, split_three_aces=False)),
    ]
    from_deuces = [
        Reading(
            "the 2s exception only with a real ace (not the joker)",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    _split(g[2][0], "full house")
                    if j and p.pattern == "full house, together" and c[ace] == 1
                    else None
                )
            ),
        ),
        Reading(
            "full house 2s with any ace single together (ace and the other single low)",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    Plan("full house, together", (ace, g[1][1]), False)
                    if len(g[3]) == 1 and g[2] == [0] and g[1][0] == ace
                    else None
                )
            ),
        ),
        Reading(
            "trips and two pairs, trips higher: a pair of the trips low",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    _split(g[3][0])
                    if len(g[3]) == 1 and len(g[2]) == 2 and g[3][0] > g[2][0]
                    else None
                )
            ),
        ),
        Reading(
            "full house of aces: an ace and the pair's rank low (three-aces rule)",
            deuces,
            _rule(lambda g, c, j, p: three_aces(g, g[2][0]) if g[3] == [ace] and g[2] else None),
        ),
        Reading(
            "aces full (one pair): an ace and the highest single low",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    three_aces(g, g[1][0]) if g[3] == [ace] and len(g[2]) == 1 else None
                )
            ),
        ),
        Reading(
            "aces full with the joker (A-A-joker and a pair): three-aces rule",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    three_aces(g, g[1][0]) if j and g[3] == [ace] and len(g[2]) == 1 else None
                )
            ),
        ),
        Reading(
            "three aces and two pairs: an ace and the higher pair's rank low",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    three_aces(g, g[2][0]) if g[3] == [ace] and len(g[2]) == 2 else None
                )
            ),
        ),
        Reading(
            "two trips, the higher aces: an ace and the other trips' rank low",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    three_aces(g, g[3][1]) if len(g[3]) == 2 and g[3][0] == ace else None
                )
            ),
        ),
        Reading(
            "full house whose pair is an ace and the joker: a pair of the trips low",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    _split(g[3][0])
                    if j and len(g[3]) == 1 and g[2] == [ace] and g[3][0] < ace
                    else None
                )
            ),
        ),
        Reading(
            "full house: a straight or flush (with the joker) played over it",
            replace(deuces, straight_flush_over=deuces.straight_flush_over | {"full house"}),
        ),
        Reading(
            "quads J-A with a pair: split the quads",
            deuces,
            _rule(lambda g, c, j, p: _split(g[4][0]) if g[4] and g[2] and g[4][0] >= 9 else None),
        ),
        Reading(
            "four aces with a pair: split the aces",
            deuces,
            _rule(lambda g, c, j, p: _split(ace) if g[4] == [ace] and g[2] else None),
        ),
        Reading(
            "quads J-A with trips: split the quads",
            deuces,
            _rule(lambda g, c, j, p: _split(g[4][0]) if g[4] and g[3] and g[4][0] >= 9 else None),
        ),
        Reading(
            "quads 7-T with trips below kings: split the quads",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    _split(g[4][0])
                    if g[4] and g[3] and 5 <= g[4][0] <= 8 and g[3][0] < king
                    else None
                )
            ),
        ),
        Reading(
            "four aces made with the joker: three-aces rule",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    three_aces(g, g[1][0])
                    if j and g[4] == [ace] and not g[2] and not g[3]
                    else None
                )
            ),
        ),
        Reading(
            "quads 7-T: the joker is no ace single",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    _split(g[4][0])
                    if j
                    and c[ace] == 1
                    and p.pattern == "quads, together"
                    and g[1][1] < _quads_rule(FOXWOODS, g[4][0]).keep_rank
                    else None
                )
            ),
        ),
        Reading(
            "five aces: any pair low",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    Plan("five aces, together", (g[2][0], g[2][0]), False)
                    if g[5] and g[2]
                    else None
                )
            ),
        ),
        Reading(
            "five aces: always a pair of aces low",
            deuces,
            _rule(lambda g, c, j, p: _split(ace) if g[5] else None),
        ),
        Reading(
            "two pair: the joker is no ace single",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    _split(g[2][1], "two pair, split")
                    if j
                    and c[ace] == 1
                    and len(g[2]) == 2
                    and not g[3]
                    and p.pattern == "two pair, together"
                    and g[1][1]
                    < next((r.keep_rank for r in FOXWOODS.two_pair if r.matches(*g[2])), 13)
                    else None
                )
            ),
        ),
        Reading(
            "pair 10-K with an ace: the joker is no ace (plain one-pair rule)",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    Plan("one pair", p.low, True)
                    if j and c[ace] == 1 and p.pattern == "one pair with an ace"
                    else None
                )
            ),
        ),
        Reading(
            "three aces: no straight or flush",
            replace(deuces, straight_flush_over=deuces.straight_flush_over - {"three aces"}),
        ),
        Reading(
            "three aces made with the joker: no straight or flush",
            deuces,
            _rule(
                lambda g, c, j, p: (
                    p._replace(straight_flush=False) if j and p.pattern == "three aces" else None
                )
            ),
        ),
        Reading(
            "straight or flush with equal low hands: the weaker high hand",
            deuces,
            choice=_choice_by(
                lambda t, hands, high, low: low * NUM_HIGH_KEYS + (NUM_HIGH_KEYS - 1 - high)
            ),
        ),
        Reading(
            "the joker never in the low hand beside a straight or flush",
            deuces,
            choice=_choice_by(
                lambda t, hands, high, low: np.where(
                    (hands[:, 6] == JOKER)[:, None] & _JOKER_LOW[None, :],
                    -1,
                    low * NUM_HIGH_KEYS + high,
                )
            ),
        ),
        Reading(
            "a straight flush first, then the highest low hand",
            deuces,
            choice=_choice_by(by_category({STRAIGHT: 0, FLUSH: 0, STRAIGHT_FLUSH: 1})),
        ),
        Reading(
            "a flush (or straight flush) before a straight, then the highest low hand",
            deuces,
            choice=_choice_by(by_category({STRAIGHT: 0, FLUSH: 1, STRAIGHT_FLUSH: 1})),
        ),
        Reading(
            "a straight before a flush, then the highest low hand",
            deuces,
            choice=_choice_by(by_category(straight_first)),
        ),
        Reading(
            "the strongest straight or flush, then the highest low hand",
            deuces,
            choice=_choice_by(lambda t, hands, high, low: high * 1000 + low),
        ),
        Reading(
            "two pair with a straight flush: the straight flush",
            deuces,
            choice=_sf_over(frozenset({STRAIGHT_FLUSH}), only_two_pair=True),
        ),
        Reading(
            "any hand with a straight flush plays it",
            deuces,
            choice=_sf_over(frozenset({STRAIGHT_FLUSH}), only_two_pair=False),
        ),
    ]
    return [(FOXWOODS, r) for r in from_foxwoods] + [(deuces, r) for r in from_deuces]
