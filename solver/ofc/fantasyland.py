"""Fantasyland set exactly: the best ways to set 13 of 13 to 17 cards, by an objective, proven.

The objective of a setting that is not fouled is its royalties, plus ``stay_value`` points when
it stays in fantasyland, plus, against known opponent boards, the row points won from each (1 a
row, 3 more for all three) with royalties counted per opponent as the score counts them (mine
paid by each, theirs paid to each): the sum over the boards of a table, or the mean over
boards sampled for one opponent.  A fouled setting is never better than the best legal one
(it earns nothing and loses every row), so only legal settings are searched.

The search is branch and bound over bottom, then top, then middle:

- every 5-card subset of the hand is keyed once, with its value as a bottom and as a middle,
  every 3-card subset with its value as a top (a row's value is its royalty, its row points and
  the stay value when the row alone stays; the leaf takes the stay value once);
- bottoms are visited by an upper bound (their value + the best middle and top together that
  fit under them, from running maxima over the middles by key, and a scoop of every board it
  beats), tops by their value, and a branch stops as soon as its bound cannot beat the k-th
  best objective found so far (ties are cut too: they could not enter the list);
- for a bottom and a top the middles are the 5-card subsets of the cards left (126 at most for
  17 cards) that fit between them.

Every setting is either visited or cut by a bound that it cannot beat, so the answer is proven;
unless a node budget (the complete settings evaluated) runs out first: then the answer is the
best found so far, legal settings all, and not proven (``proven`` is False).

>>> from handsolver.models.cards import parse_cards
>>> from handsolver.models.chinese import format_setting
>>> from handsolver.models.cards import STANDARD
>>> hand = parse_cards("Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c")
>>> answer = solve_fantasyland(hand)
>>> best = answer.settings[0]
>>> format_setting(best.setting, STANDARD), best.royalties.total, best.stays
('Kd Kc 3h | Ah Ad Ac 7d 7c | Qs Js Ts 9s 8s', 35, True)
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import NamedTuple

from handsolver.models.cards import JOKERS, Card, InputError, card_name
from handsolver.models.chinese import NUM_FRONT_KEYS, front_key, front_order_table
from handsolver.models.ofc import (
    BOTTOM,
    MAX_FANTASY_CARDS,
    MIDDLE,
    MIN_FANTASY_CARDS,
    TOP,
    OfcRules,
    RowRoyalties,
    board_keys,
    is_foul,
    row_keys,
    row_royalties,
)
from handsolver.models.poker import NUM_KEYS, category_index, poker_key
from handsolver.models.split import Setting

MAX_OPPONENTS = 2
MAX_SAMPLED = 10_000  # boards in a mean
MAX_TOP = 1000
_SKIP = 8  # middles a bottom looks past to tighten its bound
_TOP_CATEGORY = 13**3  # a front key is its category times this plus its ranks
_NONE = -(1 << 62)  # the value of no setting: below every real one


@dataclass(frozen=True)
class Objective:
    """What a setting is worth: royalties, ``stay_value`` points for staying in fantasyland and,
    when ``opponents`` (complete boards) are given, the points scored against them: their sum
    (each board a player at the table), or with ``mean`` their mean (each board one that a
    single opponent may end with, as sampled)."""

    stay_value: Fraction = Fraction(0)
    opponents: tuple[Setting, ...] = ()
    mean: bool = False

    def __post_init__(self) -> None:
        if self.stay_value < 0:
            raise InputError(f"the stay value must be 0 or more, got {self.stay_value}")
        if self.mean and not 1 <= len(self.opponents) <= MAX_SAMPLED:
            raise InputError(
                f"a mean needs 1 to {MAX_SAMPLED:,} opponent boards, got {len(self.opponents)}"
            )
        if not self.mean and len(self.opponents) > MAX_OPPONENTS:
            raise InputError(f"at most {MAX_OPPONENTS} opponents, got {len(self.opponents)}")


@dataclass(frozen=True)
class FantasySetting:
    """One setting of a fantasyland hand with what it earns."""

    setting: Setting
    """(bottom, middle, top), each in the hand's card order."""
    discards: tuple[Card, ...]
    royalties: RowRoyalties
    stays: bool
    objective: Fraction


