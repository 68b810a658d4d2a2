"""The value of fantasyland, as a fixed point, over random hands.

Being in fantasyland with ``n`` cards is worth ``V_n``: the mean over hands of the best
objective, royalties plus ``V_14`` when the setting stays (staying deals 14 cards, so the value
of staying is ``V_14`` itself):

    V_14 = mean(max(A, B + V_14))        V_n = mean(max(A, B + V_14))  for n = 15, 16, 17

where, for each hand, ``A`` is the best royalties of any setting and ``B`` the best royalties of
a setting that stays (no ``B``: the hand cannot stay).  With ``opponents`` (K boards a hand) the
royalties are replaced by the mean score against K opponent boards dealt from the cards not in
the hand (from the hand's own seed) and played by a board player (the rollout player of
:mod:`handsolver.solver.ofc.rollout` by default, or the policy of
:mod:`handsolver.solver.ofc.play`) valuing its own fantasyland at 0, as
:mod:`handsolver.solver.ofc.opponents` samples them: heads-up, the score counts both players'
royalties and the rows.  The score does not depend on the stay value, so the same two searches
serve.  Both are proven best by the search of
:mod:`handsolver.solver.ofc.fantasyland`, and the best objective for a stay value ``v`` is
``max(A, B + v)``: the choice changes once, where ``v = A - B``.  So every hand is solved once
(twice when its best setting does not stay), whatever the stay value, and the fixed point is
arithmetic: ``V = mean(max(A, B + V))`` is convex and piecewise linear in ``V`` with slope the
share that stays, below 1, and policy iteration (:func:`fixed_point`) reaches it exactly in a
few rounds.  At the fixed point a hand indifferent between staying and not is counted as
staying.

Standard errors: ``V_14`` by the delta method (``V`` solves ``mean(max(A, B + V) - V) = 0``, whose
slope is ``share - 1``), ``V_n`` adding the spread of its own hands to ``share_n`` times the
error of ``V_14``.  Without opponents a fantasyland hand is valued by what it earns from any
opponent who does not foul.

Classic open-face's fantasyland deals 13 cards, and staying deals 13 again: ``V_13`` is the one
fixed point (:func:`study_sizes`).

Normal hands (13 cards over the variant's streets) are dealt and played by the same board
player, valuing fantasyland at ``V_14`` (to 1/100 of a point), to measure how often they foul
and how often they earn fantasyland, and of which size.

Hands go in blocks of :data:`BLOCK`, each dealt from its own seed (``seed``, size, index), so the
answer is the same with any number of workers and a block saved by an earlier run
(:mod:`handsolver.solver.ofc.study_run`) is the block this run would compute.

>>> value, rounds = fixed_point([HandValues(10, None), HandValues(4, 0), HandValues(20, 20)])
>>> value, [str(v) for v in rounds]
(Fraction(30, 1), ['17', '30', '30'])
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import NamedTuple

from handsolver.models.cards import DECK, JOKERS, Card, InputError
from handsolver.models.ofc import OfcRules
from handsolver.models.poker import FULL_HOUSE
from handsolver.models.split import Setting
from handsolver.solver.ofc.opponents import BOARD_PLAYERS

SIZES = (14, 15, 16, 17)
"""Pineapple's fantasyland hands, the one a board that stays is dealt first."""
BLOCK = 50
"""Hands a job: one block is one line of a checkpoint."""


class HandValues(NamedTuple):
    """One fantasyland hand: the best royalties (or, with opponents, royalties and mean score)
    of any setting, and of one that stays."""

    best: Fraction
    staying: Fraction | None
    """None: no legal setting stays."""


class NormalValues(NamedTuple):
    """One normal hand played out whole by a board player."""

    royalties: int
    fouled: bool
    fantasy_cards: int | None


