"""Open-face Chinese poker written apart from the library, for the tests to compare against.

Hands are valued by counting ranks and suits (no key tables), the order rule and royalties are
written from the rules' text, and boards are (top, middle, bottom) tuples of cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations, product
from typing import Any

Board = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # top, middle, bottom

HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL, QUADS, STRAIGHT_FLUSH = range(9)


def grouped_ranks(cards: Sequence[int]) -> tuple[int, ...]:
    """Ranks ordered by how many times they occur, then by rank, high first."""
    counts = Counter(card // 4 for card in cards)
    return tuple(r for r, _ in sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True))


def five_value(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """(category, ranks in the order they count) of five cards; greater tuples are stronger."""
    ranks = sorted((card // 4 for card in cards), reverse=True)
    counts = sorted(Counter(ranks).values(), reverse=True)
    flush = len({card % 4 for card in cards}) == 1
    distinct = len(set(ranks)) == 5
    straight_high = None
    if distinct and ranks[0] - ranks[4] == 4:
        straight_high = ranks[0]
    elif distinct and ranks == [12, 3, 2, 1, 0]:
        straight_high = 3
    if straight_high is not None:
        return (STRAIGHT_FLUSH if flush else STRAIGHT, (straight_high,))
    if flush:
        return (FLUSH, tuple(ranks))
    order = grouped_ranks(cards)
    category = {
        (4, 1): QUADS,
        (3, 2): FULL,
        (3, 1, 1): TRIPS,
        (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): PAIR,
        (1, 1, 1, 1, 1): HIGH,
    }[tuple(counts)]
    return (category, order)


def top_value(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """(category on the 5-card scale: high card, pair or trips; ranks as they count)."""
    counts = sorted(Counter(card // 4 for card in cards).values(), reverse=True)
    category = {(1, 1, 1): HIGH, (2, 1): PAIR, (3,): TRIPS}[tuple(counts)]
    return (category, grouped_ranks(cards))


def spelled(value: tuple[int, tuple[int, ...]]) -> tuple[int, ...]:
    """The category then every card's rank as the hand counts it (a pair's rank twice)."""
    category, order = value
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        high = order[0]
        return (category, *((3, 2, 1, 0, 12) if high == 3 else range(high, high - 5, -1)))
    if category in (HIGH, FLUSH):
        return (category, *order)
    multiplicity = {PAIR: (2, 1, 1, 1), TWO_PAIR: (2, 2, 1), TRIPS: (3, 1, 1), FULL: (3, 2)}
    times = multiplicity.get(category, (4, 1))
    return (category, *(r for r, k in zip(order, times, strict=False) for _ in range(k)))


def is_fouled(board: Board) -> bool:
    """Bottom below middle, or middle below the top compared as far as the top has cards."""
    top, middle, bottom = board
    if five_value(bottom) < five_value(middle):
        return True
    top_cards = spelled(top_value(top))
    middle_cards = spelled(five_value(middle))[: len(top_cards)]
    return middle_cards < top_cards


def bottom_royalty(cards: Sequence[int]) -> int:
    category, order = five_value(cards)
    if category == STRAIGHT_FLUSH and order[0] == 12:
        return 25
    return {STRAIGHT: 2, FLUSH: 4, FULL: 6, QUADS: 10, STRAIGHT_FLUSH: 15}.get(category, 0)


def middle_royalty(cards: Sequence[int]) -> int:
    category, order = five_value(cards)
    if category == STRAIGHT_FLUSH and order[0] == 12:
        return 50
    table = {TRIPS: 2, STRAIGHT: 4, FLUSH: 8, FULL: 12, QUADS: 20, STRAIGHT_FLUSH: 30}
    return table.get(category, 0)


def top_royalty(cards: Sequence[int]) -> int:
    category, order = top_value(cards)
    if category == TRIPS:
        return 10 + order[0]  # 222 is 10 ... AAA is 22
    if category == PAIR and order[0] >= 4:
        return order[0] - 3  # 66 is 1 ... AA is 9
    return 0


def royalties(board: Board) -> int:
    """The common table, from the rules' text; a fouled board earns none."""
    if is_fouled(board):
        return 0
    top, middle, bottom = board
    return top_royalty(top) + middle_royalty(middle) + bottom_royalty(bottom)


