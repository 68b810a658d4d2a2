"""Pai Gow poker: the joker, the high and low hand keys, the foul rule, scoring and the house way.

The deck is the 52 cards plus one joker, card 52 (written ``JK`` or ``*``, any case).  Player
and dealer get seven cards each and set them into a five-card **high** hand and a two-card
**low** hand.  Rules, each choice as most casinos play it:

- The high hand ranks as in poker (:mod:`handsolver.models.poker` keys), except that by default
  A-2-3-4-5 is the second-highest straight (below A-K-Q-J-T, above K-Q-J-T-9) and likewise the
  second-highest straight flush (``Rules.wheel_second=False``: the lowest, as in poker), and
  five aces (four aces and the joker) rank above the royal flush (``five_aces_top=False``: just
  below it).
- The joker in the high hand completes a straight, flush or straight flush where it can, taking
  the value that makes the strongest hand; otherwise it is an ace.  In a flush it becomes the
  highest rank of the suit not already held.  In the low hand it is an ace.
- A low hand is a pair or two high cards, compared by the pair, then from the top.
- The high hand must outrank the low hand: a pair in the low hand needs a high hand of two pair or
  better, or a pair at least as high; two high cards need a high hand with a pair, or high cards
  at least as high from the top.  Equal is allowed (quads split into two equal pairs are legal).
  A setting that breaks this is a **foul**; it is never offered and loses when given.
- The player wins a hand only by beating the dealer's: a tie (a "copy") goes to the dealer.
  Winning both hands pays +1 less the commission (5% by default), losing both -1, otherwise the
  round is a push (0).

>>> hand = parse_hand("Ks Qs Js Ts JK 2c 2d")
>>> way = house_way(hand.cards)
>>> hand.format(way.high), hand.format(way.low), way.pattern
('Ks Qs Js Ts JK', '2c 2d', 'one pair')
>>> category_name(high_key(way.high))
'straight flush'
>>> parse_hand("As Ks Qs Js JK * 2c")
Traceback (most recent call last):
...
handsolver.models.cards.CardParseError: the joker is given twice ('*')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import NamedTuple

from handsolver.models.cards import (
    Card,
    CardParseError,
    InputError,
    Notation,
    cards_count,
    notation_of,
    parse_cards,
    rank_of,
)
from handsolver.models.paigow_houseway import TRUMP_PLAZA, HouseWay, Plan, plan_of
from handsolver.models.poker import (
    CATEGORY_NAMES,
    FLUSH,
    HIGH_CARD,
    NUM_KEYS,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    category_index,
    key_ranks,
    poker_key,
)
from handsolver.models.split import Setting, SplitGame

JOKER: Card = 52
ACE = 12
HAND_SIZE = 7
FIVE_ACES = NUM_KEYS
"""The five-aces hand as an extra poker key, 7462."""
FIVE_ACES_CATEGORY = 9
NUM_HIGH_KEYS = NUM_KEYS + 1
NUM_LOW_KEYS = 13 * 13 + 13
STRAIGHT_CATEGORIES = frozenset({STRAIGHT, FLUSH, STRAIGHT_FLUSH})


@dataclass(frozen=True)
class Rules:
    """The rule switches, with the common defaults, and the commission on a win."""

    wheel_second: bool = True
    five_aces_top: bool = True
    commission: Fraction = field(default=Fraction(1, 20))

    def __post_init__(self) -> None:
        if not 0 <= self.commission < 1:
            raise InputError(f"commission {self.commission} is not in [0, 1)")


DEFAULT_RULES = Rules()


# --- parsing ----------------------------------------------------------------------------------

_SEPARATORS = re.compile(r"[\s,;\[\]()'\"|]+")
_TOKEN = re.compile(r"\*|[Jj][Kk](?![a-z])|10\w|[^\W_]\w", re.ASCII)


@dataclass(frozen=True)
class PaiGowHand:
    """Seven cards as typed, with the notation to print them back (the joker as typed)."""

    cards: tuple[Card, ...]
    notation: Notation
    joker: str = "JK"

    def format(self, cards: Sequence[Card]) -> str:
        return " ".join(self.card_strings(cards))

    def card_strings(self, cards: Sequence[Card]) -> list[str]:
        return [self.joker if card == JOKER else self.notation.format(card) for card in cards]


def parse_cards_with_joker(text: str) -> tuple[tuple[Card, ...], tuple[str, ...]]:
    """The cards in ``text`` (the joker as 52) and the token each was written as.

    >>> parse_cards_with_joker("Ah *")
    ((50, 52), ('Ah', '*'))
    >>> parse_cards_with_joker("AhJkKd")
    ((50, 52, 45), ('Ah', 'Jk', 'Kd'))
    """
    cards: list[Card] = []
    tokens: list[str] = []
    for chunk in _SEPARATORS.split(text):
        pos = 0
        while pos < len(chunk):
            match = _TOKEN.match(chunk, pos)
            if match is None:
                raise CardParseError(f"bad card {chunk[pos:]!r}")
            token = match.group(0)
            if token == "*" or token.upper() == "JK":
                cards.append(JOKER)
            else:
                (card,) = parse_cards(token)
                cards.append(card)
            tokens.append(token)
            pos = match.end()
    return tuple(cards), tuple(tokens)


def parse_hand(text: str, size: int = HAND_SIZE, *, what: str = "hand") -> PaiGowHand:
    """Parse ``size`` distinct cards, the joker at most once.

    >>> parse_hand("As Ks Qs Js 2c 2d")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.CardParseError: hand 'As Ks Qs Js 2c 2d' has 6 cards; Pai Gow needs 7
    >>> parse_hand("As Ks Qs Js 2c 2d As")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.CardParseError: card 'As' is given twice

    :raises CardParseError: naming the bad, repeated or extra token.
    """
    cards, tokens = parse_cards_with_joker(text)
    seen: set[Card] = set()
    for card, token in zip(cards, tokens, strict=True):
        if card in seen:
            if card == JOKER:
                raise CardParseError(f"the joker is given twice ({token!r})")
            raise CardParseError(f"card {token!r} is given twice")
        seen.add(card)
    if len(cards) != size:
        raise CardParseError(
            f"{what} {text.strip()!r} has {cards_count(len(cards))}; Pai Gow needs {size}"
        )
    real_text = " ".join(t for c, t in zip(cards, tokens, strict=True) if c != JOKER)
    joker = next((t for c, t in zip(cards, tokens, strict=True) if c == JOKER), "JK")
    notation = notation_of(real_text) if real_text else Notation()
    return PaiGowHand(cards, notation, joker if joker == "*" else joker.upper())


def parse_setting(text: str, hand: Sequence[Card] | None = None) -> tuple[Setting, PaiGowHand]:
    """A setting written ``HIGH|LOW`` (five cards, then two), as a (high, low) pair.

    With ``hand``, its cards must not overlap the hand's.

    :raises CardParseError: for a bad card, wrong sizes, an overlap or a foul.
    """
    parts = text.split("|")
    if len(parts) != 2:
        raise CardParseError(f"setting {text.strip()!r} must be HIGH|LOW (5 cards | 2 cards)")
    parsed = parse_hand(" ".join(parts), what="setting")
    high, low = parse_cards_with_joker(parts[0])[0], parse_cards_with_joker(parts[1])[0]
    if len(high) != 5 or len(low) != 2:
        raise CardParseError(f"setting {text.strip()!r} must be HIGH|LOW (5 cards | 2 cards)")
    if hand is not None:
        shared = set(parsed.cards) & set(hand)
        if shared:
            card = min(shared)
            raise CardParseError(f"card {parsed.format([card])!r} is in both hands")
    setting: Setting = (high, low)
    if is_foul(setting):
        raise CardParseError(
            f"setting {text.strip()!r} is a foul: the low hand outranks the high hand"
        )
    return setting, parsed


# --- keys -------------------------------------------------------------------------------------


class KeyOrder(NamedTuple):
    """Poker keys (plus :data:`FIVE_ACES`) in Pai Gow order: ``high_key = pai_gow_of[poker]``."""

    pai_gow_of: tuple[int, ...]
    poker_of: tuple[int, ...]


@cache
def key_order(wheel_second: bool = True, five_aces_top: bool = True) -> KeyOrder:
    """The high-hand order under the rule switches.

    >>> order = key_order()
    >>> wheel, six_high = poker_key([12 * 4, 0, 4, 8, 12]), poker_key([0, 4, 8, 12, 16])
    >>> order.pai_gow_of[wheel] > order.pai_gow_of[six_high]
    True
    """
    wheel = min(k for k in range(NUM_KEYS) if category_index(k) == STRAIGHT)
    steel = min(k for k in range(NUM_KEYS) if category_index(k) == STRAIGHT_FLUSH)
    royal = NUM_KEYS - 1
    sequence: list[int] = []
    for key in range(NUM_KEYS):
        if wheel_second and key in (wheel, steel):
            continue
        if key == royal and not five_aces_top:
            sequence.append(FIVE_ACES)
        sequence.append(key)
        # The K-high straight (flush) is eight keys above the wheel; A-2-3-4-5 follows it.
        if wheel_second and key in (wheel + 8, steel + 8):
            sequence.append(key - 8)
    if five_aces_top:
        sequence.append(FIVE_ACES)
    pai_gow_of = [0] * NUM_HIGH_KEYS
    for place, key in enumerate(sequence):
        pai_gow_of[key] = place
    return KeyOrder(tuple(pai_gow_of), tuple(sequence))


def _representative(ranks: Sequence[int], suited: bool) -> list[Card]:
    """Cards of these sorted ranks: all one suit if ``suited``, else no three of one suit."""
    return [rank * 4 + (0 if suited else index % 4) for index, rank in enumerate(ranks)]


@cache
def joker_key(ranks: tuple[int, ...], suited: bool, wheel_second: bool, five_aces_top: bool) -> int:
    """The poker key (:data:`FIVE_ACES` included) of four cards of these sorted ranks plus the
    joker, ``suited`` when the four share a suit: the best card the joker may stand for, in the
    order of the rule switches."""
    if ranks == (ACE,) * 4:
        return FIVE_ACES
    order = key_order(wheel_second, five_aces_top).pai_gow_of
    held = _representative(ranks, suited)
    best = -1
    for card in range(52):
        if card in held:
            continue
        key = poker_key([*held, card])
        if rank_of(card) == ACE or category_index(key) in STRAIGHT_CATEGORIES:
            if best < 0 or order[key] > order[best]:
                best = key
    return best


def high_poker_key(cards: Sequence[Card], rules: Rules = DEFAULT_RULES) -> int:
    """The poker key of a five-card high hand, the joker resolved (:data:`FIVE_ACES` for five
    aces)."""
    if JOKER not in cards:
        return poker_key(cards)
    real = sorted(card for card in cards if card != JOKER)
    suited = len({card & 3 for card in real}) == 1
    ranks = tuple(rank_of(card) for card in real)
    return joker_key(ranks, suited, rules.wheel_second, rules.five_aces_top)


def high_key(cards: Sequence[Card], rules: Rules = DEFAULT_RULES) -> int:
    """The key of a five-card high hand, 0..7462, greater is stronger.

    >>> cards = parse_hand("Ah Ad Ac As JK 2c 3d").cards
    >>> high_key(cards[:5]) == NUM_HIGH_KEYS - 1  # five aces, the best hand by default
    True
    """
    order = key_order(rules.wheel_second, rules.five_aces_top)
    return order.pai_gow_of[high_poker_key(cards, rules)]


def category_name(key: int, rules: Rules = DEFAULT_RULES) -> str:
    """The category of a high key, e.g. ``'flush'`` or ``'five aces'``."""
    poker = key_order(rules.wheel_second, rules.five_aces_top).poker_of[key]
    return "five aces" if poker == FIVE_ACES else CATEGORY_NAMES[category_index(poker)]


def low_rank(card: Card) -> int:
    """A card's rank in the low hand: the joker is an ace."""
    return ACE if card == JOKER else rank_of(card)