@dataclass(frozen=True)
class FantasyBlock:
    """Hands ``first`` to ``first + count - 1`` of fantasyland size ``size``."""

    size: int
    first: int
    count: int
    seed: int
    rules: OfcRules
    opponents: int = 0
    """Opponent boards a hand (0: royalties alone)."""
    player: str = BOARD_PLAYERS[0]
    """Who plays the opponent boards (:data:`~handsolver.solver.ofc.opponents.BOARD_PLAYERS`)."""


@dataclass(frozen=True)
class NormalBlock:
    """Normal hands ``first`` to ``first + count - 1``, fantasyland worth ``fantasy_value``."""

    first: int
    count: int
    seed: int
    fantasy_value: Fraction
    rules: OfcRules
    player: str = BOARD_PLAYERS[0]
    """Who plays the hands (:data:`~handsolver.solver.ofc.opponents.BOARD_PLAYERS`)."""


def study_sizes(rules: OfcRules) -> tuple[int, ...]:
    """The fantasyland hands a study values, the one a board that stays is dealt first:
    Pineapple's 14 to 17 cards, classic's 13.

    >>> study_sizes(OfcRules()), study_sizes(OfcRules(variant="classic"))
    ((14, 15, 16, 17), (13,))
    """
    fixed = rules.streets.fantasy_cards
    return SIZES if fixed is None else (fixed,)


def dealt_cards(
    seed: int, kind: str, size: int, index: int, deck: Sequence[Card] = DECK
) -> list[int]:
    """The cards of one hand: a shuffled ``deck``'s first ``size``, from its own seed."""
    return random.Random(f"ofc-{kind}-{seed}-{size}-{index}").sample(list(deck), size)


def hand_values(
    cards: Sequence[Card], rules: OfcRules, boards: Sequence[Setting] = ()
) -> HandValues:
    """The best royalties of any setting of a fantasyland hand, and of a setting that stays;
    against ``boards``, the best royalties and mean score against them.

    The second is a search with a stay value larger than any difference of objectives, keeping
    only settings above every objective without it (so only staying ones); it is skipped when
    the best setting stays, and when the hand has neither three cards of a rank nor a straight
    flush (every row that stays needs one).
    """
    from handsolver.solver.ofc.fantasyland import Objective, solve_fantasyland

    scored = Objective(Fraction(0), tuple(boards), mean=True) if boards else Objective()
    best = solve_fantasyland(cards, rules, scored).settings[0]
    if best.stays:
        return HandValues(best.objective, best.objective)
    if not _may_stay(cards, rules):
        return HandValues(best.objective, None)
    low, high = objective_range(rules, bool(boards))
    huge = Fraction(high - low + 1)
    staying = solve_fantasyland(
        cards, rules, replace(scored, stay_value=huge), above=huge + low - 1
    ).settings
    return HandValues(best.objective, staying[0].objective - huge if staying else None)


def objective_range(rules: OfcRules, scored: bool) -> tuple[int, int]:
    """The least and the most royalties a board can total under the rules' table (a fouled
    board earns none: 0 is in the range); scored, the least and the most one score against an
    opponent can be (the two royalty totals apart, and 6 for the rows).

    >>> objective_range(OfcRules(), False), objective_range(OfcRules(), True)
    ((0, 97), (-103, 103))
    """
    tables = (rules.royalties.back, rules.royalties.middle, rules.royalties.front)
    low, high = min(0, sum(map(min, tables))), max(0, sum(map(max, tables)))
    if scored:
        return low - high - 6, high - low + 6
    return low, high


def study_boards(cards: Sequence[Card], block: FantasyBlock, index: int) -> tuple[Setting, ...]:
    """The opponent boards of hand ``index`` of the block, from the hand's own seed (none when
    the block has no opponents)."""
    if not block.opponents:
        return ()
    from handsolver.solver.ofc.opponents import sampled_boards

    seed = f"study-{block.seed}-{block.size}-{index}"
    return sampled_boards(cards, block.opponents, seed, block.rules, player=block.player)