@dataclass(frozen=True)
class FantasySolution:
    """The best settings, best first (equal objectives in the order the search met them)."""

    cards: tuple[Card, ...]
    settings: tuple[FantasySetting, ...]
    leaves: int
    """Complete settings the search evaluated (the rest were cut by bounds)."""
    proven: bool = True
    """Whether the search ran to its end, so that no setting left out beats the last listed;
    False when the node budget stopped it first (the settings are then the best it met)."""


def check_fantasy_hand(cards: Sequence[Card], rules: OfcRules | None = None) -> tuple[Card, ...]:
    """The hand sorted, if it has 13 to 17 distinct cards (the count the variant's fantasyland
    deals when it is fixed: classic 13).

    :raises InputError: naming a repeated card or the wrong count.
    """
    streets = (rules or OfcRules()).streets
    fixed = streets.fantasy_cards
    if fixed is not None and len(cards) != fixed:
        raise InputError(
            f"in {streets.name} open-face, a fantasyland hand has {fixed} cards, got {len(cards)}"
        )
    if not MIN_FANTASY_CARDS <= len(cards) <= MAX_FANTASY_CARDS:
        raise InputError(
            f"a fantasyland hand has {MIN_FANTASY_CARDS} to {MAX_FANTASY_CARDS} cards, "
            f"got {len(cards)}"
        )
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise InputError(f"card {card_name(card)!r} is given twice")
        seen.add(card)
    return tuple(sorted(cards))


def check_opponents(hand: Sequence[Card], opponents: Sequence[Setting], apart: bool = True) -> None:
    """Refuse a card that is in the hand and an opponent's board, or (``apart``: boards at the
    same table) in two boards.

    :raises InputError: naming the card.
    """
    held = set(hand)
    used = set(hand)
    for board in opponents:
        if not apart:
            used = set(held)
        for card in (card for row in board for card in row):
            if card in used:
                raise InputError(f"card {card_name(card)!r} is given twice")
            used.add(card)


class _Tables(NamedTuple):
    """What the search of one hand needs that does not depend on the stay value: built once
    and kept for the next search of the same hand (the study searches each hand twice)."""

    keys5: list[int]
    masks5: tuple[int, ...]
    plain_b: list[int]
    plain_m: list[int]
    staying_b: list[bool]
    staying_m: list[bool]
    beats_b: list[int]
    beats_m: list[int]
    loses_b: list[int]
    loses_m: list[int]
    threes: list[tuple[int, bool, int, int, int, int, int, tuple[int, ...] | None]]
    """Each top: (value, stays, key, order key, mask, boards beaten, boards lost to, keys);
    a top with a joker at its best over the keys it may take (listed), its least order key."""
    top_bounds: list[tuple[int, int, bool]]
    """(order key, value, stays) of every key of every top, for the bounds."""
    middles: list[tuple[int, int, int, bool, int]]
    jokers5: dict[int, tuple[int, ...]]
    """The keys each 5-card subset with a joker may take (:func:`~handsolver.models.ofc.row_keys`),
    by subset; ``keys5`` holds its strongest."""
    middle_of_key: _RowValues
    top_of_key: _RowValues
    joker_shift: int
    """A subset's mask shifted by this is its jokers (its class): the hand's jokers come last."""
    suffix_plain: list[list[int]]
    suffix_stays: list[list[bool]]
    suffix_pair: list[list[int]]
    suffix_pair_stays: list[list[bool]]
    """By class of middle (the jokers it holds), from each place on."""
    starts: list[int]


