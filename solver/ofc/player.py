"""The open-face player for every street (Pineapple or classic): each legal action valued by
playouts of a player that rarely fouls.

A decision is made in three steps:

1. **Exact** where :func:`handsolver.solver.ofc.play.is_exact` allows (every opponent complete
   and few enough deals to come: Pineapple's last street, classic's last three): the actions
   ranked by :func:`~handsolver.solver.ofc.play.play`, every deal enumerated.
2. **Screened**: every legal action judged by the rollout player's cheap judgement of the board
   it makes (:class:`~handsolver.solver.ofc.rollout.Judge`), the best ``kept`` kept.
3. **Played out**: for each of ``samples`` deals of the unseen cards (the same deals for every
   kept action: common random numbers), the opponents' boards are completed by the rollout
   player, then my board after each kept action; my last street is played by its best action
   against the opponents' final boards.  An action's value is the mean of my points against
   every opponent (rows, scoop, royalties) plus the fantasyland value when my board earns it.

The rollout player places each street by the judgement, which prices fouls in the making (see
:mod:`~handsolver.solver.ofc.rollout`); it fouls a few boards in a hundred where the policy of
:mod:`~handsolver.solver.ofc.play` fouls four in ten.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from handsolver.models.cards import Card, InputError, mask_of
from handsolver.models.ofc import HAND_SIZE, BoardKeys, OfcRules
from handsolver.solver.ofc.play import (
    MAX_SAMPLES,
    Action,
    ActionValue,
    Board,
    PlayAnswer,
    Position,
    Scorer,
    check_variant,
    is_exact,
    legal_actions,
    means_and_errors,
    play,
)
from handsolver.solver.ofc.rollout import Judge, Masks, best_street, finished, placements

FIRST_SAMPLES, FIRST_KEPT = 240, 14
"""The defaults on the first street: deals played out for each kept action, actions kept."""
LATER_SAMPLES, LATER_KEPT = 200, 12
"""The defaults on every later street."""


@dataclass(frozen=True)
class Advice:
    """A decision: the actions valued, best first, and how."""

    answer: PlayAnswer
    """The kept actions ranked (all of them when exact); values are means over ``deals``."""
    legal: int
    """Legal actions of the position."""
    kept: int
    """Actions valued by playouts after the judgement's screen (all when exact)."""
    method: str
    """How the values were made, in a sentence."""


def budget(position: Position, samples: int | None, kept: int | None) -> tuple[int, int]:
    """The (samples, kept) of a decision: the street's defaults unless given."""
    first = position.placed == 0
    return (
        samples if samples is not None else FIRST_SAMPLES if first else LATER_SAMPLES,
        kept if kept is not None else FIRST_KEPT if first else LATER_KEPT,
    )


def advise(
    position: Position,
    rules: OfcRules | None = None,
    fantasy_value: Fraction = Fraction(0),
    samples: int | None = None,
    kept: int | None = None,
    seed: int = 0,
    watch: Callable[[Iterable[int], int], Iterable[int]] | None = None,
) -> Advice:
    """The position's actions valued as the module says (exact where it can be).

    :raises InputError: a sample count or kept count out of range, a negative fantasy value,
        rules of another variant than the position's.
    """
    rules = rules or OfcRules()
    check_variant(position, rules)
    rules.check_cards(position.cards())
    if fantasy_value < 0:
        raise InputError(f"the fantasyland value must be 0 or more, got {fantasy_value}")
    samples, kept = budget(position, samples, kept)
    if not 1 <= samples <= MAX_SAMPLES:
        raise InputError(f"samples must be 1 to {MAX_SAMPLES:,}, got {samples}")
    if kept < 1:
        raise InputError(f"the actions kept must be 1 or more, got {kept}")
    streets = position.streets
    actions = legal_actions(position.board, position.dealt, streets)
    if is_exact(position, rules.deck):
        answer = play(position, rules, fantasy_value, exact=True)
        after = position.placed + streets.placed_on(position.placed)
        later = (HAND_SIZE - after) // streets.placed
        how = (
            "the last street played by its best action"
            if later <= 1
            else f"each of the {later} streets to come played by its best action"
        )
        method = f"exact: {answer.deals:,} deal(s) enumerated, {how}; {len(actions)} legal actions"
        return Advice(answer, len(actions), len(actions), method)
    scorer = Scorer(rules, fantasy_value)
    judge = Judge(scorer, float(fantasy_value))
    screened = screen(position.board, actions, judge)[:kept]
    answer = played_out_values(position, screened, scorer, judge, samples, seed, watch)
    method = (
        f"played out: {len(screened)} of {len(actions)} legal actions kept by the judgement of "
        f"the board they make, each over the same {samples:,} deals (mean ± standard error), "
        "every street by the rollout player, my last by its best action"
    )
    return Advice(answer, len(actions), len(screened), method)


