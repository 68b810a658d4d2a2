"""Fantasyland set exactly: the best ways to set 13 of 13 to 17 cards, by an objective, proven.

The objective of a setting that is not fouled is its royalties, plus ``stay_value`` points when
it stays in fantasyland, plus, against known opponent boards, the row points won from each (1 a
row, 3 more for all three) with royalties counted per opponent as the score counts them (mine
paid by each, theirs paid to each).  A fouled setting is never better than the best legal one
(it earns nothing and loses every row), so only legal settings are searched.

The search is branch and bound over bottom, then top, then middle:

- every 5-card subset of the hand is keyed once, with its value as a bottom and as a middle,
  every 3-card subset with its value as a top (a row's value is its royalty, its row points and
  the stay value when the row alone stays; the leaf takes the stay value once);
- bottoms are visited by an upper bound (their value + the best middle and top together that
  fit under them, from running maxima over the middles by key), tops by their value, and a
  branch stops as soon as its bound cannot beat the k-th best objective found so far (ties are
  cut too: they could not enter the list);
- for a bottom and a top the middles are the 5-card subsets of the cards left (126 at most for
  17 cards) that fit between them.

Every setting is either visited or cut by a bound that it cannot beat, so the answer is proven.

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
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

from handsolver.models.cards import Card, InputError, card_name
from handsolver.models.chinese import front_key, front_order_table
from handsolver.models.ofc import (
    BOTTOM,
    MAX_FANTASY_CARDS,
    MIDDLE,
    MIN_FANTASY_CARDS,
    TOP,
    OfcRules,
    RowRoyalties,
    is_foul,
    row_royalties,
)
from handsolver.models.poker import NUM_KEYS, category_index, poker_key
from handsolver.models.split import Setting

MAX_OPPONENTS = 2
MAX_TOP = 1000
_SKIP = 8  # middles a bottom looks past to tighten its bound
_TOP_CATEGORY = 13**3  # a front key is its category times this plus its ranks
_NONE = -(1 << 62)  # the value of no setting: below every real one


@dataclass(frozen=True)
class Objective:
    """What a setting is worth: royalties, ``stay_value`` points for staying in fantasyland and,
    when ``opponents`` (complete boards) are given, the points scored against each."""

    stay_value: Fraction = Fraction(0)
    opponents: tuple[Setting, ...] = ()

    def __post_init__(self) -> None:
        if self.stay_value < 0:
            raise InputError(f"the stay value must be 0 or more, got {self.stay_value}")
        if len(self.opponents) > MAX_OPPONENTS:
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


def check_fantasy_hand(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The hand sorted, if it has 13 to 17 distinct cards.

    :raises InputError: naming a repeated card or the wrong count.
    """
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


def check_opponents(hand: Sequence[Card], opponents: Sequence[Setting]) -> None:
    """Refuse a card that is in the hand and an opponent's board, or in two boards.

    :raises InputError: naming the card.
    """
    used = set(hand)
    for board in opponents:
        for card in (card for row in board for card in row):
            if card in used:
                raise InputError(f"card {card_name(card)!r} is given twice")
            used.add(card)


def _sign(a: int, b: int) -> int:
    return (a > b) - (a < b)