def _may_stay(cards: Sequence[Card], rules: OfcRules) -> bool:
    """False only when no setting can stay: every staying row needs three cards of a rank (trips
    on top, a full house or four of a kind) or a straight flush, and the hand has neither."""
    rule = rules.stay_rule
    if any(least is not None and least < FULL_HOUSE for least in (rule.middle, rule.bottom)):
        return True
    if any(card in JOKERS for card in cards):  # a joker may be the third card of a rank
        return True
    ranks = [0] * 13
    for card in cards:
        ranks[card >> 2] += 1
    if max(ranks) >= 3:
        return True
    held = set(cards)
    # A straight flush: five ranks in a row of one suit (the ace also below the deuce).
    return any(
        all(((low + step) % 13 * 4 + suit) in held for step in range(5))
        for suit in range(4)
        for low in range(-1, 9)
    )


def set_fantasy_block(block: FantasyBlock) -> list[HandValues]:
    """The values of one block of random fantasyland hands."""
    values = []
    for index in range(block.first, block.first + block.count):
        cards = dealt_cards(block.seed, "fantasy", block.size, index, block.rules.deck)
        boards = study_boards(cards, block, index)
        values.append(hand_values(cards, block.rules, boards))
    return values


def play_normal_block(block: NormalBlock) -> list[NormalValues]:
    """One block of normal hands dealt street by street and played by the block's player."""
    from handsolver.models.ofc import is_foul, row_royalties
    from handsolver.solver.ofc.opponents import board_player

    play = board_player(block.player, block.rules, block.fantasy_value)
    played = []
    for index in range(block.first, block.first + block.count):
        deck = dealt_cards(block.seed, "normal", len(block.rules.deck), index, block.rules.deck)
        board = play(deck)
        played.append(
            NormalValues(
                row_royalties(board, block.rules.royalties).total,
                is_foul(board),
                block.rules.fantasy_cards(board),
            )
        )
    return played


def blocks(count: int) -> list[tuple[int, int]]:
    """(first, count) of each block of ``count`` hands.

    >>> blocks(120)
    [(0, 50), (50, 50), (100, 20)]
    """
    return [(first, min(BLOCK, count - first)) for first in range(0, count, BLOCK)]


def fixed_point(hands: Sequence[HandValues]) -> tuple[Fraction, tuple[Fraction, ...]]:
    """The value ``V`` with ``V = mean(max(best, staying + V))``, exactly, and the value of each
    round of policy iteration from a stay value of 0 (the last two are ``V``).

    Each round takes the hands that stay at the current value (ties stay) and solves the
    straight line they give: ``V = (their staying + the others' best) / (hands that do not
    stay)``.  The line is a tangent of a convex function, so from the first round on the
    values climb to the fixed point and stop on it.

    :raises InputError: every hand stays at some round's value (then the value has no bound).
    """
    value = Fraction(0)
    rounds: list[Fraction] = []
    while True:
        total, leaving = Fraction(0), 0
        for hand in hands:
            if stays(hand, value):
                total += hand.staying  # type: ignore[operator]
            else:
                total += hand.best
                leaving += 1
        if leaving == 0:
            raise InputError(
                f"every hand sampled stays in fantasyland for a stay value of {float(value):.2f}, "
                "so staying has no bounded value: sample more hands"
            )
        following = Fraction(total, leaving)
        rounds.append(following)
        if len(rounds) > 1 and following == value:
            return following, tuple(rounds)
        value = following


def stays(hand: HandValues, value: Fraction) -> bool:
    """Whether the hand's best setting for the stay value ``value`` stays (ties stay)."""
    return hand.staying is not None and hand.staying + value >= hand.best


def objective(hand: HandValues, value: Fraction) -> Fraction:
    """The hand's best objective for the stay value ``value``: ``max(best, staying + value)``."""
    return hand.staying + value if stays(hand, value) else Fraction(hand.best)  # type: ignore[operator]


@dataclass(frozen=True)
class SizeValue:
    """One hand size: its mean royalties, the share that stays and the value of being there."""

    size: int
    hands: int
    royalties: float
    royalties_stderr: float
    share_staying: float
    share_stderr: float
    value: float
    value_stderr: float


