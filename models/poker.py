"""Standard high poker: the 5-card key, the best five of six or seven cards, showdowns and PE 54.

Categories from weakest to strongest: high card, pair, two pair, three of a kind, straight,
flush, full house, four of a kind, straight flush.  Within a category hands are compared by the
ranks that make the category (the trips before the pair of a full house, the higher pair of two
pair first), then by the kickers from high to low.  A-2-3-4-5 (the wheel) is the lowest straight
and the lowest straight flush.  Suits never break ties, so exact draws happen.

A hand's key is its place among the 7,462 distinct 5-card values: 0 is 7-5-4-3-2 offsuit, 7461
the royal flush, and a greater key is a stronger hand.

>>> from handsolver.models.cards import parse_cards
>>> wheel, six_high = parse_cards("Ah 2c 3d 4s 5h"), parse_cards("2c 3d 4s 5h 6c")
>>> category_of(poker_key(wheel)), poker_key(wheel) < poker_key(six_high)
('straight', True)
>>> poker_key(parse_cards("Kh Kd 9c 7s 2h")) == poker_key(parse_cards("Kc Ks 9d 7h 2s"))
True
>>> winners([parse_cards("8C TS KC 9H 4S"), parse_cards("7D 2S 5D 3S AC")])
[1]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations
from math import comb
from typing import NamedTuple

from handsolver.models.cards import (
    Card,
    CardParseError,
    InputError,
    parse_cards,
    parse_deal,
    rank_of,
)
from handsolver.models.strength import Strength

CATEGORY_NAMES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

NUM_KEYS = 7462
NUM_HANDS = 2_598_960

_ACE = 12
# Every straight as its ranks high to low, weakest (the wheel, 5-high) first.
_STRAIGHTS: tuple[tuple[int, ...], ...] = ((3, 2, 1, 0, _ACE),) + tuple(
    tuple(range(high, high - 5, -1)) for high in range(4, 13)
)


def _kickers(n: int, exclude: Iterable[int] = ()) -> list[tuple[int, ...]]:
    """All sets of ``n`` distinct ranks outside ``exclude``, high to low, weakest set first."""
    ranks = [rank for rank in range(12, -1, -1) if rank not in exclude]
    # combinations of a descending list come out strongest first.
    return list(combinations(ranks, n))[::-1]


def _shapes() -> list[tuple[int, tuple[int, ...]]]:
    """(category, ranks in the order they count) for every key, weakest first."""
    # _kickers lists the wheel as A-5-4-3-2, so compare rank sets.
    straights = {frozenset(ranks) for ranks in _STRAIGHTS}
    no_straight = [ranks for ranks in _kickers(5) if frozenset(ranks) not in straights]
    shapes: list[tuple[int, tuple[int, ...]]] = []
    shapes += [(HIGH_CARD, ranks) for ranks in no_straight]
    shapes += [(PAIR, (p, p) + ks) for p in range(13) for ks in _kickers(3, (p,))]
    shapes += [
        (TWO_PAIR, (hi, hi, lo, lo, k))
        for hi in range(13)
        for lo in range(hi)
        for k in range(13)
        if k not in (hi, lo)
    ]
    shapes += [(TRIPS, (t, t, t) + ks) for t in range(13) for ks in _kickers(2, (t,))]
    shapes += [(STRAIGHT, ranks) for ranks in _STRAIGHTS]
    shapes += [(FLUSH, ranks) for ranks in no_straight]
    shapes += [(FULL_HOUSE, (t, t, t, p, p)) for t in range(13) for p in range(13) if p != t]
    shapes += [(QUADS, (q, q, q, q, k)) for q in range(13) for k in range(13) if k != q]
    shapes += [(STRAIGHT_FLUSH, ranks) for ranks in _STRAIGHTS]
    return shapes


_SHAPES = _shapes()
_CATEGORY_OF_KEY = bytes(category for category, _ in _SHAPES)
# A key is found from the sum of its cards' rank weights, which is the rank multiset written as
# one 3-bit count per rank; flushes have a table of their own.
_WEIGHT_OF_RANK = tuple(1 << 3 * rank for rank in range(13))
_RANK_WEIGHT = tuple(_WEIGHT_OF_RANK[rank_of(card)] for card in range(52))


def _key_tables() -> tuple[dict[int, int], dict[int, int]]:
    """Rank-weight sum -> key, for hands that are not flushes and for flushes."""
    plain: dict[int, int] = {}
    flush: dict[int, int] = {}
    weight = _WEIGHT_OF_RANK.__getitem__
    for key, (category, ranks) in enumerate(_SHAPES):
        table = flush if category in (FLUSH, STRAIGHT_FLUSH) else plain
        table[sum(map(weight, ranks))] = key
    return plain, flush


_PLAIN_KEY, _FLUSH_KEY = _key_tables()
# For 6 and 7 cards: rank counts in 3-bit fields as above, suit counts in 4-bit fields above them.
_SUIT_SHIFT = 40
_RANK_FIELDS = (1 << 39) - 1
_CARD_WEIGHT = tuple(_RANK_WEIGHT[card] | 1 << _SUIT_SHIFT + 4 * (card & 3) for card in range(52))


def poker_key(cards: Sequence[Card]) -> int:
    """The key of exactly five distinct cards: 0..7461, greater is stronger, equal is a draw.

    >>> from handsolver.models.cards import parse_cards
    >>> quads, full_house = parse_cards("9c 9d 9h 9s 2c"), parse_cards("Ac Ad Ah Ks Kc")
    >>> poker_key(quads) > poker_key(full_house)
    True
    >>> poker_key(parse_cards("Ah Kh Qh Jh Th"))
    7461
    """
    a, b, c, d, e = cards
    weight = _RANK_WEIGHT
    total = weight[a] + weight[b] + weight[c] + weight[d] + weight[e]
    if (a ^ b | a ^ c | a ^ d | a ^ e) & 3:
        return _PLAIN_KEY[total]
    return _FLUSH_KEY[total]


def category_of(key: int) -> str:
    """The category name of a key, e.g. ``'two pair'``."""
    return CATEGORY_NAMES[_CATEGORY_OF_KEY[key]]


def category_index(key: int) -> int:
    """The category of a key, 0 (high card) to 8 (straight flush)."""
    return _CATEGORY_OF_KEY[key]


def key_ranks(key: int) -> tuple[int, ...]:
    """The five ranks of a key in the order they are compared (wheel: 5-4-3-2-A).

    >>> from handsolver.models.cards import RANKS, parse_cards
    >>> "".join(RANKS[r] for r in key_ranks(poker_key(parse_cards("3c Ks 3h Kd 9s"))))
    'KK339'
    """
    return _SHAPES[key][1]


def _play_order(five: Sequence[Card], key: int) -> tuple[Card, ...]:
    """The five cards in the order their ranks count (higher suit first among equal ranks)."""
    pool = sorted(five, reverse=True)
    ordered = []
    for rank in key_ranks(key):
        card = next(card for card in pool if rank_of(card) == rank)
        pool.remove(card)
        ordered.append(card)
    return tuple(ordered)


class BestHand(NamedTuple):
    """The strongest five of a player's cards, in the order they count, with its key."""

    key: int
    five: tuple[Card, ...]

    @property
    def category(self) -> str:
        return category_of(self.key)