def score(mine: Board, theirs: Board) -> int:
    """My points against one opponent."""
    foul_mine, foul_theirs = is_fouled(mine), is_fouled(theirs)
    if foul_mine and foul_theirs:
        return 0
    if foul_mine or foul_theirs:
        rows = 3 if foul_theirs else -3
    else:
        rows = 0
        for a, b, value in zip(mine, theirs, (top_value, five_value, five_value), strict=True):
            rows += (value(a) > value(b)) - (value(a) < value(b))
    points = rows + (3 if rows == 3 else -3 if rows == -3 else 0)
    return points + royalties(mine) - royalties(theirs)


def stays(board: Board) -> bool:
    """Three of a kind on top, a full house or better in the middle, quads or better below."""
    if is_fouled(board):
        return False
    top, middle, bottom = board
    return (
        top_value(top)[0] == TRIPS
        or five_value(middle)[0] >= FULL
        or five_value(bottom)[0] >= QUADS
    )


def fantasy_cards(board: Board) -> int | None:
    """Progressive: QQ 14, KK 15, AA 16, trips 17."""
    if is_fouled(board):
        return None
    category, order = top_value(board[0])
    if category == TRIPS:
        return 17
    if category == PAIR and order[0] >= 10:
        return 14 + order[0] - 10
    return None


def every_board(cards: Sequence[int]) -> list[Board]:
    """Every board of 13 of ``cards`` (the rest discarded), fouled or not."""
    boards = []
    for kept in combinations(cards, 13):
        for bottom in combinations(kept, 5):
            rest = [c for c in kept if c not in bottom]
            for middle in combinations(rest, 5):
                top = tuple(c for c in rest if c not in middle)
                boards.append((top, middle, bottom))
    return boards


JOKERS = (52, 53)


def substitutions(cards: Sequence[int]) -> list[tuple[int, ...]]:
    """Every row of real cards the jokers of ``cards`` may make: each joker replaced by any of
    the 52 cards not in the row, two jokers by two different ones."""
    real = tuple(card for card in cards if card not in JOKERS)
    count = len(cards) - len(real)
    rows = []
    for extra in product(range(52), repeat=count):
        if len(set(extra)) == count and not set(extra) & set(real):
            rows.append(real + extra)
    return rows


def _distinct_values(cards: Sequence[int], value: Callable[..., Any]) -> list[tuple[int, ...]]:
    """One row of real cards for each distinct value the jokers may give the row."""
    found: dict[Any, tuple[int, ...]] = {}
    for row in substitutions(cards):
        found.setdefault(value(row), row)
    return list(found.values())


def resolved(board: Board) -> tuple[Board, bool]:
    """The board of real cards a board's jokers make, and whether it is fouled: of every choice
    that keeps the order, the strongest (which must be at least every other row by row);
    fouled when there is none (any choice is returned)."""
    top, middle, bottom = board
    tops = _distinct_values(top, top_value)
    middles = _distinct_values(middle, five_value)
    bottoms = _distinct_values(bottom, five_value)
    legal = [(t, m, b) for t in tops for m in middles for b in bottoms if not is_fouled((t, m, b))]
    if not legal:
        return (tops[0], middles[0], bottoms[0]), True

    def values(choice: Board) -> tuple[Any, ...]:
        t, m, b = choice
        return five_value(b), five_value(m), top_value(t)

    best = max(legal, key=values)
    for other in legal:
        assert all(x >= y for x, y in zip(values(best), values(other), strict=True))
    return best, False
