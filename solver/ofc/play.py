"""An open-face position played out: every legal action ranked by the points it is expected to
win.

A position is my board as it stands, the cards dealt to me this street (5 on the first street,
then, as the variant's :class:`~handsolver.models.ofc.Streets` say, 3 with 2 placed and 1
discarded in Pineapple, 1 placed in classic), the opponents' boards and the dead cards I have
seen (my discards).  An action's value is the mean, over the deals still to come, of my points
against every opponent (rows, scoop, royalties) plus ``fantasy_value`` when my board earns
fantasyland.

- **Exact** when every opponent's board is complete and enumerating the streets after this
  one takes at most :data:`MAX_EXACT_WORK` (Pineapple: at most one street after this one;
  classic: at most three): every deal of those streets is enumerated, each street played by
  its best action (:class:`ExactValues`).
- **Sampled** otherwise: ``samples`` deals of the cards not seen (the same deals for every
  action), with standard errors.  In a deal the opponents' remaining streets are played first,
  then mine; the last street of each board is played by its best action against the boards it
  meets (the opponents' by their own royalties and fantasyland), and every earlier street by
  the *policy*: the action whose rows, as they stand, score best by :func:`policy_score`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, permutations, product

from handsolver.models.cards import JOKERS, Card, InputError, card_name, cards_of, mask_of
from handsolver.models.ofc import (
    BOTTOM,
    HAND_SIZE,
    PINEAPPLE,
    TOP,
    BoardKeys,
    OfcRules,
    Streets,
    keys_of_options,
    keys_of_rows,
    order_of_key,
    row_keys,
    score_keys,
)

CAPACITY = (5, 5, 3)  # bottom, middle, top: the engine's row order
MAX_SAMPLES = 1_000_000
Board = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
"""A board being built, in the engine's row order: bottom, middle, top."""


@dataclass(frozen=True)
class Action:
    """The cards one street adds to each row (bottom, middle, top) and the card discarded."""

    rows: Board
    discard: Card | None


@dataclass(frozen=True)
class ActionValue:
    action: Action
    value: Fraction | float
    """Exact points (a fraction), or a sample mean."""
    stderr: float | None
    """The sample mean's standard error; None when exact."""


@dataclass(frozen=True)
class PlayAnswer:
    actions: tuple[ActionValue, ...]
    """Best first; equal values in the order :func:`legal_actions` lists them."""
    exact: bool
    deals: int
    """Deals enumerated (exact) or sampled."""


@dataclass(frozen=True)
class Position:
    """What I see: my board, my cards this street, the opponents' boards, the dead cards."""

    board: Board
    dealt: tuple[Card, ...]
    opponents: tuple[Board, ...]
    dead: tuple[Card, ...] = ()
    streets: Streets = PINEAPPLE
    """How the variant deals (the street and the cards it deals must match it)."""

    def __post_init__(self) -> None:
        check_position(self)

    @property
    def placed(self) -> int:
        return sum(len(row) for row in self.board)

    def unseen(self, deck: Sequence[Card]) -> list[Card]:
        """The cards of ``deck`` (the table's, :attr:`OfcRules.deck`) not in any board, my hand
        this street or the dead cards."""
        known = set(self.dealt) | set(self.dead)
        for board in (self.board, *self.opponents):
            known.update(card for row in board for card in row)
        return [card for card in deck if card not in known]

    def cards(self) -> list[Card]:
        """Every card the position shows: the boards, my hand and the dead cards."""
        boards = (self.board, *self.opponents)
        return [*self.dealt, *self.dead, *(card for b in boards for row in b for card in row)]