def low_key_of_ranks(first: int, second: int) -> int:
    """The key of a low hand of these two ranks: pairs above all high cards."""
    high, low = max(first, second), min(first, second)
    return 169 + high if high == low else high * 13 + low


def low_key(cards: Sequence[Card]) -> int:
    """The key of a two-card low hand, 0..181, greater is stronger.

    >>> low_key(parse_cards("2c 2d")) > low_key([JOKER, 45]) == low_key(parse_cards("As Kd"))
    True
    """
    a, b = cards
    return low_key_of_ranks(low_rank(a), low_rank(b))


def high_order(cards: Sequence[Card], rules: Rules = DEFAULT_RULES) -> tuple[int, ...]:
    """The high hand's place for the foul rule: (0, ranks) high card, (1, pair, kickers) a pair,
    (2,) two pair or better."""
    poker = high_poker_key(cards, rules)
    if poker == FIVE_ACES or category_index(poker) > PAIR:
        return (2,)
    ranks = key_ranks(poker)
    if category_index(poker) == HIGH_CARD:
        return (0, *ranks)
    return (1, *ranks[1:])


def low_order(cards: Sequence[Card]) -> tuple[int, ...]:
    """The low hand's place for the foul rule, comparable with :func:`high_order`."""
    first, second = sorted((low_rank(card) for card in cards), reverse=True)
    return (1, first) if first == second else (0, first, second)