def solve_fantasyland(
    cards: Sequence[Card],
    rules: OfcRules | None = None,
    objective: Objective | None = None,
    top: int = 1,
    above: Fraction | None = None,
    node_budget: int | None = None,
) -> FantasySolution:
    """The ``top`` best settings of a fantasyland hand (13 to 17 cards) by ``objective``.

    The objectives listed are the ``top`` largest over every legal setting, counted with
    multiplicity (settings that differ only in discards or kickers each count).  With
    ``above``, only settings whose objective is greater are listed (maybe none): the search
    starts with that bar, so what cannot clear it is cut at once.  With ``node_budget``, the
    search evaluates at most that many complete settings: where it would need more, it stops
    there and lists the best it met, with ``proven`` False.

    :raises InputError: for a bad hand, a repeated card, a bad objective, or a count of
        settings or a budget below 1.
    """
    rules = rules or OfcRules()
    objective = objective or Objective()
    if not 1 <= top <= MAX_TOP:
        raise InputError(f"the settings listed must be 1 to {MAX_TOP:,}, got {top}")
    if node_budget is not None and node_budget < 1:
        raise InputError(f"the node budget must be 1 or more, got {node_budget}")
    budget = math.inf if node_budget is None else node_budget
    hand = check_fantasy_hand(cards, rules)
    rules.check_cards(hand)
    opponents = objective.opponents
    check_opponents(hand, opponents, apart=not objective.mean)
    live = tuple(board for board in opponents if not is_foul(board))
    # Integer arithmetic throughout: every value is scaled by the stay value's denominator,
    # and by the number of boards when the objective is their mean.
    boards = len(opponents) if objective.mean else 1
    scale = objective.stay_value.denominator * boards
    stay = objective.stay_value.numerator * boards
    tables = _tables(hand, rules, opponents, live, objective.stay_value.denominator)
    keys5, masks5, plain_b, plain_m = tables.keys5, tables.masks5, tables.plain_b, tables.plain_m
    staying_b, staying_m = tables.staying_b, tables.staying_m
    beats_b, beats_m, loses_b, loses_m = (
        tables.beats_b,
        tables.beats_m,
        tables.loses_b,
        tables.loses_m,
    )
    middles, starts = tables.middles, tables.starts
    suffix_plain, suffix_stays = tables.suffix_plain, tables.suffix_stays
    suffix_pair, suffix_pair_stays = tables.suffix_pair, tables.suffix_pair_stays
    jokers5, middle_of_key, top_of_key = tables.jokers5, tables.middle_of_key, tables.top_of_key
    shift = tables.joker_shift
    classes = range(len(suffix_plain))
    # The classes of middle (the jokers it holds) that a row holding these jokers leaves.
    apart = [[c for c in classes if not c & used] for used in classes]
    n = len(hand)
    index_of_mask = _index_of_mask(n)
    bits = [1 << i for i in range(n)]
    count = len(middles)
    order_of = front_order_table().__getitem__
    # Tops by value with the stay value (the order the search breaks on), the stronger first.
    threes = sorted(
        (
            (plain + stay * stays, plain, stays, key, order, mask, beat, lose, keys)
            for plain, stays, key, order, mask, beat, lose, keys in tables.threes
        ),
        key=lambda t: (-t[0], -t[3], t[5]),
    )
    # A scoop is worth 3 more a live opponent; bounds count it won against every board the
    # bottom (and then the top) beats.
    scoop = 3 * objective.stay_value.denominator
    bounds = []
    for b, start in enumerate(starts):
        fit = apart[masks5[b] >> shift]
        bounds.append(
            plain_b[b]
            + max(suffix_pair[c][start] for c in fit)
            + scoop * beats_b[b].bit_count()
            + stay * (staying_b[b] or any(suffix_pair_stays[c][start] for c in fit))
        )
    # By bound, then the stronger bottom; masks make the order total.
    bottoms = sorted(zip(bounds, keys5, masks5, range(len(keys5)), strict=True), reverse=True)

    # Their royalties, and the scoop of every fouled board (its rows are counted in the rows').
    sure_rows = len(opponents) - len(live)
    constant = Fraction(
        3 * sure_rows - sum(row_royalties(board, rules.royalties).total for board in live),
        boards,
    )
    heap: list[tuple[int, int, int, int, int]] = []  # (value, -seen, bottom, middle, top)
    seen = 0
    leaves = 0
    # The k-th best value once k are found; values are integers, so "above" is their floor.
    threshold: float = float("-inf")
    if above is not None:
        threshold = math.floor((above - constant) * scale)
    proven = True
    for bound, key_b, mask_b, b in bottoms:
        if bound <= threshold or not proven:
            break
        value_b, stays_b, beat_b, lose_b = plain_b[b], staying_b[b], beats_b[b], loses_b[b]
        start = starts[b]
        # Skip the strongest middles under this bottom that share its cards (a few: the suffix
        # from any place before the first that fits still bounds it).
        stop = min(start + _SKIP, count)
        while start < stop and middles[start][1] & mask_b:
            start += 1
        if start == count:
            continue
        class_b = mask_b >> shift
        fit = apart[class_b]
        bottom_part = value_b + max(suffix_plain[c][start] for c in fit)
        scoop_b = scoop * beat_b.bit_count()
        stay_below = stays_b or any(suffix_stays[c][start] for c in fit)
        for t, entry_t in enumerate(threes):
            value_t, plain_t, stays_t, _, order_t, mask_t, beat_t, lose_t, keys_t = entry_t
            if bottom_part + scoop_b + value_t + stay * stay_below <= threshold or not proven:
                break
            if mask_t & mask_b or order_t > key_b:
                continue
            staying = stays_b or stays_t
            beat_bt = beat_b & beat_t
            fit_bt = apart[class_b | mask_t >> shift]
            if (
                value_b
                + max(suffix_plain[c][start] for c in fit_bt)
                + scoop * beat_bt.bit_count()
                + plain_t
                + stay * (staying or any(suffix_stays[c][start] for c in fit_bt))
                <= threshold
            ):
                continue
            lose_bt = lose_b & lose_t
            # The middles are the 5-card subsets of the cards left (6 of 14, 126 of 17), the
            # strongest cards first so that among equal values the stronger middle comes first.
            left = [one for one in reversed(bits) if not one & (mask_b | mask_t)]
            for chosen in combinations(left, 5):
                m = index_of_mask[sum(chosen)]
                key_m = keys5[m]
                plain, stays_m, beat_m, lose_m = plain_m[m], staying_m[m], beats_m[m], loses_m[m]
                if key_m > key_b:
                    # A middle with a joker is the strongest it may be under the bottom.
                    options = jokers5.get(m)
                    if options is None:
                        continue
                    at = bisect_right(options, key_b)
                    if not at:
                        continue
                    key_m = options[at - 1]
                    plain, stays_m, beat_m, lose_m = middle_of_key(key_m)
                if key_m < order_t:
                    continue
                if leaves == budget:  # a setting left to evaluate: the search is cut short
                    proven = False
                    break
                leaves += 1
                if keys_t is None:
                    value = value_b + plain_t + plain + stay * (staying or stays_m)
                    won, lost = beat_bt, lose_bt
                else:
                    # A top with a joker is the strongest it may be under the middle.
                    key_t = keys_t[bisect_right(keys_t, key_m, key=order_of) - 1]
                    top_plain, top_stays, top_beat, top_lose = top_of_key(key_t)
                    value = value_b + top_plain + plain
                    value += stay * (stays_b or top_stays or stays_m)
                    won, lost = beat_b & top_beat, lose_b & top_lose
                if won or lost:
                    value += scoop * ((won & beat_m).bit_count() - (lost & lose_m).bit_count())
                if value <= threshold:
                    continue
                seen += 1
                if len(heap) < top:
                    heapq.heappush(heap, (value, -seen, b, m, t))
                else:
                    heapq.heapreplace(heap, (value, -seen, b, m, t))
                if len(heap) == top:
                    threshold = heap[0][0]
    ranked = sorted(heap, key=lambda entry: (-entry[0], -entry[1]))
    settings = tuple(
        _setting(hand, masks5[b], masks5[m], threes[t][5], value, scale, constant, rules)
        for value, _, b, m, t in ranked
    )
    return FantasySolution(hand, settings, leaves, proven)