def check_position(position: Position) -> None:
    """Refuse a position that cannot happen.

    :raises InputError: naming a repeated card, an overfull row or a wrong number of cards.
    """
    seen: set[Card] = set()
    boards = (position.board, *position.opponents)
    for card in position.cards():
        if card in seen:
            raise InputError(f"card {card_name(card)!r} is given twice")
        seen.add(card)
    for board in boards:
        for row, (cards, size) in enumerate(zip(board, CAPACITY, strict=True)):
            if len(cards) > size:
                name = ("bottom", "middle", "top")[row]
                raise InputError(f"the {name} row holds {size} cards, got {len(cards)}")
    if not 1 <= len(position.opponents) <= 2:
        raise InputError(f"one or two opponents, got {len(position.opponents)}")
    streets = position.streets
    before = [str(streets.before(street)) for street in range(streets.count)]
    counts = ", ".join(before[:-1]) + " or " + before[-1]
    placed = position.placed
    if streets.street_of(placed) is None:
        raise InputError(
            f"in {streets.name} open-face, a board holds {counts} cards before a street, "
            f"got {placed}"
        )
    wanted = streets.dealt_on(placed)
    if len(position.dealt) != wanted:
        raise InputError(
            f"in {streets.name} open-face, this street deals {wanted} card{'s' * (wanted > 1)}, "
            f"got {len(position.dealt)}"
        )
    for board in position.opponents:
        count = sum(len(row) for row in board)
        if count != HAND_SIZE and streets.street_of(count) is None:
            raise InputError(
                f"in {streets.name} open-face, an opponent's board holds {', '.join(before)} or "
                f"{HAND_SIZE} cards, got {count}"
            )


def legal_actions(
    board: Board, dealt: Sequence[Card], streets: Streets = PINEAPPLE
) -> list[Action]:
    """Every way to play a street: all 5 cards placed on the first, else the variant's count
    placed and the rest discarded (Pineapple 2 and 1, classic 1 and none), no row over its size
    (a card's place, never the order within a row, matters).

    >>> from handsolver.models.cards import parse_cards
    >>> from handsolver.models.ofc import CLASSIC
    >>> len(legal_actions(((), (), ()), parse_cards("Ac Kd 7h 5s 2c")))  # 3**5 less overfull
    232
    >>> len(legal_actions(((1, 2, 3, 4), (5, 6, 7, 8), (9,)), parse_cards("Ac Kd 7h")))
    21
    >>> len(legal_actions(((1, 2, 3, 4), (5, 6, 7, 8), (9,)), parse_cards("Ac"), CLASSIC))
    3
    """
    free = [size - len(row) for row, size in zip(board, CAPACITY, strict=True)]
    if not any(board) or streets.discards == 0:
        return list(_placements(tuple(dealt), free, None))
    actions: list[Action] = []
    for discard in dealt:  # one discard a street: Pineapple's
        kept = tuple(card for card in dealt if card != discard)
        actions.extend(_placements(kept, free, discard))
    return actions


def _placements(cards: tuple[Card, ...], free: list[int], discard: Card | None) -> Iterator[Action]:
    for rows in product(range(3), repeat=len(cards)):
        if all(rows.count(row) <= free[row] for row in range(3)):
            added = tuple(
                tuple(c for c, r in zip(cards, rows, strict=True) if r == row) for row in range(3)
            )
            yield Action((added[0], added[1], added[2]), discard)


def after(board: Board, action: Action) -> Board:
    """The board with the action's cards added."""
    return (board[0] + action.rows[0], board[1] + action.rows[1], board[2] + action.rows[2])


_ACE = 12
_REAL = (1 << 52) - 1  # the bits of the 52 cards: a row mask above them holds a joker