def masks_of(board: Board) -> Masks:
    return (mask_of(board[0]), mask_of(board[1]), mask_of(board[2]))


def _added(masks: Masks, action: Action) -> Masks:
    a, b, c = (mask_of(row) for row in action.rows)
    return (masks[0] | a, masks[1] | b, masks[2] | c)


def screen(board: Board, actions: Sequence[Action], judge: Judge) -> list[Action]:
    """The actions ordered by the judgement of the board each makes, best first (ties in the
    order given); a board made complete is judged by its final worth."""
    masks = masks_of(board)
    complete = sum(len(row) for row in board) + sum(len(r) for r in actions[0].rows) == HAND_SIZE

    def judged(action: Action) -> float:
        after = _added(masks, action)
        return judge.final_worth(after) if complete else judge.worth(after)

    return sorted(actions, key=lambda action: -judged(action))


def played_out_values(
    position: Position,
    actions: Sequence[Action],
    scorer: Scorer,
    judge: Judge,
    samples: int,
    seed: int,
    watch: Callable[[Iterable[int], int], Iterable[int]] | None = None,
) -> PlayAnswer:
    """Each action's mean points over ``samples`` deals played out (see the module)."""
    rng = random.Random(f"ofc-player-{seed}")
    unseen = position.unseen(scorer.rules.deck)
    starts = [_added(masks_of(position.board), action) for action in actions]
    theirs_start = [masks_of(board) for board in position.opponents]
    sums = [0.0] * len(actions)
    squares = [0.0] * len(actions)
    numbers: Iterable[int] = range(samples)
    for _ in numbers if watch is None else watch(numbers, samples):
        deck = unseen[:]
        rng.shuffle(deck)
        theirs = [scorer.final_masks(finished(judge, board, deck)) for board in theirs_start]
        for i, start in enumerate(starts):
            value = my_finish(judge, start, deck[:], theirs) / scorer.scale
            sums[i] += value
            squares[i] += value * value
    means, errors = means_and_errors(sums, squares, samples)
    ranked = sorted(range(len(actions)), key=lambda i: -means[i])
    values = tuple(ActionValue(actions[i], means[i], errors[i]) for i in ranked)
    return PlayAnswer(values, False, samples)


def my_finish(judge: Judge, masks: Masks, deck: list[Card], theirs: Sequence[BoardKeys]) -> int:
    """My points (scaled, with the fantasyland bonus) for a board completed from ``deck`` by
    the rollout player, the last street by its best action against ``theirs``."""
    scorer = judge.scorer
    streets = scorer.rules.streets
    placed = sum(mask.bit_count() for mask in masks)
    while placed < HAND_SIZE and not streets.is_last(placed):
        dealt = [deck.pop() for _ in range(streets.dealt)]
        placed += streets.placed
        masks = best_street(judge, masks, dealt, last=False)
    if placed == HAND_SIZE:
        return scorer.scaled(scorer.final_masks(masks), theirs)
    dealt = [deck.pop() for _ in range(streets.dealt)]
    free = [5 - masks[0].bit_count(), 5 - masks[1].bit_count(), 3 - masks[2].bit_count()]
    best = None
    for added in placements(dealt, free, streets.placed):
        board = (masks[0] | added[0], masks[1] | added[1], masks[2] | added[2])
        value = scorer.scaled(scorer.final_masks(board), theirs)
        if best is None or value > best:
            best = value
    assert best is not None
    return best


def chosen(
    position: Position,
    rules: OfcRules,
    fantasy_value: Fraction,
    samples: int | None = None,
    kept: int | None = None,
    seed: int = 0,
) -> Action:
    """The player's action in a position: the best valued (see :func:`advise`)."""
    return advise(position, rules, fantasy_value, samples, kept, seed).answer.actions[0].action