_LAST: list[tuple[tuple[object, ...], OfcRules, _Tables]] = []
"""The last hand's tables, with what they were built for (the rules by identity: hashing a
royalty table costs more than the lookup saves)."""


def _tables(
    hand: tuple[Card, ...],
    rules: OfcRules,
    opponents: tuple[Setting, ...],
    live: tuple[Setting, ...],
    scale: int,
) -> _Tables:
    """The tables of the last search if it was of the same hand, rules, boards and scale, else
    new ones."""
    key = (hand, opponents, scale)
    if _LAST and _LAST[0][0] == key and _LAST[0][1] is rules:
        return _LAST[0][2]
    tables = _new_tables(hand, rules, opponents, live, scale)
    _LAST[:] = [(key, rules, tables)]  # holding the rules keeps their identity unique
    return tables


class _RowValues:
    """A row's value (scaled, without the stay value), whether it stays, and the live boards
    it beats and loses to, by its key: for the keys a row's jokers may give it."""

    def __init__(
        self,
        row: int,
        table: Sequence[int],
        stays: Sequence[bool],
        beats: _BoardsBeaten | None,
        scales: tuple[int, int, int],
    ) -> None:
        self.row, self.table, self.stays, self.beats = row, table, stays, beats
        self.per_royalty, self.per_row, self.constant_rows = scales
        self.found: dict[int, tuple[int, bool, int, int]] = {}

    def __call__(self, key: int) -> tuple[int, bool, int, int]:
        found = self.found.get(key)
        if found is None:
            beat = lose = 0
            if self.beats is not None:
                (beat,), (lose,) = self.beats.row(self.row, [key])
            plain = (
                self.per_royalty * self.table[key]
                + self.per_row * (beat.bit_count() - lose.bit_count())
                + self.constant_rows
            )
            found = (plain, self.stays[key], beat, lose)
            self.found[key] = found
        return found