class Scorer:
    """Final boards scored fast, in whole points times the fantasyland value's denominator, by
    the rules of :mod:`handsolver.models.ofc` (:func:`~handsolver.models.ofc.keys_of_rows`,
    :func:`~handsolver.models.ofc.score_keys`; a board with a joker by
    :func:`~handsolver.models.ofc.keys_of_options`): each row's keys, order key and royalty
    cached by the row's cards as a bitmask."""

    def __init__(self, rules: OfcRules, fantasy_value: Fraction) -> None:
        self.rules = rules
        self.scale = fantasy_value.denominator
        self.bonus = fantasy_value.numerator
        self.rows: dict[int, tuple[int, int, int]] = {}
        self.options: dict[int, tuple[int, ...]] = {}
        self.policy_rows: dict[tuple[int, tuple[Card, ...]], tuple[float, tuple[int, int]]] = {}

    def row(self, index: int, mask: int) -> tuple[int, int, int]:
        """(row key, order key, royalty) of a complete row given as a card mask; a row with a
        joker as its strongest key (:func:`~handsolver.models.ofc.row_keys`)."""
        found = self.rows.get(mask * 3 + index)
        if found is None:
            key = self.keys(index, mask)[-1]
            royalties = self.rules.royalties
            table = (royalties.back, royalties.middle, royalties.front)[index]
            found = (key, order_of_key(index, key), table[key])
            self.rows[mask * 3 + index] = found
        return found

    def keys(self, index: int, mask: int) -> tuple[int, ...]:
        """Every key a complete row may take (:func:`~handsolver.models.ofc.row_keys`)."""
        found = self.options.get(mask * 3 + index)
        if found is None:
            found = row_keys(index, cards_of(mask))
            self.options[mask * 3 + index] = found
        return found

    def final_masks(self, masks: Sequence[int]) -> Final:
        """A complete board's :class:`~handsolver.models.ofc.BoardKeys` from its row masks."""
        if (masks[0] | masks[1] | masks[2]) > _REAL:
            options = [self.keys(i, masks[i]) for i in range(3)]
            return keys_of_options(options, self.rules.royalties)
        (kb, ob, rb), (km, om, rm), (kt, ot, rt) = (self.row(i, masks[i]) for i in range(3))
        return keys_of_rows((kb, km, kt), (ob, om, ot), (rb, rm, rt))

    def final(self, board: Board) -> Final:
        return self.final_masks([mask_of(row) for row in board])

    def scaled(self, mine: Final, theirs: Sequence[Final]) -> int:
        """My points against the opponents' final boards plus the fantasyland value, scaled."""
        total = sum(score_keys(mine, board) for board in theirs)
        return total * self.scale + self.bonus * mine.fantasy

    def value(self, mine: Board, theirs: Sequence[Final]) -> Fraction:
        return Fraction(self.scaled(self.final(mine), theirs), self.scale)

    def own(self, board: Board) -> Fraction:
        """A board's worth to its owner alone: royalties, a foul's usual cost, fantasyland."""
        fouled, _, royalty, fantasy = self.final(board)
        paid = FOUL_POINTS if fouled else royalty
        return Fraction(paid * self.scale + self.bonus * fantasy, self.scale)

    def policy_row(self, index: int, row: tuple[Card, ...]) -> tuple[float, tuple[int, int]]:
        """A row being built as :func:`policy_score` judges it: its score and its strength
        (the count of its most repeated rank and that rank; (0, -1) for an empty row)."""
        found = self.policy_rows.get((index, row))
        if found is not None:
            return found
        counts = rank_counts(row)
        strength = max(((n, rank) for rank, n in counts.items()), default=(0, -1))
        score = 0.0
        if index == TOP:
            if len(row) == 3:
                score += self.row(TOP, mask_of(row))[2]
            elif strength[0] == 2:
                score += max(0, strength[1] - 3)
            if strength[0] == 1:
                score -= strength[1] / 13  # a high card on top makes the middle's job harder
        else:
            weight = 1.5 if index == BOTTOM else 1.0
            for rank, n in counts.items():
                if n >= 2:
                    score += weight * (n - 1 + rank / 13)
                score += weight * n * rank / 13 / 5  # high cards low on the board
        found = (score, strength)
        self.policy_rows[(index, row)] = found
        return found

    def last_street_total(
        self, masks: Sequence[int], deals: Iterable[Sequence[Card]], theirs: Sequence[Final]
    ) -> int:
        """The sum over ``deals`` of the last street played by its best action, scaled, for a
        board (row masks) whose free places the street fills: every way to keep as many of
        the dealt cards as there are free places (the rest discarded), each kept card in each
        free place."""
        slots = [i for i in range(3) for _ in range(CAPACITY[i] - masks[i].bit_count())]
        patterns = sorted(set(permutations(slots)))  # which row each kept card goes to
        total = 0
        for deal in deals:
            best = None
            for kept in combinations(deal, len(slots)):
                for rows in patterns:
                    board = list(masks)
                    for row, card in zip(rows, kept, strict=True):
                        board[row] |= 1 << card
                    value = self.scaled(self.final_masks(board), theirs)
                    if best is None or value > best:
                        best = value
            assert best is not None
            total += best
        return total


