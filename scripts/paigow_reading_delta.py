"""How the whole game's house-way counts change when a house way is read another way, exactly,
without running the whole game again.

Only hands whose house-way setting changes (the set C) matter. With r the old setting's keys and
r' the new, the change of the player-wins count over all pairs (P, D) is

    sum over P in C, all D:  out(r'P, r'D) - out(rP, r'D)   (the player's change)
  + sum over all P, D in C:  out(rP, r'D) - out(rP, rD)     (the dealer's change)

and likewise for losses.  The first sum is, for each changed hand, its old and new settings
valued against the dealer set the new way; the second, a changed dealer hand's new and old
results valued against the players set the old way (a player beats (H, L) when both its keys
are at least (H + 1, L + 1)).  Both are read from the whole-game engine, a rank class at a time:
the no-flush counts by dealer rank class and the flush corrections by suit mask
(:mod:`handsolver.solver.paigow.game`), so a reading that changes a million hands takes seconds
to minutes, not hours.  Changed hands are found among the rank classes whose plan changes (or
every class, for a reading of how a straight or flush is chosen), each hand up to suit
permutations with its multiplicity.  Deltas of readings that touch disjoint hands add up to
within the pairs where both hands changed; a combination is measured as one reading.

    python scripts/paigow_reading_delta.py            # every reading below, from foxwoods
    python scripts/paigow_reading_delta.py 2s         # only readings whose name contains "2s"

Readings that are not fields of :class:`HouseWay` (they did not match the published counts,
so the house way does not carry them) are given here as a rule on the plan of a rank class or
on the choice among straights and flushes, patched into the tables built for that reading
only; those tables go to a temporary cache directory, never the user's.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from handsolver.models.paigow import (
    DEFAULT_RULES,
    JOKER,
    NUM_HIGH_KEYS,
    STRAIGHT_CATEGORIES,
    Rules,
)
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
from handsolver.solver.paigow import keys, rank_tables
from handsolver.solver.paigow.flush_bins import FlushBins
from handsolver.solver.paigow.game import _base_counts, _hands_of
from handsolver.solver.paigow.game_tables import Setup, setup
from handsolver.solver.paigow.hand_types import FULL_DECK, Deck
from handsolver.solver.paigow.keys import LOW_POSITIONS, Tables, pick, rank_codes, setting_keys

PUBLISHED = (2_402_491_783_820_756, 3_341_087_256_920_524, 2_506_879_990_473_120)


class Delta(NamedTuple):
    """Hands set differently, and the change in the player's wins, pushes and losses."""

    hands: int
    win: int
    push: int
    loss: int


def delta(
    old: HouseWay,
    new: HouseWay,
    rules: Rules = DEFAULT_RULES,
    deck: Deck = FULL_DECK,
    classes: Sequence[int] | None = None,
) -> Delta:
    """The change of the whole game's house-way counts from ``old`` to ``new``, by the formula
    above, on the whole-game engine: the changed hands of a rank class are valued at once by
    its no-flush counts and its flush corrections (:class:`FlushBins`), against the new dealer
    for the player's change and against the old player for the dealer's."""
    s_old, s_new = setup(old, rules, deck), setup(new, rules, deck)
    t_old, t_new = s_old.tables, s_new.tables
    plan_changed = (
        (t_old.class_target != t_new.class_target)
        | (t_old.class_straight != t_new.class_straight)
        | (t_old.class_unless != t_new.class_unless)
        | (t_old.class_by_cards != t_new.class_by_cards)
    )
    if classes is None:
        classes = [int(c) for c in s_old.player_classes if plan_changed[c]]
    hands = d_win = d_loss = 0
    for start in range(0, len(classes), CHUNK):
        part = _chunk_delta(s_old, s_new, classes[start : start + CHUNK])
        hands, d_win, d_loss = hands + part[0], d_win + part[1], d_loss + part[2]
    return Delta(hands, d_win, -d_win - d_loss, d_loss)


CHUNK = 256


def _chunk_delta(s_old: Setup, s_new: Setup, classes: list[int]) -> tuple[int, int, int]:
    cards, weights, masks, owners, supports = _hands_of(s_old, classes)
    high, low = setting_keys(s_old.tables, cards)
    rows = np.arange(len(cards))
    before = _pick(s_old.tables, cards, high, low)
    after = _pick(s_new.tables, cards, high, low)
    h0, l0 = high[rows, before].astype(np.int64), low[rows, before]
    h1, l1 = high[rows, after].astype(np.int64), low[rows, after]
    changed = (h0 != h1) | (l0 != l1)
    hands = d_win = d_loss = 0
    for first, stop, support in zip(owners[:-1], owners[1:], supports, strict=True):
        mine = first + np.flatnonzero(changed[first:stop])
        if not len(mine):
            continue
        player = np.zeros(13, dtype=np.int64)
        for card in cards[first]:
            if card != JOKER:
                player[card >> 2] += 1
        joker = bool(cards[first, -1] == JOKER)
        w = weights[mine]
        m = masks[mine]
        # The player's change: new and old settings against the dealer set the new way.
        win, loss = _counts(
            s_new, support, player, joker, m, h1[mine], l1[mine], h0[mine], l0[mine]
        )
        # The dealer's change: players set the old way against the dealer's new and old
        # results; a player beats (H, L) when both keys are at least (H + 1, L + 1).
        beaten, beating = _counts(
            s_old, support, player, joker, m, h1[mine] + 1, l1[mine] + 1, h0[mine] + 1, l0[mine] + 1
        )
        hands += int(w.sum())
        d_win += int((w * (win + beating)).sum())
        d_loss += int((w * (loss + beaten)).sum())
    return hands, d_win, d_loss