def solve_fantasyland(
    cards: Sequence[Card],
    rules: OfcRules | None = None,
    objective: Objective | None = None,
    top: int = 1,
    above: Fraction | None = None,
) -> FantasySolution:
    """The ``top`` best settings of a fantasyland hand (13 to 17 cards) by ``objective``.

    The objectives listed are the ``top`` largest over every legal setting, counted with
    multiplicity (settings that differ only in discards or kickers each count).  With
    ``above``, only settings whose objective is greater are listed (maybe none): the search
    starts with that bar, so what cannot clear it is cut at once.

    :raises InputError: for a bad hand, a repeated card or a bad objective.
    """
    rules = rules or OfcRules()
    objective = objective or Objective()
    if not 1 <= top <= MAX_TOP:
        raise InputError(f"--top must be 1 to {MAX_TOP}, got {top}")
    hand = check_fantasy_hand(cards)
    opponents = objective.opponents
    check_opponents(hand, opponents)
    live = [board for board in opponents if not is_foul(board)]
    n = len(hand)
    # Integer arithmetic throughout: every value is scaled by the stay value's denominator.
    scale = objective.stay_value.denominator
    stay = objective.stay_value.numerator
    weight = max(1, len(opponents))  # my royalties are paid by every opponent
    sure_rows = len(opponents) - len(live)  # rows won against fouled boards, one per row each
    royalties = rules.royalties
    live_bottom = [poker_key(board[BOTTOM]) for board in live]
    live_middle = [poker_key(board[MIDDLE]) for board in live]
    live_top = [front_key(board[TOP]) for board in live]

    rule = rules.stay_rule
    # A row's value: its royalty (paid by every opponent), the rows it wins (against fouled
    # boards, one each), without the stay value, which the search adds once.
    per_royalty, per_row = scale * weight, scale
    constant_rows = scale * sure_rows

    # Five-card subsets, in one order: key, mask, value as bottom and as middle, whether it
    # stays as bottom and as middle, outcomes against the live opponents as bottom and middle.
    keys5 = list(map(poker_key, combinations(hand, 5)))
    masks5 = _subset_masks(n, 5)
    index_of_mask = _index_of_mask(n)
    bits = [1 << i for i in range(n)]
    back, middle = royalties.back, royalties.middle
    plain_b = [per_royalty * back[k] + constant_rows for k in keys5]
    plain_m = [per_royalty * middle[k] + constant_rows for k in keys5]
    no_wins: tuple[int, ...] = ()
    wins_b = [no_wins] * len(keys5)
    wins_m = [no_wins] * len(keys5)
    if live:
        wins_b = [tuple(_sign(k, o) for o in live_bottom) for k in keys5]
        wins_m = [tuple(_sign(k, o) for o in live_middle) for k in keys5]
        plain_b = [v + per_row * sum(w) for v, w in zip(plain_b, wins_b, strict=True)]
        plain_m = [v + per_row * sum(w) for v, w in zip(plain_m, wins_m, strict=True)]
    bottom_stays = _stays_by_key(rule.bottom)
    middle_stays = _stays_by_key(rule.middle)
    staying_b = [bottom_stays[k] for k in keys5]
    staying_m = [middle_stays[k] for k in keys5]

    order_table = front_order_table()
    threes = []
    front_of_ranks = _front_keys_by_ranks()
    for mask, (c1, c2, c3) in zip(_subset_masks(n, 3), combinations(hand, 3), strict=True):
        key = front_of_ranks[(c1 >> 2) * 169 + (c2 >> 2) * 13 + (c3 >> 2)]
        stays_t = rule.top is not None and key // _TOP_CATEGORY >= rule.top
        wins_t = tuple(_sign(key, k) for k in live_top)
        plain_t = per_royalty * royalties.front[key] + per_row * sum(wins_t) + constant_rows
        threes.append(
            (plain_t + stay * stays_t, plain_t, stays_t, key, order_table[key], mask, wins_t)
        )
    # Tops by value with the stay value (the order the search breaks on), the stronger first.
    threes.sort(key=lambda t: (-t[0], -t[3], t[5]))
    # The best top (without the stay value) that fits under each middle key, and whether one
    # that stays does: tops by order key, running maxima.
    by_order = sorted((t[4], t[1], t[2]) for t in threes)
    order_keys = [entry[0] for entry in by_order]
    top_best: list[int] = []
    top_stays: list[bool] = []
    for _, plain, stays in by_order:
        top_best.append(max(top_best[-1], plain) if top_best else plain)
        top_stays.append((top_stays[-1] if top_stays else False) or stays)

    # Middles from the strongest key down.  From each place on: the best middle value and the
    # best middle and top value together (without the stay value), and whether any stays.  The
    # middles that fit under a bottom are a suffix, and a scan stops where the suffix cannot
    # beat the k-th best.
    middles = sorted(
        zip(keys5, masks5, plain_m, staying_m, range(len(keys5)), strict=True), reverse=True
    )
    count = len(middles)
    first_at: dict[int, int] = {}
    for i, entry in enumerate(middles):
        first_at.setdefault(entry[0], i)
    suffix_plain = [0] * count
    suffix_stays = [False] * count
    suffix_pair = [0] * count
    suffix_pair_stays = [False] * count
    best, stays_any, best_pair, pair_stays = _NONE, False, _NONE, False
    fits, tops_count = -1, len(order_keys)  # the last top not above the middle's key
    for i in range(count - 1, -1, -1):  # keys rising
        key, _, plain, stays, _ = middles[i]
        if plain > best:
            best = plain
        stays_any = stays_any or stays
        while fits + 1 < tops_count and order_keys[fits + 1] <= key:
            fits += 1
        if fits >= 0:
            if plain + top_best[fits] > best_pair:
                best_pair = plain + top_best[fits]
            pair_stays = pair_stays or stays or top_stays[fits]
        suffix_plain[i], suffix_stays[i] = best, stays_any
        suffix_pair[i], suffix_pair_stays[i] = best_pair, pair_stays

    # A scoop is worth 3 more a live opponent; bounds count it as won.
    scoop_bound = 3 * scale * len(live)
    starts = [first_at[k] for k in keys5]
    bounds = [
        plain_b[b]
        + suffix_pair[start]
        + scoop_bound
        + stay * (staying_b[b] or suffix_pair_stays[start])
        for b, start in enumerate(starts)
    ]
    # By bound, then the stronger bottom; masks make the order total.
    bottoms = sorted(zip(bounds, keys5, masks5, range(len(keys5)), strict=True), reverse=True)

    # Their royalties, and the scoop of every fouled board (its rows are counted in the rows').
    constant = 3 * sure_rows - sum(row_royalties(board, royalties).total for board in live)
    heap: list[tuple[int, int, int, int, int]] = []  # (value, -seen, bottom, middle, top)
    seen = 0
    leaves = 0
    # The k-th best value once k are found; values are integers, so "above" is their floor.
    threshold: float = float("-inf")
    if above is not None:
        threshold = math.floor((above - constant) * scale)
    for bound, key_b, mask_b, b in bottoms:
        if bound <= threshold:
            break
        value_b, stays_b, outcomes_b = plain_b[b], staying_b[b], wins_b[b]
        start = starts[b]
        # Skip the strongest middles under this bottom that share its cards (a few: the suffix
        # from any place before the first that fits still bounds it).
        stop = min(start + _SKIP, count)
        while start < stop and middles[start][1] & mask_b:
            start += 1
        if start == count:
            continue
        bottom_part = value_b + suffix_plain[start] + scoop_bound
        stay_below = stays_b or suffix_stays[start]
        for t, (value_t, plain_t, stays_t, _, order_t, mask_t, wins_t) in enumerate(threes):
            if bottom_part + value_t + stay * stay_below <= threshold:
                break
            if mask_t & mask_b or order_t > key_b:
                continue
            staying = stays_b or stays_t
            if bottom_part + plain_t + stay * (staying or suffix_stays[start]) <= threshold:
                continue
            # The middles are the 5-card subsets of the cards left (6 of 14, 126 of 17), the
            # strongest cards first so that among equal values the stronger middle comes first.
            left = [one for one in reversed(bits) if not one & (mask_b | mask_t)]
            for chosen in combinations(left, 5):
                m = index_of_mask[sum(chosen)]
                key_m = keys5[m]
                if key_m > key_b or key_m < order_t:
                    continue
                value_m, stays_m = plain_m[m], staying_m[m]
                leaves += 1
                value = value_b + plain_t + value_m + stay * (staying or stays_m)
                if scoop_bound:
                    for row_b, row_m, row_t in zip(outcomes_b, wins_m[m], wins_t, strict=True):
                        if row_b == row_m == row_t != 0:
                            value += 3 * scale * row_b
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
    return FantasySolution(hand, settings, leaves)


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
    constant: int,
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