def rank_counts(cards: Sequence[Card]) -> dict[int, int]:
    """How many cards of each rank a row holds, for the quick judgements of a row being built:
    a joker counts as one more of the most repeated rank (the highest among them; an ace if
    the row holds only jokers), never past four.

    >>> from handsolver.models.cards import parse_cards
    >>> rank_counts(parse_cards("Kc Kd 5h X1", jokers=True)), rank_counts((52, 53))
    ({11: 3, 3: 1}, {12: 2})
    """
    counts: dict[int, int] = {}
    wild = 0
    for card in cards:
        if card in JOKERS:
            wild += 1
        else:
            counts[card >> 2] = counts.get(card >> 2, 0) + 1
    if wild:
        rank = max(counts, key=lambda r: (counts[r], r), default=_ACE)
        counts[rank] = min(4, counts.get(rank, 0) + wild)
    return counts


Final = BoardKeys
"""A complete board scored: fouled, row keys (bottom, middle, top), royalties, fantasyland."""
FOUL_POINTS = score_keys(
    BoardKeys(True, (0, 0, 0), 0, False), BoardKeys(False, (0, 0, 0), 0, False)
)
"""What a fouled board pays a board that is not fouled and earns nothing (a scoop, -6)."""


def policy_score(board: Board, scorer: Scorer) -> float:
    """How the policy ranks a board being built (greater is better): the rows as they stand.

    A complete board is worth :meth:`Scorer.own`.  Otherwise each row is judged on its cards'
    ranks alone (pairs, trips, quads; no straights or flushes yet): a lower row weaker than the
    one above it costs 6 (the likely foul), the top earns its royalty, pairs and better in the
    middle and bottom earn their rank over 13 plus 1 a repeated card, and a card's rank counts
    a little on the bottom and middle (keep high cards low on the board).
    """
    if sum(len(row) for row in board) == HAND_SIZE:
        return float(scorer.own(board))
    (score_b, bottom), (score_m, middle), (score_t, top) = (
        scorer.policy_row(index, row) for index, row in enumerate(board)
    )
    score = score_b + score_m + score_t
    # A row already stronger than the one below it is a foul in the making.
    if top > middle:
        score -= 6
    if middle > bottom:
        score -= 6
    return score


def _policy_action(board: Board, dealt: Sequence[Card], scorer: Scorer) -> Action:
    actions = legal_actions(board, dealt, scorer.rules.streets)
    return max(actions, key=lambda action: policy_score(after(board, action), scorer))


def _best_last(
    board: Board,
    dealt: Sequence[Card],
    scorer: Scorer,
    theirs: Sequence[Final] | None,
) -> Fraction:
    """The value of the last street played by its best action (against ``theirs``, or alone)."""
    streets = scorer.rules.streets
    actions = legal_actions(board, dealt, streets)
    if theirs is None:
        return max(scorer.own(after(board, action)) for action in actions)
    return max(scorer.value(after(board, action), theirs) for action in actions)


MAX_EXACT_WORK = 1_000_000
"""The most work the exact values may take, in deals times ways to play them (see
:func:`exact_work`): Pineapple's one last street (at most about 79,000), classic's last three
single cards (about 590,000, under a second); two Pineapple streets or four classic ones take
millions."""