def _new_tables(
    hand: tuple[Card, ...],
    rules: OfcRules,
    opponents: tuple[Setting, ...],
    live: tuple[Setting, ...],
    scale: int,
) -> _Tables:
    """The stay-independent tables of a hand, values scaled by ``scale`` (see _Tables).

    A row's value is its royalty (paid by every opponent) and the rows it wins (one against
    each fouled board, and its wins less its losses against the live ones), without the stay
    value, which the search adds once.

    A row with a joker is keyed at its strongest (a bottom always is that), and also:

    - a top is listed at its best value over the keys it may take and its least order key;
      the search takes the key its jokers make under the middle (the strongest that fits);
    - a middle is listed once more for each category it may be, at its weakest key there with
      its best value there, reaching as high as its strongest key there, so that the bounds
      over the middles that fit under a bottom count it whatever its jokers make of it there;
    - the bounds over the middles are kept apart by the jokers a middle holds (its class), so
      that a bottom or top holding a joker is bounded by middles without it.
    """
    n = len(hand)
    weight = max(1, len(opponents))
    per_royalty, per_row = scale * weight, scale
    constant_rows = scale * (len(opponents) - len(live))
    royalties, rule = rules.royalties, rules.stay_rule
    beats = _BoardsBeaten(live, rules)
    scales = (per_royalty, per_row, constant_rows)

    # Five-card subsets, in one order: key, mask, value as bottom and as middle, whether it
    # stays as bottom and as middle, the live boards it beats and loses to as each.
    held = sum(card in JOKERS for card in hand)  # sorted: the hand's jokers come last
    joker_shift = n - held
    jokers5: dict[int, tuple[int, ...]] = {}
    keys5 = []
    for i, five in enumerate(combinations(hand, 5)):
        if five[-1] in JOKERS:
            jokers5[i] = row_keys(MIDDLE, five)
            keys5.append(jokers5[i][-1])
        else:
            keys5.append(poker_key(five))
    masks5 = _subset_masks(n, 5)
    back, middle = royalties.back, royalties.middle
    plain_b = [per_royalty * back[k] + constant_rows for k in keys5]
    plain_m = [per_royalty * middle[k] + constant_rows for k in keys5]
    beats_b = loses_b = beats_m = loses_m = [0] * len(keys5)
    if live:
        beats_b, loses_b = beats.row(BOTTOM, keys5)
        beats_m, loses_m = beats.row(MIDDLE, keys5)
        plain_b = [
            v + per_row * (w.bit_count() - x.bit_count())
            for v, w, x in zip(plain_b, beats_b, loses_b, strict=True)
        ]
        plain_m = [
            v + per_row * (w.bit_count() - x.bit_count())
            for v, w, x in zip(plain_m, beats_m, loses_m, strict=True)
        ]
    bottom_stays = _stays_by_key(rule.bottom)
    middle_stays = _stays_by_key(rule.middle)
    staying_b = [bottom_stays[k] for k in keys5]
    staying_m = [middle_stays[k] for k in keys5]
    boards = beats if live else None
    middle_of_key = _RowValues(MIDDLE, middle, middle_stays, boards, scales)
    top_stays_by_key = [
        rule.top is not None and key // _TOP_CATEGORY >= rule.top for key in range(NUM_FRONT_KEYS)
    ]
    top_of_key = _RowValues(TOP, royalties.front, top_stays_by_key, boards, scales)

    order_table = front_order_table()
    front_of_ranks = _front_keys_by_ranks()
    threes_masks = _subset_masks(n, 3)
    threes = []
    top_bounds: list[tuple[int, int, bool]] = []  # (order key, value, stays) of every key
    for cards, mask in zip(combinations(hand, 3), threes_masks, strict=True):
        if cards[-1] in JOKERS:
            options = row_keys(TOP, cards)
            values = [top_of_key(key) for key in options]
            beat = 0
            for _, _, beaten, _ in values:
                beat |= beaten
            plain_t = max(value[0] for value in values)
            stays_t = any(value[1] for value in values)
            key, lose, keys = options[-1], 0, options
            top_bounds.extend(
                (order_table[k], v[0], v[1]) for k, v in zip(options, values, strict=True)
            )
        else:
            c1, c2, c3 = cards
            key = front_of_ranks[(c1 >> 2) * 169 + (c2 >> 2) * 13 + (c3 >> 2)]
            plain_t, stays_t, beat, lose = top_of_key(key)
            keys = None
            top_bounds.append((order_table[key], plain_t, stays_t))
        order = order_table[key if keys is None else keys[0]]
        threes.append((plain_t, stays_t, key, order, mask, beat, lose, keys))
    # The best top (without the stay value) that fits under each middle key, and whether one
    # that stays does: tops by order key, running maxima.
    by_order = sorted(top_bounds)
    order_keys = [entry[0] for entry in by_order]
    top_best: list[int] = []
    top_stays: list[bool] = []
    for _, plain, stays in by_order:
        top_best.append(max(top_best[-1], plain) if top_best else plain)
        top_stays.append((top_stays[-1] if top_stays else False) or stays)

    # Middles from the strongest key down, each with the key its top may reach.  From each
    # place on, by class: the best middle value and the best middle and top value together
    # (without the stay value), and whether any stays.  The middles that fit under a bottom
    # are a suffix, and a scan stops where the suffix cannot beat the k-th best.
    entries = [
        (key, mask, plain, stays, i, key)
        for i, (key, mask, plain, stays) in enumerate(
            zip(keys5, masks5, plain_m, staying_m, strict=True)
        )
    ]
    for i, options in jokers5.items():
        by_category: dict[int, list[int]] = {}
        for key in options:
            by_category.setdefault(category_index(key), []).append(key)
        for keys in by_category.values():
            values = [middle_of_key(key) for key in keys]
            best_plain = max(value[0] for value in values)
            any_stays = any(value[1] for value in values)
            entries.append((keys[0], masks5[i], best_plain, any_stays, i, keys[-1]))
    entries.sort(reverse=True)
    middles = [entry[:5] for entry in entries]
    count = len(middles)
    first_at: dict[int, int] = {}
    for i, entry in enumerate(middles):
        first_at.setdefault(entry[0], i)
    classes = 1 << held
    suffix_plain = [[_NONE] * count for _ in range(classes)]
    suffix_stays = [[False] * count for _ in range(classes)]
    suffix_pair = [[_NONE] * count for _ in range(classes)]
    suffix_pair_stays = [[False] * count for _ in range(classes)]
    best = [_NONE] * classes
    stays_any = [False] * classes
    best_pair = [_NONE] * classes
    pair_stays = [False] * classes
    for i in range(count - 1, -1, -1):  # keys rising
        _, mask, plain, stays, _, reach = entries[i]
        c = mask >> joker_shift
        if plain > best[c]:
            best[c] = plain
        stays_any[c] = stays_any[c] or stays
        fits = bisect_right(order_keys, reach) - 1  # the last top not above the middle's reach
        if fits >= 0:
            if plain + top_best[fits] > best_pair[c]:
                best_pair[c] = plain + top_best[fits]
            pair_stays[c] = pair_stays[c] or stays or top_stays[fits]
        for c in range(classes):
            suffix_plain[c][i], suffix_stays[c][i] = best[c], stays_any[c]
            suffix_pair[c][i], suffix_pair_stays[c][i] = best_pair[c], pair_stays[c]
    return _Tables(
        keys5=keys5,
        masks5=masks5,
        plain_b=plain_b,
        plain_m=plain_m,
        staying_b=staying_b,
        staying_m=staying_m,
        beats_b=beats_b,
        beats_m=beats_m,
        loses_b=loses_b,
        loses_m=loses_m,
        threes=threes,
        top_bounds=top_bounds,
        middles=middles,
        jokers5=jokers5,
        middle_of_key=middle_of_key,
        top_of_key=top_of_key,
        joker_shift=joker_shift,
        suffix_plain=suffix_plain,
        suffix_stays=suffix_stays,
        suffix_pair=suffix_pair,
        suffix_pair_stays=suffix_pair_stays,
        starts=[first_at[k] for k in keys5],
    )