def is_foul(setting: Setting, rules: Rules = DEFAULT_RULES) -> bool:
    """Whether the low hand outranks the high hand.

    >>> is_foul((parse_cards("Kc Qd 9h 5s 3c"), parse_cards("2c 2d")))
    True
    >>> is_foul((parse_cards("Ac Kd 9h 5s 3c"), parse_cards("Ad Kc")))
    False
    """
    high, low = setting
    return low_order(low) > high_order(high, rules)


# --- the game ---------------------------------------------------------------------------------


def points(outcomes: tuple[int, ...], commission: Fraction = Fraction(1, 20)) -> Fraction:
    """The player's result for row outcomes (+1 won, 0 copy, -1 lost): a copy is the dealer's.

    >>> points((1, 1)), points((1, 0)), points((0, 0))
    (Fraction(19, 20), Fraction(0, 1), Fraction(-1, 1))
    """
    won = sum(outcome > 0 for outcome in outcomes)
    if won == len(outcomes):
        return 1 - commission
    return Fraction(-1) if won == 0 else Fraction(0)


@cache
def paigow_game(rules: Rules = DEFAULT_RULES) -> SplitGame[Card]:
    """Pai Gow poker on the split-game engine: high (5) over low (2), the foul rule, scoring."""

    def row_key(row: int, part: tuple[Card, ...]) -> int:
        return high_key(part, rules) if row == 0 else low_key(part)

    def order_key(row: int, part: tuple[Card, ...]) -> tuple[int, ...]:
        return high_order(part, rules) if row == 0 else low_order(part)

    def score(outcomes: tuple[int, ...]) -> Fraction:
        return points(outcomes, rules.commission)

    return SplitGame(
        name="pai gow",
        part_names=("high", "low"),
        part_sizes=(5, 2),
        row_key=row_key,
        points=score,
        order_key=order_key,
    )