def exact_work(position: Position, deck: Sequence[Card]) -> tuple[int, int]:
    """The deals of the streets after this one (as sequences, from the unseen cards) and a
    bound on the work of enumerating them: each street's deals times the ways to keep its
    cards times three rows for each card kept.

    >>> from handsolver.models.cards import DECK
    >>> from handsolver.models.ofc import CLASSIC
    >>> full = ((0, 1, 2, 3, 4), (8, 9, 10, 11, 12), (16, 17, 18))
    >>> exact_work(Position(((20, 21, 22, 23), (24, 25, 26, 27), (28, 30)), (29,), (full,),
    ...                     streets=CLASSIC), DECK)  # 28 unseen, two single cards after this one
    (756, 6804)
    """
    streets = position.streets
    unseen = len(position.unseen(deck))
    placed = position.placed + streets.placed_on(position.placed)
    deals = work = 1
    ways = math.comb(streets.dealt, streets.placed) * 3**streets.placed
    while placed < HAND_SIZE:
        deals *= math.comb(unseen, streets.dealt)
        work *= math.comb(unseen, streets.dealt) * ways
        unseen -= streets.dealt
        placed += streets.placed
    return deals, work


def is_exact(position: Position, deck: Sequence[Card]) -> bool:
    """Whether the values can be exact: the opponents are complete and enumerating the streets
    after this one takes at most :data:`MAX_EXACT_WORK`."""
    complete = all(sum(len(r) for r in board) == HAND_SIZE for board in position.opponents)
    return complete and exact_work(position, deck)[1] <= MAX_EXACT_WORK


class ExactValues:
    """Boards valued exactly against complete opponent boards: every deal of every street to
    come enumerated, each street played by its best action; each board's value remembered by
    its rows and the cards still unseen (both as masks)."""

    def __init__(self, scorer: Scorer, theirs: Sequence[Final]) -> None:
        self.scorer = scorer
        self.theirs = theirs
        self.streets = scorer.rules.streets
        self.known: dict[tuple[int, int, int, int], Fraction] = {}

    def mean(self, masks: Sequence[int], unseen: Sequence[Card]) -> Fraction:
        """A board's value before its next street: the mean over that street's deals from
        ``unseen`` of the best action, in points (scaled by the fantasyland value's
        denominator)."""
        placed = sum(mask.bit_count() for mask in masks)
        if placed == HAND_SIZE:
            return Fraction(self.scorer.scaled(self.scorer.final_masks(masks), self.theirs))
        key = (masks[0], masks[1], masks[2], mask_of(unseen))
        found = self.known.get(key)
        if found is not None:
            return found
        deals = list(combinations(unseen, self.streets.dealt))
        if self.streets.is_last(placed):
            found = Fraction(self.scorer.last_street_total(masks, deals, self.theirs), len(deals))
        else:
            total = Fraction(0)
            board = _board_of(masks)
            for deal in deals:
                rest = [card for card in unseen if card not in deal]
                total += max(
                    self.mean([mask_of(row) for row in after(board, action)], rest)
                    for action in legal_actions(board, deal, self.streets)
                )
            found = total / len(deals)
        self.known[key] = found
        return found


def _board_of(masks: Sequence[int]) -> Board:
    bottom, middle, top = (tuple(cards_of(mask)) for mask in masks)
    return (bottom, middle, top)


