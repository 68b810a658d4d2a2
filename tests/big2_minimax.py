"""An independent Big 2 minimax for the tests: plain recursion over every legal move, with no
pruning and no table, and its own play classification, beating order and turn order, written
from the rules' data (``Rules``: suit order, straights from low to high, five-card order, flush
order, pass rule, bombs, four-card plays, the unbeatable straight flush, the opening alone) and
not from the engine's code.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations

from handsolver.models.big2 import Play
from handsolver.models.big2_rules import FlushOrder, Quads, Rules
from handsolver.models.cards import cards_of, mask_of
from handsolver.solver.big2.game.positions import Position

Cards = frozenset[int]
# A classified play: (category, value); plays compare only within one category.
Classified = tuple[str, tuple[int, ...]]


def _big2_rank(card: int) -> int:
    """3 -> 0 .. A -> 11, 2 -> 12."""
    return (card // 4 + 12) % 13


def _suit_value(card: int, rules: Rules) -> int:
    return 3 - rules.suit_order.index("cdhs"[card % 4])


def _card_value(card: int, rules: Rules) -> tuple[int, int]:
    return _big2_rank(card), _suit_value(card, rules)


def classify(cards: Cards, rules: Rules) -> Classified | None:
    """What the cards make under ``rules``, or None when they are not a play."""
    size = len(cards)
    ranks = Counter(card // 4 for card in cards)
    top = max(_card_value(card, rules) for card in cards)
    if size == 4 and sorted(ranks.values()) == [2, 2]:
        # Two pair alone, below four of a kind alone, by its highest card.
        return ("4", (0, *top)) if rules.two_pair_alone else None
    if size <= 4 and len(ranks) == 1:
        allowed = {1: True, 2: True, 3: rules.triples, 4: rules.quads is not Quads.WITH_KICKER}
        return (f"{size}", (1, *top) if size == 4 else top) if allowed[size] else None
    if size == 13:
        return ("13", top) if rules.dragon and len(ranks) == 13 else None
    if size != 5:
        return None
    one_suit = len({card % 4 for card in cards}) == 1
    runs = [tuple(sorted(run)) for run in rules.straights_low_to_high]
    in_order = tuple(sorted(ranks))
    kind: str
    value: tuple[int, ...]
    if len(ranks) == 5 and in_order in runs and one_suit and rules.unbeatable_straight_flush:
        kind, value = "straight flush", ()  # all alike: none beats another
    elif len(ranks) == 5 and in_order in runs:
        kind, value = ("straight flush" if one_suit else "straight"), (runs.index(in_order), *top)
    elif one_suit:
        if not rules.flushes:
            return None
        kind = "flush"
        down = tuple(sorted((_big2_rank(card) for card in cards), reverse=True))
        suit = _suit_value(next(iter(cards)), rules)
        if rules.flush_order is FlushOrder.HIGH_CARD:
            value = top
        else:
            value = (suit, *down) if rules.flush_order is FlushOrder.SUIT else (*down, suit)
    else:
        shape = sorted(ranks.values())
        by_count = sorted(ranks, key=lambda r: (ranks[r], _big2_rank(r * 4)), reverse=True)
        if shape == [2, 3]:
            kind, value = "full house", (_big2_rank(by_count[0] * 4),)
        elif shape == [1, 4] and rules.quads is not Quads.NO_KICKER:
            kind, value = "four of a kind + 1", (_big2_rank(by_count[0] * 4),)
        elif shape == [1, 2, 2] and rules.two_pair:
            high, low = by_count[0], by_count[1]
            best = max(_suit_value(c, rules) for c in cards if c // 4 == high)
            kind, value = "two pair + 1", (_big2_rank(high * 4), _big2_rank(low * 4), best)
        else:
            return None
    return "5", (rules.five_card_order.index(kind), *value)


def beats(play: Cards, target: Cards, rules: Rules) -> bool:
    mine, theirs = classify(play, rules), classify(target, rules)
    assert mine is not None and theirs is not None
    if rules.bombs and len(target) == 1 and _big2_rank(next(iter(target))) == 12:
        order = rules.five_card_order
        if mine[0] == "5" and order[mine[1][0]] in ("four of a kind + 1", "straight flush"):
            return True
    return mine[0] == theirs[0] and mine[1] > theirs[1]


def plays_in(
    hand: Cards, rules: Rules, sizes: tuple[int, ...] = (1, 2, 3, 4, 5, 13)
) -> Iterator[Cards]:
    for size in sizes:
        for combo in combinations(sorted(hand), size):
            if classify(frozenset(combo), rules) is not None:
                yield frozenset(combo)


# A state: hands, to move, play to beat (None: free lead), who made it, who passed.
MState = tuple[tuple[Cards, ...], int, Cards | None, int, frozenset[int]]


def moves_of(state: MState, rules: Rules) -> list[Cards | None]:
    """Every legal move; None is a pass."""
    hands, mover, beat, _, _ = state
    if beat is None:
        return list(plays_in(hands[mover], rules))
    replies: list[Cards | None] = [
        p for p in plays_in(hands[mover], rules) if beats(p, beat, rules)
    ]
    return [*replies, None]


def next_state(state: MState, move: Cards | None, rules: Rules) -> MState | int:
    """The state after ``move``; the mover's number when the hand is empty."""
    hands, mover, beat, by, passed = state
    count = len(hands)
    if move is not None:
        hands = tuple(hand - move if p == mover else hand for p, hand in enumerate(hands))
        if not hands[mover]:
            return mover
        beat, by = move, mover
    elif rules.pass_final:
        passed = passed | {mover}
    # Everyone who may still play in this trick, in turn order after the mover.
    for step in range(1, count + 1):
        player = (mover + step) % count
        if player == by:
            return (hands, by, None, -1, frozenset())
        if player not in passed:
            return (hands, player, beat, by, passed)
    raise AssertionError("no player left")