def _counts(
    s: Setup,
    support: tuple[int, ...],
    player: np.ndarray,
    joker: bool,
    masks: np.ndarray,
    h1: np.ndarray,
    l1: np.ndarray,
    h0: np.ndarray,
    l0: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Per hand (its suit masks): wins at (h1, l1) minus wins at (h0, l0) against the dealer
    hands its cards leave, and the same for losses (a player at (h, l) wins against H < h and
    L < l, loses to H >= h and L >= l)."""
    n = len(masks)
    qh, ql = np.concatenate([h1, h0]), np.concatenate([l1, l0])
    base_win, base_loss = _base_counts(s, player, joker, qh, ql)
    corr_win, corr_loss = FlushBins(s, support, player, joker).corrections(qh, ql)
    q = np.arange(2 * n)
    hand = np.concatenate([np.arange(n), np.arange(n)])
    win = base_win + corr_win[masks[hand], q[:, None]].sum(axis=1)
    loss = base_loss + corr_loss[masks[hand], q[:, None]].sum(axis=1)
    return win[:n] - win[n:], loss[:n] - loss[n:]


# --- readings that are not fields of HouseWay ----------------------------------------------

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


class _Pattern(tuple[int, ...]):
    """Rank counts that remember whether the joker is among them."""

    joker = False


_CHOICES: dict[int, ChoiceRule] = {}  # id of a reading's tables -> its choice rule
_BUILDING: list[ChoiceRule | None] = [None]


def _pick(t: Tables, hands: np.ndarray, high: np.ndarray, low: np.ndarray) -> np.ndarray:
    choice = pick(t, hands, high, low)
    rule = _BUILDING[0] or _CHOICES.get(id(t))
    return choice if rule is None else rule(t, hands, high, low, choice)


def prepared(reading: Reading) -> HouseWay:
    """The reading's house way with its tables built (rules patched in while they are)."""
    rule = reading.plan
    original_plan, original_pattern = rank_tables.plan_of, rank_tables._pattern

    def pattern(ranks: Sequence[int], joker: bool) -> tuple[int, ...]:
        counts = _Pattern(original_pattern(ranks, joker))
        counts.joker = joker
        return counts

    def plan(way: HouseWay, counts: Sequence[int]) -> Plan:
        found = original_plan(way, counts)
        if rule is None:
            return found
        return rule(counts, bool(getattr(counts, "joker", False)), found) or found

    way = dataclasses.replace(reading.way, name=f"{reading.way.name}: {reading.name}")
    rank_tables.plan_of, rank_tables._pattern = plan, pattern  # type: ignore[assignment]
    keys.pick, _BUILDING[0] = _pick, reading.choice  # type: ignore[assignment]
    try:
        built = rank_tables.tables(way)
    finally:
        rank_tables.plan_of, rank_tables._pattern = original_plan, original_pattern
        keys.pick, _BUILDING[0] = pick, None  # type: ignore[assignment]
    if reading.choice is not None:
        _CHOICES[id(built)] = reading.choice
    return way


def measure(base: HouseWay, reading: Reading, deck: Deck = FULL_DECK) -> Delta:
    """The change from ``base`` to the reading (default rules)."""
    way = prepared(reading)
    every = None
    if reading.choice is not None:
        every = [int(c) for c in setup(base, DEFAULT_RULES, deck).player_classes]
    return delta(base, way, DEFAULT_RULES, deck, every)


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
        index = np.searchsorted(t.class_codes, rank_codes(hands))
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
        index = np.searchsorted(t.class_codes, rank_codes(hands))
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


FOXWOODS_COUNTS = (2_402_482_226_669_052, 3_341_113_289_015_576, 2_506_863_515_529_772)
"""``paigow game --way foxwoods``: house way against house way (docs/paigow.md)."""


def main() -> None:
    wanted = sys.argv[1:]
    with tempfile.TemporaryDirectory() as cache:
        os.environ["HANDSOLVER_CACHE_DIR"] = cache
        bases: dict[str, tuple[int, int, int]] = {"foxwoods": FOXWOODS_COUNTS}
        for base, reading in readings():
            if wanted and not any(w in reading.name for w in wanted):
                continue
            started = time.perf_counter()
            changed, win, push, loss = measure(base, reading)
            start = bases.get(base.name)
            if start is None:  # a base reached by a reading measured first
                first = next(
                    r for b, r in readings() if r.way == base and r.plan is r.choice is None
                )
                d = measure(FOXWOODS, first)
                start = bases[base.name] = (
                    FOXWOODS_COUNTS[0] + d.win,
                    FOXWOODS_COUNTS[1] + d.push,
                    FOXWOODS_COUNTS[2] + d.loss,
                )
            counts = (start[0] + win, start[1] + push, start[2] + loss)
            gap = tuple(p - c for p, c in zip(PUBLISHED, counts, strict=True))
            ev = Fraction(19 * counts[0] - 20 * counts[2], 20 * sum(counts))
            print(
                f"[from {base.name}] {reading.name}: {changed:,} hands; win {win:+,} push {push:+,}"
                f" loss {loss:+,} -> {counts[0]:,} / {counts[1]:,} / {counts[2]:,}"
                f" (EV {float(ev):+.7f});"
                f" published minus this {gap[0]:+,} {gap[1]:+,} {gap[2]:+,}"
                f" [{time.perf_counter() - started:.0f} s]",
                flush=True,
            )


if __name__ == "__main__":
    main()