def best_key(cards: Sequence[Card]) -> int:
    """The key of the strongest five of 5, 6 or 7 distinct cards.

    >>> from handsolver.models.cards import parse_cards
    >>> category_of(best_key(parse_cards("9c 9d 9h 5s 5c 5d 2h")))
    'full house'
    """
    if len(cards) == 5:
        return poker_key(cards)
    _check_size(cards)
    total = sum(map(_CARD_WEIGHT.__getitem__, cards))
    suits = total >> _SUIT_SHIFT
    if (suits + 0x3333) & 0x8888:  # some 4-bit suit count is 5 or more
        # Seven cards holding a flush cannot also hold quads or a full house.
        suit = next(suit for suit in range(4) if (suits >> 4 * suit) & 15 >= 5)
        suited = [card for card in cards if card & 3 == suit]
        weight = _RANK_WEIGHT.__getitem__
        return max(_FLUSH_KEY[sum(map(weight, five))] for five in combinations(suited, 5))
    return _best_plain(total & _RANK_FIELDS)


@cache
def _best_plain(code: int) -> int:
    """The best key without a flush of the 6 or 7 ranks counted in ``code``."""
    ranks = [rank for rank in range(13) for _ in range((code >> 3 * rank) & 7)]
    weight = _WEIGHT_OF_RANK.__getitem__
    return max(_PLAIN_KEY[sum(map(weight, five))] for five in combinations(ranks, 5))


def best_five(cards: Sequence[Card]) -> BestHand:
    """The strongest five of 5, 6 or 7 distinct cards (hold'em: hole cards plus board).

    When several fives tie, the one with the greatest cards (as ints, in order) is chosen.

    >>> from handsolver.models.cards import card_name, parse_cards
    >>> best = best_five(parse_cards("Ah 5d 2c 3s 4h Kc 9d"))
    >>> best.category, [card_name(card) for card in best.five]
    ('straight', ['5d', '4h', '3s', '2c', 'Ah'])
    >>> best_five(parse_cards("Ah 5d"))
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: a poker hand needs 5 to 7 cards, got 2
    """
    _check_size(cards)
    key, five = max((poker_key(five), five) for five in combinations(cards, 5))
    return BestHand(key, _play_order(five, key))


def _check_size(cards: Sequence[Card]) -> None:
    if not 5 <= len(cards) <= 7:
        raise InputError(f"a poker hand needs 5 to 7 cards, got {len(cards)}")


