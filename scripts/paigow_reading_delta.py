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

The readings are listed in ``paigow_readings.py`` beside this script. Those that are not fields
of :class:`HouseWay` (they did not match the published counts, so the house way does not carry
them) are a rule on the plan of a rank class or on the choice among straights and flushes,
patched here into the tables built for that reading only; those tables go to a temporary cache
directory, never the user's.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from paigow_readings import ChoiceRule, Reading, readings  # the catalogue, beside this script

from handsolver.models.paigow import (
    DEFAULT_RULES,
    JOKER,
    Rules,
)
from handsolver.models.paigow_houseway import (
    FOXWOODS,
    HouseWay,
    Plan,
)
from handsolver.solver.paigow import keys, rank_tables
from handsolver.solver.paigow.flush_bins import FlushBins
from handsolver.solver.paigow.game import _base_counts, _hands_of
from handsolver.solver.paigow.game_tables import Setup, setup
from handsolver.solver.paigow.hand_types import FULL_DECK, Deck
from handsolver.solver.paigow.keys import Tables, pick, setting_keys

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