@dataclass(frozen=True)
class NormalSummary:
    hands: int
    royalties: float
    royalties_stderr: float
    share_fouled: float
    share_fantasy: dict[int, float]
    """Share of hands earning fantasyland, by the cards it deals."""
    fantasy_value: float
    """The mean, over hands, of the value of the fantasyland earned (0 without)."""
    fantasy_value_stderr: float


@dataclass(frozen=True)
class FantasyStudy:
    sizes: tuple[SizeValue, ...]
    value: Fraction
    """The fixed point ``V_14``, exactly (for the hands sampled)."""
    rounds: tuple[Fraction, ...]
    """The stay value of each round of the policy iteration, the last the fixed point."""
    royalties: dict[int, tuple[float, ...]]
    """Each size's royalties (with opponents, and mean score) hand by hand, at the fixed point
    (for pictures)."""
    normal: NormalSummary | None


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The sample mean and its standard error (nan for fewer than 2 values)."""
    count = len(values)
    mean = sum(values) / count
    if count < 2:
        return mean, math.nan
    variance = sum((v - mean) ** 2 for v in values) / (count - 1)
    return mean, math.sqrt(variance / count)


def size_values(
    by_size: Mapping[int, Sequence[HandValues]], staying: int = SIZES[0]
) -> FantasyStudy:
    """Each size's royalties, share staying and value at the fixed point of the hands a board
    that stays is dealt (``by_size[staying]``: 14 cards, classic's 13), with standard errors;
    no normal hands."""
    value, rounds = fixed_point(by_size[staying])
    exact = value
    v = float(value)
    value_error = math.nan
    sizes: list[SizeValue] = []
    royalties_by_size: dict[int, tuple[float, ...]] = {}
    for size in sorted(by_size):  # the staying size first: the others' errors need its error
        hands = by_size[size]
        chosen = [stays(hand, exact) for hand in hands]
        royalties = [
            hand.staying if stay and hand.staying is not None else hand.best
            for hand, stay in zip(hands, chosen, strict=True)
        ]
        mean, mean_error = mean_and_error([float(r) for r in royalties])
        share, share_error = mean_and_error([float(stay) for stay in chosen])
        totals = [r + v * stay for r, stay in zip(royalties, chosen, strict=True)]
        if size == staying:
            # Delta method: V solves mean(objective - V) = 0, whose slope in V is share - 1.
            _, residual_error = mean_and_error([total - v for total in totals])
            value_error = residual_error / (1 - share)
            size_value, size_error = v, value_error
        else:
            size_value, own_error = mean_and_error(totals)
            size_error = math.sqrt(own_error**2 + (share * value_error) ** 2)
        sizes.append(
            SizeValue(
                size, len(hands), mean, mean_error, share, share_error, size_value, size_error
            )
        )
        royalties_by_size[size] = tuple(map(float, royalties))
    return FantasyStudy(tuple(sizes), exact, rounds, royalties_by_size, None)


def normal_summary(
    played: Sequence[NormalValues], values: dict[int, float], sizes: Sequence[int] = SIZES
) -> NormalSummary:
    """The normal hands' royalties, fouls and fantasyland earned (of ``sizes`` cards), worth
    ``values[cards]``."""
    count = len(played)
    mean, error = mean_and_error([float(hand.royalties) for hand in played])
    worth = [values[hand.fantasy_cards] if hand.fantasy_cards else 0.0 for hand in played]
    worth_mean, worth_error = mean_and_error(worth)
    return NormalSummary(
        hands=count,
        royalties=mean,
        royalties_stderr=error,
        share_fouled=sum(hand.fouled for hand in played) / count,
        share_fantasy={
            size: sum(hand.fantasy_cards == size for hand in played) / count for size in sizes
        },
        fantasy_value=worth_mean,
        fantasy_value_stderr=worth_error,
    )