def legal_settings(hand: Sequence[Card], rules: Rules = DEFAULT_RULES) -> tuple[Setting, ...]:
    """Every setting of seven cards that is not a foul (at most 21)."""
    return paigow_game(rules).legal_settings(hand)


# --- the house way (scalar reference) -------------------------------------------------------


class HouseWaySetting(NamedTuple):
    """The dealer's setting, its keys, and the house-way rule that chose it."""

    high: tuple[Card, ...]
    low: tuple[Card, ...]
    high_key: int
    low_key: int
    pattern: str
    straight_flush: bool


def pattern_counts(hand: Sequence[Card]) -> tuple[int, ...]:
    """Rank counts of a hand, the joker counted as an ace."""
    counts = [0] * 13
    for card in hand:
        counts[low_rank(card)] += 1
    return tuple(counts)


def house_way(
    hand: Sequence[Card], way: HouseWay = TRUMP_PLAZA, rules: Rules = DEFAULT_RULES
) -> HouseWaySetting:
    """The dealer's setting of seven cards under ``way`` (see
    :mod:`handsolver.models.paigow_houseway`).

    The plan names the low hand's ranks; among the settings with that low hand the strongest
    high hand is played.  When the plan allows it and a straight, flush or straight flush can be
    made, the one that leaves the highest low hand (then the strongest high hand) is played
    (with :attr:`Plan.unless_lower`, only when that low hand is at least the planned one).
    Among equal keys, the last in :meth:`SplitGame.settings` order of the sorted hand (the low
    hand whose cards come first in the sorted hand, as the batch engine in
    ``handsolver.solver.paigow`` chooses, so that one hand and a file of hands agree); the parts
    keep the hand's order.
    """
    plan: Plan = plan_of(way, pattern_counts(hand))
    scored = []
    for high, low in reversed(legal_settings(tuple(sorted(hand)), rules)):
        h, lo = high_key(high, rules), low_key(low)
        scored.append((h, lo, high, low))
    straights = [item for item in scored if category_name(item[0], rules) in _STRAIGHT_NAMES]
    target = low_key_of_ranks(*plan.low)
    use_straight = plan.straight_flush and bool(straights)
    if use_straight:
        best = max(straights, key=lambda item: (_low_rank_order(item[1], plan.by_cards), item[0]))
        use_straight = not plan.unless_lower or best[1] >= target
    if not use_straight:
        best = max((item for item in scored if item[1] == target), key=lambda item: item[0])
    h, lo, high, low = best
    in_order = (tuple(c for c in hand if c in high), tuple(c for c in hand if c in low))
    return HouseWaySetting(*in_order, h, lo, plan.pattern, use_straight)


def _low_rank_order(key: int, by_cards: bool) -> int:
    """A low key in the low-hand order, or (``by_cards``) by its two ranks, a pair as its rank."""
    return (key - 169) * 14 if by_cards and key >= 169 else key


_STRAIGHT_NAMES = frozenset(CATEGORY_NAMES[c] for c in STRAIGHT_CATEGORIES)