def play(
    position: Position,
    rules: OfcRules | None = None,
    fantasy_value: Fraction = Fraction(0),
    samples: int = 1000,
    seed: int = 0,
    exact: bool | None = None,
    watch: Callable[[Iterable[int], int], Iterable[int]] | None = None,
) -> PlayAnswer:
    """Every legal action of the position ranked by its expected points (see the module).

    ``exact``: None computes exactly when :func:`is_exact` allows, else samples; False always
    samples (to check a sample against the exact values); True refuses to sample.  ``watch``
    wraps the sample numbers with their count (the command shows progress with it).

    :raises InputError: for a bad position or sample count, ``exact`` when it cannot be, or
        rules of another variant than the position's.
    """
    rules = rules or OfcRules()
    check_variant(position, rules)
    rules.check_cards(position.cards())
    if fantasy_value < 0:
        raise InputError(f"the fantasyland value must be 0 or more, got {fantasy_value}")
    scorer = Scorer(rules, fantasy_value)
    actions = legal_actions(position.board, position.dealt, position.streets)
    if exact and not is_exact(position, rules.deck):
        raise InputError(
            "exact values need every opponent's board complete and few enough deals to come "
            "(Pineapple's last street, classic's last three)"
        )
    if exact is not False and is_exact(position, rules.deck):
        theirs = [scorer.final(board) for board in position.opponents]
        unseen = position.unseen(rules.deck)
        search = ExactValues(scorer, theirs)
        values = [
            search.mean([mask_of(row) for row in after(position.board, action)], unseen)
            / scorer.scale
            for action in actions
        ]
        ranked = sorted(range(len(actions)), key=lambda i: -values[i])
        return PlayAnswer(
            tuple(ActionValue(actions[i], values[i], None) for i in ranked),
            True,
            exact_work(position, rules.deck)[0],
        )
    if not 1 <= samples <= MAX_SAMPLES:
        raise InputError(f"samples must be 1 to {MAX_SAMPLES:,}, got {samples}")
    sums = [0.0] * len(actions)
    squares = [0.0] * len(actions)
    rng = random.Random(seed)
    unseen = position.unseen(rules.deck)
    numbers: Iterable[int] = range(samples)
    for _ in numbers if watch is None else watch(numbers, samples):
        deck = unseen[:]
        rng.shuffle(deck)
        theirs = []
        for board in position.opponents:
            final = played_out(board, deck, scorer)
            theirs.append(scorer.final(final))
        for i, action in enumerate(actions):
            value = float(_finish(after(position.board, action), deck[:], scorer, theirs))
            sums[i] += value
            squares[i] += value * value
    means, errors = means_and_errors(sums, squares, samples)
    ranked = sorted(range(len(actions)), key=lambda i: -means[i])
    return PlayAnswer(
        tuple(ActionValue(actions[i], means[i], errors[i]) for i in ranked), False, samples
    )


def check_variant(position: Position, rules: OfcRules) -> None:
    """Refuse rules of another variant than the position's streets.

    :raises InputError: naming both.
    """
    if position.streets != rules.streets:
        raise InputError(
            f"the position is dealt as {position.streets.name} and the rules are "
            f"{rules.streets.name}'s"
        )


def played_out(board: Board, deck: list[Card], scorer: Scorer) -> Board:
    """An opponent's board completed from the top of ``deck`` (cards are taken off it), every
    street by the policy but the last, played by its best action for the board's owner."""
    streets = scorer.rules.streets
    while (placed := sum(len(row) for row in board)) < HAND_SIZE:
        dealt = [deck.pop() for _ in range(streets.dealt_on(placed))]
        if streets.is_last(placed):
            options = legal_actions(board, dealt, streets)
            board = after(board, max(options, key=lambda a: scorer.own(after(board, a))))
        else:
            board = after(board, _policy_action(board, dealt, scorer))
    return board


def _finish(
    board: Board,
    deck: list[Card],
    scorer: Scorer,
    theirs: Sequence[Final],
) -> Fraction:
    """My board completed from ``deck`` by the policy, its last street by its best action."""
    streets = scorer.rules.streets
    while not streets.is_last(placed := sum(len(row) for row in board)) and placed < HAND_SIZE:
        dealt = [deck.pop() for _ in range(streets.dealt)]
        board = after(board, _policy_action(board, dealt, scorer))
    if sum(len(row) for row in board) == HAND_SIZE:
        return scorer.value(board, theirs)
    dealt = [deck.pop() for _ in range(streets.dealt)]
    return _best_last(board, dealt, scorer, theirs)


def means_and_errors(
    sums: list[float], squares: list[float], samples: int
) -> tuple[list[float], list[float]]:
    """Each action's mean over ``samples`` playouts and its standard error (NaN below two),
    from the sums of its values and of their squares."""
    means = [total / samples for total in sums]
    errors = []
    for total, square in zip(sums, squares, strict=True):
        if samples < 2:
            errors.append(math.nan)
            continue
        variance = max(0.0, (square - total * total / samples) / (samples - 1))
        errors.append(math.sqrt(variance / samples))
    return means, errors