def winners(hands: Sequence[Sequence[Card]]) -> list[int]:
    """The 0-based indices of the hands that win (more than one on an exact draw).

    Each hand is 5 to 7 cards and plays its best five.

    >>> from handsolver.models.cards import parse_cards
    >>> winners([parse_cards("Ah Kd 5s 5c 2h"), parse_cards("As Kc 5h 5d 2s")])
    [0, 1]
    """
    if len(hands) < 2:
        raise InputError(f"a showdown needs at least 2 hands, got {len(hands)}")
    keys = [best_key(hand) for hand in hands]
    top = max(keys)
    return [index for index, key in enumerate(keys) if key == top]


def hands_with_key(key: int) -> int:
    """How many of the 2,598,960 5-card hands have this key."""
    category, ranks = _SHAPES[key]
    if category in (FLUSH, STRAIGHT_FLUSH):
        return 4
    if category in (HIGH_CARD, STRAIGHT):
        return 4**5 - 4
    count = 1
    for rank in set(ranks):
        count *= comb(4, ranks.count(rank))
    return count


@cache
def _hands_below() -> tuple[int, ...]:
    below = [0]
    for key in range(NUM_KEYS - 1):
        below.append(below[-1] + hands_with_key(key))
    return tuple(below)


def strength(cards: Sequence[Card]) -> Strength:
    """The strength of the best five of 5 to 7 cards.

    >>> from handsolver.models.cards import parse_cards
    >>> royal = strength(parse_cards("As Ks Qs Js Ts"))
    >>> royal.hand_class, royal.beats, royal.ties
    (1, 2598956, 3)
    >>> strength(parse_cards("7c 5d 4h 3s 2c"))
    Strength(hand_class=7462, beats=0, ties=1019, total=2598960)
    """
    key = best_key(cards)
    return Strength(
        hand_class=NUM_KEYS - key,
        beats=_hands_below()[key],
        ties=hands_with_key(key) - 1,
        total=NUM_HANDS,
    )


# --- Project Euler 54 --------------------------------------------------------------------------


class Euler54Deal(NamedTuple):
    """One good deal line: both players' five cards, their keys and the winner (1, 2 or None)."""

    line: int
    player1: tuple[Card, ...]
    player2: tuple[Card, ...]
    key1: int
    key2: int

    @property
    def winner(self) -> int | None:
        if self.key1 == self.key2:
            return None
        return 1 if self.key1 > self.key2 else 2


class BadLine(NamedTuple):
    """A deal line that could not be played, with its 1-based number and the reason."""

    line: int
    error: str


class Euler54Result(NamedTuple):
    deals: tuple[Euler54Deal, ...]
    bad_lines: tuple[BadLine, ...]

    @property
    def player1_wins(self) -> int:
        return sum(deal.key1 > deal.key2 for deal in self.deals)

    @property
    def player2_wins(self) -> int:
        return sum(deal.key2 > deal.key1 for deal in self.deals)

    @property
    def draws(self) -> int:
        return sum(deal.key1 == deal.key2 for deal in self.deals)


def parse_euler54_line(line: str) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Ten distinct cards: Player 1's five, then Player 2's.

    >>> parse_euler54_line("8C TS KC 9H 4S 7D 2S 5D 3S")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.CardParseError: a deal needs 10 cards, got 9
    >>> parse_euler54_line("8C TS KC 9H 4S 7D 2S 5D 3S 8c")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.CardParseError: card '8c' is given twice
    """
    cards = parse_cards(line)
    if len(cards) != 10:
        raise CardParseError(f"a deal needs 10 cards, got {len(cards)}")
    if len(set(cards)) != 10:
        parse_deal(line)  # raises, naming the repeated card as it is written
        raise CardParseError("a card is given twice")
    return cards[:5], cards[5:]


def euler54(lines: Iterable[str], *, strict: bool = False) -> Euler54Result:
    """Play every deal line (blank lines are skipped).

    A bad line (bad card, repeated card, not ten cards) is collected with its line number, or
    with ``strict`` raises :class:`CardParseError` naming the line.
    """
    deals = []
    bad = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            player1, player2 = parse_euler54_line(line)
        except CardParseError as error:
            if strict:
                raise CardParseError(f"line {number}: {error}") from None
            bad.append(BadLine(number, str(error)))
            continue
        deals.append(Euler54Deal(number, player1, player2, poker_key(player1), poker_key(player2)))
    return Euler54Result(tuple(deals), tuple(bad))


def euler54_wins(lines: Iterable[str], *, strict: bool = False) -> int:
    """How many deals Player 1 wins (Project Euler 54).

    >>> euler54_wins(["5H 5C 6S 7S KD 2C 3S 8S 8D TD", "5D 8C 9S JS AC 2C 5C 7D 8S QH"])
    1
    """
    return euler54(lines, strict=strict).player1_wins