class _BoardsBeaten:
    """Which live boards a row beats and loses to, as bitmasks over the boards (bit ``j`` for
    board ``j``): the boards sorted by that row's key, with the union of the first ``i``."""

    def __init__(self, live: Sequence[Setting], rules: OfcRules) -> None:
        self.rows: list[tuple[list[int], list[int], int]] = []
        everyone = (1 << len(live)) - 1
        keys = [board_keys(board, rules.royalties).rows for board in live]  # jokers chosen
        for row in range(3):
            keyed = sorted((board[row], j) for j, board in enumerate(keys))
            union = [0]
            for _, j in keyed:
                union.append(union[-1] | 1 << j)
            self.rows.append(([key for key, _ in keyed], union, everyone))

    def row(self, row: int, keys: Sequence[int]) -> tuple[list[int], list[int]]:
        """For each key in ``row``: the boards it beats, and the boards it loses to."""
        sorted_keys, union, everyone = self.rows[row]
        beaten = [union[bisect_left(sorted_keys, key)] for key in keys]
        losing = [everyone ^ union[bisect_right(sorted_keys, key)] for key in keys]
        return beaten, losing


@cache
def _subset_masks(n: int, size: int) -> tuple[int, ...]:
    """The bitmasks of the ``size``-subsets of ``n`` positions, in ``combinations`` order."""
    return tuple(sum(1 << i for i in chosen) for chosen in combinations(range(n), size))