def minimax(state: MState | int, target: int, rules: Rules) -> bool:
    """Whether ``target`` can force going out first: plain recursion over every move."""
    if isinstance(state, int):
        return state == target
    results = (minimax(next_state(state, m, rules), target, rules) for m in moves_of(state, rules))
    return any(results) if state[1] == target else all(results)


# -- random small positions --------------------------------------------------------------------


def random_position(rng: random.Random, players: int, most: int, rules: Rules) -> Position:
    """Hands of 1..most cards drawn from a few ranks (so that pairs, straights and full houses
    happen), a random player to move and, half the time, a random play to beat."""
    low = rng.randrange(13)
    ranks = [(low + i) % 13 for i in range(rng.choice((5, 6, 8)))]
    deck = [rank * 4 + suit for rank in ranks for suit in range(4)]
    rng.shuffle(deck)
    hands = []
    for _ in range(players):
        size = rng.randint(1, most)
        hands.append(frozenset(deck[:size]))
        del deck[:size]
    to_move = rng.randrange(players)
    beat = by = None
    passed: frozenset[int] = frozenset()
    if rng.random() < 0.5:
        spare = frozenset(deck[:8])
        candidates = list(plays_in(spare, rules, (1, 2, 3, 4, 5)))
        if candidates:
            cards = rng.choice(candidates)
            beat = Play.from_cards(cards, rules)
            by = rng.choice([p for p in range(players) if p != to_move])
            if rules.pass_final:
                # Players between the mover and the maker may or may not have passed.
                others = [p for p in range(players) if p not in (to_move, by)]
                passed = frozenset(p for p in others if rng.random() < 0.5)
    return Position(tuple(mask_of(h) for h in hands), to_move, beat, by, passed)


def minimax_answer(position: Position, rules: Rules) -> tuple[list[bool], dict[Cards | None, bool]]:
    """Every player's forced win and the mover's verdict per move, by :func:`minimax`."""
    hands = tuple(frozenset(cards_of(hand)) for hand in position.hands)
    beat = frozenset(cards_of(position.beat.mask)) if position.beat is not None else None
    players = len(hands)
    passed = set(position.passed)
    if beat is not None and rules.pass_final:
        assert position.by is not None
        turn = (position.by + 1) % players
        while turn != position.to_move:
            passed.add(turn)
            turn = (turn + 1) % players
    root: MState = (
        hands,
        position.to_move,
        beat,
        -1 if position.by is None else position.by,
        frozenset(passed),
    )
    moves = moves_of(root, rules)
    if position.start:
        low = min((c for h in hands for c in h), key=lambda c: _card_value(c, rules))
        moves = [m for m in moves if m is not None and low in m]
        if rules.open_alone:
            moves = [m for m in moves if m == {low}]
    children = [next_state(root, m, rules) for m in moves]
    verdicts = {
        m: minimax(child, position.to_move, rules) for m, child in zip(moves, children, strict=True)
    }
    forced = []
    for target in range(players):
        values = [minimax(child, target, rules) for child in children]
        forced.append(any(values) if target == position.to_move else all(values))
    return forced, verdicts