@cache
def _front_keys_by_ranks() -> tuple[int, ...]:
    """Front keys by the three ranks written in base 13 (a front key depends on ranks only)."""
    return tuple(
        front_key((a * 4, b * 4 + 1, c * 4 + 2))
        for a in range(13)
        for b in range(13)
        for c in range(13)
    )


@cache
def _index_of_mask(n: int) -> dict[int, int]:
    """The place of each 5-subset's mask in :func:`_subset_masks` order."""
    return {mask: i for i, mask in enumerate(_subset_masks(n, 5))}


@cache
def _stays_by_key(least: int | None) -> tuple[bool, ...]:
    """Whether a 5-card key of category ``least`` or better (None: no key) stays."""
    return tuple(least is not None and category_index(key) >= least for key in range(NUM_KEYS))


def _setting(
    hand: tuple[Card, ...],
    mask_b: int,
    mask_m: int,
    mask_t: int,
    value: int,
    scale: int,
    constant: Fraction,
    rules: OfcRules,
) -> FantasySetting:
    def cards(mask: int) -> tuple[Card, ...]:  # strongest card first, as players write rows
        return tuple(card for i, card in reversed(list(enumerate(hand))) if mask >> i & 1)

    used = mask_b | mask_m | mask_t
    setting = (cards(mask_b), cards(mask_m), cards(mask_t))
    discards = cards(((1 << len(hand)) - 1) ^ used)
    return FantasySetting(
        setting=setting,
        discards=discards,
        royalties=row_royalties(setting, rules.royalties),
        stays=rules.stays(setting),
        objective=Fraction(value, scale) + constant,
    )


def setting_objective(setting: Setting, rules: OfcRules, objective: Objective) -> Fraction:
    """The objective of one complete setting, straight from the rules (fouled: it earns no
    royalty, does not stay and loses every row)."""
    from handsolver.models.ofc import score

    if objective.opponents:
        total: Fraction = Fraction(
            sum(score(setting, board, rules.royalties) for board in objective.opponents)
        )
        if objective.mean:
            total /= len(objective.opponents)
    else:
        total = Fraction(row_royalties(setting, rules.royalties).total)
    if rules.stays(setting):
        total += objective.stay_value
    return total


__all__ = [
    "FantasySetting",
    "FantasySolution",
    "Objective",
    "check_fantasy_hand",
    "check_opponents",
    "setting_objective",
    "solve_fantasyland",
]
